// Who may add to the categories and languages every owner shares. Apps list only the ones their
// channels name, but every owner's console lists them all, and none can be renamed or deleted
// through the Studio once other owners' channels may name them. So an owner adds at most
// MAX_ADDED_PER_OWNER of each, and never a second entry under a name (or language code) that
// exists already, letter case and surrounding blanks ignored: one owner cannot flood the lists
// or shadow "News" with "news ". The operator's catalog import is not limited.
import type { Queryable } from '../db/connect.ts';
import type { CatalogRows } from '../catalog/to-rows.ts';
import { addedBy, nameKey, withNames, type ReferenceList } from '../data/reference-data.ts';
import { lockReferenceData } from '../data/studio.ts';
import { invalid } from './refusals.ts';

export const MAX_ADDED_PER_OWNER = 20;

export interface NewReference {
  id: number;
  name: string;
  code?: string;
}

const NOUN: Record<ReferenceList, string> = { categories: 'category', languages: 'language' };

/**
 * Refuses entries of `list` the owner may not add (every problem at its path: `prefix(i)` is
 * where entry i sits, '' for a body that is the entry). Holds the reference data lock until the
 * transaction ends, so two owners cannot add the same name at once.
 */
export async function assertMayAdd(tx: Queryable, ownerId: number, list: ReferenceList, entries: readonly NewReference[], prefix: (i: number) => string): Promise<void> {
  const lines = await additionProblems(tx, ownerId, list, entries, prefix);
  if (lines.length > 0) throw invalid(lines);
}

/** assertMayAdd's problems as `path: message` lines, for a refusal that lists others too. */
export async function additionProblems(tx: Queryable, ownerId: number, list: ReferenceList, entries: readonly NewReference[], prefix: (i: number) => string): Promise<string[]> {
  if (entries.length === 0) return [];
  await lockReferenceData(tx);
  return [...(await takenNames(tx, list, entries, prefix)), ...(await beyondAllowance(tx, ownerId, list, entries, prefix))];
}

async function takenNames(tx: Queryable, list: ReferenceList, entries: readonly NewReference[], prefix: (i: number) => string): Promise<string[]> {
  const fields = list === 'languages' ? (['name', 'code'] as const) : (['name'] as const);
  const existing = await withNames(
    tx,
    list,
    entries.map((e) => e.name),
    entries.flatMap((e) => (e.code === undefined ? [] : [e.code])),
  );
  const lines: string[] = [];
  for (const field of fields) {
    const holder = new Map<string, string>();
    for (const row of existing) if (row[field] !== null) holder.set(nameKey(row[field]), `${NOUN[list]} ${row.id}`);
    entries.forEach((entry, i) => {
      const value = entry[field];
      if (value === undefined) return;
      const other = holder.get(nameKey(value));
      if (other) lines.push(`${prefix(i)}${field}: ${field} ${JSON.stringify(value)} is taken by ${other} (shared by every owner; use that one)`);
      else holder.set(nameKey(value), `${NOUN[list]} ${entry.id} of this request`);
    });
  }
  return lines;
}

async function beyondAllowance(tx: Queryable, ownerId: number, list: ReferenceList, entries: readonly NewReference[], prefix: (i: number) => string): Promise<string[]> {
  const room = MAX_ADDED_PER_OWNER - (await addedBy(tx, list, ownerId));
  if (entries.length <= room) return [];
  const at = prefix(Math.max(room, 0)).replace(/\.$/, '') || '(root)';
  return [`${at}: an owner may add at most ${MAX_ADDED_PER_OWNER} ${list} (they are shared by every owner; ${Math.max(room, 0)} more allowed for you); ask the operator for more`];
}

/** The rows with the owner who adds them recorded (counted against the allowance). */
export function asAddedBy<R extends Pick<CatalogRows, 'categories' | 'languages'>>(rows: R, ownerId: number): R {
  return {
    ...rows,
    categories: rows.categories.map((c) => ({ ...c, createdBy: ownerId })),
    languages: rows.languages.map((l) => ({ ...l, createdBy: ownerId })),
  };
}
