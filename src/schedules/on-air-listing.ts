// The listings cut to the on-air timeline (on-air-timeline.ts): what REST's schedule, the Custom
// guide's rows, the XMLTV export and programme attribution list, so that each agrees with the
// timeline to the second. Pure.
// - A listed entry is a segment: an entry wholly preempted is not listed, one partly preempted is
//   listed with its on-air times (`cut`), one split by a stream in its middle is two entries with
//   the same playbackOrderNumber.
// - A window of instants (a Custom request-zone day, an XMLTV channel-day) lists the segments that
//   START in it, whole: a programme crossing midnight is listed once, on the day it starts.
// - A channel-day (REST) lists its own occurrences (those starting that day), each cut to its
//   segments; an unpublished block (shown to its owner only) is listed as scheduled: it never airs.
import type { ExpandedBlock, ExpandedVideo, ScheduleVideo } from './expand.ts';
import { onAirTimeline, type OnAirSegment } from './on-air-timeline.ts';
import { firstIndexAfter } from './sorted.ts';

export const DAY_MS = 86_400_000;
const SECOND = 1000;

/** A segment as an entry: whole seconds; `cut` when it is not all of its scheduled entry. */
export function segmentEntry<V extends ScheduleVideo>(s: OnAirSegment<V>): ExpandedVideo<V> {
  const cut = s.start !== s.entryStart || s.end !== s.entryEnd;
  return { video: s.video, playbackOrderNumber: s.playbackOrderNumber, start: s.start, end: s.end, isLive: s.isLive, ...(cut ? { cut } : {}) };
}

/**
 * The segments starting in [from, to), whole. `blocks` must hold the occurrences starting from the
 * channel-day before `from` to the channel-day of `to` + 1 day (a segment's end may be cut by an
 * occurrence starting up to a day after `to`): windowChannelDates(zone, from, to + DAY_MS).
 */
export function segmentsStartingIn<V extends ScheduleVideo>(blocks: readonly ExpandedBlock<V>[], from: number, to: number): OnAirSegment<V>[] {
  // From a second before `from`: a segment clipped there starts before `from` and is left out.
  // Until the last end of an occurrence starting before `to`: no segment starting in the window
  // ends later (the rest of the next day is not computed).
  let until = from;
  for (const b of blocks) {
    if (b.published && b.videos.length > 0 && b.videos[0]!.start < to) until = Math.max(until, Math.floor(b.videos.at(-1)!.end / SECOND) * SECOND);
  }
  return onAirTimeline(blocks, from - SECOND, Math.min(to + DAY_MS, until)).filter((s) => s.start >= from && s.start < to);
}

/**
 * The first start or end after `now` in entries sorted by start that do not overlap (a listing:
 * on-air segments): the end of the one playing at `now`, or the start of the next. A binary
 * search, not a walk: a rotating guide asks it of 1,440 entries per request.
 */
export function nextBoundary(entries: readonly { start: number; end: number }[], now: number): number {
  const lo = firstIndexAfter(entries, (e) => e.start <= now);
  const playing = entries[lo - 1];
  const next = entries[lo]?.start ?? Infinity;
  return playing && playing.end > now ? Math.min(playing.end, next) : next;
}

/**
 * The segments overlapping [from, to), whole (true starts and ends, whatever span is asked), by
 * start. `blocks`: the occurrences of windowChannelDates(zone, from - DAY_MS, to + DAY_MS).
 */
export function segmentsOverlapping<V extends ScheduleVideo>(blocks: readonly ExpandedBlock<V>[], from: number, to: number): OnAirSegment<V>[] {
  return onAirTimeline(blocks, from - DAY_MS, to + DAY_MS).filter((s) => s.end > from && s.start < to && s.start > from - DAY_MS);
}

const occurrenceKey = (isLive: boolean, id: number, start: number) => `${isLive ? 'l' : 'b'}|${id}|${start}`;

/**
 * A channel-day's occurrences (`day`, as compiled) cut to the timeline, in the day's order: each
 * published occurrence's entries replaced by its segments, an occurrence left with none dropped;
 * unpublished ones as they are. `around`: the occurrences of the day before, the day and the day
 * after (what can preempt or be preempted by them).
 */
export function cutDay<V extends ScheduleVideo>(day: readonly ExpandedBlock<V>[], around: readonly ExpandedBlock<V>[]): ExpandedBlock<V>[] {
  const published = day.filter((b) => b.published && b.videos.length > 0);
  if (published.length === 0) return [...day];
  const from = Math.min(...published.map((b) => Math.floor(b.videos[0]!.start / SECOND) * SECOND));
  const to = Math.max(...published.map((b) => Math.floor(b.videos.at(-1)!.end / SECOND) * SECOND));
  const byOccurrence = new Map<string, ExpandedVideo<V>[]>();
  for (const s of onAirTimeline(around, from, Math.max(to, from + SECOND))) {
    const key = occurrenceKey(s.isLive, s.channelScheduleId, s.blockStart);
    const list = byOccurrence.get(key);
    if (list) list.push(segmentEntry(s));
    else byOccurrence.set(key, [segmentEntry(s)]);
  }
  const out: ExpandedBlock<V>[] = [];
  for (const block of day) {
    if (!block.published) {
      out.push(block);
      continue;
    }
    const videos = byOccurrence.get(occurrenceKey(block.isLive, block.channelScheduleId, block.start));
    if (videos) out.push({ ...block, videos });
  }
  return out;
}
