// What a catalog write tells every process's caches, sent with NOTIFY inside the writing
// transaction (delivered on commit, never for a rolled-back write). An import changes
// anything ('all'); a Studio write names the owner whose data it changed and, where it only
// touched some channels' schedules or settings, those channels.
import { sql } from 'drizzle-orm';
import type { Queryable } from '../db/connect.ts';
import { CATALOG_CHANNEL } from './catalog-cache.ts';

export type CatalogChange = 'all' | { ownerId: number; channelIds?: readonly number[] };

/** The NOTIFY payload of a change ('' is every change, as imports have always sent). */
export function changePayload(change: CatalogChange): string {
  if (change === 'all') return '';
  return JSON.stringify(change.channelIds ? { owner: change.ownerId, channels: change.channelIds } : { owner: change.ownerId });
}

export async function notifyCatalogChange(tx: Queryable, change: CatalogChange): Promise<void> {
  await tx.execute(sql`select pg_notify(${CATALOG_CHANNEL}, ${changePayload(change)})`);
}
