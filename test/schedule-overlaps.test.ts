import { describe, expect, it } from 'vitest';
import { firstOverlap, formatZoned, occurrenceOn, overlapBetween, spanMs, type SpanBlock } from '../src/schedules/overlaps.ts';

const NY = 'America/New_York';
const H = 3_600_000;
const M = 60_000;
const block = (id: number, startLocal: string, lengthMs: number, loopDaily = false): SpanBlock => ({ id, startLocal, loopDaily, lengthMs });
/** The overlap as local texts: [block's date, its span, the other's id, date, span]. */
const shown = (a: SpanBlock, b: SpanBlock, zone = NY) => {
  const o = overlapBetween(a, b, zone);
  return o && [o.block.date, formatZoned(o.block.start, zone), formatZoned(o.block.end, zone), o.other.blockId, o.other.date, formatZoned(o.other.start, zone), formatZoned(o.other.end, zone)];
};

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
      '2026-11-21', '2026-11-21T08:00:00-05:00', '2026-11-21T09:00:00-05:00', 2, '2026-11-21', '2026-11-21T08:59:59-05:00', '2026-11-21T09:59:59-05:00',
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

  it('meets a loop crossing midnight on the day after its occurrence, and a one-off crossing into a loop\'s first day', () => {
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
      '2026-11-01', '2026-11-01T00:00:00-04:00', '2026-11-01T01:30:00-05:00', 2, '2026-11-01', '2026-11-01T01:15:00-04:00', '2026-11-01T01:25:00-04:00',
    ]);
    const loop = block(9, '2026-10-25T00:00:00', 2.5 * H, true);
    expect(overlapBetween(block(1, '2026-11-01T02:00:00', H), loop, NY)).toBeUndefined();
    expect(shown(block(1, '2026-11-02T02:00:00', H), loop)?.slice(3, 5)).toEqual([9, '2026-11-02']);
  });

  it('compares two loops on every day: a spring-forward day (23 h) makes them meet once a year', () => {
    const early = block(1, '2026-03-01T01:00:00', 1.5 * H, true);
    const late = block(2, '2026-03-01T03:00:00', 30 * M, true);
    expect(shown(early, late)).toEqual([
      '2026-03-08', '2026-03-08T01:00:00-05:00', '2026-03-08T03:30:00-04:00', 2, '2026-03-08', '2026-03-08T03:00:00-04:00', '2026-03-08T03:30:00-04:00',
    ]);
    expect(shown(late, early)?.[0]).toBe('2026-03-08');
    // Started after this spring's change, they still meet on next year's.
    expect(shown(block(1, '2026-05-01T01:00:00', 1.5 * H, true), block(2, '2026-06-01T03:00:00', 30 * M, true))?.[0]).toBe('2027-03-14');
    // In a zone without DST they never do.
    expect(overlapBetween(early, late, 'UTC')).toBeUndefined();
    // Loops that overlap every day meet on the first day both play.
    expect(shown(block(1, '2026-11-01T08:00:00', H, true), block(2, '2026-11-10T08:30:00', H, true))?.[0]).toBe('2026-11-10');
    // One started the day before the other reaches into the other's first day across midnight.
    expect(shown(block(1, '2026-11-09T23:00:00', 2 * H, true), block(2, '2026-11-10T00:30:00', H, true))?.slice(0, 5)).toEqual(['2026-11-09', expect.any(String), expect.any(String), 2, '2026-11-10']);
  });

  it('firstOverlap skips the block itself and answers the earliest overlap', () => {
    const mine = block(1, '2026-11-21T08:00:00', 3 * H);
    const others = [block(1, '2026-11-21T08:00:00', 3 * H), block(7, '2026-11-21T10:00:00', H), block(5, '2026-11-21T09:00:00', H), block(3, '2026-11-21T12:00:00', H)];
    const found = firstOverlap(mine, others, NY);
    expect(found?.other.blockId).toBe(5);
    expect(firstOverlap(mine, [others[0]!, others[3]!], NY)).toBeUndefined();
  });

  it('an occurrence is on the block\'s date, or any later date for a loop', () => {
    const once = block(1, '2026-11-21T08:00:00', H);
    expect(occurrenceOn(once, '2026-11-22', NY)).toBeNull();
    const loop = block(2, '2026-11-21T08:00:00', H, true);
    expect(occurrenceOn(loop, '2026-11-20', NY)).toBeNull();
    expect(occurrenceOn(loop, '2027-01-01', NY)).toEqual({ blockId: 2, date: '2027-01-01', start: Date.parse('2027-01-01T13:00:00Z'), end: Date.parse('2027-01-01T14:00:00Z') });
    // A wall time in a spring-forward gap is shifted forward, as the expansion does.
    expect(formatZoned(occurrenceOn(block(3, '2026-03-08T02:30:00', H), '2026-03-08', NY)!.start, NY)).toBe('2026-03-08T03:30:00-04:00');
  });
});
