// Steps every Studio create and update shares: the owner a body names, ids the service
// assigns, and writing validated entities through the catalog import's own writers.
import type { Queryable } from '../db/connect.ts';
import { lockIdAssignment, nextId, type IdTable } from '../data/studio.ts';
import { claimNewRows } from '../data/studio-slice.ts';
import type { Catalog } from '../catalog/format.ts';
import { writeRows } from '../catalog/import.ts';
import { catalogToRows } from '../catalog/to-rows.ts';
import { invalid } from './refusals.ts';
import { assertIdsFree } from './validate.ts';

export type Body = Record<string, unknown>;

/** The body with ownerId filled in; one naming another account is refused. */
export function owned(body: Body, ownerId: number, root = ''): Body {
  if (body['ownerId'] !== undefined && body['ownerId'] !== ownerId) {
    throw invalid([`${root}ownerId: must be ${ownerId} (your account) or left out`]);
  }
  return { ...body, ownerId };
}

/**
 * Gives every body without an id the next free one and refuses ids already in use. Ids are
 * public and one namespace across owners, so a chosen id that is taken is refused whoever holds it.
 */
export async function withIds(tx: Queryable, table: IdTable, bodies: readonly Body[]): Promise<Body[]> {
  const chosen = bodies.map((b) => b['id']).filter((id): id is number => typeof id === 'number');
  await assertIdsFree(tx, table, chosen);
  if (bodies.every((b) => b['id'] !== undefined)) return [...bodies];
  await lockIdAssignment(tx);
  let next = Math.max(await nextId(tx, table), ...chosen.map((id) => id + 1));
  return bodies.map((b) => (b['id'] !== undefined ? b : { ...b, id: next++ }));
}

/** Writes validated entities as an import of them would: each replaces its row and children. */
export async function writeCatalog(tx: Queryable, catalog: Catalog, now: Date): Promise<void> {
  await writeRows(tx, await catalogToRows(catalog, now));
}

/**
 * Writes new entities: their rows are first inserted plainly, so an id another owner's request
 * took since it was checked fails (409 id_taken) instead of being overwritten by the upsert.
 */
export async function createCatalog(tx: Queryable, catalog: Catalog, now: Date): Promise<void> {
  const rows = await catalogToRows(catalog, now);
  await claimNewRows(tx, { categories: [], languages: [], videos: rows.videos, channels: rows.channels, apps: rows.apps });
  await writeRows(tx, rows);
}

/** Refuses a PATCH that would change a fixed field (id, ownerId, platform). */
export function assertFixed(patch: Body, current: Body, fields: readonly string[]): void {
  const changed = fields.filter((f) => patch[f] !== undefined && patch[f] !== current[f]);
  if (changed.length > 0) throw invalid(changed.map((f) => `${f}: cannot be changed`));
}
