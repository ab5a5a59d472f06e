// Whether a window of instants holds a published entry (a channel list's scheduleAvailable), decided
// without compiling the days: first from the blocks' starts alone (a block whose occurrence starts
// in the window plays its first video there: one row per block, no video read), then, for the
// channels still open, from each block's span (when its first and last videos start: one row per
// block, its videos summed by the database). So a list of many full channels costs what its blocks
// cost, not what their 720-entry days cost. Answers what ScheduleTimelines.hasEntries answers (the
// compiled days' windowHasEntries); the rare block a span cannot decide is compiled instead.
import { blockSpansForChannels, liveStartsForChannels, playingBlocksForChannels, type BlockSpan, type ChannelDates, type PlayingBlock } from '../data/schedule-batches.ts';
import type { Queryable } from '../db/connect.ts';
import { elapsedMs, occurrenceStart } from './expand.ts';
import { addDays, windowChannelDates } from './channel-day.ts';
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

/** Whether a live stream or an occurrence of these non-empty blocks starts in [from, to): true, or undefined (the spans tell). */
export function startsInWindow(zone: string, blocks: readonly PlayingBlock[], liveStarts: readonly number[], from: number, to: number): true | undefined {
  if (liveStarts.some((start) => start >= from && start < to)) return true;
  for (const date of windowChannelDates(zone, from, to)) {
    for (const block of blocks) {
      const start = occurrenceStart(block, date, zone);
      if (start !== null && start >= from && start < to) return true;
    }
  }
  return undefined;
}

type Ask = { channel: TimelineChannel; from: number; to: number };

/** Per channel, the channel-local dates [fromDate, toDate) the asks' windows read (windowChannelDates). */
function rangesOf(asks: readonly Ask[]): ChannelDates[] {
  const ranges = new Map<number, ChannelDates>();
  for (const { channel, from, to } of asks) {
    const dates = windowChannelDates(channel.timezone, from, to);
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
  return [...ranges.values()];
}

/** Fills the undefined answers of `answers` (in order) with `decide` of the asks they belong to. */
async function settle<A>(asks: readonly A[], answers: (boolean | undefined)[], decide: (open: A[]) => Promise<(boolean | undefined)[]>): Promise<void> {
  const open = asks.flatMap((ask, i) => (answers[i] === undefined ? [{ ask, i }] : []));
  if (open.length === 0) return;
  const decided = await decide(open.map((o) => o.ask));
  open.forEach(({ i }, k) => (answers[i] = decided[k]));
}

/**
 * For each ask, whether its window holds a published entry: timelines.hasEntries(db, asks, false)'s
 * answer. Two queries of one row per block and per live stream decide most channels; a third (one
 * row per block, its videos summed) the channels none of whose occurrences starts in the window;
 * only the asks a span cannot decide (a video as long as the window, not its block's last) compile.
 */
export async function windowsHavePublishedEntries(db: Queryable, timelines: ScheduleTimelines, asks: readonly Ask[]): Promise<boolean[]> {
  if (asks.length === 0) return [];
  const ranges = rangesOf(asks);
  const [blocks, starts] = await Promise.all([
    playingBlocksForChannels(db, ranges),
    liveStartsForChannels(
      db,
      ranges.map((r) => r.channelId),
      new Date(Math.min(...asks.map((a) => a.from))),
      new Date(Math.max(...asks.map((a) => a.to))),
    ),
  ]);
  const answers: (boolean | undefined)[] = asks.map(({ channel, from, to }) =>
    startsInWindow(channel.timezone, blocks.get(channel.id) ?? [], starts.get(channel.id) ?? [], from, to),
  );
  await settle(asks, answers, async (open) => {
    const spans = await blockSpansForChannels(db, rangesOf(open));
    return open.map(({ channel, from, to }) => spansHaveEntry(channel.timezone, spans.get(channel.id) ?? [], [], from, to));
  });
  await settle(asks, answers, (open) => timelines.hasEntries(db, open, false));
  return answers as boolean[];
}
