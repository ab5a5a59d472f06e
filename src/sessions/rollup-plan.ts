// Which parts of an owner read come from the daily rollups and which from raw sessions (issue 37).
// A read asks for buckets between instants (trend days in any zone, summary ranges and UTC days);
// the rollups know closed sessions per UTC day to the quarter-hour, so every quarter-hour lying
// wholly inside one bucket is read from them, and only the quarter-hours a bound cuts (at most
// 15 minutes around each unaligned bound: the ends of a summary's range, the midnights of zones
// whose offset is not a whole quarter-hour, such as the local mean times before 1972) are read
// raw. Open sessions are always read raw (they are rolled up as they close). Pure.

import type { RollupPiece, RollupPlan } from '../data/watch-rollups.ts';

export type { RollupPiece, RollupPlan };

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
