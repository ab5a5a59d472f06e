// A creator's media origin for tests: a static HTTP server on 127.0.0.1 over folders (HLS
// fixtures from test/support/hls-fixtures.ts), with CORS open (`Access-Control-Allow-Origin: *`,
// as a CDN serving players in browsers is) and single byte ranges, plus hooks a test sets per
// path: a redirect, a delay, a rewritten or replaced body (the malformed cases). It records every
// path asked, so a test can tell that something was never fetched.
import { createReadStream, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, resolve, sep } from 'node:path';

const TYPES: Record<string, string> = {
  '.m3u8': 'application/vnd.apple.mpegurl',
  '.ts': 'video/mp2t',
  '.m4s': 'video/iso.segment',
  '.mp4': 'video/mp4',
  '.aac': 'audio/aac',
};

interface Hook {
  redirect?: { location: string; status: number };
  delayMs?: number;
  rewrite?: (body: string) => string;
  body?: { text: string | Buffer; contentType: string };
  status?: number;
}

export interface MediaOrigin {
  /** http://127.0.0.1:PORT (no trailing slash): also the origin to allow. */
  readonly url: string;
  readonly port: number;
  /** Every path asked, in order (query strings included). */
  readonly requests: string[];
  /** Serves `dir` under `prefix` (`/a/` serves dir/x at /a/x). The folder given at start is mounted at `/`. */
  mount(prefix: string, dir: string): void;
  /** Answers `path` with a redirect to `location` (absolute, or relative to the origin). */
  redirect(path: string, location: string, status?: number): void;
  /** Waits `ms` before answering `path` (a slow origin). */
  delay(path: string, ms: number): void;
  /** Answers `path` with its file's text passed through `rewrite` (a malformed playlist). */
  rewrite(path: string, rewrite: (body: string) => string): void;
  /** Answers `path` with this body (it need not exist on disk). */
  serve(path: string, text: string | Buffer, contentType?: string): void;
  /** Answers `path` with this status and no body. */
  fail(path: string, status: number): void;
  /** Drops every hook. */
  reset(): void;
  close(): Promise<void>;
}

export async function startMediaOrigin(dir?: string): Promise<MediaOrigin> {
  const mounts = new Map<string, string>();
  if (dir) mounts.set('/', dir);
  const hooks = new Map<string, Hook>();
  const requests: string[] = [];
  const hook = (path: string, patch: Hook) => hooks.set(path, { ...hooks.get(path), ...patch });

  const server = http.createServer((request, response) => {
    requests.push(request.url ?? '');
    void answer(request, response).catch(() => {
      if (!response.headersSent) response.writeHead(500);
      response.end();
    });
  });

  async function answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
    response.setHeader('access-control-allow-origin', '*');
    response.setHeader('access-control-allow-headers', 'range');
    response.setHeader('access-control-expose-headers', 'content-length, content-range');
    if (request.method === 'OPTIONS') return void response.writeHead(204).end();
    const path = decodeURIComponent(new URL(request.url ?? '/', 'http://origin').pathname);
    const h = hooks.get(path) ?? {};
    if (h.delayMs) await new Promise((done) => setTimeout(done, h.delayMs));
    if (response.destroyed) return;
    if (h.redirect) return void response.writeHead(h.redirect.status, { location: h.redirect.location }).end();
    if (h.status) return void response.writeHead(h.status).end();
    if (h.body) return void response.writeHead(200, { 'content-type': h.body.contentType, 'content-length': Buffer.byteLength(h.body.text) }).end(h.body.text);
    const file = fileOf(path);
    if (!file) return void response.writeHead(404).end();
    const type = TYPES[extname(file)] ?? 'application/octet-stream';
    if (h.rewrite) {
      const text = h.rewrite(await readFile(file, 'utf8'));
      return void response.writeHead(200, { 'content-type': type, 'content-length': Buffer.byteLength(text) }).end(text);
    }
    sendFile(request, response, file, type);
  }

  function fileOf(path: string): string | null {
    const prefix = [...mounts.keys()].filter((p) => path.startsWith(p)).sort((a, b) => b.length - a.length)[0];
    if (prefix === undefined) return null;
    const base = resolve(mounts.get(prefix)!);
    const file = resolve(join(base, path.slice(prefix.length)));
    if (file !== base && !file.startsWith(base + sep)) return null;
    try {
      return statSync(file).isFile() ? file : null;
    } catch {
      return null;
    }
  }

  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    port,
    requests,
    mount: (prefix, folder) => void mounts.set(prefix.endsWith('/') ? prefix : `${prefix}/`, folder),
    redirect: (path, location, status = 302) => void hook(path, { redirect: { location, status } }),
    delay: (path, ms) => void hook(path, { delayMs: ms }),
    rewrite: (path, rewrite) => void hook(path, { rewrite }),
    serve: (path, text, contentType = 'application/vnd.apple.mpegurl') => void hook(path, { body: { text, contentType } }),
    fail: (path, status) => void hook(path, { status }),
    reset: () => hooks.clear(),
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

/** The file, or one byte range of it (`Range: bytes=a-b`, as players ask for EXT-X-BYTERANGE). */
function sendFile(request: IncomingMessage, response: ServerResponse, file: string, type: string): void {
  const size = statSync(file).size;
  const range = /^bytes=(\d*)-(\d*)$/.exec(request.headers.range ?? '');
  if (!range || (range[1] === '' && range[2] === '')) {
    response.writeHead(200, { 'content-type': type, 'content-length': size, 'accept-ranges': 'bytes' });
    if (request.method === 'HEAD') return void response.end();
    createReadStream(file).pipe(response);
    return;
  }
  const start = range[1] === '' ? Math.max(0, size - Number(range[2])) : Number(range[1]);
  const end = range[1] === '' || range[2] === '' ? size - 1 : Math.min(Number(range[2]), size - 1);
  if (start > end || start >= size) return void response.writeHead(416, { 'content-range': `bytes */${size}` }).end();
  response.writeHead(206, { 'content-type': type, 'content-length': end - start + 1, 'content-range': `bytes ${start}-${end}/${size}` });
  if (request.method === 'HEAD') return void response.end();
  createReadStream(file, { start, end }).pipe(response);
}
