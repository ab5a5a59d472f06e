// Published entries of many channels for calendar days of a zone (the request's, else each
// channel's own), from compiled days, for every channel of a guide at once (what the reference
// per-channel path of test/support/reference-schedules.ts answers channel by channel). A live
// entry plays the stream's URI (the video's URL only when the stream has none).
import type { Queryable } from '../db/connect.ts';
import { cachedDayWindow } from './zone-offsets.ts';
import type { PublishedWindow, ScheduleTimelines, TimelineChannel } from './timelines.ts';

export type { PublishedEntry, PublishedWindow } from './timelines.ts';

/**
 * Per channel, per date ('yyyy-MM-dd' of `zone`, or of the channel's zone when `zone` is
 * undefined), the published entries starting that day, in play order, read in place from the
 * kept listings (listing.ts). With `maxEntries`, TooManyEntries (entry-counts.ts)
 * when the days it must compile hold more.
 */
export async function publishedDays(
  db: Queryable,
  timelines: ScheduleTimelines,
  channels: readonly TimelineChannel[],
  dates: readonly string[],
  zone: string | undefined,
  maxEntries?: number,
): Promise<Map<number, Map<string, PublishedWindow>>> {
  const asks = channels.flatMap((channel) => dates.map((date) => ({ channel, date, ...cachedDayWindow(date, zone ?? channel.timezone) })));
  const entries = await timelines.publishedWindows(db, asks, maxEntries);
  const result = new Map<number, Map<string, PublishedWindow>>(channels.map((c) => [c.id, new Map()]));
  asks.forEach(({ channel, date }, i) => result.get(channel.id)!.set(date, entries[i]!));
  return result;
}
