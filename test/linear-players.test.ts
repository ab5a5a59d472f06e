// Real players on a channel's live stream, in real time (docs/linear.md; the issue's "Done when"):
// two videos made by ffmpeg now (lavfi test pattern and tone, 2-second TS segments) served from a
// loopback origin, scheduled so a programme boundary falls 30 s into a minute of playing.
// The first video is 10 s shorter than its slot, so the slate airs between them.
// - hls.js in Debian Chromium plays 60 s across video, slate and video: no fatal error, no stall longer than
//   one target duration, its playing date within 4 target durations of now (hls.js holds 3 behind
//   the live edge by design, liveSyncDurationCount, and the edge is up to one segment behind now), past the boundary;
// - ffmpeg reads the live playlist for 60 s of wall time: it fetches the first programme's
//   segments, then the second's, and ends cleanly.
// The one place sleeps are right: a real player plays in real time.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import HLS from 'hls-parser';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { storeReadyIngest } from '../src/linear/ingested.ts';
import type { IngestedVideo } from '../src/linear/types.ts';
import { CHROMIUM, CHROMIUM_ARGS } from './support/chromium.ts';
import { studioCatalog, studioTest, type StudioTest } from './support/studio.ts';

const TARGET = 2;
const PLAY_MS = 60_000;
const HLS_JS = path.resolve(import.meta.dirname, '../node_modules/hls.js/dist/hls.min.js');

function makeVideo(dir: string, name: string, seconds: number, pattern: string, tone: number) {
  const out = path.join(dir, name);
  spawnSync('mkdir', ['-p', out]);
  const run = spawnSync('ffmpeg', [
    '-nostdin',
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `${pattern}=size=320x180:rate=25`,
    '-f',
    'lavfi',
    '-i',
    `sine=frequency=${tone}:sample_rate=48000`,
    '-t',
    String(seconds),
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-pix_fmt',
    'yuv420p',
    '-g',
    '50',
    '-keyint_min',
    '50',
    '-sc_threshold',
    '0',
    '-c:a',
    'aac',
    '-b:a',
    '64k',
    '-f',
    'hls',
    '-hls_time',
    String(TARGET),
    '-hls_playlist_type',
    'vod',
    '-hls_segment_filename',
    `${out}/%d.ts`,
    `${out}/index.m3u8`,
  ]);
  if (run.status !== 0) throw new Error(`ffmpeg failed: ${run.stderr}`);
}

/** The ingest of a media playlist the origin serves (what the ingest part would store). */
function ingestOf(dir: string, name: string, origin: string): IngestedVideo {
  const playlist = HLS.parse(readFileSync(path.join(dir, name, 'index.m3u8'), 'utf8')) as HLS.types.MediaPlaylist;
  return {
    container: 'ts',
    version: 3,
    targetDurationSeconds: playlist.targetDuration,
    durationsMs: playlist.segments.map((s) => Math.round(s.duration * 1000)),
    variants: [
      {
        bandwidth: 400_000,
        resolution: { width: 320, height: 180 },
        codecs: 'avc1.42c00d,mp4a.40.2',
        playlistUri: `${origin}/${name}/index.m3u8`,
        segmentUris: playlist.segments.map((s) => `${origin}/${name}/${s.uri}`),
      },
    ],
  };
}

function serveDir(dir: string, page: string): Promise<{ server: Server; origin: string }> {
  const server = createServer((req, res) => {
    const url = (req.url ?? '/').split('?')[0]!;
    const file = url === '/hls.js' ? HLS_JS : path.join(dir, path.normalize(url).replace(/^(\.\.[/\\])+/, ''));
    res.setHeader('access-control-allow-origin', '*');
    if (url === '/') return res.writeHead(200, { 'content-type': 'text/html' }).end(page);
    if (!existsSync(file)) return res.writeHead(404).end();
    res
      .writeHead(200, { 'content-type': file.endsWith('.ts') ? 'video/mp2t' : file.endsWith('.js') ? 'text/javascript' : 'application/vnd.apple.mpegurl' })
      .end(readFileSync(file));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, origin: `http://127.0.0.1:${(server.address() as { port: number }).port}` })));
}

const PAGE = `<!doctype html><video id="v" muted playsinline></video><script src="/hls.js"></script><script>
window.report = { fatal: [], errors: [], stalls: [], dates: [] };
window.play = (url) => {
  const v = document.getElementById('v');
  const hls = new Hls();
  window.hls = hls;
  hls.on(Hls.Events.ERROR, (_e, d) => (d.fatal ? report.fatal : report.errors).push(d.type + ':' + d.details));
  let waitingSince = null;
  v.addEventListener('waiting', () => { waitingSince = performance.now(); });
  v.addEventListener('playing', () => { if (waitingSince !== null && report.started) report.stalls.push(performance.now() - waitingSince); waitingSince = null; report.started = true; });
  hls.loadSource(url);
  hls.attachMedia(v);
  hls.on(Hls.Events.MANIFEST_PARSED, () => v.play());
};
</script>`;

describe('real players on the live stream', () => {
  let s: StudioTest;
  let dir: string;
  let origin: { server: Server; origin: string };
  let appOrigin: string;
  let key: string;
  let boundary: number;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'linear-players-'));
    // 50 s of a 60 s slot: the last 10 s before the boundary air the slate.
    makeVideo(dir, 'first', 50, 'testsrc', 440);
    makeVideo(dir, 'second', 120, 'smptebars', 880);
    origin = await serveDir(dir, PAGE);
    // The boundary 30 s after the players start; the first programme began 50 s before that.
    boundary = Math.floor(Date.now() / 1000) * 1000 + 40_000;
    const start = new Date(boundary - 60_000).toISOString().slice(0, 19);
    const catalog = studioCatalog();
    const custom = (id: number, name: string, seconds: number) => ({
      id,
      ownerId: 11,
      title: name,
      durationSeconds: seconds,
      providerName: 'Custom',
      providerVideoId: name,
      streamUrl: `${origin.origin}/${name}/index.m3u8`,
    });
    catalog.videos.push(custom(7101, 'first', 60), custom(7102, 'second', 120));
    catalog.channels.push({
      id: 211,
      ownerId: 11,
      name: 'Players',
      url: 'players',
      categoryId: 1,
      timezone: 'UTC',
      videoIds: [7101, 7102],
      createdAt: '2026-01-01T00:00:00Z',
      schedules: [{ id: 9211, startTime: start, videoIds: [7101, 7102] }],
    });
    catalog.apps.push({ id: 305, ownerId: 11, platform: 'firetv', appName: 'Players TV', createdAt: '2026-03-01T00:00:00Z', channels: [{ channelId: 211 }] });
    s = await studioTest('pglite', catalog, { CHANNELNET_TEST_CLOCK: false, MEDIA_FETCH_ALLOW_ORIGINS: [origin.origin] });
    for (const [id, name] of [
      [7101, 'first'],
      [7102, 'second'],
    ] as const)
      await storeReadyIngest(s.t.database.db, id, `${origin.origin}/${name}/index.m3u8`, ingestOf(dir, name, origin.origin), new Date());
    key = (await s.call('POST', '/apps/firetv/epg-key')).json().data.key;
    const on = await s.call('PUT', '/channels/211/linear', { body: { enabled: true, targetDurationSeconds: TARGET, windowSeconds: 30 }, now: new Date().toISOString() });
    expect(on.statusCode, on.body).toBe(200);
    appOrigin = (await s.t.app.listen({ host: '127.0.0.1', port: 0 })).replace('localhost', '127.0.0.1');
    // Start on the second, so the boundary is 30 s into the minute played.
    await new Promise((r) => setTimeout(r, Math.max(0, boundary - 30_000 - Date.now())));
  }, 120_000);

  afterAll(async () => {
    await s?.t.close();
    origin?.server.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('hls.js in Chromium and ffmpeg play a minute across a programme boundary', async () => {
    const media = `${appOrigin}/api/v1/live/${key}/211/0.m3u8`;
    const ffmpeg = new Promise<{ code: number | null; log: string }>((resolve) => {
      const child = spawn('ffmpeg', [
        '-nostdin',
        '-loglevel',
        'verbose',
        '-y',
        '-i',
        media,
        '-t',
        String(PLAY_MS / 1000 - 5),
        '-c',
        'copy',
        '-f',
        'mpegts',
        path.join(dir, 'out.ts'),
      ]);
      let log = '';
      child.stderr.on('data', (d) => (log += d));
      const stop = setTimeout(() => child.kill('SIGINT'), PLAY_MS + 20_000);
      child.on('close', (code) => {
        clearTimeout(stop);
        resolve({ code, log });
      });
    });

    const endpoint = inject('browserEndpoint');
    const browser = endpoint ? await chromium.connect(endpoint) : await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto(origin.origin);
      await page.evaluate(`window.play(${JSON.stringify(`${appOrigin}/api/v1/live/${key}/211/master.m3u8`)})`);
      await page.waitForTimeout(PLAY_MS);
      // Evaluated in the page (a string: this file has no DOM types).
      const report = (await page.evaluate(`(() => {
        const v = document.getElementById('v');
        return { ...window.report, currentTime: v.currentTime, paused: v.paused, playingDate: window.hls.playingDate ? window.hls.playingDate.getTime() : null, now: Date.now() };
      })()`)) as { fatal: string[]; errors: string[]; stalls: number[]; started?: boolean; currentTime: number; paused: boolean; playingDate: number | null; now: number };
      expect(report.fatal, JSON.stringify(report)).toEqual([]);
      expect(report.started, JSON.stringify(report)).toBe(true);
      expect(report.paused).toBe(false);
      expect(Math.max(0, ...report.stalls), JSON.stringify(report)).toBeLessThanOrEqual(TARGET * 1000);
      expect(report.playingDate).not.toBeNull();
      // hls.js plays liveSyncDurationCount (3) target durations behind the live edge, and the edge
      // (the end of the last segment listed) is up to one segment behind now: 3 + 1. Measured under
      // the full suite: 6.2 s behind with 2-second segments, past a bound of 3 that left no room for
      // the edge.
      expect(Math.abs(report.now - report.playingDate!), JSON.stringify(report)).toBeLessThanOrEqual((3 + 1) * TARGET * 1000);
      expect(report.playingDate).toBeGreaterThan(boundary);
    } finally {
      await context.close();
      await browser.close();
    }

    const { code, log } = await ffmpeg;
    expect(code, log.slice(-2000)).toBe(0);
    const opened = [...log.matchAll(/Opening '[^']*\/(first|second)\/\d+\.ts'/g)].map((m) => m[1]);
    expect(opened.length, log.slice(-2000)).toBeGreaterThan(10);
    expect(opened[0]).toBe('first');
    expect(opened.at(-1)).toBe('second');
    expect(opened.indexOf('second')).toBeGreaterThan(opened.lastIndexOf('first'));
    const slate = log.search(/Opening '[^']*\/api\/v1\/live\/slate\/426x240\/\d\.ts'/);
    expect(slate, 'the slate between the programmes').toBeGreaterThan(log.lastIndexOf('/first/'));
    expect(slate).toBeLessThan(log.indexOf('/second/'));
  }, 180_000);
});
