// What is on air on a channel, read from the on-air timeline (on-air-timeline.ts) over the compiled
// channel-days (timelines.ts): a span (the Studio's on-air: segments and what blocks lose) and now
// and next (the Studio's and REST's "now on air"). Only published blocks and live streams air, so
// nothing here shows an unpublished block; which channels a caller may ask is the caller's group's.
import type { Queryable } from '../db/connect.ts';
import { isValidDate } from './labels.ts';
import { DAY_MS, segmentsOverlapping } from './on-air-listing.ts';
import { nowAndNext, onAirTimeline, preemptions, type Preemption } from './on-air-timeline.ts';
import type { ScheduleTimelines, TimelineChannel, TimelineSegment, TimelineVideo } from './timelines.ts';
import { cachedDayWindow, fastLocalDate } from './zone-offsets.ts';

/** The longest span one on-air read may ask: what an XMLTV export may ask (MAX_GUIDE_DAYS). */
export const MAX_ON_AIR_DAYS = 14;

export interface ChannelOnAir {
  /** The segments overlapping the span, whole (their true start and end), by start. */
  segments: TimelineSegment[];
  /** What blocks lose in the span, and to what (clipped to the span), by start. */
  preempted: Preemption<TimelineVideo>[];
}

/** The timeline of a channel over [from, to) (at most MAX_ON_AIR_DAYS: the caller checks). */
export async function channelOnAir(db: Queryable, timelines: ScheduleTimelines, channel: TimelineChannel, from: number, to: number): Promise<ChannelOnAir> {
  const [blocks] = await timelines.occurrences(db, [{ channel, from: from - DAY_MS, to: to + DAY_MS }]);
  return { segments: segmentsOverlapping(blocks!, from, to), preempted: preemptions(blocks!, from, to) };
}

export interface NowOnAir {
  /** On air at `at`, with the position to join at (ms into the video: offset + elapsed). */
  now: (TimelineSegment & { position: number }) | null;
  /** The segment after it (within a day). */
  next: TimelineSegment | null;
}

/** Now and next on each channel at `at` (one load for all of them). */
export async function nowOnAir(db: Queryable, timelines: ScheduleTimelines, channels: readonly TimelineChannel[], at: number): Promise<NowOnAir[]> {
  // The days of [at, at + 1 day) and the day before: what can be on air at `at` and after it.
  const blocks = await timelines.occurrences(
    db,
    channels.map((channel) => ({ channel, from: at, to: at + DAY_MS })),
  );
  return blocks.map((list) => {
    const { now, next } = nowAndNext(onAirTimeline(list, at - DAY_MS, at + DAY_MS), at);
    return { now: now ? { ...now, position: now.offset + (at - now.start) } : null, next };
  });
}

/**
 * A bound of a span as a caller writes it: an instant (ISO 8601 with Z or an offset), or a date
 * of the channel's zone (from: its start; to: its end, so from=to=date is that day). Undefined
 * when it is neither.
 */
export function spanBound(text: string, zone: string, bound: 'from' | 'to'): number | undefined {
  if (isValidDate(text)) {
    const day = cachedDayWindow(text, zone);
    return bound === 'from' ? day.from : day.to;
  }
  // Years as dates allow (isValidDate): a far instant would only load empty days.
  if (!INSTANT.test(text) || Number(text.slice(0, 4)) < 1900 || Number(text.slice(0, 4)) > 9998) return undefined;
  const ms = Date.parse(text);
  return Number.isFinite(ms) ? ms : undefined;
}

const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;

/** The span asked, defaults filled: from today's start (channel zone), to the end of from's day when from is a date or absent, else a day after from. */
export function onAirSpan(query: { from?: string; to?: string }, zone: string, now: Date): { from: number; to: number } | { problem: string; path: 'from' | 'to' } {
  const from = query.from === undefined ? cachedDayWindow(fastLocalDate(now.getTime(), zone), zone).from : spanBound(query.from, zone, 'from');
  if (from === undefined) return { problem: 'must be a date (yyyy-MM-dd) or an instant (yyyy-MM-ddTHH:mm:ssZ)', path: 'from' };
  let to: number | undefined;
  if (query.to !== undefined) to = spanBound(query.to, zone, 'to');
  else if (query.from === undefined || isValidDate(query.from)) to = cachedDayWindow(fastLocalDate(from, zone), zone).to;
  else to = from + DAY_MS;
  if (to === undefined) return { problem: 'must be a date (yyyy-MM-dd) or an instant (yyyy-MM-ddTHH:mm:ssZ)', path: 'to' };
  if (!(to > from)) return { problem: 'must be after from', path: 'to' };
  if (to - from > MAX_ON_AIR_DAYS * DAY_MS + 2 * 3_600_000) return { problem: `the span may be at most ${MAX_ON_AIR_DAYS} days`, path: 'to' };
  return { from, to };
}
