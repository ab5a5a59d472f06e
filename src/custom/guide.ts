// The guide rows of the Custom API (channels/video, and the compatibility trees built on it):
// published schedule entries and live streams of the client's channels for calendar days in the
// request zone (else each channel's), channels as asked, then day, then time.
import type { ChannelRow } from '../data/channels.ts';
import type { Queryable } from '../db/connect.ts';
import { publishedDays, type PublishedEntry } from '../schedules/published-days.ts';
import { requestedChannels } from './channel-lists.ts';
import type { Client } from './context.ts';
import { streamableChannels } from './gating.ts';
import type { VideoRowSource } from './presenter.ts';

/**
 * One channel's rows for its days (each a calendar day of `zone`). customId's last part counts
 * the video's occurrences in that channel-day, so ids are unique and stable.
 */
function channelRows(channel: ChannelRow, days: ReadonlyMap<string, readonly PublishedEntry[]>, dates: readonly string[], zone: string): VideoRowSource[] {
  return dates.flatMap((date) => {
    const seen = new Map<number, number>();
    return (days.get(date) ?? []).map((entry) => {
      const k = (seen.get(entry.video.videoTubeId) ?? 0) + 1;
      seen.set(entry.video.videoTubeId, k);
      return {
        customId: `${channel.id}-${entry.video.videoTubeId}-${k}`,
        video: entry.video,
        userId: channel.ownerId,
        channelId: channel.id,
        durationSeconds: entry.isLive ? (entry.end - entry.start) / 1000 : entry.video.durationSeconds,
        start: entry.start,
        end: entry.end,
        zone,
        streamUrl: entry.video.streamUrl,
        isVod: false,
      };
    });
  });
}

/** The rows of the channels (ids outside the client's scope ignored) for the dates; locked private channels carry no stream URL. */
export async function guideRows(db: Queryable, client: Client, channelIds: readonly number[], dates: readonly string[]): Promise<VideoRowSource[]> {
  const channels = await requestedChannels(db, client, channelIds);
  const streamable = await streamableChannels(db, client, channels);
  const days = await publishedDays(db, client.timelines, channels, dates, client.zone);
  const rows = channels.flatMap((c) => channelRows(c, days.get(c.id)!, dates, client.zone ?? c.timezone));
  return rows.map((r) => (streamable(r.channelId) ? r : { ...r, streamUrl: null }));
}
