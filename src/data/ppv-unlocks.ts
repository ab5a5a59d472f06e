// Writes of VOD pay-per-view unlocks. One store transaction unlocks one video: the row is keyed
// by (app, store, transaction) and a later claim of the same transaction only moves it.
import { and, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { Queryable } from '../db/connect.ts';
import { ppvUnlocks } from '../db/schema.ts';
import { claimantViewer, type CallerIds } from './holders.ts';

export type PpvUnlockRow = typeof ppvUnlocks.$inferSelect;

export interface PpvUnlockClaim {
  appId: number;
  storePlatform: PpvUnlockRow['storePlatform'];
  transactionId: string;
  productId: string;
  videoId: number;
  channelId: number | null;
  /** Used only when the transaction is new: a re-verify never extends an unlock. */
  expiresAt: Date;
  /** The price the store reported (null: none); a later claim fills in one not known before. */
  priceMicros?: number | null;
  priceCurrency?: string | null;
}

/**
 * The unlock of the transaction after the claim. New: recorded for the claimant. Known for the
 * same video: moved to the claimant (transfer to the latest claimant), expiry unchanged. Known
 * for another video: returned untouched, so the caller can refuse the second use.
 */
export async function claimPpvUnlock(db: Queryable, claim: PpvUnlockClaim, claimant: CallerIds & { deviceId: string }, now: Date): Promise<PpvUnlockRow> {
  const [claimed] = await db
    .insert(ppvUnlocks)
    .values({ ...claim, deviceId: claimant.deviceId, viewerId: claimant.viewerId, createdAt: now })
    .onConflictDoUpdate({
      target: [ppvUnlocks.appId, ppvUnlocks.storePlatform, ppvUnlocks.transactionId],
      set: {
        deviceId: claimant.deviceId,
        viewerId: claimantViewer(ppvUnlocks.deviceId, ppvUnlocks.viewerId),
        priceMicros: sql`case when ${ppvUnlocks.priceMicros} is null then excluded.price_micros else ${ppvUnlocks.priceMicros} end`,
        priceCurrency: sql`case when ${ppvUnlocks.priceMicros} is null then excluded.price_currency else ${ppvUnlocks.priceCurrency} end`,
      },
      setWhere: sql`${ppvUnlocks.videoId} = excluded.video_id`,
    })
    .returning();
  if (claimed) return claimed;
  const [existing] = await db
    .select()
    .from(ppvUnlocks)
    .where(and(eq(ppvUnlocks.appId, claim.appId), eq(ppvUnlocks.storePlatform, claim.storePlatform), eq(ppvUnlocks.transactionId, claim.transactionId)));
  return existing!;
}

type UnlockKey = Pick<PpvUnlockClaim, 'appId' | 'storePlatform'> & { transactionIds: readonly string[] };

/** The unlock of one of these transaction ids (a store may name a purchase by order id or token). */
export async function findPpvUnlock(db: Queryable, key: UnlockKey): Promise<PpvUnlockRow | undefined> {
  if (key.transactionIds.length === 0) return undefined;
  const [row] = await db
    .select()
    .from(ppvUnlocks)
    .where(and(eq(ppvUnlocks.appId, key.appId), eq(ppvUnlocks.storePlatform, key.storePlatform), inArray(ppvUnlocks.transactionId, [...key.transactionIds])));
  return row;
}

/**
 * Revokes (refund, void) or restores (refund reversed) the unlock after a store notification
 * of `eventAt`, unless a later notification was applied already. The row, or undefined.
 */
export async function setPpvRevoked(db: Queryable, id: number, revokedAt: Date | null, eventAt: Date): Promise<PpvUnlockRow | undefined> {
  const [row] = await db
    .update(ppvUnlocks)
    .set({ revokedAt, storeEventAt: eventAt })
    .where(and(eq(ppvUnlocks.id, id), or(isNull(ppvUnlocks.storeEventAt), lte(ppvUnlocks.storeEventAt, eventAt))))
    .returning();
  return row;
}
