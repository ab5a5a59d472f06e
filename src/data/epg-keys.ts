// Keys of apps' public XMLTV guide URLs, looked up by the SHA-256 of the key, never by the key.
import { and, eq, isNull } from 'drizzle-orm';
import type { Queryable } from '../db/connect.ts';
import { accounts, apps, epgKeys } from '../db/schema.ts';
import type { App } from './apps.ts';

/** The app whose live key this is, while its owner's account is active; undefined otherwise. */
export async function findAppByEpgKeyHash(db: Queryable, keyHash: string): Promise<App | undefined> {
  const [row] = await db
    .select({ app: apps })
    .from(epgKeys)
    .innerJoin(apps, eq(apps.id, epgKeys.appId))
    .innerJoin(accounts, eq(accounts.id, apps.ownerId))
    .where(and(eq(epgKeys.keyHash, keyHash), isNull(epgKeys.revokedAt), eq(accounts.status, 'active')))
    .limit(1);
  return row?.app;
}

/** When the app's live key was made; undefined when it has none. */
export async function liveEpgKey(db: Queryable, appId: number): Promise<{ createdAt: Date } | undefined> {
  const [row] = await db.select({ createdAt: epgKeys.createdAt }).from(epgKeys).where(and(eq(epgKeys.appId, appId), isNull(epgKeys.revokedAt)));
  return row;
}

export async function insertEpgKey(tx: Queryable, key: { appId: number; keyHash: string; createdAt: Date }): Promise<void> {
  await tx.insert(epgKeys).values(key);
}

/** Revokes the app's live key; answers whether there was one. */
export async function revokeEpgKeys(tx: Queryable, appId: number, now: Date): Promise<boolean> {
  const revoked = await tx
    .update(epgKeys)
    .set({ revokedAt: now })
    .where(and(eq(epgKeys.appId, appId), isNull(epgKeys.revokedAt)))
    .returning({ id: epgKeys.id });
  return revoked.length > 0;
}

/** Every app with a live key whose owner's account is active: the guides fetched from outside (src/guides/warmer.ts). */
export async function appsWithLiveEpgKeys(db: Queryable): Promise<App[]> {
  const rows = await db
    .select({ app: apps })
    .from(epgKeys)
    .innerJoin(apps, eq(apps.id, epgKeys.appId))
    .innerJoin(accounts, eq(accounts.id, apps.ownerId))
    .where(and(isNull(epgKeys.revokedAt), eq(accounts.status, 'active')))
    .orderBy(apps.id);
  return rows.map((r) => r.app);
}
