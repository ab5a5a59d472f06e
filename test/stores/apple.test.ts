import { generateKeyPairSync, verify as verifySignature, type KeyObject } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { appleVerifier, type AppleOptions } from '../../src/entitlements/stores/apple.ts';
import type { StoreVerdict, VerifyInput } from '../../src/entitlements/stores/types.ts';
import { makeTestChain, signAppleJws, type TestChain } from './support/apple-pki.ts';
import { startStoreServer, type Received, type StoreServer } from './support/server.ts';

const NOW = new Date('2026-03-01T00:00:00Z');
const DAY = 86_400_000;
const BUNDLE = 'com.example.northwind';
const MONTHLY = 'com.example.northwind.premium.monthly';
const RENTAL = 'com.example.northwind.ppv.rental';

let chain: TestChain;
let evil: TestChain;
let server: StoreServer;
let apiKey: { privateKey: KeyObject; publicKey: KeyObject };

beforeAll(async () => {
  chain = makeTestChain('Test');
  evil = makeTestChain('Evil');
  apiKey = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  server = await startStoreServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
});

function options(overrides: Partial<AppleOptions> = {}): AppleOptions {
  return {
    rootCertificates: [chain.rootDer],
    apiUrls: { production: `${server.url}/prod`, sandbox: `${server.url}/sandbox` },
    verifyReceiptUrls: { production: `${server.url}/buy/verifyReceipt`, sandbox: `${server.url}/sandbox/verifyReceipt` },
    timeoutMs: 2_000,
    ...overrides,
  };
}

const offlineCredentials = { bundleId: BUNDLE, issuerId: 'demo', keyId: 'DEMO' };
const apiCredentials = () => ({
  ...offlineCredentials,
  keyId: 'KEY123',
  issuerId: '57246542-96fe-1a63-e053-0824d011072a',
  privateKey: apiKey.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
});

function input(overrides: Partial<VerifyInput> = {}): VerifyInput {
  return { credentials: offlineCredentials, productIds: [MONTHLY, 'com.example.northwind.premium.yearly'], allowSandbox: false, now: NOW, ...overrides };
}

/** A JWSTransactionDecodedPayload as the App Store signs it. */
function transaction(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    transactionId: '2000000111',
    originalTransactionId: '2000000100',
    bundleId: BUNDLE,
    productId: MONTHLY,
    purchaseDate: NOW.getTime() - 10 * DAY,
    originalPurchaseDate: NOW.getTime() - 40 * DAY,
    expiresDate: NOW.getTime() + 20 * DAY,
    type: 'Auto-Renewable Subscription',
    inAppOwnershipType: 'PURCHASED',
    signedDate: NOW.getTime() - 10 * DAY,
    environment: 'Production',
    transactionReason: 'RENEWAL',
    ...overrides,
  };
}

const jws = (overrides: Record<string, unknown> = {}) => signAppleJws(chain, transaction(overrides));

function expectOutcome(verdict: StoreVerdict, outcome: StoreVerdict['outcome']): void {
  expect(verdict.outcome, JSON.stringify(verdict)).toBe(outcome);
}

describe('Apple StoreKit 2 signed transactions, verified offline', () => {
  const verifier = () => appleVerifier(options());

  it('accepts a genuine production transaction for the app', async () => {
    const verdict = await verifier().verifySubscription(input({ receiptData: jws() }));
    expect(verdict).toMatchObject({
      outcome: 'valid',
      productId: MONTHLY,
      transactionId: '2000000111',
      originalTransactionId: '2000000100',
      expiresAt: new Date(NOW.getTime() + 20 * DAY),
      environment: 'production',
      autoRenewing: false,
    });
    expect(server.requests).toHaveLength(0);
  });

  it('reports an expired subscription', async () => {
    const verdict = await verifier().verifySubscription(input({ receiptData: jws({ expiresDate: NOW.getTime() - DAY }) }));
    expectOutcome(verdict, 'expired');
  });

  it('reports a refund (revocationDate with a reason) and a revocation without one', async () => {
    expectOutcome(await verifier().verifySubscription(input({ receiptData: jws({ revocationDate: NOW.getTime() - DAY, revocationReason: 0 }) })), 'refunded');
    expectOutcome(await verifier().verifySubscription(input({ receiptData: jws({ revocationDate: NOW.getTime() - DAY }) })), 'revoked');
  });

  it("refuses a product that is not one of the app's", async () => {
    const verdict = await verifier().verifySubscription(input({ receiptData: jws({ productId: 'com.other.premium' }) }));
    expectOutcome(verdict, 'wrong_product');
  });

  it('refuses a transaction of another app', async () => {
    const verdict = await verifier().verifySubscription(input({ receiptData: jws({ bundleId: 'com.other.app' }) }));
    expectOutcome(verdict, 'wrong_app');
  });

  it('refuses a sandbox transaction unless the app allows the sandbox', async () => {
    const receiptData = jws({ environment: 'Sandbox' });
    expectOutcome(await verifier().verifySubscription(input({ receiptData })), 'sandbox_not_allowed');
    expect(await verifier().verifySubscription(input({ receiptData, allowSandbox: true }))).toMatchObject({ outcome: 'valid', environment: 'sandbox' });
  });

  it('refuses a chain from an untrusted root, a tampered payload, Xcode-signed data and junk', async () => {
    const forged = signAppleJws(evil, transaction());
    expectOutcome(await verifier().verifySubscription(input({ receiptData: forged })), 'invalid');
    const [header, , signature] = jws().split('.');
    const tampered = `${header}.${Buffer.from(JSON.stringify(transaction({ expiresDate: NOW.getTime() + 999 * DAY }))).toString('base64url')}.${signature}`;
    expectOutcome(await verifier().verifySubscription(input({ receiptData: tampered })), 'invalid');
    // Xcode/LocalTesting data skips the library's signature check: it must be refused before it.
    const unsigned = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(JSON.stringify(transaction({ environment: 'Xcode' }))).toString('base64url')}.AAAA`;
    expectOutcome(await verifier().verifySubscription(input({ receiptData: unsigned, allowSandbox: true })), 'invalid');
    expectOutcome(await verifier().verifySubscription(input({ receiptData: 'abc.def.ghi' })), 'invalid');
  });

  it('is unavailable, not wrong, when no root certificate or bundle id is configured', async () => {
    expectOutcome(await appleVerifier(options({ rootCertificates: [] })).verifySubscription(input({ receiptData: jws() })), 'unavailable');
    expectOutcome(await verifier().verifySubscription(input({ receiptData: jws(), credentials: { keyId: 'x' } })), 'unavailable');
  });

  it('needs receipt_data or original_transaction_id', async () => {
    expectOutcome(await verifier().verifySubscription(input({ credentials: apiCredentials() })), 'invalid');
  });
});

/** Checks the bearer token the way Apple does: ES256 signature with the app's key, claims, kid. */
function bearerOk(request: Received): boolean {
  const token = /^Bearer (.+)$/.exec(String(request.headers.authorization))?.[1];
  const [header, payload, signature] = token?.split('.') ?? [];
  if (!header || !payload || !signature) return false;
  const signedOk = verifySignature('sha256', Buffer.from(`${header}.${payload}`), { key: apiKey.publicKey, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature, 'base64url'));
  const h = JSON.parse(Buffer.from(header, 'base64url').toString()) as Record<string, unknown>;
  const c = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
  return (
    signedOk &&
    h.alg === 'ES256' &&
    h.kid === 'KEY123' &&
    c.iss === apiCredentials().issuerId &&
    c.aud === 'appstoreconnect-v1' &&
    c.bid === BUNDLE &&
    c.iat === NOW.getTime() / 1000 &&
    Number(c.exp) > Number(c.iat)
  );
}

describe('Apple App Store Server API look-ups', () => {
  const verifier = () => appleVerifier(options());
  const statusResponse = (tx: Record<string, unknown>, status: number, autoRenewStatus = 1, renewal: Record<string, unknown> = {}) => ({
    environment: tx.environment,
    bundleId: BUNDLE,
    data: [
      {
        subscriptionGroupIdentifier: '21000000',
        lastTransactions: [
          {
            originalTransactionId: tx.originalTransactionId,
            status,
            signedTransactionInfo: signAppleJws(chain, tx),
            signedRenewalInfo: signAppleJws(chain, {
              originalTransactionId: tx.originalTransactionId,
              autoRenewProductId: MONTHLY,
              productId: MONTHLY,
              autoRenewStatus,
              environment: tx.environment,
              signedDate: NOW.getTime() - DAY,
              ...renewal,
            }),
          },
        ],
      },
    ],
  });

  it('sees a renewal the device JWS predates, with a correctly signed bearer token', async () => {
    const renewed = transaction({ transactionId: '2000000222', expiresDate: NOW.getTime() + 30 * DAY, signedDate: NOW.getTime() - DAY });
    server.reply = (request) => (bearerOk(request) ? { json: statusResponse(renewed, 1) } : { status: 401, text: 'Unauthenticated' });
    const stale = jws({ expiresDate: NOW.getTime() - DAY });
    const verdict = await verifier().verifySubscription(input({ credentials: apiCredentials(), receiptData: stale }));
    expect(verdict).toMatchObject({
      outcome: 'valid',
      transactionId: '2000000222',
      originalTransactionId: '2000000100',
      autoRenewing: true,
      expiresAt: new Date(NOW.getTime() + 30 * DAY),
    });
    expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual(['GET /prod/inApps/v1/subscriptions/2000000100']);
  });

  it('sees a refund issued after the device got its JWS', async () => {
    const refunded = transaction({ revocationDate: NOW.getTime() - DAY, revocationReason: 1 });
    server.reply = () => ({ json: statusResponse(refunded, 5, 0) });
    expectOutcome(await verifier().verifySubscription(input({ credentials: apiCredentials(), receiptData: jws() })), 'refunded');
  });

  it('reports expiry and billing retry from the subscription status', async () => {
    server.reply = () => ({ json: statusResponse(transaction({ expiresDate: NOW.getTime() - DAY }), 2, 0) });
    expectOutcome(await verifier().verifySubscription(input({ credentials: apiCredentials(), originalTransactionId: '2000000100' })), 'expired');
    server.reply = () => ({ json: statusResponse(transaction({ expiresDate: NOW.getTime() - DAY }), 3) });
    expectOutcome(await verifier().verifySubscription(input({ credentials: apiCredentials(), originalTransactionId: '2000000100' })), 'expired');
  });

  it('keeps access through the billing grace period', async () => {
    const graceEnds = NOW.getTime() + 6 * DAY;
    server.reply = () => ({ json: statusResponse(transaction({ expiresDate: NOW.getTime() - DAY }), 4, 1, { gracePeriodExpiresDate: graceEnds, isInBillingRetryPeriod: true }) });
    const verdict = await verifier().verifySubscription(input({ credentials: apiCredentials(), originalTransactionId: '2000000100' }));
    expect(verdict).toMatchObject({ outcome: 'valid', expiresAt: new Date(graceEnds) });
  });

  it('restores by original transaction id: production first, then the sandbox, per Apple', async () => {
    const sandboxTx = transaction({ environment: 'Sandbox' });
    server.reply = (request) =>
      request.url.startsWith('/prod/') ? { status: 404, json: { errorCode: 4040010, errorMessage: 'Transaction id not found.' } } : { json: statusResponse(sandboxTx, 1) };
    const restore = input({ credentials: apiCredentials(), originalTransactionId: '2000000100' });
    expectOutcome(await verifier().verifySubscription(restore), 'sandbox_not_allowed');
    expect(await verifier().verifySubscription({ ...restore, allowSandbox: true })).toMatchObject({ outcome: 'valid', environment: 'sandbox' });
    expect(server.requests.map((r) => r.url)).toEqual([
      '/prod/inApps/v1/subscriptions/2000000100',
      '/sandbox/inApps/v1/subscriptions/2000000100',
      '/prod/inApps/v1/subscriptions/2000000100',
      '/sandbox/inApps/v1/subscriptions/2000000100',
    ]);
  });

  it('refuses an id known in neither environment', async () => {
    server.reply = () => ({ status: 404, json: { errorCode: 4040010, errorMessage: 'Transaction id not found.' } });
    expectOutcome(await verifier().verifySubscription(input({ credentials: apiCredentials(), originalTransactionId: '999' })), 'invalid');
  });

  it('verifies a one-time PPV purchase with Get Transaction Info', async () => {
    const rental = transaction({ transactionId: '3000000001', originalTransactionId: '3000000001', productId: RENTAL, type: 'Consumable', expiresDate: undefined });
    server.reply = (request) => (bearerOk(request) ? { json: { signedTransactionInfo: signAppleJws(chain, rental) } } : { status: 401, text: '' });
    const verdict = await verifier().verifyPurchase(input({ credentials: apiCredentials(), productIds: [RENTAL], receiptData: signAppleJws(chain, rental) }));
    expect(verdict).toMatchObject({ outcome: 'valid', productId: RENTAL, transactionId: '3000000001', expiresAt: null });
    expect(server.requests.map((r) => r.url)).toEqual(['/prod/inApps/v1/transactions/3000000001']);
  });

  it('refuses a subscription sent to the PPV verify', async () => {
    server.reply = () => ({ json: { signedTransactionInfo: jws() } });
    expectOutcome(await appleVerifier(options()).verifyPurchase(input({ credentials: apiCredentials(), productIds: [RENTAL], receiptData: jws() })), 'wrong_product');
  });

  it('is unavailable on 5xx, 401, 429, a non-JSON answer, an unverifiable answer and a timeout', async () => {
    const restore = input({ credentials: apiCredentials(), receiptData: jws() });
    // An answer signed by a chain we do not trust is Apple's problem or an attack, not the customer's.
    const unverifiable = { data: [{ lastTransactions: [{ originalTransactionId: '2000000100', status: 1, signedTransactionInfo: signAppleJws(evil, transaction()) }] }] };
    const replies = [
      { status: 500, json: { errorCode: 5000000, errorMessage: 'An unknown error occurred.' } },
      { status: 401, text: '' },
      { status: 429, json: { errorCode: 4290000, errorMessage: 'Rate limit exceeded.' } },
      { status: 200, text: '<html>oops</html>' },
      { json: unverifiable },
    ];
    for (const reply of replies) {
      server.reply = () => reply;
      expectOutcome(await verifier().verifySubscription(restore), 'unavailable');
    }
    server.reply = () => 'hang';
    const started = Date.now();
    expectOutcome(await appleVerifier(options({ timeoutMs: 150 })).verifySubscription(restore), 'unavailable');
    expect(Date.now() - started).toBeLessThan(1_500);
  });
});

describe('Apple legacy app receipts through verifyReceipt', () => {
  const verifier = () => appleVerifier(options());
  const legacy = (overrides: { credentials?: Record<string, string> } & Partial<VerifyInput> = {}) =>
    input({
      receiptData: 'MIIT0QYJKoZIhvcNAQcCoIITwjCCE74CAQExCzAJBgUrDgMCGgUAMIIDcgYJKoZIhvcNAQcBoIIDYwSCA18x',
      credentials: { bundleId: BUNDLE, sharedSecret: 'app-shared-secret' },
      ...overrides,
    });
  const ok = (overrides: Record<string, unknown> = {}, environment = 'Production') => ({
    status: 0,
    environment,
    receipt: { bundle_id: BUNDLE, in_app: [] },
    latest_receipt_info: [
      {
        product_id: MONTHLY,
        transaction_id: '1000000222',
        original_transaction_id: '1000000100',
        purchase_date_ms: String(NOW.getTime() - 10 * DAY),
        expires_date_ms: String(NOW.getTime() + 20 * DAY),
        ...overrides,
      },
    ],
    pending_renewal_info: [{ original_transaction_id: '1000000100', auto_renew_status: '1', product_id: MONTHLY }],
    latest_receipt: 'MIIT...',
  });

  it('accepts a valid receipt and sends receipt-data, password and exclude-old-transactions', async () => {
    server.reply = () => ({ json: ok() });
    const verdict = await verifier().verifySubscription(legacy());
    expect(verdict).toMatchObject({ outcome: 'valid', transactionId: '1000000222', originalTransactionId: '1000000100', autoRenewing: true, environment: 'production' });
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.url).toBe('/buy/verifyReceipt');
    expect(JSON.parse(server.requests[0]!.body)).toEqual({ 'receipt-data': legacy().receiptData, password: 'app-shared-secret', 'exclude-old-transactions': true });
  });

  it('retries in the sandbox on 21007 only when the app allows the sandbox', async () => {
    server.reply = (request) => ({ json: request.url.startsWith('/buy/') ? { status: 21007 } : ok({}, 'Sandbox') });
    expectOutcome(await verifier().verifySubscription(legacy()), 'sandbox_not_allowed');
    expect(server.requests.map((r) => r.url)).toEqual(['/buy/verifyReceipt']);
    expect(await verifier().verifySubscription(legacy({ allowSandbox: true }))).toMatchObject({ outcome: 'valid', environment: 'sandbox' });
    expect(server.requests.map((r) => r.url)).toEqual(['/buy/verifyReceipt', '/buy/verifyReceipt', '/sandbox/verifyReceipt']);
  });

  it('reports expired, refunded, wrong product and wrong app', async () => {
    server.reply = () => ({ json: ok({ expires_date_ms: String(NOW.getTime() - DAY) }) });
    expectOutcome(await verifier().verifySubscription(legacy()), 'expired');
    server.reply = () => ({ json: ok({ cancellation_date_ms: String(NOW.getTime() - DAY), cancellation_reason: '0' }) });
    expectOutcome(await verifier().verifySubscription(legacy()), 'refunded');
    server.reply = () => ({ json: ok({ product_id: 'com.other.premium' }) });
    expectOutcome(await verifier().verifySubscription(legacy()), 'wrong_product');
    server.reply = () => ({ json: { ...ok(), receipt: { bundle_id: 'com.other.app', in_app: [] } } });
    expectOutcome(await verifier().verifySubscription(legacy()), 'wrong_app');
  });

  it('verifies a one-time purchase from receipt.in_app, skipping refunded ones', async () => {
    const inApp = [
      { product_id: RENTAL, transaction_id: '5', original_transaction_id: '5', purchase_date_ms: String(NOW.getTime() - DAY), cancellation_date_ms: String(NOW.getTime() - 1000) },
      { product_id: RENTAL, transaction_id: '4', original_transaction_id: '4', purchase_date_ms: String(NOW.getTime() - 2 * DAY) },
    ];
    server.reply = () => ({ json: { status: 0, environment: 'Production', receipt: { bundle_id: BUNDLE, in_app: inApp } } });
    expect(await verifier().verifyPurchase(legacy({ productIds: [RENTAL] }))).toMatchObject({ outcome: 'valid', transactionId: '4', expiresAt: null });
    expectOutcome(await verifier().verifyPurchase(legacy({ productIds: [RENTAL], originalTransactionId: '5' })), 'refunded');
  });

  it('maps Apple status codes: junk is invalid, a wrong shared secret or a busy server is unavailable', async () => {
    for (const [status, outcome] of [
      [21002, 'invalid'],
      [21003, 'invalid'],
      [21010, 'invalid'],
      [21004, 'unavailable'],
      [21005, 'unavailable'],
      [21199, 'unavailable'],
    ] as const) {
      server.reply = () => ({ json: { status } });
      expectOutcome(await verifier().verifySubscription(legacy({ receiptData: 'bm90IGEgcmVjZWlwdA==' })), outcome);
    }
  });

  it('is unavailable on 5xx, a non-JSON answer and a timeout', async () => {
    server.reply = () => ({ status: 503, text: 'Service Unavailable' });
    expectOutcome(await verifier().verifySubscription(legacy()), 'unavailable');
    server.reply = () => ({ status: 200, text: '<html>maintenance</html>' });
    expectOutcome(await verifier().verifySubscription(legacy()), 'unavailable');
    server.reply = () => 'hang';
    expectOutcome(await appleVerifier(options({ timeoutMs: 150 })).verifySubscription(legacy()), 'unavailable');
  });
});
