// Queries behind the Studio's apps: which apps an owner has, the image bytes a Studio answer of
// them needs (only theirs, not the whole blob table), what a delete would take with it, and the
// delete itself. Writes of an app go through the catalog import's writers (src/catalog/import.ts).
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { blobsAsBase64, type BlobText } from './blobs.ts';
import type { Queryable } from '../db/connect.ts';
import * as t from '../db/schema.ts';

export type AppRowPlatform = (typeof t.apps.$inferSelect)['platform'];

/** The owner's apps (id and platform), by id. */
export async function ownerApps(db: Queryable, ownerId: number): Promise<{ id: number; platform: AppRowPlatform }[]> {
  return db.select({ id: t.apps.id, platform: t.apps.platform }).from(t.apps).where(eq(t.apps.ownerId, ownerId)).orderBy(asc(t.apps.id));
}

/** The id of the owner's app of `platform` (one per owner and platform), if any. */
export async function ownerAppId(db: Queryable, ownerId: number, platform: AppRowPlatform): Promise<number | undefined> {
  const [row] = await db.select({ id: t.apps.id }).from(t.apps).where(and(eq(t.apps.ownerId, ownerId), eq(t.apps.platform, platform)));
  return row?.id;
}

/** The images of the apps `appIds` (each blob once), as base64. */
export async function appImageBlobs(db: Queryable, appIds: readonly number[]): Promise<BlobText[]> {
  if (appIds.length === 0) return [];
  return blobsAsBase64(db, sql`(select distinct blob_sha256 from app_images where app_id = any(${sql.param([...appIds])}::int[]))`);
}

/** How many purchases of viewers are recorded against the app (a delete would cascade to them). */
export async function appEntitlementCounts(db: Queryable, appId: number): Promise<{ subscriptions: number; ppvUnlocks: number }> {
  const [[subscriptions], [ppvUnlocks]] = await Promise.all([
    db.select({ n: sql<number>`count(*)::int` }).from(t.subscriptions).where(eq(t.subscriptions.appId, appId)),
    db.select({ n: sql<number>`count(*)::int` }).from(t.ppvUnlocks).where(eq(t.ppvUnlocks.appId, appId)),
  ]);
  return { subscriptions: Number(subscriptions?.n ?? 0), ppvUnlocks: Number(ppvUnlocks?.n ?? 0) };
}

/** Deletes the app; its settings, images, products, credentials and channel assignments go with it (cascade). */
export async function deleteAppRow(tx: Queryable, appId: number): Promise<void> {
  await tx.delete(t.apps).where(eq(t.apps.id, appId));
}

/**
 * Keeps the account an owner (Studio access is for accounts owning a channel or an app, or made
 * owners): deleting its last app must not lock it out of the Studio.
 */
export async function keepOwner(tx: Queryable, accountId: number, now: Date): Promise<void> {
  await tx.insert(t.studioOwners).values({ accountId, createdAt: now }).onConflictDoNothing();
}
