// Google Play: the Play Developer API's purchases.subscriptionsv2.get and purchases.products.get,
// called with plain fetch (simple to point at a local server; no client library to download),
// authenticated with the app's service account (google-auth.ts).
import { GOOGLE_TOKEN_URI, GoogleTokens } from './google-auth.ts';
import { asRecord, callStore, credential, str, trimSlash } from './http.ts';
import { DEFAULT_TIMEOUT_MS, judge, reject, unavailable, type Ended, type StoreVerdict, type StoreVerifier, type TransactionFacts, type VerifyInput } from './types.ts';

export const GOOGLE_API_URL = 'https://androidpublisher.googleapis.com';

export interface GoogleOptions {
  apiBaseUrl?: string;
  /** Used when the credentials carry no tokenUri. */
  tokenUri?: string;
  timeoutMs?: number;
}

/** receipt_data is the purchase token, or the Purchase's original JSON that carries it. */
function parseReceipt(input: VerifyInput): { token?: string; productId?: string; packageName?: string } {
  const data = input.receiptData?.trim();
  if (!data) return { token: str(input.originalTransactionId) };
  if (!data.startsWith('{')) return { token: data };
  let json: Record<string, unknown> | undefined;
  try {
    json = asRecord(JSON.parse(data));
  } catch {
    return {};
  }
  return { token: str(json?.purchaseToken), productId: str(json?.productId), packageName: str(json?.packageName) };
}

function errorReason(json: Record<string, unknown> | undefined): string {
  const error = asRecord(json?.error);
  const first = Array.isArray(error?.errors) ? asRecord(error.errors[0]) : undefined;
  return String(first?.reason ?? error?.status ?? '');
}

/** Maps Google's HTTP errors; undefined means a 200 with a JSON body to decide on. */
function httpVerdict(status: number, json: Record<string, unknown> | undefined): StoreVerdict | undefined {
  const reason = errorReason(json);
  const message = String(asRecord(json?.error)?.message ?? '');
  if (status === 401 || status === 403) return unavailable(`Play Developer API refused the service account (${status} ${reason}): check its access to the app`);
  if (status === 429 || status >= 500) return unavailable(`Play Developer API answered HTTP ${status}`);
  if (!json) return unavailable(`Play Developer API answered HTTP ${status} with a body that is not JSON`);
  if (status === 200) return undefined;
  if (reason === 'purchaseTokenDoesNotMatchPackageName' || /does not match the package name/i.test(message)) {
    return reject('wrong_app', 'the purchase token belongs to another app', json);
  }
  if (status === 410) return reject('expired', 'Google no longer keeps this purchase (410)', json);
  return reject('invalid', `Play Developer API: ${status} ${reason || message}`.trim(), json);
}

export function googleVerifier(options: GoogleOptions = {}): StoreVerifier {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const tokens = new GoogleTokens(options.tokenUri ?? GOOGLE_TOKEN_URI, timeoutMs);
  const base = trimSlash(options.apiBaseUrl ?? GOOGLE_API_URL);

  /** GET with the bearer token; one retry with a fresh token if Google says ours went bad. */
  async function apiGet(path: string, input: VerifyInput): Promise<{ body: Record<string, unknown> } | StoreVerdict> {
    for (const fresh of [false, true]) {
      const token = await tokens.get(input.credentials, input.now, fresh);
      if (typeof token !== 'string') return token;
      const answer = await callStore(`${base}${path}`, { headers: { authorization: `Bearer ${token}`, accept: 'application/json' } }, timeoutMs);
      if (!answer.ok) return unavailable(`Play Developer API: ${answer.reason}`);
      if (answer.status === 401 && !fresh) continue;
      const json = asRecord(answer.json);
      return httpVerdict(answer.status, json) ?? { body: json ?? {} };
    }
    return unavailable('unreachable');
  }

  async function verify(input: VerifyInput, kind: 'subscription' | 'purchase'): Promise<StoreVerdict> {
    const packageName = credential(input.credentials, 'packageName');
    if (!packageName) return unavailable('storeCredentials.google lacks packageName');
    const receipt = parseReceipt(input);
    if (!receipt.token) return reject('invalid', 'receipt_data must be a purchase token (or the purchase JSON holding one)');
    if (receipt.packageName && receipt.packageName !== packageName) return reject('wrong_app', `purchase is for ${receipt.packageName}, not ${packageName}`);
    const app = `/androidpublisher/v3/applications/${encodeURIComponent(packageName)}/purchases`;
    if (kind === 'subscription') {
      const answer = await apiGet(`${app}/subscriptionsv2/tokens/${encodeURIComponent(receipt.token)}`, input);
      return 'body' in answer ? decideSubscription(answer.body, receipt.token, input) : answer;
    }
    // products.get names the product in its path, so the product must be known before asking.
    const productId = str(input.productId) ?? receipt.productId;
    if (!productId) return reject('invalid', 'product_id is required to verify a Google one-time purchase');
    if (!input.productIds.includes(productId)) return reject('wrong_product', `product ${productId} is not one of the app's products`);
    const answer = await apiGet(`${app}/products/${encodeURIComponent(productId)}/tokens/${encodeURIComponent(receipt.token)}`, input);
    return 'body' in answer ? decideProduct(answer.body, productId, receipt.token, input) : answer;
  }

  return {
    store: 'Google',
    verifySubscription: (input) => verify(input, 'subscription'),
    verifyPurchase: (input) => verify(input, 'purchase'),
  };
}

/** SubscriptionPurchaseV2: subscriptionState decides; CANCELED keeps access until expiryTime. */
function decideSubscription(json: Record<string, unknown>, token: string, input: VerifyInput): StoreVerdict {
  const items = (Array.isArray(json.lineItems) ? json.lineItems : []).map(asRecord).filter((i): i is Record<string, unknown> => !!i);
  const item = items.find((i) => input.productIds.includes(String(i.productId))) ?? items[0];
  if (!item) return reject('invalid', 'subscription has no line items', json);
  const expiry = typeof item.expiryTime === 'string' ? new Date(item.expiryTime) : null;
  const facts: TransactionFacts = {
    productId: String(item.productId ?? ''),
    transactionId: str(item.latestSuccessfulOrderId) ?? str(json.latestOrderId) ?? token,
    originalTransactionId: token,
    expiresAt: expiry && !Number.isNaN(expiry.getTime()) ? expiry : null,
    environment: json.testPurchase ? 'sandbox' : 'production',
    autoRenewing: asRecord(item.autoRenewingPlan)?.autoRenewEnabled === true,
  };
  const state = String(json.subscriptionState ?? '');
  let ended: Ended | undefined;
  switch (state) {
    case 'SUBSCRIPTION_STATE_ACTIVE':
    case 'SUBSCRIPTION_STATE_IN_GRACE_PERIOD':
    case 'SUBSCRIPTION_STATE_CANCELED':
      break;
    case 'SUBSCRIPTION_STATE_ON_HOLD':
    case 'SUBSCRIPTION_STATE_PAUSED':
      ended = { outcome: 'expired', reason: `subscription is ${state.slice(19).toLowerCase().replace('_', ' ')}` };
      break;
    case 'SUBSCRIPTION_STATE_EXPIRED':
      // Expired before its paid period ran out: Google or the developer revoked it (refund).
      ended =
        facts.expiresAt && facts.expiresAt > input.now
          ? { outcome: 'revoked', reason: 'subscription revoked before its expiry time' }
          : { outcome: 'expired', reason: 'subscription expired' };
      break;
    default:
      return reject('invalid', `subscription state ${state || 'missing'}`, json, facts);
  }
  return judge(facts, input, json, ended);
}

/** ProductPurchase: purchaseState 0 purchased, 1 canceled (refunded/voided), 2 pending;
 *  purchaseType 0 is a license-test purchase. Consumed purchases still verify. */
function decideProduct(json: Record<string, unknown>, productId: string, token: string, input: VerifyInput): StoreVerdict {
  const facts: TransactionFacts = {
    productId: str(json.productId) ?? productId,
    transactionId: str(json.orderId) ?? token,
    originalTransactionId: token,
    expiresAt: null,
    environment: json.purchaseType === 0 ? 'sandbox' : 'production',
    autoRenewing: false,
  };
  if (json.purchaseState === 2) return reject('invalid', 'payment is still pending', json, facts);
  const ended: Ended | undefined = json.purchaseState === 1 ? { outcome: 'refunded', reason: 'purchase canceled (refunded or voided)' } : undefined;
  if (!ended && json.purchaseState !== 0 && json.purchaseState !== undefined) return reject('invalid', `purchaseState ${String(json.purchaseState)}`, json, facts);
  return judge(facts, input, json, ended);
}
