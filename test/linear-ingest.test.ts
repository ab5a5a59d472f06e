// HLS ingest end to end (issue 34 item 1): an ffmpeg-made two-rung ladder served from a loopback
// origin the operator allowed, ingested through the Studio (create, the queue, GET, refresh);
// every malformed case refused with its reason and nothing kept of it; the SSRF cases through the
// real ingest path (the Studio's, and the domain's with a resolver a test controls).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importCatalog } from '../src/catalog/import.ts';
import { saveReadyIngest } from '../src/data/video-hls.ts';
import { ingestVideo } from '../src/linear/ingest.ts';
import { readIngestedVideos } from '../src/linear/ingested.ts';
import { safeFetcher, type Resolver } from '../src/media/safe-fetch.ts';
import { OWNER } from './fixtures/catalog.ts';
import { BACKENDS, freshDatabase, type TestDatabase } from './support/db.ts';
import { makeHlsFixture, type HlsFixture } from './support/hls-fixtures.ts';
import { startMediaOrigin, type MediaOrigin } from './support/media-origin.ts';
import { studioCatalog, studioTest, type StudioTest } from './support/studio.ts';
import { expectCpuUnder } from './support/cpu-bounds.ts';

let fixture: HlsFixture;
let origin: MediaOrigin;
let other: MediaOrigin;
/** Each rung's media playlist with absolute-path segment URIs, to serve altered copies anywhere. */
let rungs: string[];

beforeAll(async () => {
  fixture = await makeHlsFixture();
  origin = await startMediaOrigin(fixture.dir);
  other = await startMediaOrigin(fixture.dir);
  rungs = fixture.variants.map((variant, i) => readFileSync(join(fixture.dir, variant), 'utf8').replace(/^seg/gm, `/v${i}/seg`));
}, 120_000);

afterAll(async () => {
  await origin?.close();
  await other?.close();
});

const master = (variants: string[], extra = '', attributes = '') =>
  `#EXTM3U\n#EXT-X-VERSION:3\n${extra}${variants.map((uri, i) => `#EXT-X-STREAM-INF:BANDWIDTH=${(i + 1) * 1_000_000},RESOLUTION=${i ? '1280x720' : '640x360'},CODECS="avc1.42c01e,mp4a.40.2"${attributes}\n${uri}`).join('\n')}\n`;

/** Serves an altered copy of the fixture at /cases/{name}/: master.m3u8 over v0.m3u8 and v1.m3u8. */
function serveCase(name: string, alter: (rung: string, i: number) => string, extra = '', attributes = ''): string {
  const base = `/cases/${name}`;
  origin.serve(`${base}/master.m3u8`, master(['v0.m3u8', 'v1.m3u8'], extra, attributes));
  rungs.forEach((rung, i) => origin.serve(`${base}/v${i}.m3u8`, alter(rung, i)));
  return `${origin.url}${base}/master.m3u8`;
}

describe.each(BACKENDS)('HLS ingest on %s', (backend) => {
  let s: StudioTest;

  beforeAll(async () => {
    s = await studioTest(backend, studioCatalog(), { MEDIA_FETCH_ALLOW_ORIGINS: [origin.url] });
  });
  afterAll(async () => s?.t.close());

  async function createVideo(url: string, durationSeconds = 6): Promise<number> {
    const created = await s.call('POST', '/videos', { body: { url, title: `HLS ${url.slice(-40)}`, durationSeconds } });
    expect(created.statusCode, created.body).toBe(201);
    return created.json().data.id as number;
  }

  async function hlsOf(videoId: number) {
    await s.t.app.hlsIngests.idle();
    const read = await s.call('GET', `/videos/${videoId}`);
    expect(read.statusCode, read.body).toBe(200);
    return read.json().data.hls;
  }

  it('reads a two-rung ladder made by ffmpeg, created through the Studio', async () => {
    const id = await createVideo(`${origin.url}/master.m3u8`);
    const hls = await hlsOf(id);
    expect(hls).toMatchObject({
      status: 'ready',
      sourceUrl: `${origin.url}/master.m3u8`,
      container: 'ts',
      segments: 3,
      durationSeconds: 6,
      targetDurationSeconds: 2,
      error: null,
      warning: null,
    });
    expect(hls.variants).toHaveLength(2);
    expect(hls.variants[0]).toMatchObject({ resolution: { width: 640, height: 360 }, frameRate: 25 });
    expect(hls.variants[1]).toMatchObject({ resolution: { width: 1280, height: 720 }, frameRate: 25 });
    expect(hls.variants[0].bandwidth).toBeLessThan(hls.variants[1].bandwidth);
    expect(hls.variants[0].codecs).toMatch(/^avc1\.[0-9a-f]{6},mp4a\.40\.2$/);
    // What the live playlists read: absolute segment URIs at the creator's origin.
    const stored = (await readIngestedVideos(s.t.database.db, [id])).get(id)!;
    expect(stored.durationsMs).toEqual([2000, 2000, 2000]);
    expect(stored.variants[1]!.segmentUris).toEqual([0, 1, 2].map((n) => `${origin.url}/v1/seg00${n}.ts`));
  });

  it('reads an fMP4 ladder with its init sections', async () => {
    const fmp4 = await makeHlsFixture({
      fmp4: true,
      durationSeconds: 4,
      rungs: [
        { width: 320, height: 180, kbps: 300 },
        { width: 640, height: 360, kbps: 800 },
      ],
    });
    origin.mount('/fmp4/', fmp4.dir);
    const id = await createVideo(`${origin.url}/fmp4/master.m3u8`, 4);
    expect(await hlsOf(id)).toMatchObject({ status: 'ready', container: 'fmp4', segments: 2, durationSeconds: 4 });
    const stored = (await readIngestedVideos(s.t.database.db, [id])).get(id)!;
    expect(stored.variants.map((v) => v.map?.uri)).toEqual([`${origin.url}/fmp4/v0/init_0.mp4`, `${origin.url}/fmp4/v1/init_1.mp4`]);
    expect(stored.variants[0]!.segmentUris[0]).toBe(`${origin.url}/fmp4/v0/seg000.m4s`);
  }, 60_000);

  it('warns when the stored duration differs from the segments by more than a second', async () => {
    const id = await createVideo(`${origin.url}/master.m3u8?d=60`, 60);
    const hls = await hlsOf(id);
    expect(hls.status).toBe('ready');
    expect(hls.warning).toMatch(/lasts 6\.000 s but the video's duration says 60 s/);
  });

  it('re-reads on refresh (audited), keeping the previous ingest on air meanwhile', async () => {
    const id = await createVideo(`${origin.url}/master.m3u8?refresh`);
    expect((await hlsOf(id)).status).toBe('ready');
    // Not kicked yet: the answer is the pending state, with the previous ladder.
    const ingests = s.t.app.hlsIngests;
    const refreshed = await s.call('POST', `/videos/${id}/hls/refresh`);
    expect(refreshed.statusCode, refreshed.body).toBe(202);
    expect(refreshed.json().data).toMatchObject({ status: 'pending', segments: 3 });
    expect((await readIngestedVideos(s.t.database.db, [id])).has(id)).toBe(true);
    await ingests.idle();
    expect((await hlsOf(id)).status).toBe('ready');
    const audit = await s.call('GET', '/audit?limit=5');
    expect(audit.json().data.items.map((e: { resource: string }) => e.resource)).toContain(`videos/${id}/hls`);
  });

  it("refuses a refresh of a video that is not HLS (422) or not the owner's (404)", async () => {
    const youtube = await s.call('POST', '/videos', { body: { url: 'https://youtu.be/dQw4w9WgXcQ', title: 'Not HLS', durationSeconds: 60 } });
    const id = youtube.json().data.id as number;
    expect((await s.call('GET', `/videos/${id}`)).json().data.hls).toBeNull();
    const refused = await s.call('POST', `/videos/${id}/hls/refresh`);
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({ success: false, error: { code: 'invalid_request', message: expect.stringMatching(/not an HLS video/) } });
    expect((await s.call('POST', '/videos/6001/hls/refresh')).statusCode).toBe(404);
  });

  it('drops the ingest when the video stops being HLS, and reads the new playlist when its URL changes', async () => {
    const id = await createVideo(`${origin.url}/master.m3u8?patch`);
    expect((await hlsOf(id)).status).toBe('ready');
    const etag = (await s.call('GET', `/videos/${id}`)).headers.etag as string;
    const moved = await s.call('PATCH', `/videos/${id}`, { body: { url: `${origin.url}/v0/index.m3u8` }, headers: { 'if-match': etag } });
    expect(moved.statusCode, moved.body).toBe(200);
    const single = await hlsOf(id);
    expect(single).toMatchObject({ status: 'ready', sourceUrl: `${origin.url}/v0/index.m3u8`, segments: 3 });
    expect(single.variants).toEqual([{ bandwidth: 0 }]);
    const etag2 = (await s.call('GET', `/videos/${id}`)).headers.etag as string;
    const youtube = await s.call('PATCH', `/videos/${id}`, { body: { url: 'https://youtu.be/dQw4w9WgXcQ' }, headers: { 'if-match': etag2 } });
    expect(youtube.statusCode, youtube.body).toBe(200);
    expect(await hlsOf(id)).toBeNull();
    expect((await readIngestedVideos(s.t.database.db, [id])).size).toBe(0);
  });

  const cases: Array<[string, () => string, RegExp]> = [
    ['encrypted', () => serveCase('encrypted', (r) => r.replace('#EXT-X-PLAYLIST-TYPE:VOD', '#EXT-X-PLAYLIST-TYPE:VOD\n#EXT-X-KEY:METHOD=AES-128,URI="/key"')), /encrypted/],
    ['live', () => serveCase('live', (r) => r.replace('#EXT-X-PLAYLIST-TYPE:VOD\n', '').replace('#EXT-X-ENDLIST', '')), /is live \(no EXT-X-ENDLIST\)/],
    ['EVENT', () => serveCase('event', (r) => r.replace('PLAYLIST-TYPE:VOD', 'PLAYLIST-TYPE:EVENT')), /EVENT playlist/],
    ['no ENDLIST', () => serveCase('no-endlist', (r, i) => (i === 1 ? r.replace('#EXT-X-ENDLIST', '') : r)), /no EXT-X-ENDLIST/],
    ['a segment over the target duration', () => serveCase('long', (r) => r.replace('#EXTINF:2.000000', '#EXTINF:2.600000')), /longer than the playlist's target duration of 2 s/],
    [
      'variants cut differently',
      () => serveCase('unlike', (r, i) => (i === 1 ? r.replace(/#EXTINF:2\.000000,\n\/v1\/seg002\.ts\n/, '') : r)),
      /not cut alike: 3 segments .* against 2/,
    ],
    ['too many segments', () => serveCase('many', (r) => r.replace('#EXT-X-ENDLIST', `${'#EXTINF:1,\n/v0/seg000.ts\n'.repeat(20_000)}#EXT-X-ENDLIST`)), /at most 20,000/],
    ['not HLS', () => serveCase('html', () => '<!doctype html><title>Not found</title>'), /not an HLS playlist/],
    ['mixed containers', () => serveCase('mixed', (r, i) => (i === 1 ? r.replace('/v1/seg001.ts', '/v1/seg001.m4s') : r)), /mixes MPEG-TS and fMP4/],
    ['fMP4 without EXT-X-MAP', () => serveCase('nomap', (r) => r.replace(/\.ts$/gm, '.m4s')), /no EXT-X-MAP/],
    ['demuxed audio', () => serveCase('demuxed', (r) => r, '#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="en",URI="audio.m3u8"\n', ',AUDIO="a"'), /muxed audio/],
    ['too many bytes', () => serveCase('huge', (r) => r + `#${'x'.repeat(4 * 1024 * 1024)}\n`), /larger than 4,194,304 bytes/],
    [
      'too many redirects',
      () => {
        for (let i = 0; i < 4; i++) origin.redirect(`/hops/${i}.m3u8`, `/hops/${i + 1}.m3u8`);
        origin.redirect('/hops/4.m3u8', '/master.m3u8');
        return `${origin.url}/hops/0.m3u8`;
      },
      /redirected more than 3 times/,
    ],
  ];

  it.each(cases)('refuses %s with its reason, keeping nothing of it', async (_name, serve, reason) => {
    const id = await createVideo(serve());
    const hls = await hlsOf(id);
    expect(hls).toMatchObject({ status: 'failed', variants: [], segments: null, durationSeconds: null, warning: null });
    expect(hls.error).toMatch(reason);
    expect((await readIngestedVideos(s.t.database.db, [id])).size).toBe(0);
  });

  it('a refresh that fails takes the previous ingest off air whole', async () => {
    const url = serveCase('turns-bad', (r) => r);
    const id = await createVideo(url);
    expect((await hlsOf(id)).status).toBe('ready');
    serveCase('turns-bad', (r) => r.replace('PLAYLIST-TYPE:VOD', 'PLAYLIST-TYPE:EVENT'));
    expect((await s.call('POST', `/videos/${id}/hls/refresh`)).statusCode).toBe(202);
    expect(await hlsOf(id)).toMatchObject({ status: 'failed', variants: [], error: expect.stringMatching(/EVENT/) });
    expect((await readIngestedVideos(s.t.database.db, [id])).size).toBe(0);
  });

  it('never reaches a loopback origin the operator did not allow (a port, a name, a redirect)', async () => {
    const before = other.requests.length;
    // Written as an address or a local name, the URL is not even stored (docs/security.md).
    for (const url of [`${other.url}/master.m3u8`, `http://localhost:${origin.port}/master.m3u8`]) {
      const refused = await s.call('POST', '/videos', { body: { url, title: 'Escape', durationSeconds: 6 } });
      expect(refused.statusCode, refused.body).toBe(422);
      expect(refused.json().error.details[0]).toMatchObject({ path: 'streamUrl', message: expect.stringMatching(/(loopback|local network).*MEDIA_FETCH_ALLOW_ORIGINS/) });
    }
    // Behind an allowed origin's redirect, the fetch checks the address it is sent to.
    origin.redirect('/escape/master.m3u8', `${other.url}/master.m3u8`);
    const hls = await hlsOf(await createVideo(`${origin.url}/escape/master.m3u8`));
    expect(hls.status).toBe('failed');
    expect(hls.error).toMatch(/this machine \(loopback\).*MEDIA_FETCH_ALLOW_ORIGINS/);
    expect(other.requests.length).toBe(before);
  });
});

describe.each(BACKENDS)('the ingest domain on %s', (backend) => {
  let database: TestDatabase;
  const NOW = new Date('2026-11-21T15:00:00Z');

  beforeAll(async () => {
    database = await freshDatabase(backend);
    const catalog = studioCatalog();
    catalog.videos.push(
      {
        id: 7001,
        ownerId: OWNER.id,
        title: 'Resolves privately',
        durationSeconds: 6,
        providerName: 'Custom',
        providerVideoId: 'p',
        streamUrl: 'http://media.example.test/master.m3u8',
      },
      { id: 7002, ownerId: OWNER.id, title: 'Big library', durationSeconds: 6, providerName: 'Custom', providerVideoId: 'q', streamUrl: 'http://media.example.test/other.m3u8' },
      { id: 7003, ownerId: OWNER.id, title: 'One more', durationSeconds: 6, providerName: 'Custom', providerVideoId: 'r', streamUrl: `${origin.url}/master.m3u8` },
      { id: 7004, ownerId: 16, title: 'Ten hours', durationSeconds: 36_000, providerName: 'Custom', providerVideoId: 's', streamUrl: `${origin.url}/ten-hours/master.m3u8` },
    );
    const imported = await importCatalog(database.db, catalog, { replace: false, now: NOW });
    expect(imported.ok, JSON.stringify(imported)).toBe(true);
  });
  afterAll(async () => database?.close());

  it('refuses a name that resolves to a private or metadata address, before connecting', async () => {
    for (const address of ['10.0.0.1', '169.254.169.254']) {
      const asked: string[] = [];
      const resolve: Resolver = async (name) => {
        asked.push(name);
        return [{ address, family: 4 }];
      };
      // Each run answers the pending request; ask again for the second address.
      await database.db.execute(`update video_hls set status = 'pending', requested_at = now() where video_id = 7001` as never);
      const outcome = await ingestVideo(database.db, safeFetcher({ resolve }), 7001, NOW);
      expect(outcome.status).toBe('failed');
      if (outcome.status === 'failed') expect(outcome.error).toContain(`(${address})`);
      expect(asked).toEqual(['media.example.test']);
    }
  });

  it('ingests a 10-hour video (9,000 segments of 4 s, two variants) through the real path', async () => {
    const rung = (i: number) =>
      `#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:4\n#EXT-X-PLAYLIST-TYPE:VOD\n${Array.from({ length: 9000 }, (_, n) => `#EXTINF:4.000000,\n/v${i}/segment_${String(n).padStart(5, '0')}.ts\n`).join('')}#EXT-X-ENDLIST\n`;
    origin.serve('/ten-hours/master.m3u8', master(['v0.m3u8', 'v1.m3u8']));
    origin.serve('/ten-hours/v0.m3u8', rung(0));
    origin.serve('/ten-hours/v1.m3u8', rung(1));
    const started = process.cpuUsage();
    const outcome = await ingestVideo(database.db, safeFetcher({ allowOrigins: [origin.url] }), 7004, NOW);
    const cpu = process.cpuUsage(started);
    // The issue's target: under 1 s of CPU (this process also serves the playlists).
    expectCpuUnder((cpu.user + cpu.system) / 1000, 1000, `10-hour ingest (fetch, parse, encode, store) on ${backend}`);
    expect(outcome).toEqual({ status: 'ready', warning: null });
    const stored = (await readIngestedVideos(database.db, [7004])).get(7004)!;
    expect(stored.durationsMs).toHaveLength(9000);
    expect(stored.variants[1]!.segmentUris[8999]).toBe(`${origin.url}/v1/segment_08999.ts`);
  });

  it("refuses an ingest past the owner's segment bound, with its reason", async () => {
    await saveReadyIngest(database.db, {
      videoId: 7002,
      sourceUrl: 'http://media.example.test/other.m3u8',
      ladder: { variants: [] },
      segments: '{}',
      segmentCount: 1_999_999,
      durationSeconds: 1,
      warning: null,
      at: NOW,
    });
    const outcome = await ingestVideo(database.db, safeFetcher({ allowOrigins: [origin.url] }), 7003, NOW);
    expect(outcome).toEqual({ status: 'failed', error: expect.stringMatching(/would hold 2,000,002 segments together; an owner's hold at most 2,000,000/) });
  });
});
