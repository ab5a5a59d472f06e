// One interface in front of the four stores' verification APIs. A verifier turns whatever the
// store answers into a StoreVerdict; it throws only for programming errors, never for an answer.

import type { StoreEnvironment, StorePlatform } from '../../vocabulary.ts';

export type { StoreEnvironment, StorePlatform };

/** An app's storeCredentials entry for one store (catalog-format: string keys, scalar values). */
export type StoreCredentials = Readonly<Record<string, string | number | boolean>>;

export interface VerifyInput {
  /** The app's storeCredentials for this store. */
  credentials: StoreCredentials;
  /** Product ids the purchase may be for: the app's active SKUs for this store and kind. */
  productIds: readonly string[];
  /** product_id as the client sent it; Google's products.get needs it in the URL. */
  productId?: string | null;
  /** receipt_data as the client sent it (per store format, see CREDENTIAL_KEYS / docs/entitlements.md). */
  receiptData?: string | null;
  /** original_transaction_id as the client sent it; restore sends only this. */
  originalTransactionId?: string | null;
  /** Whether a sandbox (test) purchase may unlock this app. */
  allowSandbox: boolean;
  /** The caller's "now": expiry is judged against it, never against the system clock. */
  now: Date;
}

export interface TransactionFacts {
  productId: string;
  transactionId: string;
  originalTransactionId: string;
  /** End of access; null for a one-time purchase or when the store gives no date. */
  expiresAt: Date | null;
  environment: StoreEnvironment;
  autoRenewing: boolean;
}

export type ValidVerdict = { outcome: 'valid'; raw: unknown } & TransactionFacts;

export type RejectOutcome = 'expired' | 'revoked' | 'refunded' | 'wrong_product' | 'wrong_app' | 'sandbox_not_allowed' | 'invalid';

/** The store answered and said no; `facts` carries what it did tell, for the record. */
export interface RejectedVerdict {
  outcome: RejectOutcome;
  reason: string;
  facts?: Partial<TransactionFacts>;
  raw?: unknown;
}

/** No answer to act on (down, 5xx, timeout, non-JSON, our credentials refused): keep what we had. */
export interface UnavailableVerdict {
  outcome: 'unavailable';
  reason: string;
}

export type StoreVerdict = ValidVerdict | RejectedVerdict | UnavailableVerdict;

export interface StoreVerifier {
  readonly store: StorePlatform;
  /** An auto-renewing subscription of the app. */
  verifySubscription(input: VerifyInput): Promise<StoreVerdict>;
  /** A one-time (PPV) product; consumed purchases still verify. */
  verifyPurchase(input: VerifyInput): Promise<StoreVerdict>;
}

export const DEFAULT_TIMEOUT_MS = 10_000;

export function reject(outcome: RejectOutcome, reason: string, raw?: unknown, facts?: Partial<TransactionFacts>): RejectedVerdict {
  return { outcome, reason, ...(facts ? { facts } : {}), ...(raw === undefined ? {} : { raw }) };
}

export function unavailable(reason: string): UnavailableVerdict {
  return { outcome: 'unavailable', reason };
}

/** A store's own word that the purchase has ended, weighed after the app and product checks. */
export interface Ended {
  outcome: 'revoked' | 'refunded' | 'expired';
  reason: string;
}

/**
 * The checks every store shares once its answer is decoded (and the app checked), in one order
 * so the same purchase gets the same verdict from any store: sandbox policy, product, the store's
 * own "ended" (refund, revocation, lapse), then expiry against the caller's clock.
 */
export function judge(facts: TransactionFacts, input: Pick<VerifyInput, 'productIds' | 'allowSandbox' | 'now'>, raw: unknown, ended?: Ended): StoreVerdict {
  if (facts.environment === 'sandbox' && !input.allowSandbox) {
    return reject('sandbox_not_allowed', 'a sandbox purchase cannot unlock this app', raw, facts);
  }
  if (!input.productIds.includes(facts.productId)) {
    return reject('wrong_product', `product ${facts.productId} is not one of the app's products`, raw, facts);
  }
  if (ended) return reject(ended.outcome, ended.reason, raw, facts);
  if (facts.expiresAt && facts.expiresAt.getTime() <= input.now.getTime()) {
    return reject('expired', `expired at ${facts.expiresAt.toISOString()}`, raw, facts);
  }
  return { outcome: 'valid', ...facts, raw };
}
