// Studio bodies are checked by the catalog import's own rules: the entities are put in a
// catalog and validated against the owner's slice of the database, so the field rules, the
// references and the wording of every error are the import's. Errors come back re-rooted at
// the request body (`channels[0].schedules[1].startTime` is `schedules[1].startTime`).
import type { Queryable } from '../db/connect.ts';
import { takenIds, type IdTable } from '../data/ids.ts';
import { ownerExisting } from '../data/studio.ts';
import type { Catalog, CatalogInput } from '../catalog/format.ts';
import { validateCatalog } from '../catalog/validate.ts';
import { EditRefusal, invalid } from './refusals.ts';

export type Slice = Omit<CatalogInput, 'format' | 'version'>;

/**
 * The validated catalog of `slice`, or an invalid_request refusal with its errors under `root`.
 * `videoIds`: every video id the slice names, when the caller knows them (a block write): only
 * those of the owner's videos are read, not all 20,000.
 */
export async function validateSlice(tx: Queryable, ownerId: number, slice: Slice, root = '', videoIds?: readonly number[]): Promise<Catalog> {
  return validateAgainst(await existingFor(tx, ownerId, slice, videoIds), slice, root);
}

/** What of the owner's data `slice` may refer to (validateSlice's read), for validating it in parts (validateAgainst). */
export async function existingFor(tx: Queryable, ownerId: number, slice: Slice, videoIds?: readonly number[]): Promise<Existing> {
  const blockIds = (slice.channels ?? []).flatMap((c) => (c.schedules ?? []).map((b) => b.id)).filter((id): id is number => typeof id === 'number');
  return ownerExisting(tx, ownerId, blockIds, videoIds);
}

export type Existing = Awaited<ReturnType<typeof ownerExisting>>;

/** validateSlice against `existing` read before (no I/O: a heavy write validates its parts between turns of the event loop). */
export function validateAgainst(existing: Existing, slice: Slice, root = ''): Catalog {
  const result = validateCatalog({ format: 'channel-network-catalog', version: 1, ...slice }, existing);
  if (!result.ok) throw invalid(result.errors, root);
  return result.catalog;
}

const NOUNS: Record<IdTable, string> = {
  accounts: 'account',
  videos: 'video',
  channels: 'channel',
  apps: 'app',
  scheduleBlocks: 'schedule block',
  categories: 'category',
  languages: 'language',
};

/** Refuses ids chosen by the client that are already in use, whoever holds them (ids are global). */
export async function assertIdsFree(tx: Queryable, table: IdTable, ids: readonly number[]): Promise<void> {
  const taken = await takenIds(tx, table, ids);
  if (taken.length === 0) return;
  const noun = NOUNS[table];
  throw new EditRefusal('id_taken', `${noun} id ${taken.join(', ')} is already in use; leave id out to have one assigned.`);
}
