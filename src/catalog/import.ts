// `channelnet import`: validate the whole file against itself and the database, then
// write it in one transaction. An entity in the file replaces the row with its id whole
// (its child rows too); entities absent from the file are left alone. Any error loads nothing.
import { notifyCatalogChange } from '../cache/changes.ts';
import type { Database, Queryable } from '../db/connect.ts';
import { insertBlobs } from '../data/blobs.ts';
import { emptyCatalog, writeAccounts, writeApps, writeChannels, writeEntitlements, writeFavorites, writeReferenceData, writeVideoRows } from '../data/catalog-write.ts';
import { catalogExisting } from '../data/studio.ts';
import { syncHlsSources } from '../data/video-hls.ts';
import { hlsSourceOf } from './video-url.ts';
import { bumpSliceVersions, ownerHoldings } from '../data/owner-slice.ts';
import { OWNER_BOUND_LISTS, holdingsProblems } from './owner-bounds.ts';
import type { Catalog } from './format.ts';
import { advanceSequences } from '../data/ids.ts';
import { catalogToRows, type CatalogRows } from './to-rows.ts';
import { EMPTY_EXISTING, parseCatalogText, validateCatalog } from './validate.ts';

export { isCatalogEmpty, writeAccounts, writeApps, writeChannels } from '../data/catalog-write.ts';

export interface ImportOptions {
  /** Empty the catalog first (`--replace`). */
  replace: boolean;
  now: Date;
}

export type ImportResult = { ok: true; counts: Record<string, number> } | { ok: false; errors: string[] };

export async function importCatalogText(db: Database, text: string, options: ImportOptions): Promise<ImportResult> {
  const parsed = parseCatalogText(text);
  if (!parsed.ok) return parsed;
  return importCatalog(db, parsed.value, options);
}

export async function importCatalog(db: Database, input: unknown, options: ImportOptions): Promise<ImportResult> {
  const existing = options.replace ? EMPTY_EXISTING : await catalogExisting(db);
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

/** Writes the rows; `now` stamps what the write queues (an HLS video's ingest). */
export async function writeRows(tx: Queryable, rows: CatalogRows, now: Date): Promise<void> {
  await insertBlobs(tx, rows.blobs);
  await writeReferenceData(tx, rows);
  await writeAccounts(tx, rows);
  await writeVideos(tx, rows, now);
  await writeChannels(tx, rows);
  await writeFavorites(tx, rows);
  await writeApps(tx, rows);
  await writeEntitlements(tx, rows);
}

export async function writeVideos(tx: Queryable, rows: CatalogRows, now: Date): Promise<void> {
  await writeVideoRows(tx, rows);
  // Every way a video is written (Studio, imports) lands here: an HLS video's playlist is queued
  // for ingest when it is new or changed, and its ingest dropped when it stops being HLS.
  await syncHlsSources(
    tx,
    rows.videos.map((v) => ({ videoId: v.id, sourceUrl: hlsSourceOf(v) })),
    now,
  );
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
