// Issue 34's cost target for a live playlist answered cold: under 5 ms of CPU. Cold is a new app on
// the same database (its caches empty: key verdicts, settings, ledger rows, ingests, compiled
// days) after one request of another linear channel (the route's own first-use costs are the
// process's, not the playlist's). A warm one is answered from memory and costs next to nothing.
// On PostgreSQL the bound is the 5 ms (this process: the service). On PGlite the database
// runs in this process and its ~8 cold queries (the key, the app's channels, the settings, the
// ledger, the ingests, the day's blocks) are most of the cost: profiled at ~2/3 in PGlite's
// WebAssembly, so the embedded bound is 10 ms (measured 6.5-7) (docs/linear.md: Cost).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { storeReadyIngest } from '../src/linear/ingested.ts';
import type { IngestedVideo } from '../src/linear/types.ts';
import { cpuOf } from './fuzz/property.ts';
import { expectCpuUnder } from './support/cpu-bounds.ts';
import { BACKENDS } from './support/db.ts';
import { studioCatalog, studioTest, type StudioTest } from './support/studio.ts';

const ORIGIN = 'https://media.example';
const SEGMENTS = 150;
const NOW = '2026-11-21T15:00:00Z';

function hlsVideo(name: string): IngestedVideo {
  const rung = (r: string, bandwidth: number, width: number, height: number) => ({
    bandwidth,
    resolution: { width, height },
    codecs: 'avc1.4d401f,mp4a.40.2',
    playlistUri: `${ORIGIN}/${name}/${r}.m3u8`,
    segmentUris: Array.from({ length: SEGMENTS }, (_, i) => `${ORIGIN}/${name}/${r}/${i}.ts`),
  });
  return {
    container: 'ts',
    version: 3,
    targetDurationSeconds: 4,
    durationsMs: Array(SEGMENTS).fill(4000),
    variants: [rung('360', 800_000, 640, 360), rung('720', 2_500_000, 1280, 720)],
  };
}

function catalog() {
  const c = studioCatalog();
  const custom = (id: number, name: string) => ({
    id,
    ownerId: 11,
    title: name,
    durationSeconds: 600,
    providerName: 'Custom',
    providerVideoId: name,
    streamUrl: `${ORIGIN}/${name}/master.m3u8`,
  });
  c.videos.push(custom(7001, 'first'), custom(7002, 'second'));
  for (const id of [210, 211]) {
    c.channels.push({
      id,
      ownerId: 11,
      name: `Linear ${id}`,
      url: `linear-${id}`,
      categoryId: 1,
      timezone: 'America/New_York',
      videoIds: [7001, 7002],
      createdAt: '2026-01-01T00:00:00Z',
      // A day of 144 ten-minute programmes, as a real channel's loop.
      schedules: [{ id: id * 10, startTime: '2026-11-20T00:00:00', loopDaily: true, videoIds: Array.from({ length: 144 }, (_, i) => (i % 2 ? 7002 : 7001)) }],
    });
  }
  c.apps.push({ id: 304, ownerId: 11, platform: 'firetv', appName: 'Alice Fire TV', createdAt: '2026-03-01T00:00:00Z', channels: [{ channelId: 210 }, { channelId: 211 }] });
  return c;
}

describe.each(BACKENDS)('a live playlist cold and warm on %s', (backend) => {
  let s: StudioTest;
  let key: string;
  beforeAll(async () => {
    s = await studioTest(backend, catalog());
    for (const [id, name] of [
      [7001, 'first'],
      [7002, 'second'],
    ] as const)
      await storeReadyIngest(s.t.database.db, id, `${ORIGIN}/${name}/master.m3u8`, hlsVideo(name), new Date('2026-11-20T00:00:00Z'));
    for (const id of [210, 211]) {
      const read = await s.call('GET', `/channels/${id}/linear`);
      const put = await s.call('PUT', `/channels/${id}/linear`, { body: { enabled: true, targetDurationSeconds: 4 }, headers: { 'if-match': read.headers.etag as string } });
      expect(put.statusCode, put.body).toBe(200);
    }
    key = (await s.call('POST', '/apps/firetv/epg-key')).json().data.key;
    // Each channel aired once (its ledger row written), as a channel polled by players has.
    for (const id of [210, 211]) expect((await s.t.request({ url: `/api/v1/live/${key}/${id}/0.m3u8`, now: NOW })).statusCode).toBe(200);
  }, 120_000);
  afterAll(() => s?.t.close());

  it('a variant playlist cold under 5 ms of CPU, then warm from memory', async () => {
    let cold = Infinity;
    let warm = Infinity;
    // The least of 16 apps: a cold request's own cost is its cheapest run. The first runs of a new
    // process pay for the JIT (the schedule compiler, the query builder: 5-7 ms, falling to 3.5-4 ms
    // by the tenth run on the same commit); a running service's cold request is a warm process with
    // empty caches, and the rest is the machine (a GC, a neighbour's burst).
    for (let run = 0; run < 16; run++) {
      const app = await buildApp({
        database: s.t.database,
        config: { CHANNELNET_TEST_CLOCK: true, LOG_LEVEL: 'silent', RATE_LIMIT_ENABLED: false, MAX_EVENT_LOOP_DELAY_MS: 0, STORE_NOTIFICATION_POLL_MS: 0, GUIDE_WARM_DAYS: 0 },
      });
      try {
        const get = (id: number) => app.inject({ method: 'GET', url: `/api/v1/live/${key}/${id}/0.m3u8`, headers: { 'x-test-now': NOW } });
        expect((await get(211)).statusCode).toBe(200);
        const first = await cpuOf(() => get(210));
        expect(first.result.statusCode, first.result.body.slice(0, 300)).toBe(200);
        expect(first.result.body).toContain('#EXT-X-MEDIA-SEQUENCE:');
        const again = await cpuOf(() => get(210));
        expect(again.result.body).toBe(first.result.body);
        cold = Math.min(cold, first.cpuMs);
        warm = Math.min(warm, again.cpuMs);
      } finally {
        await app.close();
      }
    }
    console.log(`${backend}: a variant playlist cold ${cold.toFixed(2)} ms, warm ${warm.toFixed(2)} ms of CPU`);
    expectCpuUnder(cold, backend === 'postgres' ? 5 : 10, `cold on ${backend}`);
    expectCpuUnder(warm, 1, `warm on ${backend}`);
  }, 120_000);
});
