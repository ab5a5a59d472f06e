// Rows of channel_linear: a channel's linear output settings (src/editing/linear-settings.ts).
import { and, asc, eq, inArray, or } from 'drizzle-orm';
import type { Queryable } from '../db/connect.ts';
import { channelLinear, channels, channelVideos, scheduleBlocks, scheduleBlockVideos, videoHls } from '../db/schema.ts';

export type ChannelLinearRow = typeof channelLinear.$inferSelect;

export async function channelLinearRow(db: Queryable, channelId: number): Promise<ChannelLinearRow | undefined> {
  const [row] = await db.select().from(channelLinear).where(eq(channelLinear.channelId, channelId));
  return row;
}

/** The enabled settings of these channels. */
export async function enabledChannelLinearRows(db: Queryable, channelIds: readonly number[]): Promise<ChannelLinearRow[]> {
  if (channelIds.length === 0) return [];
  return db.select().from(channelLinear).where(and(inArray(channelLinear.channelId, [...channelIds]), eq(channelLinear.enabled, true)));
}

export type ChannelLinearValues = Omit<ChannelLinearRow, 'version'>;

/** Creates the row (version 1); false when one exists already (a concurrent first PUT). */
export async function insertChannelLinear(db: Queryable, values: ChannelLinearValues): Promise<boolean> {
  const rows = await db.insert(channelLinear).values({ ...values, version: 1 }).onConflictDoNothing().returning({ v: channelLinear.version });
  return rows.length > 0;
}

/** Updates the row if it is still at `version` (If-Match); false when it moved on. */
export async function updateChannelLinear(db: Queryable, values: ChannelLinearValues, version: number): Promise<boolean> {
  const { channelId, ...rest } = values;
  const rows = await db
    .update(channelLinear)
    .set({ ...rest, version: version + 1 })
    .where(and(eq(channelLinear.channelId, channelId), eq(channelLinear.version, version)))
    .returning({ v: channelLinear.version });
  return rows.length > 0;
}

/**
 * The channel's first ready HLS ingest (lowest video id among its library and scheduled videos),
 * whose ladder is the channel's by default; undefined when it has none.
 */
export async function firstReadyVideoId(db: Queryable, channelId: number): Promise<number | undefined> {
  const library = db.select({ videoId: channelVideos.videoId }).from(channelVideos).where(eq(channelVideos.channelId, channelId));
  const scheduled = db
    .select({ videoId: scheduleBlockVideos.videoId })
    .from(scheduleBlockVideos)
    .innerJoin(scheduleBlocks, eq(scheduleBlocks.id, scheduleBlockVideos.blockId))
    .where(eq(scheduleBlocks.channelId, channelId));
  const [row] = await db
    .select({ videoId: videoHls.videoId })
    .from(videoHls)
    .where(and(eq(videoHls.status, 'ready'), or(inArray(videoHls.videoId, library), inArray(videoHls.videoId, scheduled))))
    .orderBy(asc(videoHls.videoId))
    .limit(1);
  return row?.videoId;
}

/** The ingest status of these videos (a video without a row is absent: its stream is not HLS). */
export async function ingestStatuses(db: Queryable, videoIds: readonly number[]): Promise<Map<number, 'pending' | 'ready' | 'failed'>> {
  if (videoIds.length === 0) return new Map();
  const rows = await db.select({ videoId: videoHls.videoId, status: videoHls.status }).from(videoHls).where(inArray(videoHls.videoId, [...videoIds]));
  return new Map(rows.map((r) => [r.videoId, r.status]));
}

/** A channel as the live playlists need it (owner, zone, password, deleted), with its linear row. */
export async function liveChannel(db: Queryable, channelId: number) {
  const [row] = await db
    .select({ id: channels.id, ownerId: channels.ownerId, timezone: channels.timezone, passwordHash: channels.passwordHash, linear: channelLinear })
    .from(channels)
    .leftJoin(channelLinear, eq(channelLinear.channelId, channels.id))
    .where(and(eq(channels.id, channelId), eq(channels.deleted, false)));
  return row;
}

/** The ingest status and ingestion instant of these videos (a video without a row is absent): what tells a kept ingest is still current. */
export async function ingestStamps(db: Queryable, videoIds: readonly number[]): Promise<Map<number, { status: 'pending' | 'ready' | 'failed'; at: number }>> {
  if (videoIds.length === 0) return new Map();
  const rows = await db.select({ videoId: videoHls.videoId, status: videoHls.status, at: videoHls.ingestedAt }).from(videoHls).where(inArray(videoHls.videoId, [...videoIds]));
  return new Map(rows.map((r) => [r.videoId, { status: r.status, at: r.at?.getTime() ?? 0 }]));
}
