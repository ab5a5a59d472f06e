// Issue 37, item 2, from the owner's side: a programming preview counts what the apply counts
// (loops, blocks that stay and live streams on each day), so whatever a preview accepts, the apply
// accepts and writes as previewed; and a block write checked on the days it touches still finds
// what a comparison with every block finds (a long block reaching from days before, a loop
// meeting a block weeks later).
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_DAY_ENTRIES } from '../src/schedules/day-entries.ts';
import { firstOverlap, formatZoned, spanMs } from '../src/schedules/overlaps.ts';
import { addDays } from '../src/schedules/channel-day.ts';
import { BACKENDS } from './support/db.ts';
import { studioTest, type StudioTest } from './support/studio.ts';

/** Owner 11's videos made here: one-second, half-minute and one-minute ones. */
const SECOND = 8_100_001;
const HALF = 8_100_002;
const MINUTE = 8_100_003;
const HOUR = 8_100_004;

describe.each(BACKENDS)('schedule writes on the days they touch, on %s', (backend) => {
  let s: StudioTest;
  let channels = 0;
  beforeAll(async () => {
    s = await studioTest(backend);
    await s.t.database.db.execute(sql`insert into videos (id, owner_id, title, duration_seconds, provider_name, provider_video_id, category_id)
      values (${SECOND}, 11, 'One second', 1, 'YouTube', 'w1', 1), (${HALF}, 11, 'Half a minute', 30, 'YouTube', 'w2', 1),
             (${MINUTE}, 11, 'One minute', 60, 'YouTube', 'w3', 1), (${HOUR}, 11, 'One hour', 3600, 'YouTube', 'w4', 1)`);
  });
  afterAll(() => s.t.close());

  /** A fresh channel of alice's in `zone`. */
  const channel = async (zone = 'Europe/Berlin'): Promise<number> => {
    channels++;
    const created = await s.call('POST', '/channels', { body: { name: `Writes ${channels}`, url: `writes-${backend}-${channels}`, categoryId: 1, timezone: zone } });
    expect(created.statusCode, created.body).toBe(201);
    return created.json().data.id as number;
  };
  const block = (channelId: number, body: object) => s.call('POST', `/channels/${channelId}/schedules`, { body });

  it('a daily loop: full-day slots preview and apply alike, each day holding at most the bound with the loop (was refused at 729 videos)', async () => {
    const id = await channel('UTC');
    expect((await block(id, { startTime: '2027-03-01T23:50:00', loopDaily: true, videoIds: Array(9).fill(MINUTE) })).statusCode).toBe(201);
    const body = { from: '2027-03-02', to: '2027-03-03', slots: [{ days: [1, 2, 3, 4, 5, 6, 7], start: '00:00', videoIds: [MINUTE], order: 'inOrder' }] };
    const preview = await s.call('POST', `/channels/${id}/programming/preview`, { body });
    expect(preview.statusCode, preview.body).toBe(200);
    const planned = preview.json().data;
    expect(planned.conflicts).toEqual([]);
    expect(planned.blocks.map((b: any) => b.videoIds.length)).toEqual([MAX_DAY_ENTRIES - 9, MAX_DAY_ENTRIES - 9]);
    const applied = await s.call('POST', `/channels/${id}/programming/apply`, { body });
    expect(applied.statusCode, applied.body).toBe(201);
    expect(applied.json().data.items.map((b: any) => [b.startTime, b.videoIds])).toEqual(planned.blocks.map((b: any) => [b.startTime, b.videoIds]));
    // A day the loop and a kept block fill: the slot is left out, with a warning saying why.
    expect((await block(id, { startTime: '2027-03-05T00:00:00', videoIds: Array(MAX_DAY_ENTRIES - 9).fill(SECOND) })).statusCode).toBe(201);
    const full = (
      await s.call('POST', `/channels/${id}/programming/preview`, { body: { ...body, from: '2027-03-05', to: '2027-03-05', slots: [{ ...body.slots[0], start: '01:00' }] } })
    ).json().data;
    expect(full.blocks).toEqual([]);
    expect(full.warnings[0].message).toContain(`already holds ${MAX_DAY_ENTRIES} videos and live streams`);
  });

  it('whatever a preview accepts, the apply accepts and writes as previewed (loops, kept blocks and live streams counted)', async () => {
    const video = fc.constantFrom(SECOND, HALF, MINUTE);
    const time = fc.tuple(fc.integer({ min: 0, max: 23 }), fc.constantFrom(0, 15, 30, 45)).map(([h, m]) => `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`);
    const arb = fc.record({
      zone: fc.constantFrom('UTC', 'Europe/Berlin', 'America/New_York'),
      loops: fc.array(fc.record({ time, day: fc.integer({ min: 0, max: 3 }), videos: fc.integer({ min: 1, max: 400 }) }), { maxLength: 2 }),
      kept: fc.array(fc.record({ time, day: fc.integer({ min: 0, max: 3 }), videos: fc.integer({ min: 1, max: 400 }) }), { maxLength: 3 }),
      streams: fc.array(fc.record({ hour: fc.integer({ min: 0, max: 23 }), day: fc.integer({ min: 0, max: 3 }) }), { maxLength: 3 }),
      slots: fc.array(fc.record({ start: time, videoIds: fc.array(video, { minLength: 1, maxLength: 3 }) }), { minLength: 1, maxLength: 3 }),
      days: fc.integer({ min: 1, max: 3 }),
      fill: fc.boolean(),
      replace: fc.boolean(),
    });
    // Around the spring-forward change of Europe/Berlin and America/New_York (2027-03-28, 2027-03-14).
    const dates = ['2027-03-12', '2027-03-13', '2027-03-14', '2027-03-15'];
    await fc.assert(
      fc.asyncProperty(arb, async (p) => {
        const id = await channel(p.zone);
        for (const l of p.loops) await block(id, { startTime: `${dates[l.day]}T${l.time}:00`, loopDaily: true, videoIds: Array(l.videos).fill(SECOND), allowOverlap: true });
        for (const k of p.kept) await block(id, { startTime: `${dates[k.day]}T${k.time}:00`, videoIds: Array(k.videos).fill(SECOND), allowOverlap: true });
        for (const l of p.streams) {
          const start = new Date(`${dates[l.day]}T${String(l.hour).padStart(2, '0')}:00:00Z`);
          await s.call('POST', `/channels/${id}/live-streams`, { body: { videoId: MINUTE, start: start.toISOString(), end: new Date(start.getTime() + 600_000).toISOString() } });
        }
        const slots = p.slots.map((slot, i) => ({ days: [1, 2, 3, 4, 5, 6, 7], start: slot.start, videoIds: slot.videoIds, order: 'inOrder', seed: i }));
        // Slots may not share a start: keep the first of each.
        const plan = slots.filter((slot, i) => slots.findIndex((o) => o.start === slot.start) === i);
        const body = { from: dates[1], to: dates[p.days], slots: plan, fill: p.fill, fillerVideoIds: [SECOND, HALF], replace: p.replace };
        const preview = await s.call('POST', `/channels/${id}/programming/preview`, { body });
        expect(preview.statusCode, preview.body).toBe(200);
        const planned = preview.json().data;
        if (planned.conflicts.length > 0 || planned.blocks.length === 0) return;
        const applied = await s.call('POST', `/channels/${id}/programming/apply`, { body });
        expect(applied.statusCode, applied.body).toBe(201);
        expect(applied.json().data.items.map((b: any) => [b.startTime, b.videoIds])).toEqual(planned.blocks.map((b: any) => [b.startTime, b.videoIds]));
      }),
      { numRuns: Number(process.env.WRITES_RUNS ?? 25), seed: Number(process.env.WRITES_SEED ?? 37) },
    );
  }, 300_000);

  it('a long block reaching from days before, and a loop meeting a block weeks later, are found', async () => {
    const id = await channel('Europe/Berlin');
    // 72 one-hour videos: three days from 2027-04-01 00:00.
    expect((await block(id, { startTime: '2027-04-01T00:00:00', videoIds: Array(72).fill(HOUR) })).statusCode).toBe(201);
    const reached = await block(id, { startTime: '2027-04-03T20:00:00', videoIds: [MINUTE] });
    expect(reached.statusCode).toBe(409);
    expect(reached.json().error.message).toContain(`overlaps the 'One hour' block (2027-04-01T00:00:00+02:00 `);
    expect((await block(id, { startTime: '2027-04-04T00:30:00', videoIds: [MINUTE] })).statusCode).toBe(201);
    // A block six weeks later at 21:00, then a loop from April at 20:59 running two minutes.
    const later = await block(id, { startTime: '2027-05-20T21:00:00', videoIds: [MINUTE] });
    expect(later.statusCode).toBe(201);
    const loop = await block(id, { startTime: '2027-04-10T20:59:30', loopDaily: true, videoIds: [MINUTE] });
    expect(loop.statusCode).toBe(409);
    expect(loop.json().error.message).toContain(`overlaps the 'One minute' block (2027-05-20T21:00:00+02:00 `);
    expect((await block(id, { startTime: '2027-04-10T20:58:00', loopDaily: true, videoIds: [MINUTE] })).statusCode).toBe(201);
  });

  it('a block write checked on its days answers what a comparison with every block answers (long blocks, loops, DST, a skipped day)', async () => {
    const SECONDS: Record<number, number> = { [SECOND]: 1, [HALF]: 30, [MINUTE]: 60, [HOUR]: 3600 };
    const TITLES: Record<number, string> = { [SECOND]: 'One second', [HALF]: 'Half a minute', [MINUTE]: 'One minute', [HOUR]: 'One hour' };
    const two = (n: number) => String(n).padStart(2, '0');
    const blockArb = fc.record({
      day: fc.integer({ min: 0, max: 5 }),
      hour: fc.integer({ min: 0, max: 23 }),
      minute: fc.constantFrom(0, 20, 40, 59),
      loopDaily: fc.integer({ min: 0, max: 4 }).map((n) => n === 0),
      videoIds: fc.oneof(fc.array(fc.constantFrom(SECOND, HALF, MINUTE, HOUR), { minLength: 1, maxLength: 3 }), fc.constant(Array<number>(30).fill(HOUR))) as fc.Arbitrary<
        number[]
      >,
    });
    const arb = fc.record({
      where: fc.constantFrom(
        { zone: 'Europe/Berlin', base: '2027-03-26' },
        { zone: 'America/New_York', base: '2027-11-05' },
        { zone: 'Pacific/Apia', base: '2011-12-27' },
        { zone: 'UTC', base: '2027-06-01' },
      ),
      stored: fc.array(blockArb, { maxLength: 6 }),
      candidate: blockArb,
    });
    await fc.assert(
      fc.asyncProperty(arb, async ({ where: { zone, base }, stored, candidate }) => {
        const id = await channel(zone);
        const bodyOf = (b: typeof candidate) => ({ startTime: `${addDays(base, b.day)}T${two(b.hour)}:${two(b.minute)}:00`, loopDaily: b.loopDaily, videoIds: b.videoIds });
        const spans = [];
        const firstVideoOf = new Map<number, number>();
        for (const b of stored) {
          const created = await block(id, { ...bodyOf(b), allowOverlap: true });
          expect(created.statusCode, created.body).toBe(201);
          const { id: blockId, startTime, loopDaily, videoIds } = created.json().data;
          firstVideoOf.set(blockId, videoIds[0]);
          spans.push({ id: blockId, startLocal: startTime, loopDaily, lengthMs: spanMs(videoIds.map((v: number) => SECONDS[v]!)) });
        }
        const body = bodyOf(candidate);
        const expected = firstOverlap({ id: -1, startLocal: body.startTime, loopDaily: body.loopDaily, lengthMs: spanMs(body.videoIds.map((v) => SECONDS[v]!)) }, spans, zone);
        const answer = await block(id, body);
        if (expected) {
          expect(answer.statusCode, answer.body).toBe(409);
          expect(answer.json().error.message).toContain(
            `overlaps the '${TITLES[firstVideoOf.get(expected.other.blockId)!]}' block (${formatZoned(expected.other.start, zone)} to ${formatZoned(expected.other.end, zone)})`,
          );
        } else {
          expect(answer.statusCode, answer.body).toBe(201);
        }
      }),
      { numRuns: Number(process.env.WRITES_RUNS ?? 40), seed: Number(process.env.WRITES_SEED ?? 37) },
    );
  }, 300_000);
});
