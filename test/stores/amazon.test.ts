import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { amazonVerifier, parseAmazonReceipt, type AmazonOptions } from '../../src/entitlements/stores/amazon.ts';
import type { StoreVerdict, VerifyInput } from '../../src/entitlements/stores/types.ts';
import { startStoreServer, type Received, type Reply, type StoreServer } from './support/server.ts';

const NOW = new Date('2026-03-01T00:00:00Z');
const DAY = 86_400_000;
const SECRET = '2:smXBjZkWCxDMSBvQ8HBGsUS1PK3jvVc8tuTjLNfPHfYAga6WaDzXJPoWpfemXaHg:iEzHzPjJ-XwRdZ4b4e7Hxw==';
const USER = 'l3HL7XppEMhrOGDnur9-ulvqomrSg6qyODKmah76lJU=';
const RECEIPT =
  'q1YqVbJSyjH28DGPKChw9c0o8nd3ySststQtzSkrzM8tCk43K6z0d_HOTcwwN8vxCrVV0lEqBmpJzs_VS8xNrMrP0ysuTSo2BAqXKFkZ6SilACUNzQxMzAyNjYyNDQ3MgDKJSlZpiTnFqTpK6UpWJUWlQEYahFELAA';
const MONTHLY = 'com.example.northwind.premium.monthly.amzn';
const RENTAL = 'com.example.northwind.ppv.rental';

let server: StoreServer;
beforeAll(async () => {
  server = await startStoreServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
});

const options = (overrides: AmazonOptions = {}): AmazonOptions => ({ urls: { production: server.url, sandbox: `${server.url}/sandbox` }, timeoutMs: 2_000, ...overrides });
const receiptData = JSON.stringify({ userId: USER, receiptId: RECEIPT });

function input(overrides: Partial<VerifyInput> = {}): VerifyInput {
  return { credentials: { sharedSecret: SECRET }, productIds: [MONTHLY], receiptData, allowSandbox: false, now: NOW, ...overrides };
}

/** An RVS answer for a subscription, shaped like Amazon's documented examples. */
function rvs(extra: Record<string, unknown> = {}) {
  return {
    autoRenewing: true,
    betaProduct: false,
    cancelDate: null,
    cancelReason: null,
    countryCode: 'US',
    deferredDate: null,
    deferredSku: null,
    freeTrialEndDate: null,
    gracePeriodEndDate: null,
    parentProductId: null,
    productId: MONTHLY,
    productType: 'SUBSCRIPTION',
    promotions: null,
    purchaseDate: NOW.getTime() - 10 * DAY,
    quantity: 1,
    receiptId: RECEIPT,
    renewalDate: NOW.getTime() + 20 * DAY,
    term: '1 Month',
    termSku: `${MONTHLY}_term`,
    testTransaction: false,
    ...extra,
  };
}

/** Routes by the documented path; only the right secret, user and receipt are known. */
function rvsServer(answer: Reply, sandboxAnswer: Reply = { status: 400, text: '' }) {
  return (request: Received): Reply => {
    const sandbox = request.url.startsWith('/sandbox/');
    const path = request.url.replace(/^\/sandbox/, '');
    const expected = `/version/1.0/verifyReceiptId/developer/${encodeURIComponent(SECRET)}/user/${encodeURIComponent(USER)}/receiptId/${encodeURIComponent(RECEIPT)}`;
    if (!path.startsWith('/version/1.0/verifyReceiptId/developer/')) return { status: 404, text: 'Not Found' };
    if (!sandbox && !path.startsWith(`/version/1.0/verifyReceiptId/developer/${encodeURIComponent(SECRET)}/`)) return { status: 496, text: '' };
    if (path !== expected) return { status: 400, text: '' };
    return sandbox ? sandboxAnswer : answer;
  };
}

const expectOutcome = (verdict: StoreVerdict, outcome: StoreVerdict['outcome']) => expect(verdict.outcome, JSON.stringify(verdict)).toBe(outcome);

describe('Amazon receipt_data', () => {
  it('takes JSON or userId:receiptId, splitting at the first colon only', () => {
    expect(parseAmazonReceipt(receiptData)).toEqual({ userId: USER, receiptId: RECEIPT });
    expect(parseAmazonReceipt(`${USER}:2:abc:def`)).toEqual({ userId: USER, receiptId: '2:abc:def' });
    for (const junk of ['', 'no-colon', ':x', 'x:', '{"userId":"u"}', '{broken']) expect(parseAmazonReceipt(junk)).toBeUndefined();
  });
});

describe('Amazon RVS subscriptions', () => {
  it('accepts an active subscription at the production server', async () => {
    server.reply = rvsServer({ json: rvs() });
    const verdict = await amazonVerifier(options()).verifySubscription(input());
    expect(verdict).toMatchObject({
      outcome: 'valid',
      productId: MONTHLY,
      transactionId: RECEIPT,
      originalTransactionId: RECEIPT,
      expiresAt: new Date(NOW.getTime() + 20 * DAY),
      environment: 'production',
      autoRenewing: true,
    });
    expect(server.requests).toHaveLength(1);
  });

  it('keeps a cancelled subscription until its cancel date, then reports it expired', async () => {
    server.reply = rvsServer({ json: rvs({ cancelDate: NOW.getTime() + 5 * DAY, cancelReason: 1 }) });
    expect(await amazonVerifier(options()).verifySubscription(input())).toMatchObject({ outcome: 'valid', autoRenewing: false, expiresAt: new Date(NOW.getTime() + 5 * DAY) });
    server.reply = rvsServer({ json: rvs({ cancelDate: NOW.getTime() - DAY, cancelReason: 1 }) });
    expectOutcome(await amazonVerifier(options()).verifySubscription(input()), 'expired');
  });

  it('reports a transaction Amazon says is no longer valid (410) as revoked', async () => {
    server.reply = rvsServer({ status: 410, text: '' });
    expectOutcome(await amazonVerifier(options()).verifySubscription(input()), 'revoked');
  });

  it("refuses another product (Amazon names no app, so another app's receipt lands here) and a non-subscription", async () => {
    server.reply = rvsServer({ json: rvs({ productId: 'com.other.app.premium' }) });
    expectOutcome(await amazonVerifier(options()).verifySubscription(input()), 'wrong_product');
    server.reply = rvsServer({ json: rvs({ productType: 'ENTITLED', productId: MONTHLY }) });
    expectOutcome(await amazonVerifier(options()).verifySubscription(input()), 'wrong_product');
  });

  it('refuses unknown receipts (400) and users (497), and junk receipt_data without asking', async () => {
    server.reply = rvsServer({ json: rvs() });
    expectOutcome(await amazonVerifier(options()).verifySubscription(input({ receiptData: `${USER}:someone-elses-receipt` })), 'invalid');
    server.reply = () => ({ status: 497, text: '' });
    expectOutcome(await amazonVerifier(options()).verifySubscription(input()), 'invalid');
    server.requests.length = 0;
    expectOutcome(await amazonVerifier(options()).verifySubscription(input({ receiptData: 'garbage' })), 'invalid');
    expect(server.requests).toHaveLength(0);
  });

  it('asks the RVS Cloud Sandbox for an App Tester receipt only when the app allows the sandbox', async () => {
    server.reply = rvsServer({ status: 400, text: '' }, { json: rvs({ testTransaction: true }) });
    expectOutcome(await amazonVerifier(options()).verifySubscription(input()), 'invalid');
    expect(server.requests.map((r) => r.url.startsWith('/sandbox/'))).toEqual([false]);
    expect(await amazonVerifier(options()).verifySubscription(input({ allowSandbox: true }))).toMatchObject({ outcome: 'valid', environment: 'sandbox' });
    expect(server.requests.map((r) => r.url.startsWith('/sandbox/'))).toEqual([false, false, true]);
    // A live-app test purchase answered by production still carries testTransaction.
    server.reply = rvsServer({ json: rvs({ testTransaction: true }) });
    expectOutcome(await amazonVerifier(options()).verifySubscription(input()), 'sandbox_not_allowed');
  });

  it('is unavailable on a refused shared secret (496), 5xx, a non-JSON answer and a timeout', async () => {
    server.reply = rvsServer({ json: rvs() });
    expectOutcome(await amazonVerifier(options()).verifySubscription(input({ credentials: { sharedSecret: 'wrong' } })), 'unavailable');
    expectOutcome(await amazonVerifier(options()).verifySubscription(input({ credentials: {} })), 'unavailable');
    server.reply = () => ({ status: 500, text: 'Internal Server Error' });
    expectOutcome(await amazonVerifier(options()).verifySubscription(input()), 'unavailable');
    server.reply = rvsServer({ status: 200, text: '<html>Service Unavailable</html>' });
    expectOutcome(await amazonVerifier(options()).verifySubscription(input()), 'unavailable');
    server.reply = () => 'hang';
    expectOutcome(await amazonVerifier(options({ timeoutMs: 150 })).verifySubscription(input()), 'unavailable');
  });
});

describe('Amazon RVS one-time purchases', () => {
  const ppv = (overrides: Partial<VerifyInput> = {}) => input({ productIds: [RENTAL], ...overrides });
  const consumable = (extra: Record<string, unknown> = {}) =>
    rvs({ productId: RENTAL, productType: 'CONSUMABLE', autoRenewing: false, renewalDate: null, term: null, termSku: null, ...extra });

  it('accepts a consumable purchase with no expiry of its own', async () => {
    server.reply = rvsServer({ json: consumable() });
    expect(await amazonVerifier(options()).verifyPurchase(ppv({ receiptData: `${USER}:${RECEIPT}` }))).toMatchObject({
      outcome: 'valid',
      productId: RENTAL,
      expiresAt: null,
      autoRenewing: false,
    });
  });

  it('reports a cancelled purchase as refunded and another product as wrong', async () => {
    server.reply = rvsServer({ json: consumable({ cancelDate: NOW.getTime() - DAY, cancelReason: 0 }) });
    expectOutcome(await amazonVerifier(options()).verifyPurchase(ppv()), 'refunded');
    server.reply = rvsServer({ json: rvs() });
    expectOutcome(await amazonVerifier(options()).verifyPurchase(ppv()), 'wrong_product');
  });

  it('is unavailable on 5xx and a timeout', async () => {
    server.reply = () => ({ status: 503, text: '' });
    expectOutcome(await amazonVerifier(options()).verifyPurchase(ppv()), 'unavailable');
    server.reply = () => 'hang';
    expectOutcome(await amazonVerifier(options({ timeoutMs: 150 })).verifyPurchase(ppv()), 'unavailable');
  });
});
