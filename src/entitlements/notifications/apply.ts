// Applying one inbox notification: find the purchase it concerns among those devices and viewers
// hold, learn what the store says of it now (Apple: the transaction it signed into the
// notification; the others: a re-read from the store's API), and write that, order-safe, with a
// record in verification_attempts for support. Nothing here writes unless the store decided.
import type { CallerWith } from '../../access/caller.ts';
import type { App } from '../../data/apps.ts';
import type { NotificationRow, Outcome } from '../../data/store-notifications.ts';
import { findApp } from '../../data/store-notifications.ts';
import { activeSkuIds, storeCredentialsOf } from '../../data/store-products.ts';
import { findPpvUnlock, setPpvRevoked, type PpvUnlockRow } from '../../data/ppv-unlocks.ts';
import { applyNotifiedState, findSubscription, type NotifiedState, type SubscriptionKey, type SubscriptionRow } from '../../data/subscriptions.ts';
import type { Queryable } from '../../db/connect.ts';
import { recordAttempt } from '../attempts.ts';
import { askStore, factsOf, type StoreQuestion } from '../purchase.ts';
import { credentialsKey, sandboxAllowed, type StoreVerdict, type StoreVerifiers } from '../stores/index.ts';
import { decide } from '../stores/apple.ts';
import { asRecord, str } from '../stores/http.ts';
import type { JWSRenewalInfoDecodedPayload, JWSTransactionDecodedPayload } from '@apple/app-store-server-library';

export interface ApplyContext {
  db: Queryable;
  verifiers: StoreVerifiers;
  now: Date;
}

/** What to do with the notification: write its effect, or try again later. */
export type Decision = { write: (db: Queryable) => Promise<Outcome> } | { done: Outcome } | { retry: string };

type Target = { kind: 'subscription'; row: SubscriptionRow } | { kind: 'purchase'; row: PpvUnlockRow };

const ignored = (result: string): { done: Outcome } => ({ done: { state: 'ignored', result } });

/**
 * Apple types whose signed transaction is applied. Every other type (CONSUMPTION_REQUEST, TEST,
 * PRICE_INCREASE, REFUND_DECLINED, types Apple adds later...) is acknowledged and kept, and
 * changes nothing.
 */
const APPLE_APPLIED = new Set([
  'SUBSCRIBED',
  'DID_RENEW',
  'DID_CHANGE_RENEWAL_STATUS',
  'DID_CHANGE_RENEWAL_PREF',
  'DID_FAIL_TO_RENEW',
  'GRACE_PERIOD_EXPIRED',
  'EXPIRED',
  'REFUND',
  'REFUND_REVERSED',
  'REVOKE',
  'OFFER_REDEEMED',
  'RENEWAL_EXTENDED',
  'ONE_TIME_CHARGE',
]);

export async function decideNotification(ctx: ApplyContext, row: NotificationRow): Promise<Decision> {
  const app = await findApp(ctx.db, row.appId);
  if (!app) return ignored('the app no longer exists');
  const payload = asRecord(row.payload) ?? {};
  switch (row.storePlatform) {
    case 'Apple':
      return decideApple(ctx, app, row, payload);
    case 'Google':
      return decideByReread(ctx, app, row, await googleTarget(ctx, app, payload), str(payload.purchaseToken));
    case 'Amazon': {
      const receiptId = str(payload.receiptId);
      const target = await targetOf(ctx, app, 'Amazon', receiptId ? [receiptId] : []);
      return decideByReread(ctx, app, row, target, receiptId && `${String(payload.userId)}:${receiptId}`);
    }
    case 'Roku': {
      const transactionId = str(payload.transactionId);
      if (payload.confirmed === false) {
        const unconfirmed = await confirmRoku(ctx, app, transactionId);
        if (unconfirmed) return unconfirmed;
      }
      const ids = [str(payload.originalTransactionId), transactionId].filter((id): id is string => !!id);
      return decideByReread(ctx, app, row, await targetOf(ctx, app, 'Roku', ids), transactionId);
    }
  }
}

/**
 * A Roku push kept while Roku Pay could not confirm it: confirmed now, or refused and emptied
 * (it was never Roku's), or retried. Undefined: confirmed, go on.
 */
async function confirmRoku(ctx: ApplyContext, app: App, transactionId: string | undefined): Promise<Decision | undefined> {
  const credentials = await storeCredentialsOf(ctx.db, app.id, 'roku');
  const verdict = await ctx.verifiers('Roku').verifySubscription({ credentials, productIds: [], receiptData: transactionId ?? null, allowSandbox: true, now: ctx.now });
  if (verdict.outcome === 'unavailable') return { retry: verdict.reason };
  if (verdict.outcome === 'invalid' || verdict.outcome === 'wrong_app') {
    return { done: { state: 'refused', result: `Roku Pay does not confirm the transaction (${verdict.outcome})`, dropPayload: true } };
  }
  return undefined;
}

/** The subscription, else the PPV unlock, that one of these store ids names. */
async function targetOf(ctx: ApplyContext, app: App, store: NotificationRow['storePlatform'], ids: readonly string[]): Promise<Target | undefined> {
  for (const id of ids) {
    const subscription = await findSubscription(ctx.db, { appId: app.id, storePlatform: store, originalTransactionId: id });
    if (subscription) return { kind: 'subscription', row: subscription };
  }
  const unlock = await findPpvUnlock(ctx.db, { appId: app.id, storePlatform: store, transactionIds: ids });
  return unlock ? { kind: 'purchase', row: unlock } : undefined;
}

/** A Google purchase is named by its token; a one-time purchase is recorded under its order id. */
function googleTarget(ctx: ApplyContext, app: App, payload: Record<string, unknown>) {
  const ids = [str(payload.purchaseToken), str(payload.orderId)].filter((id): id is string => !!id);
  return targetOf(ctx, app, 'Google', ids);
}

/** The caller a notification acts for: the device and viewer holding the purchase, in its app. */
function callerOf(ctx: ApplyContext, app: App, target: Target | undefined): CallerWith<'app' | 'deviceId'> {
  return { ownerId: app.ownerId, app, deviceId: target?.row.deviceId ?? '', viewerId: target?.row.viewerId ?? null, now: ctx.now, zone: undefined };
}

/**
 * The products the store's answer may name: the app's active SKUs, and always the product the
 * held purchase was bought as, so that a SKU retired since still gets its refunds and renewals.
 */
async function productIds(ctx: ApplyContext, app: App, row: NotificationRow, target: Target): Promise<string[]> {
  const skus = await activeSkuIds(ctx.db, app.id, target.kind === 'subscription' ? 'subscription' : 'ppv');
  return [...new Set([...skus(row.storePlatform), target.row.productId])];
}

/** Google, Amazon, Roku: the notification only says something changed; the store says what. */
async function decideByReread(ctx: ApplyContext, app: App, row: NotificationRow, target: Target | undefined, lookupId: string | undefined): Promise<Decision> {
  if (!target) return ignored('no device or viewer holds this purchase');
  if (!lookupId) return ignored('the notification names no purchase');
  const q: StoreQuestion = {
    route: 'notification',
    store: row.storePlatform,
    kind: target.kind,
    productIds: await productIds(ctx, app, row, target),
    ...(target.kind === 'purchase'
      ? { productId: target.row.productId, receiptData: lookupId, videoId: target.row.videoId, channelId: target.row.channelId }
      : { originalTransactionId: lookupId }),
  };
  const caller = callerOf(ctx, app, target);
  const verdict = await askStore(ctx.db, ctx.verifiers, caller, q);
  if (verdict.outcome === 'unavailable') return { retry: verdict.reason };
  if (verdict.outcome === 'invalid') {
    await recordAttempt(ctx.db, caller, q, { verdict, granted: false });
    return ignored(`the store does not know the purchase: ${verdict.reason}`);
  }
  return { write: (db) => effectOf(db, caller, q, target, verdict, row.eventAt) };
}

function decideApple(ctx: ApplyContext, app: App, row: NotificationRow, payload: Record<string, unknown>): Promise<Decision> | Decision {
  const type = String(payload.notificationType);
  if (!APPLE_APPLIED.has(type)) return ignored(`${type} acknowledged; it changes no entitlement`);
  const tx = asRecord(payload.transaction) as JWSTransactionDecodedPayload | undefined;
  if (!tx?.originalTransactionId) return ignored(`${type} carries no transaction`);
  return decideAppleTransaction(ctx, app, row, payload, tx);
}

async function decideAppleTransaction(ctx: ApplyContext, app: App, row: NotificationRow, payload: Record<string, unknown>, tx: JWSTransactionDecodedPayload): Promise<Decision> {
  const subscription = tx.type === 'Auto-Renewable Subscription';
  const ids = subscription ? [tx.originalTransactionId!] : [tx.transactionId ?? '', tx.originalTransactionId!];
  const target = await targetOf(ctx, app, 'Apple', ids);
  if (!target) return ignored('no device or viewer holds this purchase');
  const credentials = await storeCredentialsOf(ctx.db, app.id, credentialsKey('Apple'));
  const environment = payload.environment === 'sandbox' ? 'sandbox' : 'production';
  const status = typeof payload.status === 'number' ? payload.status : appleStatusOf(String(payload.notificationType), row.type);
  const renewal = (asRecord(payload.renewal) ?? undefined) as JWSRenewalInfoDecodedPayload | undefined;
  const input = { productIds: await productIds(ctx, app, row, target), allowSandbox: sandboxAllowed(credentials), now: ctx.now };
  const verdict = decide({ tx, environment }, target.kind, input, 'notification', { ...(status === undefined ? {} : { status }), ...(renewal ? { renewal } : {}) });
  const caller = callerOf(ctx, app, target);
  const q: StoreQuestion = { route: 'notification', store: 'Apple', kind: target.kind, productIds: input.productIds, originalTransactionId: tx.originalTransactionId };
  return { write: (db) => effectOf(db, caller, q, target, verdict, row.eventAt) };
}

/** Apple's status when an older notification version carries none, from the type. */
function appleStatusOf(type: string, full: string): number | undefined {
  if (type === 'EXPIRED' || type === 'GRACE_PERIOD_EXPIRED') return 2;
  if (type === 'DID_FAIL_TO_RENEW') return full.endsWith('/GRACE_PERIOD') ? 4 : 3;
  if (type === 'REVOKE') return 5;
  return undefined;
}

const ENDED: Partial<Record<StoreVerdict['outcome'], SubscriptionRow['status']>> = { expired: 'expired', revoked: 'revoked', refunded: 'revoked' };

/** Writes what the verdict means for the target (inside the worker's transaction) and records it. */
async function effectOf(db: Queryable, caller: CallerWith<'app' | 'deviceId'>, q: StoreQuestion, target: Target, verdict: StoreVerdict, eventAt: Date): Promise<Outcome> {
  const outcome = target.kind === 'subscription' ? await subscriptionEffect(db, target.row, verdict, eventAt, caller.now) : await unlockEffect(db, target.row, verdict, eventAt);
  await recordAttempt(db, caller, q, { verdict, granted: outcome.state === 'applied' && verdict.outcome === 'valid', reason: outcome.result });
  return outcome;
}

async function subscriptionEffect(db: Queryable, row: SubscriptionRow, verdict: StoreVerdict, eventAt: Date, now: Date): Promise<Outcome> {
  const facts = factsOf(verdict);
  let state: NotifiedState;
  if (verdict.outcome === 'valid') {
    state = { status: 'active', expiresAt: verdict.expiresAt, autoRenewing: verdict.autoRenewing, productId: verdict.productId };
  } else if (ENDED[verdict.outcome]) {
    state = { status: ENDED[verdict.outcome]!, expiresAt: facts?.expiresAt ?? row.expiresAt, autoRenewing: verdict.outcome === 'expired' ? (facts?.autoRenewing ?? false) : false };
  } else {
    return { state: 'ignored', result: `${verdict.outcome}: ${'reason' in verdict ? verdict.reason : ''}` };
  }
  const key: SubscriptionKey = { appId: row.appId, storePlatform: row.storePlatform, originalTransactionId: row.originalTransactionId };
  const written = await applyNotifiedState(db, key, state, eventAt, now);
  if (!written) return { state: 'ignored', result: 'a later notification of this subscription was applied already' };
  const until = state.expiresAt ? ` until ${state.expiresAt.toISOString()}` : '';
  return { state: 'applied', result: `subscription ${row.originalTransactionId} ${state.status}${until}${verdict.outcome === 'refunded' ? ' (refunded)' : ''}` };
}

async function unlockEffect(db: Queryable, row: PpvUnlockRow, verdict: StoreVerdict, eventAt: Date): Promise<Outcome> {
  let revokedAt: Date | null;
  if (verdict.outcome === 'refunded' || verdict.outcome === 'revoked') revokedAt = eventAt;
  else if (verdict.outcome === 'valid') revokedAt = null;
  // The store's term of a one-time purchase is not ours: an unlock lasts the app's hours.
  else return { state: 'ignored', result: `${verdict.outcome}: the unlock keeps its own duration` };
  const written = await setPpvRevoked(db, row.id, revokedAt, eventAt);
  if (!written) return { state: 'ignored', result: 'a later notification of this purchase was applied already' };
  return { state: 'applied', result: `unlock of video ${row.videoId} ${revokedAt ? 'revoked' : 'in force'} (transaction ${row.transactionId})` };
}
