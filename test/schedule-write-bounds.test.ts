// Issue 37, item 2: writes cost what they touch. One channel of an owner holds 18,000 blocks (24 a
// day for 750 days, and a daily loop), the owner's bound is 20,000: a block create, PATCH, DELETE
// and a loop's create cost under 100 ms of CPU, a programming preview, apply and undo of ~1,900
// blocks under 1 s (they cost 1.6-1.8 s, 1.2 s, 2.0-2.7 s and 1.5-1.8 s when they read the
// whole channel). The least CPU of a few runs: the request's cost, not a collection it ran into.
import { sql } from 'drizzle-orm';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keepTableStatistics } from '../src/data/table-statistics.ts';
import { cpuOf } from './fuzz/property.ts';
import { BACKENDS } from './support/db.ts';
import { studioTest, type StudioTest } from './support/studio.ts';
import { expectCpuUnder, scaledBound } from './support/cpu-bounds.ts';

const BLOCK_CPU_MS = 100;
/** A loop plays on every later day: its write compares it with the later blocks whose hours can meet it. */
const LOOP_CPU_MS = 500;
const PROGRAMMING_CPU_MS = 1_000;
const CHANNEL = 2_900_001;
const VIDEOS = 200;
const MINUTE = 2_800_001;
const TEN_MINUTES = 2_800_000 + VIDEOS + 1;
const BLOCKS = 18_000;
/** The longest the event loop may stay blocked during a maximal apply: one slice of its work. */
const SLICE_MS = 150;

/** Owner 11's channel CHANNEL: 24 blocks a day from 2027-01-01 at every hour, 20 one-minute videos each; a loop at 23:40 of 10. */
async function fill(s: StudioTest): Promise<void> {
  await s.t.database.db.transaction(async (db) => {
    const run = (text: string) => db.execute(sql.raw(text));
    await run(`insert into videos (id, owner_id, title, duration_seconds, provider_name, provider_video_id, category_id)
      select 2800000 + g, 11, 'Minute ' || g, 60, 'YouTube', 'm' || g, 1 from generate_series(1, ${VIDEOS}) g`);
    await run(
      `insert into videos (id, owner_id, title, duration_seconds, provider_name, provider_video_id, category_id) values (${TEN_MINUTES}, 11, 'Ten', 600, 'YouTube', 'ten', 1)`,
    );
    await run(
      `insert into channels (id, owner_id, name, url, category_id, timezone, created_at) values (${CHANNEL}, 11, 'Dense', 'dense', 1, 'Europe/Berlin', '2026-01-01T00:00:00Z')`,
    );
    await run(`insert into schedule_blocks (id, channel_id, start_local, published, loop_daily)
      select 3900000 + g, ${CHANNEL}, timestamp '2027-01-01' + (g - 1) * interval '1 hour', true, false from generate_series(1, ${BLOCKS}) g`);
    await run(`insert into schedule_block_videos (block_id, position, video_id)
      select 3900000 + b, p, 2800001 + (b * 7 + p) % ${VIDEOS} from generate_series(1, ${BLOCKS}) b, generate_series(0, 19) p`);
    await run(`insert into schedule_blocks (id, channel_id, start_local, published, loop_daily) values (3999999, ${CHANNEL}, '2027-01-01 23:40:00', true, true)`);
    await run(`insert into schedule_block_videos (block_id, position, video_id) select 3999999, p, ${MINUTE} from generate_series(0, 9) p`);
  });
  const [{ n }] = ((await s.t.database.db.execute(sql`select count(*)::int n from schedule_block_figures where channel_id = ${CHANNEL}`)) as any).rows;
  expect(n).toBe(BLOCKS + 1);
}

async function leastCpu<T>(runs: number, send: () => Promise<T>): Promise<{ result: T; cpuMs: number }> {
  let least = { result: undefined as T, cpuMs: Infinity };
  for (let run = 0; run < runs; run++) {
    const measured = await cpuOf(send);
    if (measured.cpuMs < least.cpuMs) least = measured;
  }
  return least;
}

describe.each(BACKENDS)('schedule writes at the block bound cost what they touch, on %s', (backend) => {
  let s: StudioTest;
  beforeAll(async () => {
    s = await studioTest(backend);
    await fill(s);
    // What the table_upkeep job does within a minute on PGlite (autovacuum on PostgreSQL).
    await keepTableStatistics(s.t.database.db);
  }, 300_000);
  afterAll(() => s?.t.close());

  const path = `/channels/${CHANNEL}`;

  it(`a block's create, PATCH and DELETE under ${BLOCK_CPU_MS} ms of CPU, a loop's create under ${LOOP_CPU_MS} ms`, async () => {
    let n = 0;
    const create = await leastCpu(3, async () => {
      const r = await s.call('POST', `${path}/schedules`, { body: { startTime: `2028-03-0${++n}T00:30:00`, videoIds: [MINUTE, MINUTE] } });
      expect(r.statusCode, r.body).toBe(201);
      return r;
    });
    expectCpuUnder(create.cpuMs, BLOCK_CPU_MS, 'create');
    const conflict = await leastCpu(3, () => s.call('POST', `${path}/schedules`, { body: { startTime: '2028-03-05T00:10:00', videoIds: [MINUTE] } }));
    expect(conflict.result.statusCode).toBe(409);
    expectCpuUnder(conflict.cpuMs, BLOCK_CPU_MS, 'refused create');
    const id = create.result.json().data.id as number;
    let minute = 30;
    const patch = await leastCpu(3, async () => {
      const read = await s.call('GET', `${path}/schedules/${id}`);
      const r = await s.call('PATCH', `${path}/schedules/${id}`, {
        body: { startTime: `${read.json().data.startTime.slice(0, 10)}T00:${++minute}:00` },
        headers: { 'if-match': read.headers.etag as string },
      });
      expect(r.statusCode, r.body).toBe(200);
      return r;
    });
    expectCpuUnder(patch.cpuMs, BLOCK_CPU_MS, 'PATCH (with its read)');
    const week = await leastCpu(3, () => s.call('GET', `${path}/schedules?from=2028-03-01&to=2028-03-07`));
    expect(week.result.json().data.items).toHaveLength(7 * 24 + 1 + 3); // the hourly blocks, the loop, the three created above
    expectCpuUnder(week.cpuMs, BLOCK_CPU_MS, 'a week of the list');
    const full = await s.call('POST', `${path}/schedules`, { body: { startTime: '2028-03-07T00:30:00', videoIds: Array(300).fill(MINUTE) } });
    expect(full.statusCode).toBe(422);
    const remove = await cpuOf(() => s.call('DELETE', `${path}/schedules/${id}`));
    expect(remove.result.statusCode).toBe(204);
    expectCpuUnder(remove.cpuMs, BLOCK_CPU_MS, 'DELETE');
    const loop = await cpuOf(() => s.call('POST', `${path}/schedules`, { body: { startTime: '2027-06-01T23:52:00', loopDaily: true, videoIds: [MINUTE, MINUTE] } }));
    expect(loop.result.statusCode, loop.result.body).toBe(201);
    expectCpuUnder(loop.cpuMs, LOOP_CPU_MS, 'loop create');
    expect((await s.call('DELETE', `${path}/schedules/${loop.result.json().data.id}`)).statusCode).toBe(204);
  });

  // 72 slots a day (every 20 minutes), 27 days after the filled ones: two ten-minute videos each.
  const slots = Array.from({ length: 72 }, (_, i) => ({
    days: [1, 2, 3, 4, 5, 6, 7],
    start: `${String(Math.floor(i / 3)).padStart(2, '0')}:${String((i % 3) * 20).padStart(2, '0')}`,
    videoIds: [TEN_MINUTES],
    order: 'inOrder',
  }));

  it(`a programming preview, apply and undo of ~1,900 blocks, under ${PROGRAMMING_CPU_MS} ms of CPU each`, async () => {
    const body = { from: '2029-06-01', to: '2029-06-27', slots };
    const preview = await leastCpu(2, () => s.call('POST', `${path}/programming/preview`, { body }));
    expect(preview.result.statusCode, preview.result.body).toBe(200);
    const planned = preview.result.json().data;
    expect(planned.totals.blocks).toBeGreaterThan(1_900);
    expectCpuUnder(preview.cpuMs, PROGRAMMING_CPU_MS, 'preview');
    const apply = await cpuOf(() => s.call('POST', `${path}/programming/apply`, { body }));
    expect(apply.result.statusCode, apply.result.body).toBe(201);
    expectCpuUnder(apply.cpuMs, PROGRAMMING_CPU_MS, 'apply');
    const undo = await cpuOf(() => s.call('POST', `${path}/programming/undo`, { body: {} }));
    expect(undo.result.statusCode, undo.result.body).toBe(200);
    expect(undo.result.json().data.removed).toHaveLength(planned.totals.blocks);
    expectCpuUnder(undo.cpuMs, PROGRAMMING_CPU_MS, 'undo');
  }, 120_000);

  it("during a maximal apply, another owner's warm reads are answered between its slices, never 503", async () => {
    const read = () => s.t.request({ method: 'GET', url: '/api/v1/services/custom/users/olga/channels' });
    expect((await read()).statusCode).toBe(200);
    const delay = monitorEventLoopDelay({ resolution: 5 });
    delay.enable();
    let done = false;
    const apply = s.call('POST', `${path}/programming/apply`, { body: { from: '2029-08-01', to: '2029-08-27', slots } }).finally(() => (done = true));
    const statuses: number[] = [];
    const waits: number[] = [];
    while (!done) {
      // As a client's requests do, each arrives on a turn of its own (an answer from memory never waits on I/O).
      await new Promise((resolve) => setImmediate(resolve));
      const started = performance.now();
      statuses.push((await read()).statusCode);
      waits.push(performance.now() - started);
    }
    delay.disable();
    expect((await apply).statusCode).toBe(201);
    const blocked = delay.max / 1e6;
    const slowest = Math.max(...waits);
    if (process.env.BOUNDS_REPORT) console.log(`during the apply: ${statuses.length} reads, slowest ${slowest.toFixed(1)} ms, event loop blocked at most ${blocked.toFixed(1)} ms`);
    expect(new Set(statuses)).toEqual(new Set([200]));
    expect(statuses.length).toBeGreaterThan(3);
    expect(blocked).toBeLessThan(scaledBound(SLICE_MS));
    expect((await s.call('POST', `${path}/programming/undo`, { body: {} })).statusCode).toBe(200);
  }, 120_000);
});
