// NOTIFY inside the caller's transaction: delivered to every listening process on commit, never
// for a rolled-back write (src/cache/changes.ts says what the catalog's payloads mean).
import { sql } from 'drizzle-orm';
import type { Queryable } from '../db/connect.ts';

export async function notifyChannel(tx: Queryable, channel: string, payload: string): Promise<void> {
  await tx.execute(sql`select pg_notify(${channel}, ${payload})`);
}
