// Batched writes shared by the catalog importer and the benchmarks' catalog loader.
// PostgreSQL takes at most 65,535 bind parameters per statement, so rows go in chunks.
import { getTableColumns, inArray, sql, type SQL } from 'drizzle-orm';
import { toSnakeCase } from 'drizzle-orm/casing';
import type { IndexColumn, PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Queryable } from './connect.ts';

const MAX_PARAMETERS = 60_000;

export function chunk<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

function rowsPerStatement(table: PgTable): number {
  return Math.max(1, Math.floor(MAX_PARAMETERS / Object.keys(getTableColumns(table)).length));
}

export async function insertRows<T extends PgTable>(db: Queryable, table: T, rows: T['$inferInsert'][]): Promise<void> {
  for (const part of chunk(rows, rowsPerStatement(table))) await db.insert(table).values(part);
}

export async function insertRowsIgnoringConflicts<T extends PgTable>(db: Queryable, table: T, rows: T['$inferInsert'][]): Promise<void> {
  for (const part of chunk(rows, rowsPerStatement(table))) await db.insert(table).values(part).onConflictDoNothing();
}

/** `excluded.<column>` for every column but the conflict target and identity columns. */
function updateAllExcept(table: PgTable, target: readonly PgColumn[]): Record<string, SQL> {
  const set: Record<string, SQL> = {};
  for (const [key, column] of Object.entries(getTableColumns(table))) {
    if (target.includes(column) || column.generatedIdentity) continue;
    set[key] = sql.raw(`excluded."${column.keyAsName ? toSnakeCase(key) : column.name}"`);
  }
  return set;
}

/** Insert, or replace every column of the row whose `target` matches. */
export async function upsertRows<T extends PgTable>(db: Queryable, table: T, target: PgColumn[], rows: T['$inferInsert'][]): Promise<void> {
  const set = updateAllExcept(table, target);
  for (const part of chunk(rows, rowsPerStatement(table))) {
    await db
      .insert(table)
      .values(part)
      .onConflictDoUpdate({ target: target as IndexColumn[], set });
  }
}

export async function deleteWhereIn(db: Queryable, table: PgTable, column: PgColumn, ids: readonly number[]): Promise<void> {
  for (const part of chunk(ids, MAX_PARAMETERS)) await db.delete(table).where(inArray(column, part));
}
