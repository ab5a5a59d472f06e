// Apple: StoreKit 2 signed transactions (JWS) verified offline with Apple's own library against
// operator-supplied root certificates, then confirmed with the App Store Server API when the
// app's In-App Purchase key is configured (a JWS from the device may predate a refund). Legacy
// base64 app receipts go through verifyReceipt (apple-receipt.ts).
import type { JWSRenewalInfoDecodedPayload, JWSTransactionDecodedPayload } from '@apple/app-store-server-library';
import { appleLibrary } from './apple-library.ts';
import { APPLE_ROOT_CERTIFICATES_ENV } from './apple-roots.ts';
import { verifyLegacyReceipt, type VerifyReceiptUrls } from './apple-receipt.ts';
import { asRecord, callStore, credential, dateFromMs, missingCredential, pem, str, trimSlash } from './http.ts';
import { decodeSegment, looksLikeJws, signJwt } from './jwt.ts';
import {
  DEFAULT_TIMEOUT_MS,
  judge,
  reject,
  unavailable,
  type Ended,
  type StoreEnvironment,
  type StoreVerdict,
  type StoreVerifier,
  type TransactionFacts,
  type VerifyInput,
} from './types.ts';

export const APPLE_URLS = {
  api: { production: 'https://api.storekit.itunes.apple.com', sandbox: 'https://api.storekit-sandbox.itunes.apple.com' },
  verifyReceipt: { production: 'https://buy.itunes.apple.com/verifyReceipt', sandbox: 'https://sandbox.itunes.apple.com/verifyReceipt' },
} as const;

export interface AppleOptions {
  /** DER root certificates to trust (loadAppleRootCertificates reads APPLE_ROOT_CERTIFICATES). */
  rootCertificates: readonly Buffer[];
  apiUrls?: { production: string; sandbox: string };
  verifyReceiptUrls?: VerifyReceiptUrls;
  timeoutMs?: number;
}

type Kind = 'subscription' | 'purchase';
export interface Signed {
  tx: JWSTransactionDecodedPayload;
  environment: StoreEnvironment;
}
/** Apple's subscription status (1 active, 2 expired, 3 billing retry, 4 grace period, 5 revoked) and renewal info. */
export interface Subscription {
  status?: number;
  renewal?: JWSRenewalInfoDecodedPayload;
}

export const API_KEYS = ['issuerId', 'keyId', 'privateKey'] as const;
/** Apple's "not found" error codes: the id may live in the other environment. */
const NOT_FOUND = new Set([4040010, 4040005]);

/** The App Store Server API bearer token of the app's In-App Purchase key; throws if the key is unusable. */
export function appleApiToken(credentials: VerifyInput['credentials'], bundleId: string, now: Date): string {
  const iat = Math.floor(now.getTime() / 1000);
  return signJwt(
    { alg: 'ES256', kid: credential(credentials, 'keyId')! },
    { iss: credential(credentials, 'issuerId'), iat, exp: iat + 300, aud: 'appstoreconnect-v1', bid: bundleId },
    pem(credential(credentials, 'privateKey')!),
  );
}

export function appleVerifier(options: AppleOptions): StoreVerifier {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const apiUrls = options.apiUrls ?? APPLE_URLS.api;
  const roots = [...options.rootCertificates];

  /** Verifies signature, chain and bundle id; `from` says whom to blame when it fails. */
  async function verifyTransaction(jws: string, bundleId: string, input: VerifyInput, from: 'client' | 'store'): Promise<Signed | StoreVerdict> {
    const fail = (why: string) => (from === 'client' ? reject('invalid', why) : unavailable(`App Store answer not verified: ${why}`));
    const claimed = decodeSegment(jws, 1)?.environment;
    // Xcode and LocalTesting transactions are not signed by the App Store: the library skips the
    // signature check for them, so they must never reach it.
    const environment = claimed === 'Production' ? 'production' : claimed === 'Sandbox' ? 'sandbox' : undefined;
    if (!environment) return fail(`environment ${JSON.stringify(claimed ?? null)} is not an App Store environment`);
    // appAppleId is only compared for notifications and app transactions, never for transactions;
    // the library insists on one in Production, so 0 stands in when the app has none configured.
    const appAppleId = Number(credential(input.credentials, 'appAppleId') ?? 0);
    const { Environment, SignedDataVerifier, VerificationException, VerificationStatus } = await appleLibrary();
    const verifier = new SignedDataVerifier(roots, false, environment === 'production' ? Environment.PRODUCTION : Environment.SANDBOX, bundleId, appAppleId);
    try {
      return { tx: await verifier.verifyAndDecodeTransaction(jws), environment };
    } catch (error) {
      const status = error instanceof VerificationException ? error.status : undefined;
      if (status === VerificationStatus.INVALID_APP_IDENTIFIER) {
        return reject('wrong_app', `transaction is for ${String(decodeSegment(jws, 1)?.bundleId)}, not ${bundleId}`, decodeSegment(jws, 1));
      }
      return fail(`signature or certificate chain rejected (${status === undefined ? 'unknown' : VerificationStatus[status]})`);
    }
  }

  async function apiGet(
    environment: StoreEnvironment,
    path: string,
    bundleId: string,
    input: VerifyInput,
  ): Promise<{ body: Record<string, unknown> } | 'not_found' | StoreVerdict> {
    let token: string;
    try {
      token = appleApiToken(input.credentials, bundleId, input.now);
    } catch {
      return unavailable('storeCredentials.apple.privateKey is not a usable PEM EC key');
    }
    const answer = await callStore(`${trimSlash(apiUrls[environment])}${path}`, { headers: { authorization: `Bearer ${token}`, accept: 'application/json' } }, timeoutMs);
    if (!answer.ok) return unavailable(`App Store Server API: ${answer.reason}`);
    const json = asRecord(answer.json);
    if (answer.status === 401) return unavailable('App Store Server API refused our token (401): check issuerId, keyId, privateKey');
    if (answer.status === 429 || answer.status >= 500) return unavailable(`App Store Server API answered HTTP ${answer.status}`);
    if (!json) return unavailable(`App Store Server API answered HTTP ${answer.status} with a body that is not JSON`);
    if (answer.status === 404 && NOT_FOUND.has(Number(json.errorCode))) return 'not_found';
    if (answer.status !== 200) return reject('invalid', `App Store Server API: ${String(json.errorCode)} ${String(json.errorMessage ?? '')}`.trim(), json);
    return { body: json };
  }

  /** Get Transaction Info for one-time purchases; Get All Subscription Statuses for subscriptions,
   *  because only that one shows the latest renewal of an original transaction. */
  async function lookUp(kind: Kind, id: string, environment: StoreEnvironment, bundleId: string, input: VerifyInput): Promise<StoreVerdict | 'not_found'> {
    const path = kind === 'purchase' ? `/inApps/v1/transactions/${encodeURIComponent(id)}` : `/inApps/v1/subscriptions/${encodeURIComponent(id)}`;
    const answer = await apiGet(environment, path, bundleId, input);
    if (answer === 'not_found' || 'outcome' in answer) return answer;
    const json = answer.body;
    let signedTx: unknown = json.signedTransactionInfo;
    let subscription: Subscription = {};
    if (kind === 'subscription') {
      const items = (Array.isArray(json.data) ? json.data : []).flatMap((group) => {
        const last = asRecord(group)?.lastTransactions;
        return Array.isArray(last) ? last.map(asRecord) : [];
      });
      // Restore may send a later transaction id rather than the original: a lone subscription still matches.
      const item = items.find((i) => i?.originalTransactionId === id) ?? (items.length === 1 ? items[0] : undefined);
      if (!item) return reject('invalid', `no subscription with original transaction ${id}`, json);
      signedTx = item.signedTransactionInfo;
      subscription = { status: Number(item.status) };
      if (typeof item.signedRenewalInfo === 'string') {
        const renewal = await renewalInfo(item.signedRenewalInfo, environment, bundleId);
        if ('outcome' in renewal) return renewal;
        subscription.renewal = renewal;
      }
    }
    if (typeof signedTx !== 'string') return unavailable('App Store Server API answer holds no signed transaction');
    const signed = await verifyTransaction(signedTx, bundleId, input, 'store');
    return 'outcome' in signed ? signed : decide(signed, kind, input, 'App Store Server API', subscription);
  }

  async function renewalInfo(jws: string, environment: StoreEnvironment, bundleId: string): Promise<JWSRenewalInfoDecodedPayload | StoreVerdict> {
    const { Environment, SignedDataVerifier } = await appleLibrary();
    const verifier = new SignedDataVerifier(roots, false, environment === 'production' ? Environment.PRODUCTION : Environment.SANDBOX, bundleId, 0);
    try {
      return await verifier.verifyAndDecodeRenewalInfo(jws);
    } catch {
      return unavailable('App Store answer not verified: renewal info signature rejected');
    }
  }

  async function verify(input: VerifyInput, kind: Kind): Promise<StoreVerdict> {
    const bundleId = credential(input.credentials, 'bundleId');
    if (!bundleId) return unavailable('storeCredentials.apple lacks bundleId');
    const receipt = input.receiptData?.trim() || undefined;
    if (receipt && !looksLikeJws(receipt)) {
      return verifyLegacyReceipt(receipt, kind, input, bundleId, options.verifyReceiptUrls ?? APPLE_URLS.verifyReceipt, timeoutMs);
    }
    if (roots.length === 0) return unavailable(`Apple root certificates are not configured (${APPLE_ROOT_CERTIFICATES_ENV})`);
    let signed: Signed | undefined;
    if (receipt) {
      const result = await verifyTransaction(receipt, bundleId, input, 'client');
      if ('outcome' in result) return result;
      signed = result;
    }
    const id = signed ? (kind === 'subscription' ? signed.tx.originalTransactionId : signed.tx.transactionId) : str(input.originalTransactionId);
    if (!id) return reject('invalid', 'receipt_data (a signed transaction) or original_transaction_id is required');
    if (missingCredential(input.credentials, API_KEYS)) {
      if (!signed) return unavailable('App Store Server API credentials (issuerId, keyId, privateKey) are not configured');
      // Offline only: genuine, but a refund after the device got the JWS cannot be seen.
      return decide(signed, kind, input, 'signed transaction', {});
    }
    // The environment of a verified JWS is known; a bare id is tried in production, then in the sandbox.
    for (const environment of signed ? [signed.environment] : (['production', 'sandbox'] as const)) {
      const verdict = await lookUp(kind, id, environment, bundleId, input);
      if (verdict !== 'not_found') return verdict;
    }
    return reject('invalid', `transaction ${id} is not known to the App Store`);
  }

  return {
    store: 'Apple',
    verifySubscription: (input) => verify(input, 'subscription'),
    verifyPurchase: (input) => verify(input, 'purchase'),
  };
}

/** The verdict on a transaction Apple signed (from a device, the Server API or a notification). */
export function decide(signed: Signed, kind: Kind, input: Pick<VerifyInput, 'productIds' | 'allowSandbox' | 'now'>, source: string, sub: Subscription): StoreVerdict {
  const { tx, environment } = signed;
  const facts: TransactionFacts = {
    productId: tx.productId ?? '',
    transactionId: tx.transactionId ?? '',
    originalTransactionId: tx.originalTransactionId ?? tx.transactionId ?? '',
    expiresAt: kind === 'subscription' ? dateFromMs(tx.expiresDate) : null,
    environment,
    autoRenewing: sub.renewal?.autoRenewStatus === 1,
  };
  // Status 4 = billing grace period: Apple keeps the customer entitled until it ends.
  if (sub.status === 4) facts.expiresAt = dateFromMs(sub.renewal?.gracePeriodExpiresDate) ?? facts.expiresAt;
  const raw = { source, transaction: tx, ...(sub.status === undefined ? {} : { status: sub.status }), ...(sub.renewal ? { renewal: sub.renewal } : {}) };
  return judge(facts, input, raw, ended(tx, sub.status));
}

/** revocationDate with a revocationReason is a refund; without one (e.g. Family Sharing lost), a revocation. */
function ended(tx: JWSTransactionDecodedPayload, status: number | undefined): Ended | undefined {
  const revoked = dateFromMs(tx.revocationDate);
  if (revoked) {
    return { outcome: tx.revocationReason === undefined ? 'revoked' : 'refunded', reason: `revoked by Apple at ${revoked.toISOString()}` };
  }
  if (status === 5) return { outcome: 'revoked', reason: 'subscription revoked (status 5)' };
  if (status === 2) return { outcome: 'expired', reason: 'subscription expired (status 2)' };
  if (status === 3) return { outcome: 'expired', reason: 'subscription in billing retry (status 3)' };
  return undefined;
}
