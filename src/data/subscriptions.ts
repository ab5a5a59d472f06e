// Writes of app subscriptions as the stores confirm or end them. Only src/entitlements/
// decides when to call these; one row per (app, store, original transaction).
import { and, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { Queryable } from '../db/connect.ts';
import { subscriptions } from '../db/schema.ts';
import { claimantViewer, type CallerIds } from './holders.ts';

export type SubscriptionRow = typeof subscriptions.$inferSelect;
/** The statuses the schema allows (the vocabulary's recorded subscription statuses). */
export type StoredStatus = SubscriptionRow['status'];
type Store = SubscriptionRow['storePlatform'];

export interface SubscriptionKey {
  appId: number;
  storePlatform: Store;
  originalTransactionId: string;
}

/** What the store said about the subscription, as recorded. */
export interface SubscriptionFacts {
  productId: string;
  expiresAt: Date | null;
  environment: SubscriptionRow['environment'];
  autoRenewing: boolean;
  lookupId: string | null;
}

const excluded = (column: string) => sql.raw(`excluded.${column}`);

const keyMatch = (key: SubscriptionKey) =>
  and(eq(subscriptions.appId, key.appId), eq(subscriptions.storePlatform, key.storePlatform), eq(subscriptions.originalTransactionId, key.originalTransactionId));

/**
 * Records a confirmed subscription for the claimant. The same claimant again changes nothing
 * but the facts (idempotent); another device takes the row over (transfer to the latest
 * claimant), keeping the viewer only when the claiming device is the one that held it.
 */
export async function claimSubscription(db: Queryable, key: SubscriptionKey, facts: SubscriptionFacts, claimant: CallerIds & { deviceId: string }, now: Date): Promise<void> {
  const values = { ...key, ...facts, status: 'active', deviceId: claimant.deviceId, viewerId: claimant.viewerId, updatedAt: now, lastCheckedAt: now };
  await db
    .insert(subscriptions)
    .values(values)
    .onConflictDoUpdate({
      target: [subscriptions.appId, subscriptions.storePlatform, subscriptions.originalTransactionId],
      set: {
        ...facts,
        lookupId: sql`coalesce(${excluded('lookup_id')}, ${subscriptions.lookupId})`,
        status: 'active',
        deviceId: claimant.deviceId,
        viewerId: claimantViewer(subscriptions.deviceId, subscriptions.viewerId),
        updatedAt: now,
        lastCheckedAt: now,
      },
    });
}

/** A re-check's confirmation: the facts change, the holders stay. */
export async function renewSubscription(db: Queryable, key: SubscriptionKey, facts: Omit<SubscriptionFacts, 'lookupId'>, now: Date): Promise<void> {
  await db.update(subscriptions).set({ ...facts, status: 'active', updatedAt: now, lastCheckedAt: now }).where(keyMatch(key));
}

/**
 * The store says the subscription ended (lapsed, refunded, revoked): whoever holds it loses it.
 * An answer about an earlier period than the one recorded (an old signed transaction sent
 * again after a renewal) leaves the row alone.
 */
export async function endSubscription(
  db: Queryable,
  key: SubscriptionKey,
  ended: { status: Exclude<StoredStatus, 'active'>; expiresAt: Date | null | undefined; autoRenewing: boolean },
  now: Date,
): Promise<void> {
  await db
    .update(subscriptions)
    .set({
      status: ended.status,
      autoRenewing: ended.autoRenewing,
      ...(ended.expiresAt ? { expiresAt: ended.expiresAt } : {}),
      updatedAt: now,
      lastCheckedAt: now,
    })
    .where(
      and(
        keyMatch(key),
        ended.expiresAt ? or(isNull(subscriptions.expiresAt), lte(subscriptions.expiresAt, ended.expiresAt)) : undefined,
      ),
    );
}

/**
 * Of these subscriptions, the ones not checked since `checkedBefore`, marked checked now.
 * The mark is taken in one UPDATE, so concurrent status calls re-check each one only once.
 */
export async function claimRechecks(db: Queryable, ids: readonly number[], checkedBefore: Date, now: Date): Promise<SubscriptionRow[]> {
  if (ids.length === 0) return [];
  return db
    .update(subscriptions)
    .set({ lastCheckedAt: now })
    .where(and(inArray(subscriptions.id, [...ids]), or(isNull(subscriptions.lastCheckedAt), lte(subscriptions.lastCheckedAt, checkedBefore))))
    .returning();
}

export async function findSubscription(db: Queryable, key: SubscriptionKey): Promise<SubscriptionRow | undefined> {
  const [row] = await db.select().from(subscriptions).where(keyMatch(key));
  return row;
}

/** What a store notification says the subscription is now. */
export interface NotifiedState {
  status: StoredStatus;
  expiresAt: Date | null;
  autoRenewing: boolean;
  productId?: string | undefined;
}

/**
 * Sets the subscription to what a store notification of `eventAt` says, holders unchanged,
 * unless a notification of a later date was applied already (order-safe). The row, or
 * undefined when there is none or the event is older than the one applied.
 */
export async function applyNotifiedState(db: Queryable, key: SubscriptionKey, state: NotifiedState, eventAt: Date, now: Date): Promise<SubscriptionRow | undefined> {
  const { productId, ...rest } = state;
  const [row] = await db
    .update(subscriptions)
    .set({ ...rest, ...(productId ? { productId } : {}), storeEventAt: eventAt, updatedAt: now, lastCheckedAt: now })
    .where(and(keyMatch(key), or(isNull(subscriptions.storeEventAt), lte(subscriptions.storeEventAt, eventAt))))
    .returning();
  return row;
}
