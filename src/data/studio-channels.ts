// Queries behind the Studio's channels: the owner's page of channels (deleted ones only when
// asked), the channel rows a Studio answer is made of, and the targeted writes of one channel's
// fields or of one of its child lists (library, VOD, one VAST row, one live stream, the
// password), so a change to one part never rewrites (and renumbers) the others.
import { and, asc, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { Queryable } from '../db/connect.ts';
import * as t from '../db/schema.ts';

export type ChannelRowValues = typeof t.channels.$inferInsert & { id: number };
export type RokuRowValues = typeof t.channelRokuSettings.$inferInsert;
export type VastRowValues = typeof t.channelVastSettings.$inferInsert;
export type VastRowPlatform = VastRowValues['platform'];
export type LiveStreamRow = typeof t.liveStreams.$inferSelect;

function matching(ownerId: number, q: string | undefined, includeDeleted: boolean): SQL | undefined {
  const mine = includeDeleted ? eq(t.channels.ownerId, ownerId) : and(eq(t.channels.ownerId, ownerId), eq(t.channels.deleted, false));
  if (q === undefined || q.trim() === '') return mine;
  const pattern = `%${q.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return and(mine, or(ilike(t.channels.name, pattern), ilike(t.channels.url, pattern)));
}

/** One page of the owner's channel ids in their order (then id), and how many match in all. */
export async function ownerChannelPage(db: Queryable, ownerId: number, q: string | undefined, includeDeleted: boolean, offset: number, limit: number) {
  const where = matching(ownerId, q, includeDeleted);
  const [ids, [count]] = await Promise.all([
    db.select({ id: t.channels.id }).from(t.channels).where(where).orderBy(asc(t.channels.sortOrder), asc(t.channels.id)).offset(offset).limit(limit),
    db.select({ total: sql<number>`count(*)::int` }).from(t.channels).where(where),
  ]);
  return { ids: ids.map((r) => r.id), total: Number(count?.total ?? 0) };
}

/** The channel rows (deleted ones too) of the owner among `ids`, each with its Roku row, in the order of `ids`. */
export async function ownerChannelRows(db: Queryable, ownerId: number, ids: readonly number[]) {
  if (ids.length === 0) return [];
  const rows = await db
    .select({ channel: t.channels, roku: t.channelRokuSettings })
    .from(t.channels)
    .leftJoin(t.channelRokuSettings, eq(t.channelRokuSettings.channelId, t.channels.id))
    .where(and(eq(t.channels.ownerId, ownerId), inArray(t.channels.id, [...ids])));
  const byId = new Map(rows.map((r) => [r.channel.id, r]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

export type OwnerChannelRow = Awaited<ReturnType<typeof ownerChannelRows>>[number];

/** Every channel of the owner (deleted ones too): id, order and whether deleted, in the owner's order. */
export async function ownerChannelOrders(db: Queryable, ownerId: number) {
  return db
    .select({ id: t.channels.id, order: t.channels.sortOrder, deleted: t.channels.deleted })
    .from(t.channels)
    .where(eq(t.channels.ownerId, ownerId))
    .orderBy(asc(t.channels.sortOrder), asc(t.channels.id));
}

/** Writes the channel's own row (every column but id and owner); its children are left alone. */
export async function updateChannelRow(tx: Queryable, row: ChannelRowValues): Promise<void> {
  const { id, ownerId: _, ...values } = row;
  await tx.update(t.channels).set(values).where(eq(t.channels.id, id));
}

export async function setChannelDeleted(tx: Queryable, channelId: number, deleted: boolean): Promise<void> {
  await tx.update(t.channels).set({ deleted }).where(eq(t.channels.id, channelId));
}

export async function setChannelOrders(tx: Queryable, orders: readonly { id: number; order: number }[]): Promise<void> {
  for (const { id, order } of orders) await tx.update(t.channels).set({ sortOrder: order }).where(eq(t.channels.id, id));
}

/** The channel's Roku row replaced (null: removed). */
export async function replaceRokuRow(tx: Queryable, channelId: number, row: RokuRowValues | null): Promise<void> {
  await tx.delete(t.channelRokuSettings).where(eq(t.channelRokuSettings.channelId, channelId));
  if (row) await tx.insert(t.channelRokuSettings).values(row);
}

/** The channel's library (or VOD catalog) video ids, in list order. */
export async function channelVideoList(db: Queryable, list: 'library' | 'vod', channelId: number): Promise<number[]> {
  const table = list === 'library' ? t.channelVideos : t.channelVodVideos;
  const rows = await db.select({ videoId: table.videoId }).from(table).where(eq(table.channelId, channelId)).orderBy(asc(table.position));
  return rows.map((r) => r.videoId);
}

/** The channel's library (or VOD catalog) replaced whole, positions 0..n-1 in list order. */
export async function replaceChannelVideoList(tx: Queryable, list: 'library' | 'vod', channelId: number, videoIds: readonly number[]): Promise<void> {
  const table = list === 'library' ? t.channelVideos : t.channelVodVideos;
  await tx.delete(table).where(eq(table.channelId, channelId));
  if (videoIds.length > 0) await tx.insert(table).values(videoIds.map((videoId, position) => ({ channelId, position, videoId })));
}

/** The channel's VAST rows, by platform (as the export orders them). */
export async function channelVastRows(db: Queryable, channelId: number) {
  return db.select().from(t.channelVastSettings).where(eq(t.channelVastSettings.channelId, channelId)).orderBy(asc(t.channelVastSettings.platform));
}

/** Inserts or replaces the channel's VAST row of the row's platform. */
export async function upsertVastRow(tx: Queryable, row: VastRowValues): Promise<void> {
  const { channelId: _, platform: __, ...values } = row;
  await tx
    .insert(t.channelVastSettings)
    .values(row)
    .onConflictDoUpdate({ target: [t.channelVastSettings.channelId, t.channelVastSettings.platform], set: values });
}

export async function deleteVastRow(tx: Queryable, channelId: number, platform: VastRowPlatform): Promise<void> {
  await tx.delete(t.channelVastSettings).where(and(eq(t.channelVastSettings.channelId, channelId), eq(t.channelVastSettings.platform, platform)));
}

/** The channel's live streams with their row ids, in the export's order (start, then id). */
export async function liveStreamRows(db: Queryable, channelId: number): Promise<LiveStreamRow[]> {
  return db.select().from(t.liveStreams).where(eq(t.liveStreams.channelId, channelId)).orderBy(asc(t.liveStreams.startAt), asc(t.liveStreams.id));
}

export type LiveStreamValues = Pick<LiveStreamRow, 'videoId' | 'startAt' | 'endAt' | 'uri'>;

/** Adds one live stream; its id is the new row's. */
export async function insertLiveStream(tx: Queryable, channelId: number, values: LiveStreamValues): Promise<number> {
  const [row] = await tx.insert(t.liveStreams).values({ channelId, ...values }).returning({ id: t.liveStreams.id });
  return row!.id;
}

/** Changes one live stream in place: its id stays. */
export async function updateLiveStream(tx: Queryable, liveStreamId: number, values: LiveStreamValues): Promise<void> {
  await tx.update(t.liveStreams).set(values).where(eq(t.liveStreams.id, liveStreamId));
}

export async function deleteLiveStream(tx: Queryable, liveStreamId: number): Promise<void> {
  await tx.delete(t.liveStreams).where(eq(t.liveStreams.id, liveStreamId));
}

/**
 * Sets or clears the channel's password hash and forgets every unlock of the channel: an
 * unlock was made with the password it replaces, so it must be made again with the new one.
 */
export async function replaceChannelPassword(tx: Queryable, channelId: number, passwordHash: string | null): Promise<void> {
  await tx.update(t.channels).set({ passwordHash }).where(eq(t.channels.id, channelId));
  await tx.delete(t.channelUnlocks).where(eq(t.channelUnlocks.channelId, channelId));
}
