/**
 * VOD pay-per-view: status and verify (spec "States and transitions", Video PPV unlock rows).
 * An unlock is scoped to the video plus the device (and the viewer when signed in), to the
 * channel when one is named, and lasts the app's accessDurationHours from its first
 * verification. Policies where the spec is silent:
 *  - one store transaction unlocks one video: the same transaction again for the same video
 *    is idempotent (and moves the unlock to the latest claimant, as subscriptions do); for
 *    another video it is refused (ok false, transaction_used); re-verifying never extends;
 *  - the video must be in one of the owner's VOD catalogs, and channel_tube_id, when sent,
 *    one of the owner's channels whose catalog holds it;
 *  - the result's expiresUtc is a timestamp on every answer (the spec gives no null): the
 *    unlock's end when unlocked, else the request time (nothing left to watch).
 */
import type { CallerWith } from '../access/caller.ts';
import type { Queryable } from '../db/connect.ts';
import { claimPpvUnlock } from '../data/ppv-unlocks.ts';
import { activeSkuIds } from '../data/store-products.ts';
import { ownerVodChannelsOf } from '../data/vod.ts';
import { videoUnlock, type VideoRef } from './access.ts';
import { recordAttempt, refuse } from './attempts.ts';
import { priceOf } from './stores/prices.ts';
import { askStore, errorOf, type StoreQuestion } from './purchase.ts';
import type { Refusal } from './refusals.ts';
import type { StorePlatform, StoreVerifiers, ValidVerdict } from './stores/index.ts';

const HOUR_MS = 3_600_000;

export interface PpvStatusResult {
  vodPpvEnabled: boolean;
  unlocked: boolean;
  expiresAt: Date | null;
}

export interface PpvVerifyResult {
  ok: boolean;
  unlocked: boolean;
  error: string | null;
  expiresAt: Date;
}

export interface PpvPurchase extends VideoRef {
  store: StorePlatform;
  productId: string;
  receiptData?: string | undefined;
  originalTransactionId?: string | undefined;
}

/** The refusal when the video, or the channel named with it, is not one of the owner's VOD catalogs. */
export async function catalogRefusal(db: Queryable, caller: CallerWith<'app' | 'deviceId'>, ref: VideoRef): Promise<Refusal | undefined> {
  const channels = await ownerVodChannelsOf(db, caller.ownerId, ref.videoId);
  if (channels.length === 0) return { refused: 'video_not_in_catalog' };
  if (ref.channelId !== null && !channels.includes(ref.channelId)) return { refused: 'video_not_in_channel_catalog' };
  return undefined;
}

export async function ppvStatus(db: Queryable, caller: CallerWith<'app' | 'deviceId'>, ref: VideoRef): Promise<PpvStatusResult | Refusal> {
  if (!caller.app.vodPpvEnabled) return { vodPpvEnabled: false, unlocked: true, expiresAt: null };
  const refusal = await catalogRefusal(db, caller, ref);
  if (refusal) return refusal;
  return { vodPpvEnabled: true, ...(await videoUnlock(db, caller, ref)) };
}

export async function verifyPpv(db: Queryable, verifiers: StoreVerifiers, caller: CallerWith<'app' | 'deviceId'>, purchase: PpvPurchase): Promise<PpvVerifyResult | Refusal> {
  const skus = (await activeSkuIds(db, caller.app.id, 'ppv'))(purchase.store);
  const q: StoreQuestion = { route: 'ppv_verify', kind: 'purchase', productIds: skus, ...purchase };
  const refusal = await verifyRefusal(db, caller, purchase, skus);
  if (refusal) return refuse(db, caller, q, refusal);
  const verdict = await askStore(db, verifiers, caller, q);
  const claimed = verdict.outcome === 'valid' ? await claim(db, caller, purchase, verdict) : { error: errorOf(verdict) };
  await recordAttempt(db, caller, q, { verdict, granted: claimed.error === null, reason: claimed.reason });
  // Whatever happened, the answer tells the video's state: an earlier unlock still counts.
  const state = await videoUnlock(db, caller, { videoId: purchase.videoId, channelId: purchase.channelId });
  return { ok: claimed.error === null, unlocked: state.unlocked, error: claimed.error, expiresAt: state.expiresAt ?? caller.now };
}

/** Records the unlock of a store-confirmed purchase; error null when it unlocks the video now. */
async function claim(db: Queryable, caller: CallerWith<'app' | 'deviceId'>, purchase: PpvPurchase, verdict: ValidVerdict): Promise<{ error: string | null; reason?: string }> {
  const expiresAt = new Date(caller.now.getTime() + caller.app.vodPpvAccessHours * HOUR_MS);
  const { store, videoId, channelId } = purchase;
  const price = priceOf(store, verdict.raw, verdict.productId);
  const row = {
    appId: caller.app.id,
    storePlatform: store,
    transactionId: verdict.transactionId,
    productId: verdict.productId,
    videoId,
    channelId,
    expiresAt,
    priceMicros: price?.micros ?? null,
    priceCurrency: price?.currency ?? null,
  };
  const unlock = await claimPpvUnlock(db, row, caller, caller.now);
  if (unlock.videoId !== videoId) return { error: 'transaction_used', reason: `the transaction already unlocked video ${unlock.videoId}` };
  if (unlock.expiresAt.getTime() <= caller.now.getTime()) return { error: 'expired', reason: `the unlock of this transaction ended at ${unlock.expiresAt.toISOString()}` };
  return { error: null };
}

async function verifyRefusal(db: Queryable, caller: CallerWith<'app' | 'deviceId'>, purchase: PpvPurchase, skus: readonly string[]): Promise<Refusal | undefined> {
  if (!caller.app.vodPpvEnabled) return { refused: 'ppv_disabled' };
  if (!skus.includes(purchase.productId)) return { refused: 'unknown_ppv_product', store: purchase.store };
  return catalogRefusal(db, caller, purchase);
}
