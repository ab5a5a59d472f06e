// What subscription verify, restore, the status re-check and PPV verify share: asking a store
// (the app's credentials and sandbox policy, the metric). Who buys is a caller with an app (the
// app of its Platform-Id) and a device, which claims the purchase (with the viewer when signed in).
import type { CallerWith } from '../access/caller.ts';
import { storeCredentialsOf } from '../data/store-products.ts';
import type { VerificationAttempt } from '../data/verification-attempts.ts';
import type { Queryable } from '../db/connect.ts';
import { storeVerifications } from '../observability/metrics.ts';
import { credentialsKey, sandboxAllowed, type StorePlatform, type StoreVerdict, type StoreVerifiers } from './stores/index.ts';
import { unavailable, type TransactionFacts } from './stores/types.ts';

export interface StoreQuestion {
  route: VerificationAttempt['route'];
  store: StorePlatform;
  kind: 'subscription' | 'purchase';
  /** The app's active SKUs the purchase may be for. */
  productIds: readonly string[];
  productId?: string | undefined;
  receiptData?: string | undefined;
  originalTransactionId?: string | undefined;
  videoId?: number | undefined;
  channelId?: number | null | undefined;
}

/** The error word of a verify or restore result for a verdict other than valid. */
export const errorOf = (verdict: StoreVerdict) => (verdict.outcome === 'unavailable' ? 'store_unavailable' : verdict.outcome);

/** Asks the store. Never throws for the store's sake: a verifier fault counts as the store being unavailable. */
export async function askStore(db: Queryable, verifiers: StoreVerifiers, caller: CallerWith<'app' | 'deviceId'>, q: StoreQuestion): Promise<StoreVerdict> {
  const credentials = await storeCredentialsOf(db, caller.app.id, credentialsKey(q.store));
  const verifier = verifiers(q.store);
  const input = {
    credentials,
    productIds: q.productIds,
    productId: q.productId ?? null,
    receiptData: q.receiptData ?? null,
    originalTransactionId: q.originalTransactionId ?? null,
    allowSandbox: sandboxAllowed(credentials),
    now: caller.now,
  };
  let verdict: StoreVerdict;
  try {
    verdict = await (q.kind === 'subscription' ? verifier.verifySubscription(input) : verifier.verifyPurchase(input));
  } catch (error) {
    verdict = unavailable(`verifier failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  storeVerifications.inc({ store: q.store, outcome: verdict.outcome });
  return verdict;
}

/** What the store told about the purchase, whatever its verdict. */
export function factsOf(verdict: StoreVerdict): Partial<TransactionFacts> | undefined {
  if (verdict.outcome === 'valid') return verdict;
  return 'facts' in verdict ? verdict.facts : undefined;
}
