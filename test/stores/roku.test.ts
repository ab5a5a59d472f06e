import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { rokuDate, rokuVerifier, type RokuOptions } from '../../src/entitlements/stores/roku.ts';
import type { StoreVerdict, VerifyInput } from '../../src/entitlements/stores/types.ts';
import { startStoreServer, type Received, type Reply, type StoreServer } from './support/server.ts';

const NOW = new Date('2026-03-01T00:00:00Z');
const DAY = 86_400_000;
const API_KEY = '8C0F3D3B9A4E4C1F9E0B7A6D5C4B3A29';
const TX = 'b0f7e477e89e48d0aa13abad017d4ee9';
const MONTHLY = 'NW-PREMIUM-MONTHLY';
const RENTAL = 'NW-PPV-RENTAL';

let server: StoreServer;
beforeAll(async () => {
  server = await startStoreServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
});

const options = (overrides: RokuOptions = {}): RokuOptions => ({ baseUrl: server.url, timeoutMs: 2_000, ...overrides });
const wcf = (ms: number) => `/Date(${ms}+0000)/`;

function input(overrides: Partial<VerifyInput> = {}): VerifyInput {
  return { credentials: { apiKey: API_KEY, channelId: '000000' }, productIds: [MONTHLY], receiptData: TX, allowSandbox: false, now: NOW, ...overrides };
}

/** A validate-transaction answer as in Roku's documentation (JSON, WCF dates). */
function validated(extra: Record<string, unknown> = {}) {
  return {
    errorCode: null,
    errorDetails: null,
    errorMessage: '',
    status: 0,
    OriginalTransactionId: TX,
    amount: 4.99,
    cancelled: false,
    cancelledTransactionIds: null,
    channelId: '000000',
    channelName: 'NORTHWIND',
    couponCode: null,
    currency: 'usd',
    expirationDate: wcf(NOW.getTime() + 20 * DAY),
    isEntitled: true,
    originalPurchaseDate: wcf(NOW.getTime() - 40 * DAY),
    partnerReferenceId: null,
    productId: MONTHLY,
    productName: 'Northwind Premium (monthly)',
    purchaseDate: wcf(NOW.getTime() - 10 * DAY),
    purchaseStatus: 'Active',
    purchaseType: null,
    quantity: 1,
    rokuCustomerId: '99999999999999999999999999999999',
    tax: 0,
    total: 4.99,
    transactionId: TX,
    ...extra,
  };
}

/** Answers the documented path only, and only for our key and transaction. */
function rokuServer(answer: Reply) {
  return (request: Received): Reply => {
    const match = /^\/listen\/transaction-service\.svc\/validate-transaction\/([^/]+)\/([^/]+)$/.exec(request.url);
    if (!match || request.headers.accept !== 'application/json') return { status: 404, text: 'Endpoint not found.' };
    if (match[1] !== API_KEY) return { json: { status: 1, errorCode: null, errorMessage: 'Invalid partner API key.', isEntitled: false } };
    if (match[2] !== TX) return { json: { status: 1, errorCode: null, errorMessage: 'Invalid transaction id.', isEntitled: false } };
    return answer;
  };
}

const expectOutcome = (verdict: StoreVerdict, outcome: StoreVerdict['outcome']) => expect(verdict.outcome, JSON.stringify(verdict)).toBe(outcome);

describe('Roku Pay validate-transaction', () => {
  it('reads WCF and ISO dates', () => {
    expect(rokuDate('/Date(1588892898000+0000)/')).toEqual(new Date(1588892898000));
    expect(rokuDate('2026-05-15T19:23:00Z')).toEqual(new Date('2026-05-15T19:23:00Z'));
    expect(rokuDate('soon')).toBeNull();
    expect(rokuDate(null)).toBeNull();
  });

  it('accepts an entitled subscription, asking for JSON at the documented path', async () => {
    server.reply = rokuServer({ json: validated() });
    const verdict = await rokuVerifier(options()).verifySubscription(input());
    expect(verdict).toMatchObject({
      outcome: 'valid',
      productId: MONTHLY,
      transactionId: TX,
      originalTransactionId: TX,
      expiresAt: new Date(NOW.getTime() + 20 * DAY),
      environment: 'production',
      autoRenewing: true,
    });
    expect(server.requests.map((r) => r.url)).toEqual([`/listen/transaction-service.svc/validate-transaction/${API_KEY}/${TX}`]);
  });

  it('keeps a cancelled subscription until it expires (Pending_Inactive), then reports it expired', async () => {
    server.reply = rokuServer({ json: validated({ cancelled: true, purchaseStatus: 'PendingInactive' }) });
    expect(await rokuVerifier(options()).verifySubscription(input())).toMatchObject({ outcome: 'valid', autoRenewing: false });
    server.reply = rokuServer({ json: validated({ cancelled: true, isEntitled: false, purchaseStatus: 'Inactive', expirationDate: wcf(NOW.getTime() - DAY) }) });
    expectOutcome(await rokuVerifier(options()).verifySubscription(input()), 'expired');
  });

  it('reports a subscription cut short (refunded or cancelled before its end) as revoked', async () => {
    server.reply = rokuServer({ json: validated({ cancelled: true, isEntitled: false, purchaseStatus: 'Inactive' }) });
    expectOutcome(await rokuVerifier(options()).verifySubscription(input()), 'revoked');
  });

  it('refuses another product and another channel', async () => {
    server.reply = rokuServer({ json: validated({ productId: 'OTHER-PREMIUM' }) });
    expectOutcome(await rokuVerifier(options()).verifySubscription(input()), 'wrong_product');
    server.reply = rokuServer({ json: validated({ channelId: '123456' }) });
    expectOutcome(await rokuVerifier(options()).verifySubscription(input()), 'wrong_app');
  });

  it('refuses an unknown transaction id and a missing one', async () => {
    server.reply = rokuServer({ json: validated() });
    expectOutcome(await rokuVerifier(options()).verifySubscription(input({ receiptData: 'not-a-transaction' })), 'invalid');
    expectOutcome(await rokuVerifier(options()).verifySubscription(input({ receiptData: '  ' })), 'invalid');
  });

  it('restores by original transaction id', async () => {
    server.reply = rokuServer({ json: validated() });
    expectOutcome(await rokuVerifier(options()).verifySubscription(input({ receiptData: null, originalTransactionId: TX })), 'valid');
  });

  it('is unavailable on a refused API key, 5xx, a non-JSON answer and a timeout', async () => {
    server.reply = rokuServer({ json: validated() });
    expectOutcome(await rokuVerifier(options()).verifySubscription(input({ credentials: { apiKey: 'WRONG' } })), 'unavailable');
    server.reply = () => ({ status: 503, text: 'Service Unavailable' });
    expectOutcome(await rokuVerifier(options()).verifySubscription(input()), 'unavailable');
    server.reply = rokuServer({ status: 200, text: '<result xmlns="http://api.roku.com/transaction"><status>0</status></result>', contentType: 'application/xml' });
    expectOutcome(await rokuVerifier(options()).verifySubscription(input()), 'unavailable');
    server.reply = () => 'hang';
    expectOutcome(await rokuVerifier(options({ timeoutMs: 150 })).verifySubscription(input()), 'unavailable');
  });
});

describe('Roku Pay one-time purchases', () => {
  const ppv = (overrides: Partial<VerifyInput> = {}) => input({ productIds: [RENTAL], ...overrides });
  const rental = (extra: Record<string, unknown> = {}) => validated({ productId: RENTAL, productName: 'Rental', expirationDate: wcf(NOW.getTime() + 2 * DAY), ...extra });

  it("accepts an entitled purchase; the unlock window is the app's, not the store's", async () => {
    server.reply = rokuServer({ json: rental() });
    expect(await rokuVerifier(options()).verifyPurchase(ppv())).toMatchObject({ outcome: 'valid', productId: RENTAL, expiresAt: null, autoRenewing: false });
  });

  it('reports a refunded (no longer entitled) purchase as revoked and a subscription as the wrong product', async () => {
    server.reply = rokuServer({ json: rental({ isEntitled: false, cancelled: true }) });
    expectOutcome(await rokuVerifier(options()).verifyPurchase(ppv()), 'revoked');
    server.reply = rokuServer({ json: validated() });
    expectOutcome(await rokuVerifier(options()).verifyPurchase(ppv()), 'wrong_product');
  });

  it('is unavailable on 5xx and a timeout', async () => {
    server.reply = () => ({ status: 500, text: '' });
    expectOutcome(await rokuVerifier(options()).verifyPurchase(ppv()), 'unavailable');
    server.reply = () => 'hang';
    expectOutcome(await rokuVerifier(options({ timeoutMs: 150 })).verifyPurchase(ppv()), 'unavailable');
  });
});
