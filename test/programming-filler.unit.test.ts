// Filler that pads (issue 36 item 3): pre-, mid- and post-roll, padding to the next :00/:15/:30,
// the channel's dead-air fallback, and the dead air a generation declares. Examples, then
// properties over generated plans: no block is longer than its slot; padding never runs past
// the next programme or the slot's end; every minute of a generated week is a programme, filler
// or declared dead air.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { wallTimeToEpoch } from '../src/schedules/expand.ts';
import { canonicalSlot, generate, nextBoundary, type GenerateInput, type Slot } from '../src/schedules/programming.ts';

const at = (wall: string, zone = 'UTC') => {
  const [date, time] = wall.split('T') as [string, string];
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const [hour, minute, second = 0] = time.split(':').map(Number) as [number, number, number?];
  return wallTimeToEpoch({ year, month, day, hour, minute, second, millisecond: 0 }, zone);
};
const EVERY_DAY = [1, 2, 3, 4, 5, 6, 7];
// Programme videos 1-3 (10, 15, 20 min); rolls 20-22 (30 s, 45 s, 1 min); filler 30-32 (1, 2, 5 min); fallback 40 (10 min).
const durations = new Map([
  [1, 600],
  [2, 900],
  [3, 1200],
  [20, 30],
  [21, 45],
  [22, 60],
  [30, 60],
  [31, 120],
  [32, 300],
  [40, 600],
]);
const input = (over: Partial<GenerateInput>): GenerateInput => ({ zone: 'UTC', from: '2026-12-07', to: '2026-12-07', slots: [], durations, busy: [], ...over });

describe('filler that pads', () => {
  it('plays a pre-roll before the programme, a mid-roll between its videos and a post-roll after it', () => {
    const slot: Slot = { days: EVERY_DAY, start: '06:00', end: '06:45', videoIds: [1, 2], order: 'inOrder', rolls: { preRoll: [20], midRoll: [21], postRoll: [22] } };
    const g = generate(input({ slots: [slot] }));
    const block = g.blocks[0]!;
    // 30 + 600 + 45 + 900 + 45 + 600 + 60 = 2280 s; the next 15-minute video with its mid-roll would pass 06:45.
    expect(block.videoIds).toEqual([20, 1, 21, 2, 21, 1, 22]);
    expect(block.roles).toEqual(['preRoll', 'programme', 'midRoll', 'programme', 'midRoll', 'programme', 'postRoll']);
    expect(block.fillerVideos).toBe(4);
  });

  it('leaves out roll videos of 0 s, and plays no roll that does not fit with the video after it', () => {
    const zero = new Map([...durations, [50, 0]]);
    const slot: Slot = { days: EVERY_DAY, start: '06:00', end: '06:20', videoIds: [3], order: 'inOrder', rolls: { preRoll: [50, 20], midRoll: [22] } };
    const g = generate(input({ slots: [slot], durations: zero }));
    // 30 s pre-roll + 20 min does not fit in 20 min: the programme plays without it.
    expect(g.blocks[0]!.roles).toEqual(['programme']);
    const roomy = generate(input({ slots: [{ ...slot, end: '06:30' }], durations: zero }));
    expect(roomy.blocks[0]!.videoIds).toEqual([20, 3]);
  });

  it('pads to the next quarter hour with the filler, never past the slot end, and fills the rest with the fallback', () => {
    const slot: Slot = { days: EVERY_DAY, start: '06:00', end: '06:35', videoIds: [3], order: 'inOrder', padTo: 15 };
    // 06:00 + 20 min = 06:20 (the next 20 min would pass 06:35); padding to 06:30: 5 min + 5 min of
    // filler 32; then the fallback (1 min) to 06:35.
    const g = generate(input({ slots: [slot], padding: [30, 31, 32], fallback: [30] }));
    expect(g.blocks[0]!.roles).toEqual(['programme', 'padding', 'padding', ...Array(5).fill('fallback')]);
    expect(g.blocks[0]!.videoIds).toEqual([3, 32, 32, 30, 30, 30, 30, 30]);
    expect(g.blocks[0]!.end).toBe(at('2026-12-07T06:35'));
    // Padding to the hour stops at the slot's end (06:35), not 07:00.
    const hour = generate(input({ slots: [{ ...slot, padTo: 60 }], padding: [30, 31, 32] }));
    expect(hour.blocks[0]!.videoIds).toEqual([3, 32, 32, 32]);
    expect(hour.blocks[0]!.end).toBe(at('2026-12-07T06:35'));
  });

  it("pads on the channel zone's wall clock (a half-hour zone)", () => {
    const zone = 'Asia/Kolkata';
    expect(nextBoundary(at('2026-12-07T06:20', zone), 30, zone)).toBe(at('2026-12-07T06:30', zone));
    expect(nextBoundary(at('2026-12-07T06:20', zone), 60, zone)).toBe(at('2026-12-07T07:00', zone));
    expect(nextBoundary(at('2026-12-07T06:45', zone), 15, zone)).toBe(at('2026-12-07T06:45', zone));
  });

  it('declares the dead air that remains, labelled by whose time it is', () => {
    const slots: Slot[] = [
      { days: EVERY_DAY, start: '06:00', end: '06:30', videoIds: [3], order: 'inOrder' },
      { days: EVERY_DAY, start: '20:00', videoIds: [], order: 'inOrder', offAir: true },
    ];
    const g = generate(input({ slots }));
    expect(g.deadAir.map((d) => [d.reason, d.slot, d.end - d.start])).toEqual([
      ['noSlot', null, 6 * 3_600_000],
      ['remainder', 0, 10 * 60_000], // 06:20 to 06:30: the slot's own time after its videos
      ['afterEnd', 0, 13 * 3_600_000 + 30 * 60_000], // 06:30 to 20:00: the slot has ended, no slot runs after it
      ['offAir', 1, 4 * 3_600_000],
    ]);
    // With the fallback, the slot's own remainder is filled (06:20-06:30); after its end, dead air stays.
    const withFallback = generate(input({ slots, fallback: [40] }));
    expect(withFallback.blocks[0]!.roles).toEqual(['programme', 'fallback']);
    expect(withFallback.deadAir.map((d) => d.reason)).toEqual(['noSlot', 'afterEnd', 'offAir']);
    expect(withFallback.deadAir[1]!.start).toBe(at('2026-12-07T06:30'));
  });

  it('keeps the rolls and padTo in a stored slot (canonical order), and drops nulls', () => {
    const slot = canonicalSlot({ padTo: 30, postRoll: { collectionId: 3 }, preRoll: null, days: [1], start: '06:00', videoIds: [1], order: 'inOrder' } as Slot);
    expect(slot).toEqual({ days: [1], start: '06:00', videoIds: [1], order: 'inOrder', postRoll: { collectionId: 3 }, padTo: 30 });
    expect(Object.keys(slot)).toEqual(['days', 'start', 'videoIds', 'order', 'postRoll', 'padTo']);
  });
});

// ---------------------------------------------------------------- properties

const ZONES = ['UTC', 'America/New_York', 'Asia/Kolkata', 'Australia/Lord_Howe'];
const hhmm = fc.tuple(fc.integer({ min: 0, max: 23 }), fc.constantFrom(0, 10, 15, 30, 45)).map(([h, m]) => `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`);
const videoDurations = fc.array(fc.integer({ min: 20, max: 3_000 }), { minLength: 12, maxLength: 12 });
const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
const list = fc.array(fc.integer({ min: 1, max: 12 }), { minLength: 1, maxLength: 4 });
const slotArb: fc.Arbitrary<Slot> = fc
  .record({
    days: fc.uniqueArray(fc.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 7 }),
    start: hhmm,
    end: maybe(hhmm),
    offAir: fc.boolean(),
    videoIds: list,
    order: fc.constantFrom('inOrder' as const, 'shuffle' as const, 'leastRecentlyAired' as const),
    padTo: maybe(fc.constantFrom(15 as const, 30 as const, 60 as const)),
    pre: maybe(list),
    mid: maybe(list),
    post: maybe(list),
  })
  .map(({ pre, mid, post, end, offAir, padTo, ...s }) =>
    offAir
      ? { ...s, videoIds: [], offAir: true }
      : {
          ...s,
          ...(end !== undefined && end !== s.start ? { end } : {}),
          ...(padTo ? { padTo } : {}),
          rolls: { ...(pre ? { preRoll: pre } : {}), ...(mid ? { midRoll: mid } : {}), ...(post ? { postRoll: post } : {}) },
        },
  );
const planArb = fc.record({
  zone: fc.constantFrom(...ZONES),
  seconds: videoDurations,
  slots: fc.uniqueArray(slotArb, { minLength: 1, maxLength: 6, selector: (s) => s.start }),
  fill: fc.boolean(),
  padding: maybe(list),
  fallback: maybe(list),
  busy: fc.array(fc.tuple(fc.integer({ min: 0, max: 7 * 24 * 60 - 1 }), fc.integer({ min: 1, max: 300 })), { maxLength: 3 }),
});

describe('properties of generated weeks', () => {
  it('no block is longer than its slot; padding never runs past the next programme or the slot end; every minute is a programme, filler or declared dead air', () => {
    fc.assert(
      fc.property(planArb, (p) => {
        const durations = new Map(p.seconds.map((d, i) => [i + 1, d]));
        const from = '2026-10-26'; // a week across New York's and Lord Howe's clock changes
        const to = '2026-11-01';
        const weekStart = at(`${from}T00:00`, p.zone);
        const busy = p.busy.map(([minute, length], i) => ({ blockId: 1000 + i, start: weekStart + minute * 60_000, end: weekStart + (minute + length) * 60_000 }));
        const g = generate({
          zone: p.zone,
          from,
          to,
          slots: p.slots,
          durations,
          busy,
          ...(p.fill ? { filler: [1, 2, 3] } : {}),
          ...(p.padding ? { padding: p.padding } : {}),
          ...(p.fallback ? { fallback: p.fallback } : {}),
        });
        const starts = [...g.blocks.map((b) => b.start), ...busy.map((b) => b.start)].sort((a, b) => a - b);
        for (const b of g.blocks) {
          // Its videos, its roles, its length.
          expect(b.roles).toHaveLength(b.videoIds.length);
          const length = b.videoIds.reduce((n, id) => n + durations.get(id)!, 0) * 1000;
          expect(Math.abs(b.end - b.start - length)).toBeLessThan(1);
          expect(b.end).toBeLessThanOrEqual(b.slotEnd);
          // The next programme: the next generated block or a block that stays.
          const next = starts.find((s) => s > b.start) ?? Infinity;
          expect(b.end).toBeLessThanOrEqual(next + 1e-6);
          // Padding ends by the first boundary after the content before it.
          const slot = p.slots[b.slot]!;
          let t = b.start;
          let contentEnd = b.start;
          b.videoIds.forEach((id, i) => {
            const role = b.roles[i]!;
            t += durations.get(id)! * 1000;
            if (role !== 'padding' && role !== 'filler' && role !== 'fallback') contentEnd = t;
            if (role === 'padding') {
              expect(slot.padTo).toBeDefined();
              expect(t).toBeLessThanOrEqual(Math.min(nextBoundary(contentEnd, slot.padTo!, p.zone), b.slotEnd) + 1e-6);
            }
          });
        }
        // Every minute of the week: in a block, in a block that stays, or declared dead air.
        const covered = [...g.blocks.map((b) => [b.start, b.end] as const), ...busy.map((b) => [b.start, b.end] as const), ...g.deadAir.map((d) => [d.start, d.end] as const)].sort(
          (a, b) => a[0] - b[0],
        );
        const weekEnd = at('2026-11-02T00:00', p.zone);
        let k = 0;
        let reach = -Infinity;
        for (let minute = weekStart; minute < weekEnd; minute += 60_000) {
          while (k < covered.length && covered[k]![0] <= minute) reach = Math.max(reach, covered[k++]![1]);
          if (!(reach > minute)) throw new Error(`minute ${new Date(minute).toISOString()} is neither programme, filler nor dead air`);
        }
        // Dead air is never inside a generated block.
        for (const d of g.deadAir) for (const b of g.blocks) expect(d.end <= b.start || d.start >= b.end).toBe(true);
      }),
      { seed: 20261121, numRuns: 150 },
    );
  });
});
