// What was on air on a channel over a window of instants: the on-air timeline's segments
// (on-air-timeline.ts), the programmes the XMLTV guide lists, so programme analytics, the
// channel-day curve and the guide agree on what played when.
import type { Queryable } from '../db/connect.ts';
import type { OnAir } from './guide-export.ts';
import type { ScheduleTimelines, TimelineChannel } from './timelines.ts';

export interface OnAirAsk {
  channel: TimelineChannel;
  /** Epoch ms; the programmes overlapping [from, to] are wanted. */
  from: number;
  to: number;
}

/**
 * For each ask, the programmes on air during its window, sorted by start, none overlapping, whole
 * (their true start and stop, whatever the window: an airing is keyed by its start).
 */
export async function programmesOnAir(db: Queryable, timelines: ScheduleTimelines, asks: readonly OnAirAsk[]): Promise<OnAir[][]> {
  if (asks.length === 0) return [];
  const segments = await timelines.segmentsOverlapping(
    db,
    asks.map((a) => ({ channel: a.channel, from: a.from, to: a.to + 1 })),
  );
  return segments.map((list) => list.map((s) => ({ start: s.start, stop: s.end, video: s.video, isLive: s.isLive })));
}
