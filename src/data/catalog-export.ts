// The rows of `channelnet export` and of the Studio API's reads (src/catalog/export.ts maps them
// to the catalog format). Every list is ordered (by id where nothing else is meant) so that two
// exports of the same data are byte-identical.
import { and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Queryable } from '../db/connect.ts';
import * as t from '../db/schema.ts';

export type ChannelRow = typeof t.channels.$inferSelect;
export type AppRow = typeof t.apps.$inferSelect;

/**
 * Part of the catalog: one owner's rows, optionally only some ids (the Studio API reads single
 * entities through the same code as the export, so both say the same).
 */
export interface ExportScope {
  ownerId: number;
  videoIds?: readonly number[];
  channelIds?: readonly number[];
  appIds?: readonly number[];
}

/** The filter of an owned table's rows under `scope` (undefined: every row). */
function owned(scope: ExportScope | undefined, ownerColumn: PgColumn, idColumn: PgColumn, ids: readonly number[] | undefined): SQL | undefined {
  if (!scope) return undefined;
  return ids === undefined ? eq(ownerColumn, scope.ownerId) : and(eq(ownerColumn, scope.ownerId), inArray(idColumn, [...ids]));
}

/**
 * The filter of child rows to those of `parents` (undefined: every row). A whole owner's children
 * are named by `parentQuery` (a subquery of the parents' ids), not by a list of thousands of ids:
 * PGlite spent ~0.5 s parsing and planning each query of a full slice's 20,000 block ids.
 */
function childrenOf(scope: ExportScope | undefined, column: PgColumn, parents: ReadonlyArray<{ id: number }>, parentQuery?: SQL): SQL | undefined {
  if (!scope) return undefined;
  if (parentQuery) return sql`${column} in ${parentQuery}`;
  return inArray(column, parents.length > 0 ? parents.map((p) => p.id) : [-1]);
}

export async function categoryRows(db: Queryable) {
  return db.select().from(t.categories).orderBy(asc(t.categories.id));
}

export async function languageRows(db: Queryable) {
  return db.select().from(t.languages).orderBy(asc(t.languages.id));
}

export async function accountRows(db: Queryable, scope?: ExportScope) {
  const [accounts, brandings, tokens, favorites] = await Promise.all([
    db.select().from(t.accounts).where(scope && eq(t.accounts.id, scope.ownerId)).orderBy(asc(t.accounts.id)),
    db.select().from(t.brandings).where(scope && eq(t.brandings.accountId, scope.ownerId)),
    db.select().from(t.authTokens).where(scope && eq(t.authTokens.accountId, scope.ownerId)).orderBy(asc(t.authTokens.id)),
    db.select().from(t.favorites).where(scope && eq(t.favorites.accountId, scope.ownerId)).orderBy(asc(t.favorites.favoritedAt), asc(t.favorites.channelId)),
  ]);
  return { accounts, brandings, tokens, favorites };
}

export async function videoRows(db: Queryable, scope?: ExportScope) {
  const videos = await db.select().from(t.videos).where(owned(scope, t.videos.ownerId, t.videos.id, scope?.videoIds)).orderBy(asc(t.videos.id));
  const renditions = await db
    .select()
    .from(t.videoRenditions)
    .where(childrenOf(scope, t.videoRenditions.videoId, videos))
    .orderBy(asc(t.videoRenditions.videoId), asc(t.videoRenditions.position));
  return { videos, renditions };
}

/**
 * Ordered video id lists (libraries, VOD catalogs, blocks' videos) by parent, each list one
 * comma-separated text built by the database: a channel network holds hundreds of thousands of
 * such entries, and a row each cost PGlite (which decodes rows in JavaScript) seconds.
 */
async function videoIdLists(db: Queryable, parent: PgColumn, video: PgColumn, position: PgColumn, where: SQL | undefined): Promise<Map<number, number[]>> {
  const rows = await db
    .select({ parent: sql<number>`${parent}`, ids: sql<string>`string_agg(${video}::text, ',' order by ${position})` })
    .from(parent.table)
    .where(where)
    .groupBy(parent);
  return new Map(rows.map((r) => [Number(r.parent), r.ids.split(',').map(Number)]));
}

/** Channels with their children; the video id lists come by parent id (videoIdLists). */
export async function channelRows(db: Queryable, scope?: ExportScope) {
  const channels = await db.select().from(t.channels).where(owned(scope, t.channels.ownerId, t.channels.id, scope?.channelIds)).orderBy(asc(t.channels.id));
  // A whole owner: children by subquery (childrenOf); some channels: by their ids.
  const whole = scope !== undefined && scope.channelIds === undefined;
  const ownedChannels = whole ? sql`(select ${t.channels.id} from ${t.channels} where ${t.channels.ownerId} = ${scope.ownerId})` : undefined;
  const of = (column: PgColumn) => childrenOf(scope, column, channels, ownedChannels);
  const blocks = await db.select().from(t.scheduleBlocks).where(of(t.scheduleBlocks.channelId)).orderBy(asc(t.scheduleBlocks.startLocal), asc(t.scheduleBlocks.id));
  const ownedBlocks = whole ? sql`(select ${t.scheduleBlocks.id} from ${t.scheduleBlocks} where ${t.scheduleBlocks.channelId} in ${ownedChannels})` : undefined;
  const [libraryOf, vodOf, vast, roku, blockVideosOf, live] = await Promise.all([
    videoIdLists(db, t.channelVideos.channelId, t.channelVideos.videoId, t.channelVideos.position, of(t.channelVideos.channelId)),
    videoIdLists(db, t.channelVodVideos.channelId, t.channelVodVideos.videoId, t.channelVodVideos.position, of(t.channelVodVideos.channelId)),
    db.select().from(t.channelVastSettings).where(of(t.channelVastSettings.channelId)).orderBy(asc(t.channelVastSettings.channelId), asc(t.channelVastSettings.platform)),
    db.select().from(t.channelRokuSettings).where(of(t.channelRokuSettings.channelId)),
    videoIdLists(db, t.scheduleBlockVideos.blockId, t.scheduleBlockVideos.videoId, t.scheduleBlockVideos.position, childrenOf(scope, t.scheduleBlockVideos.blockId, blocks, ownedBlocks)),
    db.select().from(t.liveStreams).where(of(t.liveStreams.channelId)).orderBy(asc(t.liveStreams.startAt), asc(t.liveStreams.id)),
  ]);
  return { channels, blocks, libraryOf, vodOf, vast, roku, blockVideosOf, live };
}

/** One of the owner's channels alone (undefined: none, or another owner's). */
export async function channelHeadRow(db: Queryable, ownerId: number, channelId: number): Promise<ChannelRow | undefined> {
  const [c] = await db.select().from(t.channels).where(and(eq(t.channels.id, channelId), eq(t.channels.ownerId, ownerId)));
  return c;
}

export async function appRows(db: Queryable, scope?: ExportScope) {
  const apps = await db.select().from(t.apps).where(owned(scope, t.apps.ownerId, t.apps.id, scope?.appIds)).orderBy(asc(t.apps.id));
  const of = (column: PgColumn) => childrenOf(scope, column, apps);
  const [mobile, images, products, credentials, appChannels] = await Promise.all([
    db.select().from(t.appMobileSettings).where(of(t.appMobileSettings.appId)),
    db.select().from(t.appImages).where(of(t.appImages.appId)).orderBy(asc(t.appImages.appId), asc(t.appImages.role)),
    db.select().from(t.appStoreProducts).where(of(t.appStoreProducts.appId)).orderBy(asc(t.appStoreProducts.appId), asc(t.appStoreProducts.kind), asc(t.appStoreProducts.position)),
    db.select().from(t.appStoreCredentials).where(of(t.appStoreCredentials.appId)).orderBy(asc(t.appStoreCredentials.appId), asc(t.appStoreCredentials.store)),
    db.select().from(t.appChannels).where(of(t.appChannels.appId)).orderBy(asc(t.appChannels.appId), asc(t.appChannels.position)),
  ]);
  return { apps, mobile, images, products, credentials, appChannels };
}

export async function entitlementRows(db: Queryable) {
  const [subscriptions, ppvUnlocks] = await Promise.all([
    db.select().from(t.subscriptions).orderBy(asc(t.subscriptions.id)),
    db.select().from(t.ppvUnlocks).orderBy(asc(t.ppvUnlocks.id)),
  ]);
  return { subscriptions, ppvUnlocks };
}
