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
import type { Queryable } from '../db/connect.ts';
import type { SubscriptionRow } from '../data/subscriptions.ts';
import { claimRechecks, claimSubscription, endSubscription, renewSubscription, type SubscriptionKey } from '../data/subscriptions.ts';
import { activeSkuIds } from '../data/store-products.ts';
import { subscriptionState } from './access.ts';
import { recordAttempt, refuse } from './attempts.ts';
import { askStore, errorOf, factsOf, holdingOf, type Purchaser, type StoreQuestion } from './purchase.ts';
import type { Refusal } from './refusals.ts';
import { parseAmazonReceipt } from './stores/amazon.ts';
import type { StorePlatform, StoreVerdict, ValidVerdict } from './stores/index.ts';
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

const subscriptionSkus = (db: Queryable, p: Purchaser) => activeSkuIds(db, p.app.id, 'subscription');

export async function verifySubscription(db: Queryable, p: Purchaser, purchase: SubscriptionPurchase): Promise<PurchaseResult | Refusal> {
  const q: StoreQuestion = { route: 'subscription_verify', kind: 'subscription', productIds: (await subscriptionSkus(db, p))(purchase.store), ...purchase };
  if (!q.productIds.includes(purchase.productId)) {
    return refuse(db, p, q, { refused: 'unknown_subscription_product', store: purchase.store });
  }
  const verdict = await settle(db, p, q);
  const after = await accessAfter(db, p);
  if (isValid(verdict)) return { ok: true, entitled: after.entitled, error: null, expiresAt: verdict.expiresAt };
  return { ok: false, entitled: after.entitled, error: errorOf(verdict), expiresAt: after.expiresAt };
}

/** Each id asked of the store on its own; ok when the store confirmed at least one. */
export async function restoreSubscriptions(db: Queryable, p: Purchaser, store: StorePlatform, ids: readonly string[]): Promise<PurchaseResult | Refusal> {
  const productIds = (await subscriptionSkus(db, p))(store);
  const questions = ids.map((id): StoreQuestion => ({ route: 'subscription_restore', kind: 'subscription', store, productIds, originalTransactionId: id }));
  if (productIds.length === 0) {
    const refusal: Refusal = { refused: 'no_subscription_on_store', store };
    return (await Promise.all(questions.map((q) => refuse(db, p, q, refusal))))[0]!;
  }
  const verdicts = await Promise.all(questions.map((q) => settle(db, p, q)));
  const valid = verdicts.filter(isValid);
  const after = await accessAfter(db, p);
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

export async function subscriptionStatus(db: Queryable, p: Purchaser, recheckSeconds: number): Promise<SubscriptionStatusResult> {
  let state = await subscriptionState(db, holdingOf(p));
  if (p.app.isPaid && state.status !== 'active' && (await recheck(db, p, state.rows, recheckSeconds))) {
    state = await subscriptionState(db, holdingOf(p));
  }
  return { entitled: !p.app.isPaid || state.status === 'active', status: state.status, expiresAt: state.expiresAt };
}

/** Asks the store about the due subscriptions; true when any was asked (the state may have changed). */
async function recheck(db: Queryable, p: Purchaser, rows: readonly SubscriptionRow[], intervalSeconds: number): Promise<boolean> {
  const now = p.now.getTime();
  const lapsedRecently = (end: Date | null) => end !== null && end.getTime() <= now && now - end.getTime() < RECHECK_WINDOW_DAYS * DAY_MS;
  const due = rows.filter((r) => r.status !== 'revoked' && r.autoRenewing && lapsedRecently(r.expiresAt));
  const claimed = await claimRechecks(db, due.map((r) => r.id), new Date(now - intervalSeconds * 1000), p.now);
  if (claimed.length === 0) return false;
  const skus = await subscriptionSkus(db, p);
  await Promise.all(
    claimed.map((row) => {
      const q: StoreQuestion = { route: 'subscription_status', kind: 'subscription', store: row.storePlatform, productIds: skus(row.storePlatform), originalTransactionId: row.lookupId ?? row.originalTransactionId };
      return settle(db, p, q, { appId: row.appId, storePlatform: row.storePlatform, originalTransactionId: row.originalTransactionId });
    }),
  );
  return true;
}

/**
 * Asks the store and records what it said: a claim by the caller (verify, restore) or, with
 * `recorded`, a re-check of a recorded subscription that keeps its holders.
 */
async function settle(db: Queryable, p: Purchaser, q: StoreQuestion, recorded?: SubscriptionKey): Promise<StoreVerdict> {
  let verdict = await askStore(db, p, q);
  const facts = factsOf(verdict);
  const storeId = facts?.originalTransactionId || facts?.transactionId;
  const key = recorded ?? (storeId ? { appId: p.app.id, storePlatform: q.store, originalTransactionId: storeId } : undefined);
  if (!key && isValid(verdict)) verdict = reject('invalid', 'the store named no transaction', verdict.raw);
  if (key) await keep(db, p, q, verdict, key, recorded !== undefined);
  await recordAttempt(db, p, q, { verdict, granted: isValid(verdict) });
  return verdict;
}

/** Writes what the verdict means for the recorded subscription (nothing when the store did not decide). */
async function keep(db: Queryable, p: Purchaser, q: StoreQuestion, verdict: StoreVerdict, key: SubscriptionKey, recheck: boolean): Promise<void> {
  if (isValid(verdict)) {
    const confirmed = { productId: verdict.productId, expiresAt: verdict.expiresAt, environment: verdict.environment, autoRenewing: verdict.autoRenewing };
    if (recheck) await renewSubscription(db, key, confirmed, p.now);
    else await claimSubscription(db, key, { ...confirmed, lookupId: lookupIdOf(q) }, p.holder, p.now);
  } else if (Object.hasOwn(ENDED, verdict.outcome)) {
    const facts = factsOf(verdict);
    const ended = { status: ENDED[verdict.outcome as keyof typeof ENDED], expiresAt: facts?.expiresAt ?? null, autoRenewing: facts?.autoRenewing ?? false };
    await endSubscription(db, key, ended, p.now);
  }
}

/** Amazon's RVS needs the customer's userId with the receipt id: keep the pair for re-checks. */
function lookupIdOf(q: StoreQuestion): string | null {
  if (q.store !== 'Amazon') return null;
  const ids = parseAmazonReceipt(q.receiptData) ?? parseAmazonReceipt(q.originalTransactionId);
  return ids ? `${ids.userId}:${ids.receiptId}` : null;
}

async function accessAfter(db: Queryable, p: Purchaser): Promise<{ entitled: boolean; expiresAt: Date | null }> {
  const state = await subscriptionState(db, holdingOf(p));
  const active = state.status === 'active';
  return { entitled: !p.app.isPaid || active, expiresAt: active ? state.expiresAt : null };
}

/** The latest end among the subscriptions; null when one has none. */
function latestEnd(verdicts: readonly ValidVerdict[]): Date | null {
  if (verdicts.some((v) => v.expiresAt === null)) return null;
  return new Date(Math.max(...verdicts.map((v) => v.expiresAt!.getTime())));
}
