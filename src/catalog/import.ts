// `channelnet import`: validate the whole file against itself and the database, then
// write it in one transaction. An entity in the file replaces the row with its id whole
// (its child rows too); entities absent from the file are left alone. Any error loads nothing.
import { and, eq, inArray } from 'drizzle-orm';
import { notifyCatalogChange } from '../cache/changes.ts';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Database, Queryable } from '../db/connect.ts';
import { insertBlobs } from '../data/blobs.ts';
import { syncHlsSources } from '../data/video-hls.ts';
import { hlsSourceOf } from './video-url.ts';
import { bumpSliceVersions, ownerHoldings } from '../data/owner-slice.ts';
import { OWNER_BOUND_LISTS, holdingsProblems } from './owner-bounds.ts';
import type { Catalog } from './format.ts';
import { advanceSequences } from '../data/ids.ts';
import { deleteWhereIn, insertRows, upsertRows } from '../db/bulk.ts';
import * as t from '../db/schema.ts';
import { catalogToRows, type CatalogRows } from './to-rows.ts';
import { EMPTY_EXISTING, parseCatalogText, validateCatalog, type ExistingCatalog } from './validate.ts';

export interface ImportOptions {
  /** Empty the catalog first (`--replace`). */
  replace: boolean;
  now: Date;
}

export type ImportResult =
  | { ok: true; counts: Record<string, number> }
  | { ok: false; errors: string[] };

export async function importCatalogText(db: Database, text: string, options: ImportOptions): Promise<ImportResult> {
  const parsed = parseCatalogText(text);
  if (!parsed.ok) return parsed;
  return importCatalog(db, parsed.value, options);
}

export async function importCatalog(db: Database, input: unknown, options: ImportOptions): Promise<ImportResult> {
  const existing = options.replace ? EMPTY_EXISTING : await loadExisting(db);
  const validated = validateCatalog(input, existing);
  if (!validated.ok) return validated;
  // Hashing is slow on purpose: do it before the transaction so the database is held briefly.
  const rows = await catalogToRows(validated.catalog, options.now);
  const beyond = await db
    .transaction(async (tx) => {
      if (options.replace) await emptyCatalog(tx);
      await writeRows(tx, rows, options.now);
      const owners = ownersOf(validated.catalog);
      await assertOwnersWithinBounds(tx, owners);
      // Their Studio exports changed: their ETags with them (src/data/owner-slice.ts).
      await bumpSliceVersions(tx, owners);
    // The file may hold ids of the assigned range (an export of this service): the sequences
    // move past them, so the next create neither meets nor steps over them one by one.
    await advanceSequences(tx);
    // Delivered on commit to every process's catalog cache (src/cache/catalog-cache.ts).
      await notifyCatalogChange(tx, 'all');
    })
    .then(
      () => undefined,
      (error: unknown) => {
        if (error instanceof OwnersBeyondBounds) return error.lines;
        throw error;
      },
    );
  if (beyond) return { ok: false, errors: beyond };
  return { ok: true, counts: countRows(rows) };
}

/** Thrown inside the import's transaction to roll it back: some owner would hold too much. */
class OwnersBeyondBounds extends Error {
  constructor(readonly lines: string[]) {
    super(lines.join('\n'));
  }
}

/** The owners whose slices the file writes. */
function ownersOf(catalog: Catalog): number[] {
  const owners = [...catalog.videos, ...catalog.channels, ...catalog.apps].map((e) => e.ownerId);
  return [...new Set([...owners, ...catalog.accounts.map((a) => a.id)])].sort((a, b) => a - b);
}

/** Every owner's holdings after the write within OWNER_BOUNDS (src/catalog/owner-bounds.ts), or the import is refused. */
async function assertOwnersWithinBounds(tx: Queryable, ownerIds: readonly number[]): Promise<void> {
  const lines: string[] = [];
  for (const ownerId of ownerIds) lines.push(...holdingsProblems(await ownerHoldings(tx, ownerId), (bound) => OWNER_BOUND_LISTS[bound], `owner ${ownerId}`));
  if (lines.length > 0) throw new OwnersBeyondBounds(lines);
}

/** True when nothing has been imported yet (npm start then loads the demo catalog). */
export async function isCatalogEmpty(db: Queryable): Promise<boolean> {
  const rows = await db.select({ id: t.accounts.id }).from(t.accounts).limit(1);
  return rows.length === 0;
}

async function loadExisting(db: Queryable): Promise<ExistingCatalog> {
  const [accounts, categories, languages, videos, channels, apps, scheduleBlocks] = await Promise.all([
    db.select({ id: t.accounts.id, username: t.accounts.username, email: t.accounts.email, publicUrl: t.accounts.publicUrl }).from(t.accounts),
    db.select({ id: t.categories.id }).from(t.categories),
    db.select({ id: t.languages.id }).from(t.languages),
    db.select({ id: t.videos.id }).from(t.videos),
    db.select({ id: t.channels.id, ownerId: t.channels.ownerId, url: t.channels.url }).from(t.channels),
    db.select({ id: t.apps.id, ownerId: t.apps.ownerId, platform: t.apps.platform }).from(t.apps),
    db.select({ id: t.scheduleBlocks.id, channelId: t.scheduleBlocks.channelId }).from(t.scheduleBlocks),
  ]);
  const ids = (rows: { id: number }[]) => new Set(rows.map((r) => r.id));
  return {
    accounts,
    categoryIds: ids(categories),
    languageIds: ids(languages),
    videoIds: ids(videos),
    channels,
    apps,
    scheduleBlocks,
  };
}

/** Every catalog table; activity events and watch sessions are history, not catalog. */
async function emptyCatalog(tx: Queryable): Promise<void> {
  const tables = [
    t.ppvUnlocks, t.subscriptions, t.channelUnlocks, t.favorites, t.appChannels, t.appStoreCredentials,
    t.appStoreProducts, t.appImages, t.appMobileSettings, t.apps, t.liveStreams, t.scheduleBlockVideos,
    t.scheduleBlocks, t.channelRokuSettings, t.channelVastSettings, t.channelVodVideos, t.channelVideos,
    t.channels, t.videoRenditions, t.videos, t.authTokens, t.brandings, t.accounts, t.languages, t.categories, t.blobs,
  ];
  for (const table of tables) await tx.delete(table);
}

/** Writes the rows; `now` stamps what the write queues (an HLS video's ingest). */
export async function writeRows(tx: Queryable, rows: CatalogRows, now: Date): Promise<void> {
  await insertBlobs(tx, rows.blobs);
  await upsertRows(tx, t.categories, [t.categories.id], rows.categories);
  await upsertRows(tx, t.languages, [t.languages.id], rows.languages);
  await writeAccounts(tx, rows);
  await writeVideos(tx, rows, now);
  await writeChannels(tx, rows);
  await replaceChildren(tx, t.favorites, t.favorites.accountId, ids(rows.accounts), rows.favorites);
  await writeApps(tx, rows);
  await upsertRows(tx, t.subscriptions, [t.subscriptions.appId, t.subscriptions.storePlatform, t.subscriptions.originalTransactionId], rows.subscriptions);
  await upsertRows(tx, t.ppvUnlocks, [t.ppvUnlocks.appId, t.ppvUnlocks.storePlatform, t.ppvUnlocks.transactionId], rows.ppvUnlocks);
}

const ids = (rows: { id: number }[]): number[] => rows.map((r) => r.id);

async function replaceChildren<T extends PgTable>(
  tx: Queryable,
  table: T,
  parentColumn: PgColumn,
  parentIds: number[],
  children: T['$inferInsert'][],
): Promise<void> {
  await deleteWhereIn(tx, table, parentColumn, parentIds);
  await insertRows(tx, table, children);
}

export async function writeAccounts(tx: Queryable, rows: CatalogRows): Promise<void> {
  const accountIds = ids(rows.accounts);
  await upsertRows(tx, t.accounts, [t.accounts.id], rows.accounts);
  await replaceChildren(tx, t.brandings, t.brandings.accountId, accountIds, rows.brandings);
  // Only long-lived app tokens are catalog data; login sessions stay valid.
  if (accountIds.length > 0) {
    await tx.delete(t.authTokens).where(and(inArray(t.authTokens.accountId, accountIds), eq(t.authTokens.kind, 'app')));
  }
  await insertRows(tx, t.authTokens, rows.appTokens);
}

export async function writeVideos(tx: Queryable, rows: CatalogRows, now: Date): Promise<void> {
  await upsertRows(tx, t.videos, [t.videos.id], rows.videos);
  await replaceChildren(tx, t.videoRenditions, t.videoRenditions.videoId, ids(rows.videos), rows.renditions);
  // Every way a video is written (Studio, imports) lands here: an HLS video's playlist is queued
  // for ingest when it is new or changed, and its ingest dropped when it stops being HLS.
  await syncHlsSources(tx, rows.videos.map((v) => ({ videoId: v.id, sourceUrl: hlsSourceOf(v) })), now);
}

export async function writeChannels(tx: Queryable, rows: CatalogRows): Promise<void> {
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

export async function writeApps(tx: Queryable, rows: CatalogRows): Promise<void> {
  const appIds = ids(rows.apps);
  await upsertRows(tx, t.apps, [t.apps.id], rows.apps);
  await replaceChildren(tx, t.appMobileSettings, t.appMobileSettings.appId, appIds, rows.appMobile);
  await replaceChildren(tx, t.appImages, t.appImages.appId, appIds, rows.appImages);
  await replaceChildren(tx, t.appStoreProducts, t.appStoreProducts.appId, appIds, rows.storeProducts);
  await replaceChildren(tx, t.appStoreCredentials, t.appStoreCredentials.appId, appIds, rows.storeCredentials);
  await replaceChildren(tx, t.appChannels, t.appChannels.appId, appIds, rows.appChannels);
}

function countRows(rows: CatalogRows): Record<string, number> {
  return {
    accounts: rows.accounts.length,
    categories: rows.categories.length,
    languages: rows.languages.length,
    videos: rows.videos.length,
    channels: rows.channels.length,
    scheduleBlocks: rows.blocks.length,
    liveStreams: rows.liveStreams.length,
    apps: rows.apps.length,
    subscriptions: rows.subscriptions.length,
    ppvUnlocks: rows.ppvUnlocks.length,
  };
}
