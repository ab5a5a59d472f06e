// The catalog's table writes, for the import and the Studio API (src/catalog/import.ts): an
// entity written replaces the row with its id whole, its child rows too; entities absent from
// the rows are left alone. Rows come as src/catalog/to-rows.ts makes them, every entity keyed.
import { and, eq, inArray } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { deleteWhereIn, insertRows, upsertRows } from '../db/bulk.ts';
import type { Queryable } from '../db/connect.ts';
import * as t from '../db/schema.ts';

type Rows<T extends PgTable> = T['$inferInsert'][];
/** Rows of a table whose id the service can assign: a catalog entity always carries its own. */
type Keyed<T extends PgTable> = (T['$inferInsert'] & { id: number })[];

/** True when nothing has been imported yet (npm start then loads the demo catalog). */
export async function isCatalogEmpty(db: Queryable): Promise<boolean> {
  const rows = await db.select({ id: t.accounts.id }).from(t.accounts).limit(1);
  return rows.length === 0;
}

/** Every catalog table; activity events and watch sessions are history, not catalog. */
export async function emptyCatalog(tx: Queryable): Promise<void> {
  const tables = [
    t.ppvUnlocks, t.subscriptions, t.channelUnlocks, t.favorites, t.appChannels, t.appStoreCredentials,
    t.appStoreProducts, t.appImages, t.appMobileSettings, t.apps, t.liveStreams, t.scheduleBlockVideos,
    t.scheduleBlocks, t.channelRokuSettings, t.channelVastSettings, t.channelVodVideos, t.channelVideos,
    t.channels, t.videoRenditions, t.videos, t.authTokens, t.brandings, t.accounts, t.languages, t.categories, t.blobs,
  ];
  for (const table of tables) await tx.delete(table);
}

const ids = (rows: { id: number }[]): number[] => rows.map((r) => r.id);

async function replaceChildren<T extends PgTable>(tx: Queryable, table: T, parentColumn: PgColumn, parentIds: number[], children: Rows<T>): Promise<void> {
  await deleteWhereIn(tx, table, parentColumn, parentIds);
  await insertRows(tx, table, children);
}

export async function writeReferenceData(tx: Queryable, rows: { categories: Keyed<typeof t.categories>; languages: Keyed<typeof t.languages> }): Promise<void> {
  await upsertRows(tx, t.categories, [t.categories.id], rows.categories);
  await upsertRows(tx, t.languages, [t.languages.id], rows.languages);
}

export async function writeAccounts(
  tx: Queryable,
  rows: { accounts: Keyed<typeof t.accounts>; brandings: Rows<typeof t.brandings>; appTokens: Rows<typeof t.authTokens> },
): Promise<void> {
  const accountIds = ids(rows.accounts);
  await upsertRows(tx, t.accounts, [t.accounts.id], rows.accounts);
  await replaceChildren(tx, t.brandings, t.brandings.accountId, accountIds, rows.brandings);
  // Only long-lived app tokens are catalog data; login sessions stay valid.
  if (accountIds.length > 0) {
    await tx.delete(t.authTokens).where(and(inArray(t.authTokens.accountId, accountIds), eq(t.authTokens.kind, 'app')));
  }
  await insertRows(tx, t.authTokens, rows.appTokens);
}

/** The accounts' favorites: written after the channels they name. */
export async function writeFavorites(tx: Queryable, rows: { accounts: Keyed<typeof t.accounts>; favorites: Rows<typeof t.favorites> }): Promise<void> {
  await replaceChildren(tx, t.favorites, t.favorites.accountId, ids(rows.accounts), rows.favorites);
}

/** Videos and their renditions (their HLS ingest is the caller's: src/data/video-hls.ts). */
export async function writeVideoRows(tx: Queryable, rows: { videos: Keyed<typeof t.videos>; renditions: Rows<typeof t.videoRenditions> }): Promise<void> {
  await upsertRows(tx, t.videos, [t.videos.id], rows.videos);
  await replaceChildren(tx, t.videoRenditions, t.videoRenditions.videoId, ids(rows.videos), rows.renditions);
}

export interface ChannelRows {
  channels: Keyed<typeof t.channels>;
  channelVideos: Rows<typeof t.channelVideos>; channelVodVideos: Rows<typeof t.channelVodVideos>;
  vast: Rows<typeof t.channelVastSettings>; roku: Rows<typeof t.channelRokuSettings>;
  blocks: Keyed<typeof t.scheduleBlocks>; blockVideos: Rows<typeof t.scheduleBlockVideos>; liveStreams: Rows<typeof t.liveStreams>;
}

export async function writeChannels(tx: Queryable, rows: ChannelRows): Promise<void> {
  const channelIds = ids(rows.channels);
  await upsertRows(tx, t.channels, [t.channels.id], rows.channels);
  await replaceChildren(tx, t.channelVideos, t.channelVideos.channelId, channelIds, rows.channelVideos);
  await replaceChildren(tx, t.channelVodVideos, t.channelVodVideos.channelId, channelIds, rows.channelVodVideos);
  await replaceChildren(tx, t.channelVastSettings, t.channelVastSettings.channelId, channelIds, rows.vast);
  await replaceChildren(tx, t.channelRokuSettings, t.channelRokuSettings.channelId, channelIds, rows.roku);
  // Block videos go with their blocks (ON DELETE CASCADE).
  await replaceChildren(tx, t.scheduleBlocks, t.scheduleBlocks.channelId, channelIds, rows.blocks);
  await insertRows(tx, t.scheduleBlockVideos, rows.blockVideos);
  await replaceChildren(tx, t.liveStreams, t.liveStreams.channelId, channelIds, rows.liveStreams);
}

export interface AppRows {
  apps: Keyed<typeof t.apps>;
  appMobile: Rows<typeof t.appMobileSettings>; appImages: Rows<typeof t.appImages>;
  storeProducts: Rows<typeof t.appStoreProducts>; storeCredentials: Rows<typeof t.appStoreCredentials>; appChannels: Rows<typeof t.appChannels>;
}

export async function writeApps(tx: Queryable, rows: AppRows): Promise<void> {
  const appIds = ids(rows.apps);
  await upsertRows(tx, t.apps, [t.apps.id], rows.apps);
  await replaceChildren(tx, t.appMobileSettings, t.appMobileSettings.appId, appIds, rows.appMobile);
  await replaceChildren(tx, t.appImages, t.appImages.appId, appIds, rows.appImages);
  await replaceChildren(tx, t.appStoreProducts, t.appStoreProducts.appId, appIds, rows.storeProducts);
  await replaceChildren(tx, t.appStoreCredentials, t.appStoreCredentials.appId, appIds, rows.storeCredentials);
  await replaceChildren(tx, t.appChannels, t.appChannels.appId, appIds, rows.appChannels);
}

/** Subscriptions and PPV unlocks, by their store's identity of the purchase. */
export async function writeEntitlements(tx: Queryable, rows: { subscriptions: Rows<typeof t.subscriptions>; ppvUnlocks: Rows<typeof t.ppvUnlocks> }): Promise<void> {
  await upsertRows(tx, t.subscriptions, [t.subscriptions.appId, t.subscriptions.storePlatform, t.subscriptions.originalTransactionId], rows.subscriptions);
  await upsertRows(tx, t.ppvUnlocks, [t.ppvUnlocks.appId, t.ppvUnlocks.storePlatform, t.ppvUnlocks.transactionId], rows.ppvUnlocks);
}
