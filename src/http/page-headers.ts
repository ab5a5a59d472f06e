// Headers of the pages a browser shows (the Studio console at /studio, the API docs at /docs):
// a Content-Security-Policy that lets the page load only its own scripts, no framing by any
// other page (clickjacking an owner's console), no MIME sniffing, and no Referer to other sites
// (a console URL names the owner's channels).
import type { FastifyInstance } from 'fastify';

/**
 * The console (web/, built by Vite): its own module scripts, no inline script; inline styles
 * only because Mantine writes its theme variables in a <style> element and components set style
 * attributes; images it previews are data: URLs of the app's images, and video thumbnails come
 * from wherever the provider or the creator hosts them (i.ytimg.com, i.vimeocdn.com, their own
 * site), over HTTPS only (no Referer goes with them).
 * The Watch view frames exactly two players, YouTube's privacy-enhanced embed and Vimeo's (no
 * other site may be framed), and plays direct media and live stream URIs from wherever the
 * creator hosts them, over HTTPS (or this origin); plain-HTTP media elsewhere is not played.
 * A channel's own linear stream plays through hls.js (no worker: no blob: script): it reads the
 * playlists from this origin and fetches the segments from the creator's origins over HTTPS
 * (connect-src), and feeds them to the <video> through Media Source (a blob: media URL).
 * `mediaOrigins` are origins an operator named for creators' media (MEDIA_FETCH_ALLOW_ORIGINS,
 * e.g. a plain-HTTP origin on the local network), allowed for media and segment fetches too.
 */
export function consoleCsp(mediaOrigins: readonly string[] = []): string {
  const extra = mediaOrigins
    .filter((origin) => /^https?:\/\/[^\s;,'"]+$/.test(origin))
    .map((origin) => ` ${origin}`)
    .join('');
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: https:",
    "font-src 'self'",
    `connect-src 'self' https:${extra}`,
    'frame-src https://www.youtube-nocookie.com https://player.vimeo.com',
    `media-src 'self' https: blob:${extra}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * @fastify/swagger-ui's own policy (its inline scripts by hash) with no framing at all where it
 * allows the same origin; styles from this origin and inline (Swagger UI adds <style> elements
 * as it renders, which no hash can name; with a hash listed, browsers ignore 'unsafe-inline');
 * without `upgrade-insecure-requests`, which sends a plain-HTTP deployment's own assets to an
 * HTTPS port that is not there.
 */
export function docsCsp(swaggerUiCsp: string): string {
  return swaggerUiCsp
    .replace("frame-ancestors 'self'", "frame-ancestors 'none'")
    .replace(/style-src [^;]*/, "style-src 'self' 'unsafe-inline'")
    .replace(/\s*upgrade-insecure-requests;?/, '')
    .trim();
}

/** Frame, sniffing and referrer protection on every answer of `app` (an encapsulated plugin). */
export function protectPages(app: FastifyInstance, csp?: string): void {
  app.addHook('onRequest', (_request, reply, done) => {
    if (csp !== undefined) reply.header('content-security-policy', csp);
    reply.header('x-frame-options', 'DENY').header('x-content-type-options', 'nosniff').header('referrer-policy', 'no-referrer');
    done();
  });
}
