import { describe, expect, it } from 'vitest';
import { Overlaps, firstOverlap, formatZoned, occurrenceOn, overlapBetween, spanMs, type Overlap, type SpanBlock } from '../src/schedules/overlaps.ts';
import { mulberry32 } from '../src/random.ts';

const NY = 'America/New_York';
const H = 3_600_000;
const M = 60_000;
const block = (id: number, startLocal: string, lengthMs: number, loopDaily = false): SpanBlock => ({ id, startLocal, loopDaily, lengthMs });
/** The overlap as local texts: [block's date, its span, the other's id, date, span]. */
const shown = (a: SpanBlock, b: SpanBlock, zone = NY) => {
  const o = overlapBetween(a, b, zone);
  return (
    o && [
      o.block.date,
      formatZoned(o.block.start, zone),
      formatZoned(o.block.end, zone),
      o.other.blockId,
      o.other.date,
      formatZoned(o.other.start, zone),
      formatZoned(o.other.end, zone),
    ]
  );
};

/** Seeded, so a failure replays; random(n) is in [0, n). */
function randomInts(seed: number) {
  const next = mulberry32(seed);
  return (n: number) => (next() * n) | 0;
}

describe('schedule overlaps', () => {
  it('measures a block as the expansion chains its videos', () => {
    expect(spanMs([600.5, 120.25, 600.5])).toBe(1_321_250);
    expect(spanMs([0.1, 0.2])).toBe(300);
    expect(spanMs([-5, Number.NaN, 60])).toBe(60_000);
    expect(spanMs([])).toBe(0);
  });

  it('compares two one-off blocks: touching spans do not overlap', () => {
    const a = block(1, '2026-11-21T08:00:00', H);
    expect(overlapBetween(a, block(2, '2026-11-21T09:00:00', H), NY)).toBeUndefined();
    expect(overlapBetween(a, block(2, '2026-11-21T07:00:00', H), NY)).toBeUndefined();
    expect(shown(a, block(2, '2026-11-21T08:59:59', H))).toEqual([
      '2026-11-21',
      '2026-11-21T08:00:00-05:00',
      '2026-11-21T09:00:00-05:00',
      2,
      '2026-11-21',
      '2026-11-21T08:59:59-05:00',
      '2026-11-21T09:59:59-05:00',
    ]);
    expect(overlapBetween(a, block(2, '2026-11-22T08:00:00', H), NY)).toBeUndefined();
  });

  it('follows a block across midnight into the next day', () => {
    const late = block(1, '2026-11-21T23:30:00', H);
    expect(shown(late, block(2, '2026-11-22T00:15:00', 10 * M))?.slice(3, 5)).toEqual([2, '2026-11-22']);
    expect(overlapBetween(late, block(2, '2026-11-22T00:30:00', 10 * M), NY)).toBeUndefined();
  });

  it('a zero-length block conflicts only strictly inside another span', () => {
    const a = block(1, '2026-11-21T08:00:00', H);
    expect(overlapBetween(block(2, '2026-11-21T08:30:00', 0), a, NY)).toBeDefined();
    expect(overlapBetween(block(2, '2026-11-21T08:00:00', 0), a, NY)).toBeUndefined();
    expect(overlapBetween(block(2, '2026-11-21T09:00:00', 0), a, NY)).toBeUndefined();
  });

  it('meets a loopDaily block on any day from its start date on, never before', () => {
    const loop = block(9, '2026-11-18T22:00:00', 2 * M, true);
    expect(shown(block(1, '2026-11-21T22:01:00', M), loop)?.slice(3, 5)).toEqual([9, '2026-11-21']);
    expect(shown(loop, block(1, '2026-11-21T22:01:00', M))?.slice(0, 1)).toEqual(['2026-11-21']);
    expect(overlapBetween(block(1, '2026-11-17T22:01:00', M), loop, NY)).toBeUndefined();
    expect(shown(block(1, '2031-07-04T21:59:00', 2 * M), loop)?.slice(3, 5)).toEqual([9, '2031-07-04']);
    expect(overlapBetween(block(1, '2031-07-04T22:02:00', M), loop, NY)).toBeUndefined();
  });

  it("meets a loop crossing midnight on the day after its occurrence, and a one-off crossing into a loop's first day", () => {
    const loop = block(9, '2026-11-18T23:00:00', 2 * H, true);
    expect(shown(block(1, '2026-12-01T00:30:00', 10 * M), loop)?.slice(3, 5)).toEqual([9, '2026-11-30']);
    expect(overlapBetween(block(1, '2026-12-01T01:00:00', 10 * M), loop, NY)).toBeUndefined();
    const eve = block(1, '2026-11-20T23:30:00', H);
    expect(shown(eve, block(9, '2026-11-21T00:00:00', 10 * M, true))?.slice(3, 5)).toEqual([9, '2026-11-21']);
    expect(overlapBetween(eve, block(9, '2026-11-21T00:30:00', 10 * M, true), NY)).toBeUndefined();
  });

  it('resolves a fall-back day (25 h) in instants: a 2.5 h block from midnight ends at 01:30 EST', () => {
    const fromMidnight = block(1, '2026-11-01T00:00:00', 2.5 * H);
    expect(overlapBetween(fromMidnight, block(2, '2026-11-01T02:00:00', H), NY)).toBeUndefined();
    expect(overlapBetween(block(1, '2026-11-02T00:00:00', 2.5 * H), block(2, '2026-11-02T02:00:00', H), NY)).toBeDefined();
    // A wall time of the repeated hour is its first pass (EDT), as the expansion plays it.
    expect(shown(fromMidnight, block(2, '2026-11-01T01:15:00', 10 * M))).toEqual([
      '2026-11-01',
      '2026-11-01T00:00:00-04:00',
      '2026-11-01T01:30:00-05:00',
      2,
      '2026-11-01',
      '2026-11-01T01:15:00-04:00',
      '2026-11-01T01:25:00-04:00',
    ]);
    const loop = block(9, '2026-10-25T00:00:00', 2.5 * H, true);
    expect(overlapBetween(block(1, '2026-11-01T02:00:00', H), loop, NY)).toBeUndefined();
    expect(shown(block(1, '2026-11-02T02:00:00', H), loop)?.slice(3, 5)).toEqual([9, '2026-11-02']);
  });

  it('compares two loops on every day: a spring-forward day (23 h) makes them meet once a year', () => {
    const early = block(1, '2026-03-01T01:00:00', 1.5 * H, true);
    const late = block(2, '2026-03-01T03:00:00', 30 * M, true);
    expect(shown(early, late)).toEqual([
      '2026-03-08',
      '2026-03-08T01:00:00-05:00',
      '2026-03-08T03:30:00-04:00',
      2,
      '2026-03-08',
      '2026-03-08T03:00:00-04:00',
      '2026-03-08T03:30:00-04:00',
    ]);
    expect(shown(late, early)?.[0]).toBe('2026-03-08');
    // Started after this spring's change, they still meet on next year's.
    expect(shown(block(1, '2026-05-01T01:00:00', 1.5 * H, true), block(2, '2026-06-01T03:00:00', 30 * M, true))?.[0]).toBe('2027-03-14');
    // In a zone without DST they never do.
    expect(overlapBetween(early, late, 'UTC')).toBeUndefined();
    // Loops that overlap every day meet on the first day both play.
    expect(shown(block(1, '2026-11-01T08:00:00', H, true), block(2, '2026-11-10T08:30:00', H, true))?.[0]).toBe('2026-11-10');
    // One started the day before the other reaches into the other's first day across midnight.
    expect(shown(block(1, '2026-11-09T23:00:00', 2 * H, true), block(2, '2026-11-10T00:30:00', H, true))?.slice(0, 5)).toEqual([
      '2026-11-09',
      expect.any(String),
      expect.any(String),
      2,
      '2026-11-10',
    ]);
  });

  it('firstOverlap skips the block itself and answers the earliest overlap', () => {
    const mine = block(1, '2026-11-21T08:00:00', 3 * H);
    const others = [block(1, '2026-11-21T08:00:00', 3 * H), block(7, '2026-11-21T10:00:00', H), block(5, '2026-11-21T09:00:00', H), block(3, '2026-11-21T12:00:00', H)];
    const found = firstOverlap(mine, others, NY);
    expect(found?.other.blockId).toBe(5);
    expect(firstOverlap(mine, [others[0]!, others[3]!], NY)).toBeUndefined();
  });

  it("an occurrence is on the block's date, or any later date for a loop", () => {
    const once = block(1, '2026-11-21T08:00:00', H);
    expect(occurrenceOn(once, '2026-11-22', NY)).toBeNull();
    const loop = block(2, '2026-11-21T08:00:00', H, true);
    expect(occurrenceOn(loop, '2026-11-20', NY)).toBeNull();
    expect(occurrenceOn(loop, '2027-01-01', NY)).toEqual({ blockId: 2, date: '2027-01-01', start: Date.parse('2027-01-01T13:00:00Z'), end: Date.parse('2027-01-01T14:00:00Z') });
    // A wall time in a spring-forward gap is shifted forward, as the expansion does.
    expect(formatZoned(occurrenceOn(block(3, '2026-03-08T02:30:00', H), '2026-03-08', NY)!.start, NY)).toBe('2026-03-08T03:30:00-04:00');
  });

  it('the index answers what comparing every pair answers (random blocks around DST days, fixed seed)', () => {
    const random = randomInts(20261101);
    const two = (n: number) => String(n).padStart(2, '0');
    const randomBlock = (id: number): SpanBlock => {
      const day = ['2026-10-30', '2026-10-31', '2026-11-01', '2026-11-02', '2027-03-13', '2027-03-14'][random(6)]!;
      const lengths = [0, 10 * M, 50 * M, 2 * H, 5 * H, 26 * H];
      return block(id, `${day}T${two(random(24))}:${two(random(4) * 15)}:00`, lengths[random(lengths.length)]!, random(5) === 0);
    };
    const earliest = (a: Overlap | undefined, b: Overlap | undefined) =>
      !a ? b : !b ? a : (b.block.start - a.block.start || b.other.start - a.other.start || b.other.blockId - a.other.blockId) < 0 ? b : a;
    for (let round = 0; round < 30; round++) {
      const blocks = Array.from({ length: 12 }, (_, i) => randomBlock(i + 1));
      const index = new Overlaps(NY);
      for (const b of blocks) {
        const expected = [...blocks.slice(0, blocks.indexOf(b))].reduce<Overlap | undefined>((found, other) => earliest(found, overlapBetween(b, other, NY)), undefined);
        expect(index.first(b), `round ${round}, block ${JSON.stringify(b)}`).toEqual(expected);
        index.add(b);
      }
    }
  });

  it('finds an overlap exactly when playing every day of two years finds one (random blocks, fixed seed)', () => {
    const random = randomInts(7);
    const two = (n: number) => String(n).padStart(2, '0');
    const days: string[] = [];
    for (let d = new Date(Date.UTC(2026, 9, 25)); d < new Date(Date.UTC(2028, 3, 1)); d.setUTCDate(d.getUTCDate() + 1)) days.push(d.toISOString().slice(0, 10));
    // Mostly around the night hours a DST change moves, where a 23- or 25-hour day decides.
    const lengths = [0, 30 * M, 60 * M, 90 * M, 2 * H, 2.5 * H, 23.5 * H, 26 * H];
    const hours = [0, 1, 2, 3, 4, 22, 23, 12];
    for (let round = 0; round < 300; round++) {
      const make = (id: number) => {
        // Loops start away from a DST day (so only the days around later changes show them meeting), one-off blocks on and around them.
        const loop = random(3) > 0;
        const day = loop
          ? ['2026-10-20', '2026-12-01', '2027-01-15', '2027-06-01'][random(4)]!
          : ['2026-10-31', '2026-11-01', '2026-11-02', '2027-03-13', '2027-03-14'][random(5)]!;
        return block(id, `${day}T${two(hours[random(hours.length)]!)}:${two(random(4) * 15)}:00`, lengths[random(lengths.length)]!, loop);
      };
      const a = make(1);
      const b = make(2);
      const played = (x: SpanBlock) => days.map((d) => occurrenceOn(x, d, NY));
      const [pa, pb] = [played(a), played(b)];
      let met = false;
      for (let i = 0; i < days.length && !met; i++) {
        for (let j = Math.max(0, i - 2); j <= Math.min(days.length - 1, i + 2) && !met; j++) {
          const [x, y] = [pa[i], pb[j]];
          if (x && y && x.start < y.end && y.start < x.end) met = true;
        }
      }
      expect(overlapBetween(a, b, NY) !== undefined, `${JSON.stringify(a)} ${JSON.stringify(b)}`).toBe(met);
      expect(overlapBetween(b, a, NY) !== undefined).toBe(met);
    }
  });

  it('an index takes blocks as they are accepted', () => {
    const index = new Overlaps(NY, [block(1, '2026-11-21T08:00:00', H)]);
    const next = block(2, '2026-11-21T09:00:00', H);
    expect(index.first(next)).toBeUndefined();
    index.add(next);
    expect(index.first(block(3, '2026-11-21T09:30:00', 0))?.other.blockId).toBe(2);
    expect(index.first(block(3, '2026-11-21T07:00:00', 3 * H, true))?.other.blockId).toBe(1);
  });
});
