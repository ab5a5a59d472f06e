// One channel's schedule for one of its local days: load the candidates, expand them.
import { DateTime } from 'luxon';
import type { Queryable } from '../db/connect.ts';
import { liveStreamsFor, scheduleBlocksFor, type ScheduledVideo } from '../data/schedules.ts';
import { expandChannelDay, type ExpandedBlock } from './expand.ts';
import { localDayWindow } from './labels.ts';

export function nextDate(date: string): string {
  return DateTime.fromISO(date, { zone: 'UTC' }).plus({ days: 1 }).toISODate()!;
}

export async function channelDaySchedule(
  db: Queryable,
  channel: { id: number; timezone: string },
  date: string,
  includeUnpublished: boolean,
): Promise<ExpandedBlock<ScheduledVideo>[]> {
  const window = localDayWindow(date, channel.timezone);
  const [blocks, liveStreams] = await Promise.all([
    scheduleBlocksFor(db, channel.id, date, nextDate(date), includeUnpublished),
    liveStreamsFor(db, channel.id, new Date(window.from), new Date(window.to)),
  ]);
  return expandChannelDay({ zone: channel.timezone, date, blocks, liveStreams, includeUnpublished });
}
