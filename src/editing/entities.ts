// Steps every Studio create and update shares: the owner a body names, ids the service
// assigns, and writing validated entities through the catalog import's own writers.
import type { Queryable } from '../db/connect.ts';
import { lockSequencesShared, nextIds, type IdTable } from '../data/ids.ts';
import { claimNewRows } from '../data/studio-slice.ts';
import type { Catalog } from '../catalog/format.ts';
import { chosenIdProblem } from '../catalog/ids.ts';
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
 * Gives every body without an id a new one from the table's sequence and refuses chosen ids
 * outside the chosen range (1..9,999,999) or already in use. Ids are public and one namespace
 * across owners, so a taken id is refused whoever holds it; a choice never moves the sequence,
 * so it changes no one's next id. `root(i)` is where body i sits in the request (`[3].`).
 */
export async function withIds(tx: Queryable, table: IdTable, bodies: readonly Body[], root: (i: number) => string = () => ''): Promise<Body[]> {
  const outOfRange = bodies.flatMap((b, i) => {
    const problem = typeof b['id'] === 'number' ? chosenIdProblem(b['id']) : null;
    return problem === null ? [] : [`${root(i)}id: ${problem}`];
  });
  if (outOfRange.length > 0) throw invalid(outOfRange);
  const chosen = bodies.map((b) => b['id']).filter((id): id is number => typeof id === 'number');
  await assertIdsFree(tx, table, chosen);
  const missing = bodies.filter((b) => b['id'] === undefined).length;
  if (missing === 0) return [...bodies];
  await lockSequencesShared(tx);
  const assigned = await nextIds(tx, table, missing);
  return bodies.map((b) => (b['id'] !== undefined ? b : { ...b, id: assigned.shift() }));
}

/** Writes validated entities as an import of them would: each replaces its row and children. */
export async function writeCatalog(tx: Queryable, catalog: Catalog, now: Date): Promise<void> {
  await writeRows(tx, await catalogToRows(catalog, now), now);
}

/**
 * Writes new entities: their rows are first inserted plainly, so an id another owner's request
 * took since it was checked fails (409 id_taken) instead of being overwritten by the upsert.
 */
export async function createCatalog(tx: Queryable, catalog: Catalog, now: Date): Promise<void> {
  const rows = await catalogToRows(catalog, now);
  await claimNewRows(tx, { categories: [], languages: [], videos: rows.videos, channels: rows.channels, apps: rows.apps });
  await writeRows(tx, rows, now);
}

/** Refuses a PATCH that would change a fixed field (id, ownerId, platform). */
export function assertFixed(patch: Body, current: Body, fields: readonly string[]): void {
  const changed = fields.filter((f) => patch[f] !== undefined && patch[f] !== current[f]);
  if (changed.length > 0) throw invalid(changed.map((f) => `${f}: cannot be changed`));
}
