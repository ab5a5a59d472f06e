// Fetching creator-given URLs (src/media/safe-fetch.ts) against real loopback servers: refused by
// default, allowed per origin by the operator, and every way around that refused before any
// connection (redirects, names that resolve to private addresses, literal forms).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { safeFetchText, type Resolver } from '../src/media/safe-fetch.ts';
import { startMediaOrigin, type MediaOrigin } from './support/media-origin.ts';

const PLAYLIST = '#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\na.ts\n#EXT-X-ENDLIST\n';

let origin: MediaOrigin;
let other: MediaOrigin;

beforeAll(async () => {
  origin = await startMediaOrigin();
  other = await startMediaOrigin();
  origin.serve('/video.m3u8', PLAYLIST);
  other.serve('/secret.m3u8', PLAYLIST);
});
afterAll(async () => {
  await origin.close();
  await other.close();
});

const allowed = () => ({ allowOrigins: [origin.url] });

describe('a creator-given URL', () => {
  it('on loopback is refused by default, before any request', async () => {
    const before = origin.requests.length;
    const result = await safeFetchText(`${origin.url}/video.m3u8`);
    expect(result).toMatchObject({ ok: false, code: 'address_not_allowed' });
    if (!result.ok) expect(result.message).toMatch(/loopback.*MEDIA_FETCH_ALLOW_ORIGINS/);
    expect(origin.requests.length).toBe(before);
  });

  it('is read from an origin the operator allowed', async () => {
    const result = await safeFetchText(`${origin.url}/video.m3u8`, allowed());
    expect(result).toEqual({ ok: true, url: `${origin.url}/video.m3u8`, contentType: 'application/vnd.apple.mpegurl', body: PLAYLIST });
  });

  it('follows a redirect within allowed origins, and reports the final URL', async () => {
    origin.redirect('/moved.m3u8', '/video.m3u8', 301);
    const result = await safeFetchText(`${origin.url}/moved.m3u8`, allowed());
    expect(result).toMatchObject({ ok: true, url: `${origin.url}/video.m3u8`, body: PLAYLIST });
  });

  it('is refused when an allowed origin redirects to another loopback port', async () => {
    origin.redirect('/escape.m3u8', `${other.url}/secret.m3u8`);
    const result = await safeFetchText(`${origin.url}/escape.m3u8`, allowed());
    expect(result).toMatchObject({ ok: false, code: 'address_not_allowed', url: `${other.url}/secret.m3u8` });
    expect(other.requests).toEqual([]);
  });

  it('is refused when a redirect leaves http(s)', async () => {
    origin.redirect('/file.m3u8', 'file:///etc/passwd');
    expect(await safeFetchText(`${origin.url}/file.m3u8`, allowed())).toMatchObject({ ok: false, code: 'scheme_not_allowed' });
  });

  it('is refused after more than 3 redirects', async () => {
    for (const [from, to] of [
      ['/r1', '/r2'],
      ['/r2', '/r3'],
      ['/r3', '/r4'],
      ['/r4', '/video.m3u8'],
    ])
      origin.redirect(from!, to!);
    expect(await safeFetchText(`${origin.url}/r2`, allowed())).toMatchObject({ ok: true });
    expect(await safeFetchText(`${origin.url}/r1`, allowed())).toMatchObject({ ok: false, code: 'too_many_redirects' });
  });

  it('is refused when its name resolves to loopback (localhost)', async () => {
    const result = await safeFetchText(`http://localhost:${origin.port}/video.m3u8`, allowed());
    expect(result).toMatchObject({ ok: false, code: 'address_not_allowed' });
  });

  it('is refused when its name resolves to a private or metadata address, without connecting', async () => {
    const asked: string[] = [];
    const resolverTo =
      (address: string): Resolver =>
      async (name) => {
        asked.push(name);
        return [{ address, family: address.includes(':') ? 6 : 4 }];
      };
    for (const address of ['10.0.0.1', '169.254.169.254', '192.168.0.10', '100.64.1.1', 'fd00::1', '::ffff:10.0.0.1', '64:ff9b::a9fe:a9fe']) {
      const result = await safeFetchText('http://media.example.test/video.m3u8', { resolve: resolverTo(address) });
      expect(result, address).toMatchObject({ ok: false, code: 'address_not_allowed' });
    }
    // A name with one public and one private address is refused too.
    const mixed: Resolver = async () => [
      { address: '8.8.8.8', family: 4 },
      { address: '10.1.2.3', family: 4 },
    ];
    expect(await safeFetchText('http://media.example.test/video.m3u8', { resolve: mixed })).toMatchObject({ ok: false, code: 'address_not_allowed' });
    expect(asked).toHaveLength(7);
  });

  it('is refused as a literal loopback in any spelling', async () => {
    for (const host of ['[::1]', '0x7f000001', '2130706433', '127.1', '[::ffff:127.0.0.1]', '0.0.0.0']) {
      expect(await safeFetchText(`http://${host}:${origin.port}/video.m3u8`), host).toMatchObject({ ok: false, code: 'address_not_allowed' });
    }
  });

  it('is refused for schemes other than http(s)', async () => {
    for (const url of ['ftp://media.example/video.m3u8', 'file:///etc/passwd', 'gopher://x/', 'data:text/plain,hi']) {
      expect((await safeFetchText(url)) as { code: string }, url).toMatchObject({ ok: false, code: 'scheme_not_allowed' });
    }
    expect(await safeFetchText('not a url')).toMatchObject({ ok: false, code: 'bad_url' });
  });

  it('is cut at the time bound when the server is slow', async () => {
    origin.delay('/slow.m3u8', 5_000);
    origin.serve('/slow.m3u8', PLAYLIST);
    const result = await safeFetchText(`${origin.url}/slow.m3u8`, { ...allowed(), timeoutMs: 300 });
    expect(result).toMatchObject({ ok: false, code: 'timeout' });
  });

  it('is cut at the size bound, declared or streamed', async () => {
    origin.serve('/big.m3u8', 'x'.repeat(5000));
    expect(await safeFetchText(`${origin.url}/big.m3u8`, { ...allowed(), maxBytes: 4096 })).toMatchObject({ ok: false, code: 'too_large' });
    expect(await safeFetchText(`${origin.url}/big.m3u8`, { ...allowed(), maxBytes: 5000 })).toMatchObject({ ok: true });
  });

  it('says what the server answered when it is not a success', async () => {
    origin.fail('/gone.m3u8', 404);
    expect(await safeFetchText(`${origin.url}/gone.m3u8`, allowed())).toMatchObject({ ok: false, code: 'http_status', message: 'The server answered HTTP 404.' });
  });
});
