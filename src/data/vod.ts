// VOD catalogs (channel_vod_videos) as the Custom API reads them: rows for the VOD list,
// counts for vodAvailable, and the channels whose catalog holds a video. Deleted channels are
// left out everywhere: a deleted channel is not found anywhere.
import { and, asc, count, eq, inArray } from 'drizzle-orm';
import type { Queryable } from '../db/connect.ts';
import { channels, channelVodVideos, videos } from '../db/schema.ts';

export type VodVideo = Awaited<ReturnType<typeof vodVideosOf>>[number];

const live = eq(channels.deleted, false);

/** Catalog videos of the channels, by channel id then catalog position. */
export async function vodVideosOf(db: Queryable, channelIds: readonly number[]) {
  if (channelIds.length === 0) return [];
  return db
    .select({
      channelId: channelVodVideos.channelId,
      videoTubeId: videos.id,
      title: videos.title,
      durationSeconds: videos.durationSeconds,
      thumbnailUrl: videos.thumbnailUrl,
      providerVideoId: videos.providerVideoId,
      providerName: videos.providerName,
      streamUrl: videos.streamUrl,
    })
    .from(channelVodVideos)
    .innerJoin(videos, eq(videos.id, channelVodVideos.videoId))
    .innerJoin(channels, eq(channels.id, channelVodVideos.channelId))
    .where(and(inArray(channelVodVideos.channelId, [...channelIds]), live))
    .orderBy(asc(channelVodVideos.channelId), asc(channelVodVideos.position));
}

/** Number of catalog entries per channel; channels without any are absent. */
export async function vodCounts(db: Queryable, channelIds: readonly number[]): Promise<Map<number, number>> {
  if (channelIds.length === 0) return new Map();
  const rows = await db
    .select({ channelId: channelVodVideos.channelId, entries: count() })
    .from(channelVodVideos)
    .where(inArray(channelVodVideos.channelId, [...channelIds]))
    .groupBy(channelVodVideos.channelId);
  return new Map(rows.map((r) => [r.channelId, r.entries]));
}

/** The owner's channels whose VOD catalog holds the video (a PPV purchase must name one of them). */
export async function ownerVodChannelsOf(db: Queryable, ownerId: number, videoId: number): Promise<number[]> {
  const rows = await db
    .selectDistinct({ channelId: channelVodVideos.channelId })
    .from(channelVodVideos)
    .innerJoin(channels, eq(channels.id, channelVodVideos.channelId))
    .where(and(eq(channelVodVideos.videoId, videoId), eq(channels.ownerId, ownerId), live));
  return rows.map((r) => r.channelId);
}
