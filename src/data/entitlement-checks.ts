// Reads of recorded entitlements (subscriptions, PPV unlocks) for access gating. Only
// src/entitlements/access.ts calls these; it decides what counts as entitled.
import { and, eq, gt, inArray, isNull, or } from 'drizzle-orm';
import type { Queryable } from '../db/connect.ts';
import { ppvUnlocks, subscriptions } from '../db/schema.ts';
import { heldBy, type CallerIds } from './holders.ts';
import type { SubscriptionRow } from './subscriptions.ts';

/** A subscription row with status active and no expiry or one after `now`. */
export async function hasActiveSubscription(db: Queryable, appId: number, caller: CallerIds, now: Date): Promise<boolean> {
  const holderMatch = heldBy(subscriptions.deviceId, subscriptions.viewerId, caller);
  if (holderMatch === undefined) return false;
  const rows = await db
    .select({ id: subscriptions.id })
    .from(subscriptions)
    .where(
      and(
        eq(subscriptions.appId, appId),
        holderMatch,
        eq(subscriptions.status, 'active'),
        or(isNull(subscriptions.expiresAt), gt(subscriptions.expiresAt, now)),
      ),
    )
    .limit(1);
  return rows.length > 0;
}

/** Every subscription row of the app held by the device or the viewer, for the status route. */
export async function heldSubscriptions(db: Queryable, appId: number, caller: CallerIds): Promise<SubscriptionRow[]> {
  const holderMatch = heldBy(subscriptions.deviceId, subscriptions.viewerId, caller);
  if (holderMatch === undefined) return [];
  return db.select().from(subscriptions).where(and(eq(subscriptions.appId, appId), holderMatch));
}

/** Unexpired, unrevoked PPV unlocks of the videos; channelId null means the unlock holds in any channel. */
export async function liveVideoUnlocks(
  db: Queryable,
  appId: number,
  videoIds: readonly number[],
  caller: CallerIds,
  now: Date,
): Promise<{ videoId: number; channelId: number | null; expiresAt: Date }[]> {
  const holderMatch = heldBy(ppvUnlocks.deviceId, ppvUnlocks.viewerId, caller);
  if (holderMatch === undefined || videoIds.length === 0) return [];
  return db
    .select({ videoId: ppvUnlocks.videoId, channelId: ppvUnlocks.channelId, expiresAt: ppvUnlocks.expiresAt })
    .from(ppvUnlocks)
    .where(and(eq(ppvUnlocks.appId, appId), inArray(ppvUnlocks.videoId, [...videoIds]), holderMatch, gt(ppvUnlocks.expiresAt, now), isNull(ppvUnlocks.revokedAt)));
}

/** Which of these apps the device or the viewer holds an active, unexpired subscription to (one query). */
export async function subscribedApps(db: Queryable, appIds: readonly number[], caller: CallerIds, now: Date): Promise<Set<number>> {
  const holderMatch = heldBy(subscriptions.deviceId, subscriptions.viewerId, caller);
  if (holderMatch === undefined || appIds.length === 0) return new Set();
  const rows = await db
    .selectDistinct({ appId: subscriptions.appId })
    .from(subscriptions)
    .where(
      and(
        inArray(subscriptions.appId, [...appIds]),
        holderMatch,
        eq(subscriptions.status, 'active'),
        or(isNull(subscriptions.expiresAt), gt(subscriptions.expiresAt, now)),
      ),
    );
  return new Set(rows.map((r) => r.appId));
}
