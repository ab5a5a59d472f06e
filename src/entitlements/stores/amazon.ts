// Amazon Appstore: the Receipt Verification Service (RVS), verifyReceiptId with the developer's
// shared secret. The production server is asked first; an App Tester receipt is only known to
// the RVS Cloud Sandbox, which is asked next when the app allows sandbox purchases.
import { asRecord, callStore, credential, dateFromMs, str, trimSlash } from './http.ts';
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

export const AMAZON_URLS = { production: 'https://appstore-sdk.amazon.com', sandbox: 'https://appstore-sdk.amazon.com/sandbox' } as const;

export interface AmazonOptions {
  urls?: { production: string; sandbox: string };
  timeoutMs?: number;
}

/**
 * receipt_data carries both ids RVS needs: JSON `{"userId":"…","receiptId":"…"}` (preferred), or
 * `userId:receiptId` split at the first colon (user ids have none; receipt ids may). On restore,
 * original_transaction_id is the same pair.
 */
export function parseAmazonReceipt(value: string | null | undefined): { userId: string; receiptId: string } | undefined {
  const data = value?.trim();
  if (!data) return undefined;
  if (data.startsWith('{')) {
    try {
      const json = asRecord(JSON.parse(data));
      const userId = str(json?.userId);
      const receiptId = str(json?.receiptId);
      return userId && receiptId ? { userId, receiptId } : undefined;
    } catch {
      return undefined;
    }
  }
  const colon = data.indexOf(':');
  return colon > 0 && colon < data.length - 1 ? { userId: data.slice(0, colon), receiptId: data.slice(colon + 1) } : undefined;
}

/** RVS response codes, per Amazon's RVS documentation. */
function statusVerdict(status: number, json: unknown): StoreVerdict {
  switch (status) {
    case 400:
      return reject('invalid', 'RVS: the receipt id is invalid or no transaction was found (400)', json);
    case 410:
      return reject('revoked', 'RVS: the transaction is no longer valid (410)', json);
    case 496:
      return unavailable('RVS refused the shared secret (496): check storeCredentials.amazon.sharedSecret');
    case 497:
      return reject('invalid', 'RVS: invalid user id (497)', json);
    default:
      return unavailable(`RVS answered HTTP ${status}`);
  }
}

export function amazonVerifier(options: AmazonOptions = {}): StoreVerifier {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const urls = options.urls ?? AMAZON_URLS;

  async function ask(
    environment: StoreEnvironment,
    secret: string,
    ids: { userId: string; receiptId: string },
  ): Promise<{ json: Record<string, unknown> } | { status: number; verdict: StoreVerdict }> {
    const path = `/version/1.0/verifyReceiptId/developer/${encodeURIComponent(secret)}/user/${encodeURIComponent(ids.userId)}/receiptId/${encodeURIComponent(ids.receiptId)}`;
    const answer = await callStore(`${trimSlash(urls[environment])}${path}`, { headers: { accept: 'application/json' } }, timeoutMs);
    if (!answer.ok) return { status: 0, verdict: unavailable(`RVS: ${answer.reason}`) };
    if (answer.status !== 200) return { status: answer.status, verdict: statusVerdict(answer.status, answer.json) };
    const json = asRecord(answer.json);
    return json ? { json } : { status: 200, verdict: unavailable('RVS answered with a body that is not JSON') };
  }

  async function verify(input: VerifyInput, kind: 'subscription' | 'purchase'): Promise<StoreVerdict> {
    const secret = credential(input.credentials, 'sharedSecret');
    if (!secret) return unavailable('storeCredentials.amazon lacks sharedSecret');
    const ids = parseAmazonReceipt(input.receiptData) ?? parseAmazonReceipt(input.originalTransactionId);
    if (!ids) return reject('invalid', 'receipt_data must carry userId and receiptId');
    let environment: StoreEnvironment = 'production';
    let answer = await ask('production', secret, ids);
    // A receipt production does not know may be an App Tester (sandbox) receipt.
    if ('verdict' in answer && answer.status === 400 && input.allowSandbox) {
      environment = 'sandbox';
      answer = await ask('sandbox', secret, ids);
    }
    if ('verdict' in answer) return answer.verdict;
    return decide(answer.json, environment, kind, ids.receiptId, input);
  }

  return {
    store: 'Amazon',
    verifySubscription: (input) => verify(input, 'subscription'),
    verifyPurchase: (input) => verify(input, 'purchase'),
  };
}

function decide(json: Record<string, unknown>, asked: StoreEnvironment, kind: 'subscription' | 'purchase', receiptId: string, input: VerifyInput): StoreVerdict {
  const cancelDate = dateFromMs(json.cancelDate);
  const renewalDate = dateFromMs(json.renewalDate);
  const isSubscription = json.productType === 'SUBSCRIPTION';
  const facts: TransactionFacts = {
    productId: String(json.productId ?? ''),
    transactionId: str(json.receiptId) ?? receiptId,
    originalTransactionId: str(json.receiptId) ?? receiptId,
    // A cancelled subscription runs to its cancelDate; an active one is paid up to renewalDate. A
    // renewalDate already past reads as expired (autoRenewing still true) so the caller re-checks
    // later instead of granting without an end.
    expiresAt: kind === 'subscription' ? (cancelDate ?? renewalDate) : null,
    environment: json.testTransaction === true || asked === 'sandbox' ? 'sandbox' : 'production',
    autoRenewing: isSubscription && json.autoRenewing === true && !cancelDate,
  };
  if (kind === 'subscription' && !isSubscription && json.productType !== undefined) {
    return reject('wrong_product', `a ${String(json.productType)} purchase is not a subscription`, json, facts);
  }
  // For one-time products a cancelDate means the purchase was cancelled (refunded).
  const ended: Ended | undefined =
    kind === 'purchase' && cancelDate
      ? { outcome: 'refunded', reason: `purchase cancelled at ${cancelDate.toISOString()} (cancelReason ${String(json.cancelReason)})` }
      : undefined;
  return judge(facts, input, json, ended);
}
