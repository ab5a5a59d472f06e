// Queries behind the Studio's import of an owner's slice: the app tokens other accounts use,
// the owner's app tokens kept across an import that names none, and the claiming inserts that
// make a new id the importer's before the import's upserts run.
import { and, eq, inArray, ne, or } from 'drizzle-orm';
import type { Queryable } from '../db/connect.ts';
import { insertRows } from '../db/bulk.ts';
import * as t from '../db/schema.ts';

/**
 * Which token hashes are in use by something an import of the account's app tokens does not
 * replace: any token of another account, or a sign-in of this one.
 */
export async function tokenHashesInUse(tx: Queryable, accountId: number, hashes: readonly string[]): Promise<string[]> {
  if (hashes.length === 0) return [];
  const rows = await tx
    .select({ tokenHash: t.authTokens.tokenHash })
    .from(t.authTokens)
    .where(and(inArray(t.authTokens.tokenHash, [...hashes]), or(ne(t.authTokens.accountId, accountId), ne(t.authTokens.kind, 'app'))));
  return rows.map((r) => r.tokenHash);
}

export type AppTokenRow = typeof t.authTokens.$inferSelect;

/** The account's app tokens as stored (revoked ones too), to be put back after an import replaced them. */
export async function appTokenRows(tx: Queryable, accountId: number): Promise<AppTokenRow[]> {
  return tx.select().from(t.authTokens).where(and(eq(t.authTokens.accountId, accountId), eq(t.authTokens.kind, 'app')));
}

/** Puts app tokens back as they were: same ids, dates and labels. */
export async function restoreAppTokens(tx: Queryable, rows: readonly AppTokenRow[]): Promise<void> {
  if (rows.length > 0) await tx.insert(t.authTokens).overridingSystemValue().values([...rows]);
}

export interface NewRows {
  categories: (typeof t.categories.$inferInsert)[];
  languages: (typeof t.languages.$inferInsert)[];
  videos: (typeof t.videos.$inferInsert)[];
  channels: (typeof t.channels.$inferInsert)[];
  apps: (typeof t.apps.$inferInsert)[];
}

/**
 * Inserts rows whose ids were free when checked, with plain inserts: an id another owner took
 * since fails here (unique violation) instead of being overwritten by the import's upsert.
 */
export async function claimNewRows(tx: Queryable, rows: NewRows): Promise<void> {
  await insertRows(tx, t.categories, rows.categories);
  await insertRows(tx, t.languages, rows.languages);
  await insertRows(tx, t.videos, rows.videos);
  await insertRows(tx, t.channels, rows.channels);
  await insertRows(tx, t.apps, rows.apps);
}
