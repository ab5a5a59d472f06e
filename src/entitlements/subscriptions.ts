/**
 * App subscriptions: status, verify and restore (spec "States and transitions", app subscription
 * rows). Status values are documented in access.ts. Policies where the spec is silent:
 *  - the store decides: a valid verdict records the subscription as active until the store's
 *    expiry; its "ended" verdicts (expired; revoked or refunded, both recorded as revoked) end
 *    the recorded one; any other verdict (wrong_product, wrong_app, sandbox_not_allowed,
 *    invalid) grants nothing and changes nothing; a store that gives no answer
 *    (`unavailable`) changes nothing either: ok false, error store_unavailable;
 *  - one transaction, one holder: claimed by another device or viewer it moves to the latest
 *    claimant (RevenueCat's default), so re-verifying is idempotent and a restore on a new
 *    phone works;
 *  - a status call that finds only an expired auto-renewing subscription asks its store again,
 *    at most once per SUBSCRIPTION_RECHECK_SECONDS per subscription and only within
 *    RECHECK_WINDOW_DAYS of its expiry (the stores' longest billing-retry period), so renewals
 *    are seen without the client verifying again.
 */
import type { CallerWith } from '../access/caller.ts';
import type { Queryable } from '../db/connect.ts';
import type { SubscriptionRow } from '../data/subscriptions.ts';
import { claimRechecks, claimSubscription, endSubscription, renewSubscription, type SubscriptionKey } from '../data/subscriptions.ts';
import { activeSkuIds } from '../data/store-products.ts';
import { subscriptionState } from './access.ts';
import { recordAttempt, refuse } from './attempts.ts';
import { askStore, errorOf, factsOf, type StoreQuestion } from './purchase.ts';
import type { Refusal } from './refusals.ts';
import { parseAmazonReceipt } from './stores/amazon.ts';
import type { StorePlatform, StoreVerdict, StoreVerifiers, ValidVerdict } from './stores/index.ts';
import { reject } from './stores/types.ts';
import type { RecordedSubscriptionStatus, SubscriptionStatus } from '../vocabulary.ts';

export const RECHECK_WINDOW_DAYS = 60;
const DAY_MS = 86_400_000;

/** The verify and restore result (spec "Custom API: entitlement results"). */
export interface PurchaseResult {
  ok: boolean;
  /** Access to the app after the call: true for a free app, else an active subscription of the device or viewer. */
  entitled: boolean;
  error: string | null;
  /** ok: end of what was verified (null: no end); not ok: end of the access kept (null: none). */
  expiresAt: Date | null;
}

export interface SubscriptionPurchase {
  store: StorePlatform;
  productId: string;
  receiptData?: string | undefined;
  originalTransactionId?: string | undefined;
}

const ENDED = { expired: 'expired', revoked: 'revoked', refunded: 'revoked' } as const satisfies Record<string, RecordedSubscriptionStatus>;
const isValid = (verdict: StoreVerdict): verdict is ValidVerdict => verdict.outcome === 'valid';

const subscriptionSkus = (db: Queryable, caller: CallerWith<'app' | 'deviceId'>) => activeSkuIds(db, caller.app.id, 'subscription');

export async function verifySubscription(
  db: Queryable,
  verifiers: StoreVerifiers,
  caller: CallerWith<'app' | 'deviceId'>,
  purchase: SubscriptionPurchase,
): Promise<PurchaseResult | Refusal> {
  const q: StoreQuestion = { route: 'subscription_verify', kind: 'subscription', productIds: (await subscriptionSkus(db, caller))(purchase.store), ...purchase };
  if (!q.productIds.includes(purchase.productId)) {
    return refuse(db, caller, q, { refused: 'unknown_subscription_product', store: purchase.store });
  }
  const verdict = await settle(db, verifiers, caller, q);
  const after = await accessAfter(db, caller);
  if (isValid(verdict)) return { ok: true, entitled: after.entitled, error: null, expiresAt: verdict.expiresAt };
  return { ok: false, entitled: after.entitled, error: errorOf(verdict), expiresAt: after.expiresAt };
}

/** Each id asked of the store on its own; ok when the store confirmed at least one. */
export async function restoreSubscriptions(
  db: Queryable,
  verifiers: StoreVerifiers,
  caller: CallerWith<'app' | 'deviceId'>,
  store: StorePlatform,
  ids: readonly string[],
): Promise<PurchaseResult | Refusal> {
  const productIds = (await subscriptionSkus(db, caller))(store);
  const questions = ids.map((id): StoreQuestion => ({ route: 'subscription_restore', kind: 'subscription', store, productIds, originalTransactionId: id }));
  if (productIds.length === 0) {
    const refusal: Refusal = { refused: 'no_subscription_on_store', store };
    return (await Promise.all(questions.map((q) => refuse(db, caller, q, refusal))))[0]!;
  }
  const verdicts = await Promise.all(questions.map((q) => settle(db, verifiers, caller, q)));
  const valid = verdicts.filter(isValid);
  const after = await accessAfter(db, caller);
  if (valid.length > 0) return { ok: true, entitled: after.entitled, error: null, expiresAt: latestEnd(valid) };
  // A store that did not answer is worth retrying: say so rather than the other ids' verdicts.
  const failed = verdicts.find((v) => v.outcome === 'unavailable') ?? verdicts[0]!;
  return { ok: false, entitled: after.entitled, error: errorOf(failed), expiresAt: after.expiresAt };
}

export interface SubscriptionStatusResult {
  entitled: boolean;
  status: SubscriptionStatus;
  expiresAt: Date | null;
}

export async function subscriptionStatus(
  db: Queryable,
  verifiers: StoreVerifiers,
  caller: CallerWith<'app' | 'deviceId'>,
  recheckSeconds: number,
): Promise<SubscriptionStatusResult> {
  let state = await subscriptionState(db, caller);
  if (caller.app.isPaid && state.status !== 'active' && (await recheck(db, verifiers, caller, state.rows, recheckSeconds))) {
    state = await subscriptionState(db, caller);
  }
  return { entitled: !caller.app.isPaid || state.status === 'active', status: state.status, expiresAt: state.expiresAt };
}

/** Asks the store about the due subscriptions; true when any was asked (the state may have changed). */
async function recheck(
  db: Queryable,
  verifiers: StoreVerifiers,
  caller: CallerWith<'app' | 'deviceId'>,
  rows: readonly SubscriptionRow[],
  intervalSeconds: number,
): Promise<boolean> {
  const now = caller.now.getTime();
  const lapsedRecently = (end: Date | null) => end !== null && end.getTime() <= now && now - end.getTime() < RECHECK_WINDOW_DAYS * DAY_MS;
  const due = rows.filter((r) => r.status !== 'revoked' && r.autoRenewing && lapsedRecently(r.expiresAt));
  const claimed = await claimRechecks(
    db,
    due.map((r) => r.id),
    new Date(now - intervalSeconds * 1000),
    caller.now,
  );
  if (claimed.length === 0) return false;
  const skus = await subscriptionSkus(db, caller);
  await Promise.all(
    claimed.map((row) => {
      const q: StoreQuestion = {
        route: 'subscription_status',
        kind: 'subscription',
        store: row.storePlatform,
        productIds: skus(row.storePlatform),
        originalTransactionId: row.lookupId ?? row.originalTransactionId,
      };
      return settle(db, verifiers, caller, q, { appId: row.appId, storePlatform: row.storePlatform, originalTransactionId: row.originalTransactionId });
    }),
  );
  return true;
}

/**
 * Asks the store and records what it said: a claim by the caller (verify, restore) or, with
 * `recorded`, a re-check of a recorded subscription that keeps its holders.
 */
async function settle(db: Queryable, verifiers: StoreVerifiers, caller: CallerWith<'app' | 'deviceId'>, q: StoreQuestion, recorded?: SubscriptionKey): Promise<StoreVerdict> {
  let verdict = await askStore(db, verifiers, caller, q);
  const facts = factsOf(verdict);
  const storeId = facts?.originalTransactionId || facts?.transactionId;
  const key = recorded ?? (storeId ? { appId: caller.app.id, storePlatform: q.store, originalTransactionId: storeId } : undefined);
  if (!key && isValid(verdict)) verdict = reject('invalid', 'the store named no transaction', verdict.raw);
  if (key) await keep(db, caller, q, verdict, key, recorded !== undefined);
  await recordAttempt(db, caller, q, { verdict, granted: isValid(verdict) });
  return verdict;
}

/** Writes what the verdict means for the recorded subscription (nothing when the store did not decide). */
async function keep(db: Queryable, caller: CallerWith<'app' | 'deviceId'>, q: StoreQuestion, verdict: StoreVerdict, key: SubscriptionKey, recheck: boolean): Promise<void> {
  if (isValid(verdict)) {
    const confirmed = { productId: verdict.productId, expiresAt: verdict.expiresAt, environment: verdict.environment, autoRenewing: verdict.autoRenewing };
    if (recheck) await renewSubscription(db, key, confirmed, caller.now);
    else await claimSubscription(db, key, { ...confirmed, lookupId: lookupIdOf(q) }, caller, caller.now);
  } else if (Object.hasOwn(ENDED, verdict.outcome)) {
    const facts = factsOf(verdict);
    const ended = { status: ENDED[verdict.outcome as keyof typeof ENDED], expiresAt: facts?.expiresAt ?? null, autoRenewing: facts?.autoRenewing ?? false };
    await endSubscription(db, key, ended, caller.now);
  }
}

/** Amazon's RVS needs the customer's userId with the receipt id: keep the pair for re-checks. */
function lookupIdOf(q: StoreQuestion): string | null {
  if (q.store !== 'Amazon') return null;
  const ids = parseAmazonReceipt(q.receiptData) ?? parseAmazonReceipt(q.originalTransactionId);
  return ids ? `${ids.userId}:${ids.receiptId}` : null;
}

async function accessAfter(db: Queryable, caller: CallerWith<'app' | 'deviceId'>): Promise<{ entitled: boolean; expiresAt: Date | null }> {
  const state = await subscriptionState(db, caller);
  const active = state.status === 'active';
  return { entitled: !caller.app.isPaid || active, expiresAt: active ? state.expiresAt : null };
}

/** The latest end among the subscriptions; null when one has none. */
function latestEnd(verdicts: readonly ValidVerdict[]): Date | null {
  if (verdicts.some((v) => v.expiresAt === null)) return null;
  return new Date(Math.max(...verdicts.map((v) => v.expiresAt!.getTime())));
}
