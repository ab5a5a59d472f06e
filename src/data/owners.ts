// Owners: accounts that own a channel or an app, or were made owners from the CLI.
import { sql } from 'drizzle-orm';
import type { Queryable } from '../db/connect.ts';

export async function isOwner(db: Queryable, accountId: number): Promise<boolean> {
  const result = await db.execute<{ owner: boolean }>(sql`select (
      exists (select 1 from studio_owners where account_id = ${accountId})
      or exists (select 1 from channels where owner_id = ${accountId})
      or exists (select 1 from apps where owner_id = ${accountId})) as owner`);
  const rows = (result as unknown as { rows: { owner: boolean }[] }).rows;
  return rows[0]?.owner === true;
}
