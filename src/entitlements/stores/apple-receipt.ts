// Legacy base64 app receipts (StoreKit 1) through Apple's verifyReceipt endpoint: production
// first, then sandbox on status 21007, as Apple's documentation prescribes. Apple has deprecated
// this endpoint, so it is kept only for clients that still send app receipts.
import { asRecord, callStore, credential, dateFromMs, str } from './http.ts';
import { judge, reject, unavailable, type StoreVerdict, type TransactionFacts, type VerifyInput } from './types.ts';

export interface VerifyReceiptUrls {
  production: string;
  sandbox: string;
}

type Kind = 'subscription' | 'purchase';

/** verifyReceipt status codes other than 0, per Apple's "status" documentation. */
function statusVerdict(status: number, body: Record<string, unknown>): StoreVerdict {
  if (body['is-retryable'] === true || (status >= 21100 && status <= 21199)) return unavailable(`verifyReceipt status ${status}: try again`);
  switch (status) {
    case 21002:
      return reject('invalid', 'receipt-data is malformed (21002)', body);
    case 21003:
      return reject('invalid', 'receipt could not be authenticated (21003)', body);
    case 21004:
      return unavailable("the shared secret does not match Apple's (21004): check storeCredentials.apple.sharedSecret");
    case 21006:
      return reject('expired', 'subscription expired (21006)', body);
    case 21008:
      return reject('invalid', 'production receipt sent to the sandbox (21008)', body);
    case 21010:
      return reject('invalid', 'account not found or deleted (21010)', body);
    case 21000:
    case 21001:
    case 21005:
    case 21009:
      return unavailable(`verifyReceipt status ${status}`);
    default:
      return reject('invalid', `verifyReceipt status ${status}`, body);
  }
}

export async function verifyLegacyReceipt(receipt: string, kind: Kind, input: VerifyInput, bundleId: string, urls: VerifyReceiptUrls, timeoutMs: number): Promise<StoreVerdict> {
  const password = credential(input.credentials, 'sharedSecret');
  const body = JSON.stringify({ 'receipt-data': receipt, ...(password ? { password } : {}), 'exclude-old-transactions': true });
  const post = (url: string) => callStore(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body }, timeoutMs);

  let answer = await post(urls.production);
  let json = answer.ok ? asRecord(answer.json) : undefined;
  if (json?.status === 21007) {
    // The receipt is genuine but from the sandbox; no need to ask again when sandbox is refused.
    if (!input.allowSandbox) return reject('sandbox_not_allowed', 'a sandbox receipt (21007) cannot unlock this app', json);
    answer = await post(urls.sandbox);
    json = answer.ok ? asRecord(answer.json) : undefined;
  }
  if (!answer.ok) return unavailable(`verifyReceipt: ${answer.reason}`);
  if (answer.status >= 500 || answer.status === 429) return unavailable(`verifyReceipt answered HTTP ${answer.status}`);
  if (!json || typeof json.status !== 'number') return unavailable(`verifyReceipt answered HTTP ${answer.status} without a JSON status`);
  if (json.status !== 0) return statusVerdict(json.status, json);
  return decide(json, kind, input, bundleId);
}

function records(value: unknown): Record<string, unknown>[] {
  return Array.isArray(value) ? value.map(asRecord).filter((r): r is Record<string, unknown> => r !== undefined) : [];
}

function decide(json: Record<string, unknown>, kind: Kind, input: VerifyInput, bundleId: string): StoreVerdict {
  // latest_receipt is the whole receipt again, base64: not worth keeping in the record.
  const { latest_receipt: _dropped, ...raw } = json;
  const receipt = asRecord(json.receipt);
  if (receipt?.bundle_id !== bundleId) return reject('wrong_app', `receipt is for ${String(receipt?.bundle_id)}, not ${bundleId}`, raw);
  const id = str(input.originalTransactionId);
  const entries = [...records(json.latest_receipt_info), ...records(receipt.in_app)].filter((e) => !id || e.original_transaction_id === id || e.transaction_id === id);
  if (entries.length === 0) return reject('invalid', id ? `receipt holds no transaction ${id}` : 'receipt holds no in-app purchase', raw);
  const ours = entries.filter((e) => input.productIds.includes(String(e.product_id)));
  const pool = ours.length > 0 ? ours : entries;
  // Subscriptions: the period that ends last. One-time: the latest purchase not refunded, if any.
  const sortKey = (e: Record<string, unknown>) => (kind === 'subscription' ? dateFromMs(e.expires_date_ms) : dateFromMs(e.purchase_date_ms))?.getTime() ?? 0;
  const live = kind === 'purchase' ? pool.filter((e) => !dateFromMs(e.cancellation_date_ms)) : [];
  const chosen = [...(live.length > 0 ? live : pool)].sort((a, b) => sortKey(b) - sortKey(a))[0]!;
  const original = str(chosen.original_transaction_id) ?? str(chosen.transaction_id) ?? '';
  const renewal = records(json.pending_renewal_info).find((r) => r.original_transaction_id === original);
  const facts: TransactionFacts = {
    productId: String(chosen.product_id ?? ''),
    transactionId: str(chosen.transaction_id) ?? '',
    originalTransactionId: original,
    expiresAt: kind === 'subscription' ? dateFromMs(chosen.expires_date_ms) : null,
    environment: json.environment === 'Sandbox' ? 'sandbox' : 'production',
    autoRenewing: renewal?.auto_renew_status === '1',
  };
  const cancelled = dateFromMs(chosen.cancellation_date_ms);
  const ended = cancelled ? { outcome: 'refunded' as const, reason: `refunded by Apple at ${cancelled.toISOString()}` } : undefined;
  return judge(facts, input, raw, ended);
}
