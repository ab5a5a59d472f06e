// Categories and languages are shared by every owner; these queries back the rules of who may
// add them (src/editing/reference-data.ts): how many an owner added, and which names exist.
import { count, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Queryable } from '../db/connect.ts';
import * as t from '../db/schema.ts';

export type ReferenceList = 'categories' | 'languages';

/** How many of `list` the owner added through the Studio. */
export async function addedBy(tx: Queryable, list: ReferenceList, ownerId: number): Promise<number> {
  const table = list === 'categories' ? t.categories : t.languages;
  const [row] = await tx.select({ n: count() }).from(table).where(eq(table.createdBy, ownerId));
  return Number(row?.n ?? 0);
}

/** The key names are compared by: case and surrounding blanks ignored. */
export const nameKey = (name: string): string => name.trim().toLowerCase();
const keyOf = (column: PgColumn): SQL => sql`lower(btrim(${column}))`;

export interface ReferenceRow {
  id: number;
  name: string;
  code: string | null;
}

/** The rows whose name (or, for languages, code) has one of these keys. */
export async function withNames(tx: Queryable, list: ReferenceList, names: readonly string[], codes: readonly string[] = []): Promise<ReferenceRow[]> {
  if (names.length === 0 && codes.length === 0) return [];
  const anyOf = (column: PgColumn, keys: readonly string[]) => (keys.length === 0 ? sql`false` : inArray(keyOf(column), keys.map(nameKey)));
  if (list === 'categories') {
    const rows = await tx.select({ id: t.categories.id, name: t.categories.name }).from(t.categories).where(anyOf(t.categories.name, names));
    return rows.map((r) => ({ ...r, code: null }));
  }
  return tx
    .select({ id: t.languages.id, name: t.languages.name, code: t.languages.code })
    .from(t.languages)
    .where(or(anyOf(t.languages.name, names), anyOf(t.languages.code, codes)));
}
