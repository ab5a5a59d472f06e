// Whether a window of instants holds a published entry (a channel list's scheduleAvailable), decided
// from each block's span (when its first and last videos start) instead of compiling the days: one
// row per block whatever it holds, so a list of many full channels costs what its blocks cost, not
// what their 720-entry days cost. Answers what ScheduleTimelines.hasEntries answers (the compiled
// days' windowHasEntries); the rare block it cannot decide from its span is compiled instead.
import { blockSpansForChannels, liveStartsForChannels, type BlockSpan } from '../data/schedule-batches.ts';
import type { Queryable } from '../db/connect.ts';
import { elapsedMs, occurrenceStart } from './expand.ts';
import { addDays, windowChannelDates } from './timeline.ts';
import type { ScheduleTimelines, TimelineChannel } from './timelines.ts';

/** A little more than the rounding of an entry's start (a microsecond) and of the float sums before it. */
const ROUNDING_MS = 1;

/**
 * Whether the occurrence of a block starting at `start` has an entry starting in [from, to); undefined
 * when its span cannot tell. Its entries start at `start`, then one duration apart, the last at
 * `start` + lastStartSeconds. When the last starts at or after `from`, the first that does starts
 * less than one gap after `from`: inside the window unless a gap is as long as the window.
 */
export function occurrenceHasEntry(start: number, span: Pick<BlockSpan, 'videos' | 'lastStartSeconds' | 'longestGapSeconds'>, from: number, to: number): boolean | undefined {
  if (span.videos === 0 || start >= to) return false;
  if (start >= from) return true;
  if (start + elapsedMs(span.lastStartSeconds) < from) return false;
  return span.longestGapSeconds * 1000 + ROUNDING_MS < to - from ? true : undefined;
}

/**
 * Whether any occurrence of these blocks on the channel-local dates of [from, to) in `zone`
 * (windowChannelDates: the compiled days a window reads), or any live start, falls in the window;
 * undefined when only compiling can tell.
 */
export function spansHaveEntry(zone: string, spans: readonly BlockSpan[], liveStarts: readonly number[], from: number, to: number): boolean | undefined {
  if (liveStarts.some((start) => start >= from && start < to)) return true;
  let answer: boolean | undefined = false;
  for (const date of windowChannelDates(zone, from, to)) {
    for (const span of spans) {
      const start = occurrenceStart(span, date, zone);
      if (start === null) continue;
      const has = occurrenceHasEntry(start, span, from, to);
      if (has) return true;
      if (has === undefined) answer = undefined;
    }
  }
  return answer;
}

type Ask = { channel: TimelineChannel; from: number; to: number };

/**
 * For each ask, whether its window holds a published entry: timelines.hasEntries(db, asks, false)'s
 * answer, from two queries of one row per block and per live stream; only the asks a span cannot
 * decide (a video as long as the window, not its block's last) compile their days.
 */
export async function windowsHavePublishedEntries(db: Queryable, timelines: ScheduleTimelines, asks: readonly Ask[]): Promise<boolean[]> {
  if (asks.length === 0) return [];
  const dated = asks.map((ask) => ({ ...ask, dates: windowChannelDates(ask.channel.timezone, ask.from, ask.to) }));
  const ranges = new Map<number, { channelId: number; fromDate: string; toDate: string }>();
  for (const { channel, dates } of dated) {
    if (dates.length === 0) continue;
    const fromDate = dates[0]!;
    const toDate = addDays(dates.at(-1)!, 1);
    const known = ranges.get(channel.id);
    ranges.set(channel.id, {
      channelId: channel.id,
      fromDate: known && known.fromDate < fromDate ? known.fromDate : fromDate,
      toDate: known && known.toDate > toDate ? known.toDate : toDate,
    });
  }
  const ids = [...ranges.keys()];
  const [spans, starts] = await Promise.all([
    blockSpansForChannels(db, [...ranges.values()]),
    liveStartsForChannels(db, ids, new Date(Math.min(...asks.map((a) => a.from))), new Date(Math.max(...asks.map((a) => a.to)))),
  ]);
  const answers = asks.map(({ channel, from, to }) => spansHaveEntry(channel.timezone, spans.get(channel.id) ?? [], starts.get(channel.id) ?? [], from, to));
  const open = asks.filter((_, i) => answers[i] === undefined);
  if (open.length === 0) return answers as boolean[];
  const compiled = await timelines.hasEntries(db, open, false);
  let next = 0;
  return answers.map((answer) => answer ?? compiled[next++]!);
}
