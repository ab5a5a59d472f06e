// What was on air on a channel over a window of instants: the programmes a guide export lists
// (guide-export.ts onAir: published entries and live streams, whole seconds, no overlaps), so
// programme analytics and the XMLTV guide agree on what played when.
import type { Queryable } from '../db/connect.ts';
import { onAir, type OnAir } from './guide-export.ts';
import type { ScheduleTimelines, TimelineChannel } from './timelines.ts';

const DAY_MS = 86_400_000;

export interface OnAirAsk {
  channel: TimelineChannel;
  /** Epoch ms; the programmes overlapping [from, to] are wanted. */
  from: number;
  to: number;
}

/**
 * For each ask, the programmes on air around its window, sorted by start, none overlapping:
 * entries that start from a day before it (one playing into it) to a day after it (one that
 * starts while an earlier one still plays cuts it, whatever the window).
 */
export async function programmesOnAir(db: Queryable, timelines: ScheduleTimelines, asks: readonly OnAirAsk[]): Promise<OnAir[][]> {
  if (asks.length === 0) return [];
  const slices = await timelines.slices(db, asks.map((a) => ({ channel: a.channel, from: a.from - DAY_MS, to: a.to + DAY_MS })), false);
  return slices.map((blocks) => onAir([blocks.flatMap((b) => b.videos)])[0]!);
}
