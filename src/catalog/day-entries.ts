// How many entries a channel's schedule puts on each of its days, counted without expanding it:
// every read of a day (REST day, Custom guide, XMLTV, programme analytics) compiles that day's
// entries, so the most a day may hold bounds what any one of them can cost (README: Limits).
//
// A channel-day (a date of the channel's zone) holds every video of every block occurrence
// starting that day, published or not (one compiled day serves both views), whatever the videos'
// durations (a block running past midnight is its start day's), and every live stream starting
// that day: the blocks dated that day, the loopDaily blocks dated on or before it, the streams.
// Durations never change a count, so a video's duration change cannot grow a day; a 0-second
// video is an entry like any other, so repeating it cannot grow a day past the bound either.
import { fastLocalDate } from '../schedules/zone-offsets.ts';

/** Entries one channel-day may hold: one a minute on average (10x a day of ten-minute videos). */
export const MAX_DAY_ENTRIES = 1440;
/** Videos of one block: every video of a block plays on its day. */
export const MAX_BLOCK_VIDEOS = MAX_DAY_ENTRIES;

export interface DayBlock {
  /** 'yyyy-MM-ddTHH:mm:ss' wall time in the channel zone. */
  startTime: string;
  loopDaily: boolean;
  videoIds: readonly unknown[];
}

/** The busiest day of a channel past the bound: its date, its entries, and which block or stream to name. */
export interface CrowdedDay {
  date: string;
  entries: number;
  /** The last listed block starting that day (loops count from their date on); -1 when only live streams do. */
  block: number;
  /** The last listed live stream starting that day, or -1. */
  stream: number;
}

interface Day {
  entries: number;
  block: number;
  stream: number;
}

/**
 * The first date holding more than `max` entries, or undefined. Work is one pass over the blocks
 * and streams plus a sort of the loops: a day is never expanded.
 */
export function firstCrowdedDay(
  zone: string,
  blocks: readonly DayBlock[],
  streams: readonly { startMs: number }[],
  max = MAX_DAY_ENTRIES,
): CrowdedDay | undefined {
  const days = new Map<string, Day>();
  const dayOf = (date: string) => {
    let day = days.get(date);
    if (!day) days.set(date, (day = { entries: 0, block: -1, stream: -1 }));
    return day;
  };
  const loops: { date: string; entries: number; index: number }[] = [];
  blocks.forEach((b, index) => {
    const date = b.startTime.slice(0, 10);
    if (b.loopDaily) loops.push({ date, entries: b.videoIds.length, index });
    else {
      const day = dayOf(date);
      day.entries += b.videoIds.length;
      day.block = index;
    }
  });
  streams.forEach((s, index) => {
    const day = dayOf(fastLocalDate(s.startMs, zone));
    day.entries += 1;
    day.stream = index;
  });
  loops.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.index - b.index));
  // From the last loop's date on, every loop plays every day: that date is a candidate too.
  if (loops.length > 0) dayOf(loops.at(-1)!.date);
  const looping = loopsUpTo(loops);
  for (const date of [...days.keys()].sort()) {
    const day = days.get(date)!;
    const loop = looping(date);
    const entries = day.entries + loop.entries;
    if (entries > max) return { date, entries, block: Math.max(day.block, loop.index), stream: day.stream };
  }
  return undefined;
}

/** For a date, the entries of the loops dated on or before it and the last listed of them (binary search over prefix sums). */
function loopsUpTo(loops: readonly { date: string; entries: number; index: number }[]) {
  const sums: number[] = [];
  const lastIndex: number[] = [];
  loops.forEach((l, i) => {
    sums.push((sums[i - 1] ?? 0) + l.entries);
    lastIndex.push(Math.max(lastIndex[i - 1] ?? -1, l.index));
  });
  return (date: string): { entries: number; index: number } => {
    let lo = 0;
    let hi = loops.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (loops[mid]!.date <= date) lo = mid + 1;
      else hi = mid;
    }
    return lo === 0 ? { entries: 0, index: -1 } : { entries: sums[lo - 1]!, index: lastIndex[lo - 1]! };
  };
}
