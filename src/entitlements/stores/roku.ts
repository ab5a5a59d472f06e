// Roku Pay web services: validate-transaction with the partner API key. receipt_data is the
// transaction id (the purchaseId the ChannelStore returned). Roku marks no sandbox purchases in
// this answer, so every verdict is 'production'.
import { asRecord, callStore, credential, str, trimSlash } from './http.ts';
import { DEFAULT_TIMEOUT_MS, judge, reject, unavailable, type Ended, type StoreVerdict, type StoreVerifier, type TransactionFacts, type VerifyInput } from './types.ts';

export const ROKU_URL = 'https://apipub.roku.com';

export interface RokuOptions {
  baseUrl?: string;
  timeoutMs?: number;
}

/** Roku's WCF dates look like "/Date(1588892898000+0000)/"; ISO strings are accepted too. */
export function rokuDate(value: unknown): Date | null {
  if (typeof value !== 'string' || value === '') return null;
  const wcf = /\/Date\((-?\d+)(?:[+-]\d{4})?\)\//.exec(value);
  const date = wcf ? new Date(Number(wcf[1])) : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

function succeeded(status: unknown): boolean {
  return status === 0 || (typeof status === 'string' && /^(0|success)$/i.test(status));
}

export function rokuVerifier(options: RokuOptions = {}): StoreVerifier {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const base = trimSlash(options.baseUrl ?? ROKU_URL);

  async function verify(input: VerifyInput, kind: 'subscription' | 'purchase'): Promise<StoreVerdict> {
    const apiKey = credential(input.credentials, 'apiKey');
    if (!apiKey) return unavailable('storeCredentials.roku lacks apiKey');
    const transactionId = input.receiptData?.trim() || str(input.originalTransactionId);
    if (!transactionId) return reject('invalid', 'receipt_data must be the Roku transaction id');
    const url = `${base}/listen/transaction-service.svc/validate-transaction/${encodeURIComponent(apiKey)}/${encodeURIComponent(transactionId)}`;
    const answer = await callStore(url, { headers: { accept: 'application/json' } }, timeoutMs);
    if (!answer.ok) return unavailable(`Roku Pay: ${answer.reason}`);
    if (answer.status === 401 || answer.status === 403 || answer.status === 429 || answer.status >= 500) {
      return unavailable(`Roku Pay answered HTTP ${answer.status}`);
    }
    const json = asRecord(answer.json);
    if (!json) return unavailable(`Roku Pay answered HTTP ${answer.status} with a body that is not JSON`);
    if (answer.status !== 200 || !succeeded(json.status)) {
      const message = String(json.errorMessage ?? json.errorDetails ?? `HTTP ${answer.status}`);
      // A refused key is our configuration, not the customer's receipt.
      if (/api ?key/i.test(message)) return unavailable(`Roku Pay refused the partner API key: ${message}`);
      return reject('invalid', `Roku Pay: ${message}`, json);
    }
    return decide(json, transactionId, kind, input);
  }

  return {
    store: 'Roku',
    verifySubscription: (input) => verify(input, 'subscription'),
    verifyPurchase: (input) => verify(input, 'purchase'),
  };
}

function decide(json: Record<string, unknown>, asked: string, kind: 'subscription' | 'purchase', input: VerifyInput): StoreVerdict {
  const channelId = credential(input.credentials, 'channelId');
  if (channelId && str(json.channelId) && str(json.channelId) !== channelId) {
    return reject('wrong_app', `transaction is for Roku channel ${String(json.channelId)}, not ${channelId}`, json);
  }
  const expiration = rokuDate(json.expirationDate);
  const cancelled = json.cancelled === true;
  const transactionId = str(json.transactionId) ?? asked;
  const facts: TransactionFacts = {
    productId: str(json.productId) ?? str(json.productCode) ?? '',
    transactionId,
    originalTransactionId: str(json.OriginalTransactionId) ?? str(json.originalTransactionId) ?? transactionId,
    // A PPV unlock lasts the app's accessDurationHours, not the store's rental window.
    expiresAt: kind === 'subscription' ? expiration : null,
    environment: 'production',
    autoRenewing: kind === 'subscription' && !cancelled,
  };
  // isEntitled is Roku's verdict; when it is false, the dates say whether the term ran out or was cut short.
  let ended: Ended | undefined;
  if (json.isEntitled === false) {
    ended =
      expiration && expiration <= input.now
        ? { outcome: 'expired', reason: `not entitled since ${expiration.toISOString()}` }
        : { outcome: 'revoked', reason: `not entitled${cancelled ? ' (cancelled)' : ''} before its expiration date` };
  }
  return judge(facts, input, json, ended);
}
