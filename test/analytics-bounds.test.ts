// Issue 26, programme analytics at the largest legal data: 30 full channels (720 entries every
// day), 92 days of sessions the crediter has not reached on each (a backlog after an outage), plus
// open ones. A read splits those sessions over the schedule; it compiles only the channel-days the
// sessions touch, at most MAX_LIVE_CHANNEL_DAYS, most recent first, and says how many sessions it
// left out (X-Sessions-Left-Out), so the owner's worst read stays under 2 s of CPU.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_DAY_ENTRIES } from '../src/schedules/day-entries.ts';
import { cpuOf } from './fuzz/property.ts';
import { BACKENDS } from './support/db.ts';
import { studioCatalog, studioTest, type StudioTest } from './support/studio.ts';
import { expectCpuUnder } from './support/cpu-bounds.ts';

const OWNER_CPU_MS = 2_000;
const CHANNELS = 30;
const FIRST_CHANNEL = 30_000;
const CLIP = 72_000;
const NOW = '2026-11-21T15:00:00Z';
const DAYS = 92;

function analyticsCatalog() {
  const catalog = studioCatalog();
  catalog.videos.push(
    ...Array.from({ length: MAX_DAY_ENTRIES }, (_, i) => ({
      id: CLIP + i,
      ownerId: 11,
      title: `Clip ${i}`,
      durationSeconds: 120,
      providerName: 'YouTube',
      providerVideoId: `a${i}`,
    })),
  );
  for (let i = 0; i < CHANNELS; i++) {
    catalog.channels.push({
      id: FIRST_CHANNEL + i,
      ownerId: 11,
      name: `Busy ${i}`,
      url: `busy-${i}`,
      categoryId: 1,
      timezone: i % 2 ? 'Europe/Berlin' : 'America/New_York',
      createdAt: '2026-01-01T00:00:00Z',
      schedules: [{ id: 700_000 + i, startTime: '2026-01-01T00:00:00', loopDaily: true, videoIds: Array.from({ length: MAX_DAY_ENTRIES }, (_, k) => CLIP + k) }],
    });
  }
  return catalog;
}

describe.each(BACKENDS)('programme analytics over 92 days of a crediter backlog on full channels, on %s', (backend) => {
  let s: StudioTest;
  beforeAll(async () => {
    s = await studioTest(backend, analyticsCatalog());
    // Every channel, every day of the range: a closed session of two hours not credited yet, at a different hour each day.
    const now = Date.parse(NOW);
    await s.t.database.db.execute(sql`insert into watch_sessions (source, client_id, channel_id, owner_id, started_at, last_heartbeat_at, heartbeats, open, programmes_credited)
      select 'roku_app', 'viewer-' || c || '-' || d, ${FIRST_CHANNEL} + c, 11,
             ${new Date(now).toISOString()}::timestamptz - make_interval(days => d, hours => (c + d) % 20),
             ${new Date(now).toISOString()}::timestamptz - make_interval(days => d, hours => (c + d) % 20) + interval '2 hours', 240, false, false
        from generate_series(0, ${CHANNELS - 1}) c, generate_series(1, ${DAYS - 1}) d`);
    // And 20 open ones on the first channel, watching for a day.
    await s.t.database.db.execute(sql`insert into watch_sessions (source, client_id, channel_id, owner_id, started_at, last_heartbeat_at, heartbeats)
      select 'roku_app', 'open-' || v, ${FIRST_CHANNEL}, 11, ${new Date(now - 86_400_000).toISOString()}::timestamptz, ${new Date(now - 30_000).toISOString()}::timestamptz, 1440
        from generate_series(1, 20) v`);
  }, 300_000);
  afterAll(() => s?.t.close());

  const get = (path: string) => s.t.request({ method: 'GET', url: `/api/v1/rest/analytics/${path}`, headers: { authorization: `Bearer ${s.tokens.alice}` }, now: NOW });

  it("the owner's programmes and top lists over 92 days stay under 2 s of CPU, cold, and say what they left out", async () => {
    const range = 'from=2026-08-22&to=2026-11-22';
    for (const path of [`programmes?${range}`, `top?${range}`, `programmes?${range}&groupBy=channel&perPage=500`]) {
      // Cold: nothing of these days compiled yet (each read compiles what it splits over; a new app per path would be colder still).
      const { result, cpuMs } = await cpuOf(() => get(path));
      if (process.env.BOUNDS_REPORT) console.log(`${backend} ${path}: ${cpuMs.toFixed(0)} ms, left out ${result.headers['x-sessions-left-out']}`);
      expect(result.statusCode, result.body.slice(0, 300)).toBe(200);
      expectCpuUnder(cpuMs, OWNER_CPU_MS, path);
      // 2,730 sessions on 30 channels x 92 days: more channel-days than a read compiles.
      expect(Number(result.headers['x-sessions-left-out'])).toBeGreaterThan(0);
    }
    // The most recent sessions are the ones read: the last days' sessions of every channel.
    const days = await get('top?from=2026-11-19&to=2026-11-22&limit=100');
    expect(days.headers['x-sessions-left-out']).toBeUndefined();
    expect(days.json().data.channels).toHaveLength(CHANNELS);
  }, 120_000);
});
