// One channel-day compiled: a channel's calendar date in its own zone, expanded ONCE into block
// occurrences with UTC instants (the rules of expand.ts, unchanged), then reused by every request:
// the REST day is the compiled channel-day itself, a Custom request-zone day is a slice by instant
// of the compiled channel-days it can touch. Pure: the process's store of compiled channel-days,
// which loads and keeps them, is timelines.ts (ScheduleTimelines).
import { expandChannelDay, uniqueSorted, type ExpandedBlock, type LiveStream, type ScheduleBlock, type ScheduleVideo } from './expand.ts';
import { firstIndexAfter } from './sorted.ts';
import { fastLocalDate } from './zone-offsets.ts';

export interface CompiledDay<V extends ScheduleVideo = ScheduleVideo> {
  /** Channel zone and channel-local date 'yyyy-MM-dd'. */
  zone: string;
  date: string;
  /**
   * Every occurrence starting that day, unpublished blocks included (their `published` flag says
   * so): one compiled day serves the owner's view and the public one. Sorted like expandChannelDay.
   */
  blocks: readonly ExpandedBlock<V>[];
}

export interface CompileInput<V extends ScheduleVideo> {
  zone: string;
  date: string;
  /** Candidate blocks: dated that day, and loopDaily ones dated before (others are ignored). */
  blocks: readonly ScheduleBlock<V>[];
  /** Candidate live streams: those starting outside the day are ignored. */
  liveStreams: readonly LiveStream<V>[];
}

export function compileChannelDay<V extends ScheduleVideo>(input: CompileInput<V>): CompiledDay<V> {
  return { zone: input.zone, date: input.date, blocks: expandChannelDay({ ...input, includeUnpublished: true }) };
}

/** What expandChannelDay answers for this day: the compiled blocks, unpublished ones only when asked. */
export function dayBlocks<V extends ScheduleVideo>(day: CompiledDay<V>, includeUnpublished: boolean): ExpandedBlock<V>[] {
  return includeUnpublished ? [...day.blocks] : day.blocks.filter((b) => b.published);
}

const DAY_MS = 86_400_000;

/** addDays answers remembered (a guide asks the same few dates per channel on every request). */
const added = new Map<string, string>();
const MAX_ADDED = 10_000;

/** 'yyyy-MM-dd' plus whole days (calendar arithmetic, no zone). */
export function addDays(date: string, days: number): string {
  const key = `${date}|${days}`;
  let sum = added.get(key);
  if (sum === undefined) {
    if (added.size >= MAX_ADDED) added.clear();
    added.set(key, (sum = computeAddDays(date, days)));
  }
  return sum;
}

function computeAddDays(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const t = new Date(0);
  t.setUTCFullYear(y, m - 1, d + days);
  return `${String(t.getUTCFullYear()).padStart(4, '0')}-${String(t.getUTCMonth() + 1).padStart(2, '0')}-${String(t.getUTCDate()).padStart(2, '0')}`;
}

/**
 * channelDatesForWindow without luxon: the channel-local dates overlapping [from, to) and the day
 * before the first (a block starting late that day can run into the window). A request-zone day
 * overlaps one or two channel days (three only when a 25-hour day meets a 23-hour one).
 */
export function windowChannelDates(zone: string, from: number, to: number): string[] {
  if (!(to > from)) return [];
  const last = fastLocalDate(Math.ceil(to) - 1, zone);
  const dates: string[] = [];
  for (let day = addDays(fastLocalDate(from, zone), -1); dates.length === 0 || dates.at(-1)! < last; day = addDays(day, 1)) {
    dates.push(day);
    // A window is a few days at most; the guard only keeps a bad caller from looping for long.
    if (dates.length > (to - from) / DAY_MS + 3) break;
  }
  return dates;
}

/** Entries whose playback starts in [from, to): keeps the block's occurrence start and each video's order number. */
function trim<V extends ScheduleVideo>(block: ExpandedBlock<V>, from: number, to: number): ExpandedBlock<V> | undefined {
  const { videos } = block;
  if (videos.length === 0 || videos[0]!.start >= to || videos.at(-1)!.start < from) {
    // Starts never decrease within a block (durations are never negative), so no video is inside.
    return undefined;
  }
  if (videos[0]!.start >= from && videos.at(-1)!.start < to) return block;
  const kept = videos.filter((v) => v.start >= from && v.start < to);
  return kept.length > 0 ? { ...block, videos: kept } : undefined;
}

/**
 * expandWindow from compiled days: `days` must hold the compiled days of
 * windowChannelDates(zone, from, to) for the channel (more are harmless, fewer lose entries).
 */
export function sliceWindow<V extends ScheduleVideo>(days: readonly CompiledDay<V>[], from: number, to: number, includeUnpublished: boolean): ExpandedBlock<V>[] {
  const kept: ExpandedBlock<V>[] = [];
  for (const day of days) {
    for (const block of day.blocks) {
      if (!includeUnpublished && !block.published) continue;
      const trimmed = trim(block, from, to);
      if (trimmed) kept.push(trimmed);
    }
  }
  return uniqueSorted(kept);
}

/** Whether sliceWindow(days, from, to, includeUnpublished) would hold anything, without building it. */
export function windowHasEntries<V extends ScheduleVideo>(days: readonly CompiledDay<V>[], from: number, to: number, includeUnpublished: boolean): boolean {
  for (const day of days) {
    for (const block of day.blocks) {
      if (!includeUnpublished && !block.published) continue;
      // Starts never decrease within a block.
      const i = firstIndexAfter(block.videos, (v) => v.start < from);
      if (i < block.videos.length && block.videos[i]!.start < to) return true;
    }
  }
  return false;
}
