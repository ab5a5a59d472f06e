// Channel lookups. A deleted channel is not found anywhere.
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Queryable } from '../db/connect.ts';
import { categories, channels, channelVastSettings, channelVideos, videos } from '../db/schema.ts';

const channelColumns = {
  id: channels.id,
  ownerId: channels.ownerId,
  name: channels.name,
  url: channels.url,
  categoryId: channels.categoryId,
  categoryName: categories.name,
  languageId: channels.languageId,
  pictureUrl: channels.pictureUrl,
  description: channels.description,
  sortOrder: channels.sortOrder,
  timezone: channels.timezone,
  isWhiteLabeled: channels.isWhiteLabeled,
  playLiveFirst: channels.playLiveFirst,
  isVerified: channels.isVerified,
  keepGuideOpened: channels.keepGuideOpened,
  guideMode: channels.guideMode,
  passwordHash: channels.passwordHash,
  subscriberCount: channels.subscriberCount,
  createdAt: channels.createdAt,
};

export type ChannelRow = Awaited<ReturnType<typeof ownerChannels>>[number];

/** The owner's live channels in the owner's order. */
export async function ownerChannels(db: Queryable, ownerId: number) {
  return db
    .select(channelColumns)
    .from(channels)
    .innerJoin(categories, eq(categories.id, channels.categoryId))
    .where(and(eq(channels.ownerId, ownerId), eq(channels.deleted, false)))
    .orderBy(asc(channels.sortOrder), asc(channels.id));
}

/** One live channel of the owner, or undefined (missing, deleted or someone else's). */
export async function ownedChannel(db: Queryable, ownerId: number, channelId: number): Promise<ChannelRow | undefined> {
  const rows = await db
    .select(channelColumns)
    .from(channels)
    .innerJoin(categories, eq(categories.id, channels.categoryId))
    .where(and(eq(channels.id, channelId), eq(channels.ownerId, ownerId), eq(channels.deleted, false)))
    .limit(1);
  return rows[0];
}

/** Library videos of the channels, in library order. */
export async function libraryVideos(db: Queryable, channelIds: number[]) {
  if (channelIds.length === 0) return [];
  return db
    .select({
      channelId: channelVideos.channelId,
      id: videos.id,
      title: videos.title,
      description: videos.description,
      durationSeconds: videos.durationSeconds,
      thumbnailUrl: videos.thumbnailUrl,
      providerVideoId: videos.providerVideoId,
      providerName: videos.providerName,
      categoryName: categories.name,
    })
    .from(channelVideos)
    .innerJoin(videos, eq(videos.id, channelVideos.videoId))
    .leftJoin(categories, eq(categories.id, videos.categoryId))
    .where(inArray(channelVideos.channelId, channelIds))
    .orderBy(asc(channelVideos.channelId), asc(channelVideos.position));
}

export async function vastRows(db: Queryable, channelIds: number[]) {
  if (channelIds.length === 0) return [];
  return db
    .select()
    .from(channelVastSettings)
    .where(inArray(channelVastSettings.channelId, channelIds))
    .orderBy(asc(channelVastSettings.channelId), asc(channelVastSettings.platform));
}

/**
 * The owner's videos that only private channels (a password) hold, in a library, VOD catalog,
 * block or live stream: what a public token must not be handed a way to play.
 */
export async function privateOnlyVideoIds(db: Queryable, ownerId: number): Promise<number[]> {
  const result = await db.execute(sql`
    select video_id as "videoId" from (
      select cv.video_id, c.password_hash is not null as private from channel_videos cv join channels c on c.id = cv.channel_id where c.owner_id = ${ownerId}
      union all
      select vv.video_id, c.password_hash is not null from channel_vod_videos vv join channels c on c.id = vv.channel_id where c.owner_id = ${ownerId}
      union all
      select bv.video_id, c.password_hash is not null from schedule_block_videos bv join schedule_blocks b on b.id = bv.block_id join channels c on c.id = b.channel_id where c.owner_id = ${ownerId}
      union all
      select ls.video_id, c.password_hash is not null from live_streams ls join channels c on c.id = ls.channel_id where c.owner_id = ${ownerId}
    ) placed
    group by video_id
    having bool_and(private)`);
  const rows = ((result as { rows?: { videoId: number }[] }).rows ?? (result as unknown as { videoId: number }[]));
  return rows.map((r) => Number(r.videoId));
}
