/**
 * Access gating for paid apps and VOD pay-per-view: the one module that says whether a caller
 * (a device id, an authenticated viewer, or both) is entitled. Every gate in the service and
 * the entitlement status routes go through these functions, so a list, a playback token and a
 * status call always agree. They read the recorded entitlements only; asking a store again
 * (renewals of expired subscriptions) happens in the status route (subscriptions.ts), never
 * on list requests.
 */
import type { CallerWith } from '../access/caller.ts';
import type { Queryable } from '../db/connect.ts';
import { hasActiveSubscription, heldSubscriptions, liveVideoUnlocks } from '../data/entitlement-checks.ts';
import type { SubscriptionRow } from '../data/subscriptions.ts';
import type { RecordedSubscriptionStatus, SubscriptionStatus } from '../vocabulary.ts';

/**
 * Subscription status values of the status route: `active` (entitled now), `expired` (lapsed;
 * may still renew), `revoked` (refunded or revoked by the store), `not_subscribed` (no
 * subscription recorded for the device or viewer).
 */
export type { SubscriptionStatus };

/** The rule every gate uses: recorded active and not past its expiry (no expiry: no end). */
export function subscriptionActive(row: Pick<SubscriptionRow, 'status' | 'expiresAt'>, now: Date): boolean {
  return row.status === 'active' && (row.expiresAt === null || row.expiresAt.getTime() > now.getTime());
}

function statusOf(row: SubscriptionRow, now: Date): RecordedSubscriptionStatus {
  if (subscriptionActive(row, now)) return 'active';
  return row.status === 'revoked' ? 'revoked' : 'expired';
}

/** Later expiry first; no expiry is the latest of all. */
const byExpiry = (a: SubscriptionRow, b: SubscriptionRow) => (b.expiresAt?.getTime() ?? Infinity) - (a.expiresAt?.getTime() ?? Infinity);

export interface SubscriptionState {
  status: SubscriptionStatus;
  /** Expiry of the subscription the status is about; null when none or when it has no end. */
  expiresAt: Date | null;
  rows: SubscriptionRow[];
}

/**
 * The caller's subscription to the app: an active one (the latest-ending) when there is one;
 * otherwise the most recently changed one (a refund yesterday speaks louder than a lapse last year).
 */
export async function subscriptionState(db: Queryable, caller: CallerWith<'app'>): Promise<SubscriptionState> {
  const { now } = caller;
  const rows = await heldSubscriptions(db, caller.app.id, caller);
  const active = rows.filter((r) => subscriptionActive(r, now)).sort(byExpiry)[0];
  const latest = active ?? [...rows].sort((a, b) => b.updatedAt.getTime() - a.updatedAt.getTime())[0];
  return latest ? { status: statusOf(latest, now), expiresAt: latest.expiresAt, rows } : { status: 'not_subscribed', expiresAt: null, rows };
}

/** An `active` subscription to the app, held by the device or the viewer, not expired (one query: list gates). */
export async function appSubscriptionActive(db: Queryable, caller: CallerWith<'app'>): Promise<boolean> {
  return hasActiveSubscription(db, caller.app.id, caller, caller.now);
}

export interface VideoRef {
  videoId: number;
  /** The channel the video is played in; null: any channel (an unlock for any channel counts). */
  channelId: number | null;
}

/** Whether a PPV unlock of the video in the app, held by the device or the viewer, counts now, and the end of the latest-ending one (null when locked). */
export async function videoUnlock(db: Queryable, caller: CallerWith<'app'>, ref: VideoRef): Promise<{ unlocked: boolean; expiresAt: Date | null }> {
  const unlocks = await liveVideoUnlocks(db, caller.app.id, [ref.videoId], caller, caller.now);
  const ends = unlocks.filter((u) => unlockCounts(u, ref)).map((u) => u.expiresAt.getTime());
  return ends.length === 0 ? { unlocked: false, expiresAt: null } : { unlocked: true, expiresAt: new Date(Math.max(...ends)) };
}

/** An unlock recorded without a channel holds in every channel; one recorded for a channel holds only there. */
export function unlockCounts(unlock: VideoRef, ref: VideoRef): boolean {
  return unlock.videoId === ref.videoId && (unlock.channelId === null || ref.channelId === null || unlock.channelId === ref.channelId);
}
