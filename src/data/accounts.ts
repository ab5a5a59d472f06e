import { eq, or, sql } from 'drizzle-orm';
import type { Queryable } from '../db/connect.ts';
import { accounts } from '../db/schema.ts';

/** Username or email, compared case-insensitively (both have lower() unique indexes). */
export async function findAccountByLogin(db: Queryable, login: string) {
  // PostgreSQL text cannot hold NUL (the query would fail): such a login names no account.
  if (login.includes('\u0000')) return undefined;
  const needle = login.toLowerCase();
  const rows = await db
    .select()
    .from(accounts)
    .where(or(sql`lower(${accounts.username}) = ${needle}`, sql`lower(${accounts.email}) = ${needle}`))
    .limit(1);
  return rows[0];
}

/** The Custom API's `{id}`: a numeric user id or a publicUrl slug. */
export async function findAccountByIdOrSlug(db: Queryable, idOrSlug: string) {
  // PostgreSQL text cannot hold NUL (the query would fail): such a slug names no account.
  if (idOrSlug.includes('\u0000')) return undefined;
  const byId = /^\d{1,9}$/.test(idOrSlug);
  const rows = await db
    .select()
    .from(accounts)
    .where(byId ? eq(accounts.id, Number(idOrSlug)) : sql`lower(${accounts.publicUrl}) = ${idOrSlug.toLowerCase()}`)
    .limit(1);
  return rows[0];
}
