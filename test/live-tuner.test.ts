// The HDHomeRun tuner (docs/linear.md: The tuner): its documents agree with the M3U, and a
// channel's .ts, read by a real client over loopback for ~11 s of wall time (a real stream cannot
// be hurried), is MPEG-TS whose timestamps ffprobe reads as monotonic and continuous across
// programme boundaries both ways (B's clock starts 8 s after A's). Past TunerCount a stream is
// 503 in words; a client leaving stops its ffmpeg and frees the tuner; without ffmpeg the tuner
// routes are 503 and the M3U still plays.
//
// Until the live playlists are merged, the tuner's source is a tiny loopback live channel
// (test/support/ts-fixtures.ts) through TUNER_SOURCE_URL.
import { execFileSync } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { get as httpGet, type ClientRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setLinearEnabled } from '../src/data/live-access.ts';
import { TEST_NOW } from './support/app.ts';
import { BACKENDS } from './support/db.ts';
import { studioCatalog, studioTest, type StudioTest } from './support/studio.ts';
import { liveFixture, probePackets, SEGMENTS, type LiveFixture } from './support/ts-fixtures.ts';

const WALL_MS = 11_000;

function tunerCatalog() {
  const catalog = studioCatalog();
  catalog.apps.find((a: { id: number }) => a.id === 302).channels = [{ channelId: 201, channelNumber: '7' }, { channelId: 202 }];
  return catalog;
}

/** The ffmpeg children of this test process (the app runs in it). */
function ffmpegChildren(): number[] {
  const out = execFileSync('ps', ['-o', 'pid=,comm=', '--ppid', String(process.pid)]).toString();
  return out
    .split('\n')
    .filter((l) => /\bffmpeg\b/.test(l))
    .map((l) => Number(l.trim().split(/\s+/)[0]));
}

/** Polls `done` every 100 ms until it holds, for at most `ms`. */
async function until(done: () => boolean, ms: number): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 100))) if (done()) return true;
  return done();
}

function open(url: string): Promise<{ request: ClientRequest; response: IncomingMessage }> {
  return new Promise((resolve, reject) => {
    const request = httpGet(url, { headers: { 'x-test-now': TEST_NOW } }, (response) => resolve({ request, response }));
    request.once('error', reject);
  });
}

describe.each(BACKENDS)('the HDHomeRun tuner, on %s', (backend) => {
  let s: StudioTest;
  let live: LiveFixture;
  let key: string;
  let base: string;
  let dir: string;

  beforeAll(async () => {
    live = await liveFixture();
    s = await studioTest(backend, tunerCatalog(), { TUNER_COUNT: 1, TUNER_SOURCE_URL: live.url('/{key}/{channelId}/live.m3u8') });
    await setLinearEnabled(s.t.database.db, 201, true, new Date(TEST_NOW));
    key = (await s.call('POST', '/apps/androidtv/epg-key')).json().data.key;
    await s.t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(s.t.app.server.address() as AddressInfo).port}`;
    dir = await mkdtemp(path.join(tmpdir(), 'channelnet-tuner-'));
  }, 60_000);
  afterAll(async () => {
    await s.t.close();
    await live.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("discover.json, lineup.json, lineup_status.json and device.xml: the key's channels, GuideNumber as the M3U's tvg-chno", async () => {
    const json = async (name: string) => {
      const response = await s.t.request({ method: 'GET', url: `/hdhr/${key}/${name}`, headers: { host: 'tv.example' } });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.headers['cache-control']).toBe('no-store');
      return response;
    };
    const discover = (await json('discover.json')).json();
    expect(discover).toMatchObject({
      FriendlyName: 'Alice Android TV (channelnet)',
      TunerCount: 1,
      BaseURL: `http://tv.example/hdhr/${key}`,
      LineupURL: `http://tv.example/hdhr/${key}/lineup.json`,
    });
    expect(discover.DeviceID).toMatch(/^[0-9A-F]{8}$/);
    // 202 is private: not in the lineup.
    expect((await json('lineup.json')).json()).toEqual([{ GuideNumber: '7', GuideName: 'Alice News', URL: `http://tv.example/hdhr/${key}/201.ts` }]);
    const m3u = await s.t.request({ method: 'GET', url: `/api/v1/live/${key}/channels.m3u` });
    expect(m3u.body).toContain('tvg-chno="7"');
    expect((await json('lineup_status.json')).json()).toEqual({ ScanInProgress: 0, ScanPossible: 1, Source: 'Cable', SourceList: ['Cable'] });
    const xml = await json('device.xml');
    expect(xml.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(xml.body).toContain(`<serialNumber>${discover.DeviceID}</serialNumber>`);
  });

  it("a HEAD of a channel's stream answers its type without starting ffmpeg", async () => {
    const head = await s.t.request({ method: 'HEAD', url: `/hdhr/${key}/201.ts` });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-type']).toBe('video/mp2t');
    expect(ffmpegChildren()).toEqual([]);
    expect((await s.t.request({ method: 'HEAD', url: `/hdhr/${key}/202.ts` })).statusCode).toBe(404);
  });

  it('refuses an unknown key, a channel the key does not play, and a private one', async () => {
    for (const [url, code] of [
      [`/hdhr/${'x'.repeat(43)}/discover.json`, 'live_key_not_found'],
      [`/hdhr/${'x'.repeat(43)}/201.ts`, 'live_key_not_found'],
      [`/hdhr/${key}/202.ts`, 'channel_not_found'],
      [`/hdhr/${key}/999.ts`, 'channel_not_found'],
      [`/hdhr/${key}/abc.ts`, 'channel_not_found'],
    ] as const) {
      const response = await s.t.request({ method: 'GET', url });
      expect(response.statusCode, url).toBe(404);
      expect(response.json().error.code, url).toBe(code);
    }
  });

  it('streams a channel as MPEG-TS with monotonic, continuous timestamps across programme boundaries, one tuner at a time', async () => {
    const file = path.join(dir, 'channel.ts');
    const { request, response } = await open(`${base}/hdhr/${key}/201.ts`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('video/mp2t');
    const written = createWriteStream(file);
    response.pipe(written);
    expect(ffmpegChildren()).toHaveLength(1);
    // TunerCount 1: a second stream of the same tuner is refused in words.
    const busy = await s.t.request({ method: 'GET', url: `/hdhr/${key}/201.ts` });
    expect(busy.statusCode).toBe(503);
    expect(busy.json().error).toEqual({ code: 'all_tuners_busy', message: 'All 1 tuners of this device are in use; stop another stream first.' });
    await new Promise((r) => setTimeout(r, WALL_MS)); // a live stream plays in real time
    request.destroy();
    await new Promise((r) => written.close(r));
    // The client left: ffmpeg is stopped and waited for (no zombie), and the tuner is free.
    expect(await until(() => ffmpegChildren().length === 0, 5_000)).toBe(true);

    expect((await stat(file)).size).toBeGreaterThan(10_000);
    const packets = await probePackets(file);
    for (const stream of [0, 1]) {
      const dts = packets.filter((p) => p.stream === stream).map((p) => p.dts);
      expect(dts.length, `stream ${stream}`).toBeGreaterThan(100);
      const steps = dts.slice(1).map((d, i) => d - dts[i]!);
      // Monotonic, and no jump of more than 0.3 s (90 kHz) where one programme meets the next.
      expect(Math.min(...steps), `stream ${stream}`).toBeGreaterThan(0);
      expect(Math.max(...steps), `stream ${stream}`).toBeLessThan(0.3 * 90_000);
      // More than one programme's worth of continuous time.
      expect((dts.at(-1)! - dts[0]!) / 90_000).toBeGreaterThan(SEGMENTS + 2);
    }
    // Both programmes were read, across at least one boundary each way.
    const programmes = live.served.map((name) => name[0]).filter((p, i, all) => p !== all[i - 1]);
    expect(programmes.length, live.served.join(' ')).toBeGreaterThanOrEqual(3);

    // The freed tuner streams again; closing the server stops it rather than waiting for it.
    const again = await open(`${base}/hdhr/${key}/201.ts`);
    expect(again.response.statusCode).toBe(200);
    again.response.resume();
    const ended = new Promise((resolve) => again.response.once('close', resolve));
    await s.t.app.close();
    await ended;
    expect(ffmpegChildren()).toEqual([]);
  }, 60_000);
});

describe('the tuner without ffmpeg', () => {
  it('answers 503 in words on every tuner route, and the M3U still plays', async () => {
    const s = await studioTest(BACKENDS[0]!, tunerCatalog(), { FFMPEG_PATH: '/nonexistent/ffmpeg' });
    try {
      await setLinearEnabled(s.t.database.db, 201, true, new Date(TEST_NOW));
      const key = (await s.call('POST', '/apps/androidtv/epg-key')).json().data.key;
      for (const name of ['discover.json', 'lineup.json', 'lineup_status.json', 'device.xml', '201.ts']) {
        const response = await s.t.request({ method: 'GET', url: `/hdhr/${key}/${name}` });
        expect(response.statusCode, name).toBe(503);
        expect(response.json().error.code).toBe('tuner_unavailable');
        expect(response.json().error.message).toContain('ffmpeg (/nonexistent/ffmpeg) is not installed');
      }
      expect((await s.t.request({ method: 'GET', url: `/api/v1/live/${key}/channels.m3u` })).statusCode).toBe(200);
    } finally {
      await s.t.close();
    }
  });
});
