// Published entries of many channels for calendar days of a zone (the request's, else each
// channel's own), from compiled days: what loadPublishedDays (src/custom/schedule-days.ts) answers
// channel by channel, for every channel of a guide at once. A live entry plays the stream's URI
// (the video's URL only when the stream has none).
import type { Queryable } from '../db/connect.ts';
import type { ExpandedVideo } from './expand.ts';
import { cachedDayWindow } from './zone-offsets.ts';
import type { ScheduleTimelines, TimelineChannel, TimelineVideo } from './timelines.ts';

export type PublishedEntry = ExpandedVideo<TimelineVideo>;

function playable(entry: PublishedEntry): PublishedEntry {
  if (!entry.isLive) return entry;
  return { ...entry, video: { ...entry.video, streamUrl: entry.video.liveUri || entry.video.streamUrl } };
}

/**
 * Per channel, per date ('yyyy-MM-dd' of `zone`, or of the channel's zone when `zone` is
 * undefined), the published entries starting that day, in play order.
 */
export async function publishedDays(
  db: Queryable,
  timelines: ScheduleTimelines,
  channels: readonly TimelineChannel[],
  dates: readonly string[],
  zone: string | undefined,
): Promise<Map<number, Map<string, PublishedEntry[]>>> {
  const asks = channels.flatMap((channel) => dates.map((date) => ({ channel, date, ...cachedDayWindow(date, zone ?? channel.timezone) })));
  const sliced = await timelines.slices(db, asks, false);
  const result = new Map<number, Map<string, PublishedEntry[]>>(channels.map((c) => [c.id, new Map()]));
  asks.forEach(({ channel, date }, i) => result.get(channel.id)!.set(date, sliced[i]!.flatMap((b) => b.videos).map(playable)));
  return result;
}
