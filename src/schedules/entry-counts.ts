// What reading some channel-days would compile, counted before compiling them (day-entries.ts):
// a read that may not cost more than a bound counts first and refuses, instead of finding out.
import { blockSizesForChannels, liveStreamSpansForChannels } from '../data/schedule-batches.ts';
import type { Queryable } from '../db/connect.ts';
import { addDays } from './channel-day.ts';
import { cachedDayWindow, fastLocalDate } from './zone-offsets.ts';
import { DayEntries } from './day-entries.ts';

/**
 * Entries the days of these channels hold (each date counted once per channel), from the
 * schedule without expanding it: one row per block (its video count) and per live stream.
 */
export async function countEntries(db: Queryable, wants: ReadonlyArray<{ channel: { id: number; timezone: string }; dates: readonly string[] }>): Promise<number> {
  const asked = wants.filter((w) => w.dates.length > 0).map(({ channel, dates }) => ({ channel, dates: [...new Set(dates)].sort() }));
  if (asked.length === 0) return 0;
  const ranges = asked.map(({ channel, dates }) => ({ channelId: channel.id, fromDate: dates[0]!, toDate: addDays(dates.at(-1)!, 1) }));
  const windows = asked.flatMap(({ channel, dates }) => [cachedDayWindow(dates[0]!, channel.timezone), cachedDayWindow(dates.at(-1)!, channel.timezone)]);
  const [sizes, streams] = await Promise.all([
    blockSizesForChannels(db, ranges),
    liveStreamSpansForChannels(
      db,
      ranges.map((r) => r.channelId),
      new Date(Math.min(...windows.map((w) => w.from))),
      new Date(Math.max(...windows.map((w) => w.to))),
    ),
  ]);
  let entries = 0;
  for (const { channel, dates } of asked) {
    const blocks = (sizes.get(channel.id) ?? []).map((b) => ({ date: b.startLocal.slice(0, 10), loopDaily: b.loopDaily, entries: b.videos }));
    const days = new DayEntries(
      blocks,
      (streams.get(channel.id) ?? []).map(([start]) => fastLocalDate(start, channel.timezone)),
    );
    for (const date of dates) entries += days.on(date);
  }
  return entries;
}

/** A read that would compile more entries than its caller allows (see ScheduleTimelines.load). */
export class TooManyEntries extends Error {
  constructor(
    readonly entries: number,
    readonly max: number,
  ) {
    super(`${entries} schedule entries to compile, more than ${max}`);
    this.name = 'TooManyEntries';
  }
}
