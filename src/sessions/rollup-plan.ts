// Which parts of an owner read come from the daily rollups and which from raw sessions (issue 37).
// A read asks for buckets between instants (trend days in any zone, summary ranges and UTC days);
// the rollups know closed sessions per UTC day to the quarter-hour, so every quarter-hour lying
// wholly inside one bucket is read from them, and only the quarter-hours a bound cuts (at most
// 15 minutes around each unaligned bound: the ends of a summary's range, the midnights of zones
// whose offset is not a whole quarter-hour, such as the local mean times before 1972) are read
// raw. Open sessions are always read raw (they are rolled up as they close). Pure.

import type { DayShape, DevicePlan, RangeShape, RollupPiece, RollupPlan } from '../data/watch-rollups.ts';

export type { DevicePlan, RollupPiece, RollupPlan };

export const QUARTER_MS = 900_000;
export const DAY_MS = 86_400_000;

const floorQ = (t: number) => Math.floor(t / QUARTER_MS) * QUARTER_MS;
const ceilQ = (t: number) => Math.ceil(t / QUARTER_MS) * QUARTER_MS;
const isoDate = (t: number) => new Date(t).toISOString().slice(0, 10);

/** The plan for buckets [bounds[i], bounds[i + 1]) (epoch ms, strictly ascending, at least two). */
export function rollupPlan(bounds: readonly number[]): RollupPlan {
  const first = bounds[0]!;
  const last = bounds.at(-1)!;
  return { rawWindows: rawWindowsOf(bounds, first, last), pieces: bounds.slice(0, -1).flatMap((b, i) => piecesOf(i, ceilQ(b), floorQ(bounds[i + 1]!))) };
}

/** Everything raw: the reference the rollups are tested against. */
export function rawPlan(bounds: readonly number[]): RollupPlan {
  return { rawWindows: [[bounds[0]!, bounds.at(-1)!]], pieces: [] };
}

/** The quarter-hour around each unaligned bound, within [first, last), merged where they touch. */
function rawWindowsOf(bounds: readonly number[], first: number, last: number): [number, number][] {
  const windows: [number, number][] = [];
  for (const b of bounds) {
    if (b % QUARTER_MS === 0) continue;
    const lo = Math.max(floorQ(b), first);
    const hi = Math.min(ceilQ(b), last);
    if (lo >= hi) continue;
    const previous = windows.at(-1);
    if (previous && previous[1] >= lo) previous[1] = Math.max(previous[1], hi);
    else windows.push([lo, hi]);
  }
  return windows;
}

/** The aligned span [start, end) of bucket `bucket`, cut at UTC midnights. */
function piecesOf(bucket: number, start: number, end: number): RollupPiece[] {
  const pieces: RollupPiece[] = [];
  for (let day = Math.floor(start / DAY_MS) * DAY_MS; day < end; day += DAY_MS) {
    const lo = (Math.max(start, day) - day) / QUARTER_MS;
    const hi = (Math.min(end, day + DAY_MS) - day) / QUARTER_MS;
    if (lo < hi) pieces.push({ day: isoDate(day), bucket, lo, hi });
  }
  return pieces;
}

/**
 * How a trend read counts identified devices without reading device-days
 * (data/watch-rollups.ts deviceCounts), or null when a bucket or range has a shape the kept
 * counts cannot answer (any raw window; a piece that is neither a UTC day's start nor its end).
 * `days`: buckets before it are the previous range's.
 */
export function devicePlan(plan: RollupPlan, days: number): DevicePlan | null {
  if (plan.rawWindows.length > 0) return null;
  const byBucket = new Map<number, RollupPiece[]>();
  for (const p of plan.pieces) byBucket.set(p.bucket, [...(byBucket.get(p.bucket) ?? []), p]);
  const shapes: DayShape[] = [];
  for (const [bucket, pieces] of byBucket) {
    const shape = dayShapeOf(bucket, pieces);
    if (!shape) return null;
    shapes.push(shape);
  }
  const ranges: RangeShape[] = [];
  for (const current of [false, true]) {
    const range = rangeShapeOf(
      current,
      plan.pieces.filter((p) => p.bucket >= days === current),
    );
    if (!range) return null;
    ranges.push(range);
  }
  return { days: shapes, ranges };
}

const dayMs = (day: string) => Date.parse(`${day}T00:00:00Z`);
const shiftDay = (day: string, by: number) => isoDate(dayMs(day) + by * DAY_MS);

/** A zone day as (a, [from, 96)) and (a + 1, [0, to)): one UTC day's end and the next one's start. */
function dayShapeOf(bucket: number, pieces: RollupPiece[]): DayShape | null {
  const [first, second, ...more] = pieces;
  if (!first || more.length > 0) return null;
  if (!second) {
    if (first.hi === 96) return { bucket, day: first.day, from: first.lo, to: 0 };
    if (first.lo === 0) return { bucket, day: shiftDay(first.day, -1), from: 96, to: first.hi };
    return null;
  }
  if (first.hi !== 96 || second.lo !== 0 || second.day !== shiftDay(first.day, 1)) return null;
  return { bucket, day: first.day, from: first.lo, to: second.hi };
}

/** A range as its whole UTC days (consecutive) and its cut days (pair rows). */
function rangeShapeOf(current: boolean, pieces: RollupPiece[]): RangeShape | null {
  const spans = new Map<string, { lo: number; hi: number; quarters: number }>();
  for (const p of pieces) {
    const span = spans.get(p.day) ?? { lo: 96, hi: 0, quarters: 0 };
    spans.set(p.day, { lo: Math.min(span.lo, p.lo), hi: Math.max(span.hi, p.hi), quarters: span.quarters + p.hi - p.lo });
  }
  const whole: string[] = [];
  const edges: RangeShape['edges'] = [];
  for (const [day, { lo, hi, quarters }] of spans) {
    if (quarters !== hi - lo) return null;
    if (lo === 0 && hi === 96) whole.push(day);
    else if (hi === 96) edges.push({ day, max: true, q: lo });
    else if (lo === 0) edges.push({ day: shiftDay(day, -1), max: false, q: hi });
    else return null;
  }
  whole.sort();
  const [first, last] = [whole[0], whole.at(-1)];
  if (first === undefined || last === undefined) return { current, whole: null, edges };
  if ((dayMs(last) - dayMs(first)) / DAY_MS !== whole.length - 1) return null;
  return { current, whole: { first, last }, edges };
}
