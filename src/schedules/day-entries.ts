// How many entries a channel's schedule puts on each of its days, counted without expanding it:
// every read of a day (REST day, Custom guide, XMLTV, programme analytics) compiles that day's
// entries, so what a day holds bounds what reading it costs (docs/security.md: What an owner may build).
//
// A channel-day (a date of the channel's zone) holds every video of every block occurrence
// starting that day, published or not (one compiled day serves both views), whatever the videos'
// durations (a block running past midnight is its start day's), and every live stream starting
// that day: the blocks dated that day, the loopDaily blocks dated on or before it, the streams.
// Durations never change a count, so a video's duration change cannot grow a day; a 0-second
// video is an entry like any other, so repeating it cannot grow a day past the bound either.

/** Entries one channel-day may hold: one every two minutes on average (5x a day of ten-minute videos). */
export const MAX_DAY_ENTRIES = 720;
/** Videos of one block: every video of a block plays on its day. */
export const MAX_BLOCK_VIDEOS = MAX_DAY_ENTRIES;

/** A block as counted: the channel-local date it starts on ('yyyy-MM-dd'), and its videos. */
export interface CountedBlock {
  date: string;
  loopDaily: boolean;
  entries: number;
}

export class DayEntries {
  private readonly dated = new Map<string, number>();
  /** Loops by date, with the running sum of their entries. */
  private readonly loopDates: string[] = [];
  private readonly loopSums: number[] = [];

  /** `streamDates`: the channel-local date each live stream starts on. One pass and a sort of the loops. */
  constructor(blocks: readonly CountedBlock[], streamDates: readonly string[]) {
    const add = (date: string, n: number) => this.dated.set(date, (this.dated.get(date) ?? 0) + n);
    const loops: CountedBlock[] = [];
    for (const b of blocks) {
      if (b.loopDaily) loops.push(b);
      else add(b.date, b.entries);
    }
    for (const date of streamDates) add(date, 1);
    loops.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
    for (const loop of loops) {
      this.loopDates.push(loop.date);
      this.loopSums.push((this.loopSums.at(-1) ?? 0) + loop.entries);
    }
  }

  /** The entries of one channel-day. */
  on(date: string): number {
    return (this.dated.get(date) ?? 0) + this.loopsOn(date);
  }

  /** The dates that can hold the most: those with one-off blocks or streams, and the last loop's (every loop plays from then on). Sorted. */
  busiestCandidates(): string[] {
    const dates = new Set(this.dated.keys());
    const lastLoop = this.loopDates.at(-1);
    if (lastLoop !== undefined) dates.add(lastLoop);
    return [...dates].sort();
  }

  /** Entries of the loops dated on or before `date` (binary search). */
  private loopsOn(date: string): number {
    let lo = 0;
    let hi = this.loopDates.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.loopDates[mid]! <= date) lo = mid + 1;
      else hi = mid;
    }
    return lo === 0 ? 0 : this.loopSums[lo - 1]!;
  }
}

/** A channel-day past MAX_DAY_ENTRIES: its date, what it would hold, and the written block named for it. */
export interface Overfull {
  date: string;
  entries: number;
  /** Index in `written` of the last block starting that day (a loop: dated on or before it); -1 when none. */
  block: number;
}

/**
 * The first channel-day among `dates` a write would take past MAX_DAY_ENTRIES: what stays (one-off
 * entries by date, loops, live stream dates) plus the blocks written. A write that cannot have
 * changed a day need not name it: only the days it touches are asked, so a write costs its days.
 */
export function firstOverfull(
  stays: { oneOff: ReadonlyMap<string, number>; loops: readonly CountedBlock[]; streamDates: readonly string[] },
  written: readonly CountedBlock[],
  dates: readonly string[],
): Overfull | undefined {
  const blocks: CountedBlock[] = [...stays.loops, ...[...stays.oneOff].map(([date, entries]) => ({ date, loopDaily: false, entries })), ...written];
  const days = new DayEntries(blocks, stays.streamDates);
  const date = [...dates].sort().find((d) => days.on(d) > MAX_DAY_ENTRIES);
  if (date === undefined) return undefined;
  return { date, entries: days.on(date), block: written.findLastIndex((b) => b.date === date || (b.loopDaily && b.date <= date)) };
}
