import { generateKeyPairSync, verify as verifySignature, type KeyObject } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { googleVerifier, type GoogleOptions } from '../../src/entitlements/stores/google.ts';
import type { StoreVerdict, VerifyInput } from '../../src/entitlements/stores/types.ts';
import { startStoreServer, type Received, type Reply, type StoreServer } from './support/server.ts';

const NOW = new Date('2026-03-01T00:00:00Z');
const DAY = 86_400_000;
const PACKAGE = 'com.example.northwind';
const MONTHLY = 'northwind_premium_monthly';
const RENTAL = 'northwind_ppv_rental';
const TOKEN = 'kbiolmkhmjgfpdmfkkbnnpgh.AO-J1OxGq0M5qk3Bfb2f8y';
const EMAIL = 'verifier@northwind-play.iam.gserviceaccount.com';

let server: StoreServer;
let account: { privateKey: KeyObject; publicKey: KeyObject };
let issued = 0;
/** What the API answers once the bearer token checks out. */
let api: (request: Received) => Reply;

beforeAll(async () => {
  account = generateKeyPairSync('rsa', { modulusLength: 2048 });
  server = await startStoreServer();
  server.reply = (request) => {
    if (request.url === '/token') return tokenEndpoint(request);
    if (!request.headers.authorization?.startsWith('Bearer ya29.test-')) {
      return { status: 401, json: { error: { code: 401, message: 'Request had invalid authentication credentials.', status: 'UNAUTHENTICATED' } } };
    }
    return api(request);
  };
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
});

/** Google's token endpoint: checks the RS256 assertion against the service account's public key. */
function tokenEndpoint(request: Received): Reply {
  const form = new URLSearchParams(request.body);
  const [header, claims, signature] = (form.get('assertion') ?? '').split('.');
  const signed = !!header && !!claims && !!signature && verifySignature('sha256', Buffer.from(`${header}.${claims}`), account.publicKey, Buffer.from(signature, 'base64url'));
  const c = signed ? (JSON.parse(Buffer.from(claims!, 'base64url').toString()) as Record<string, unknown>) : {};
  const h = signed ? (JSON.parse(Buffer.from(header!, 'base64url').toString()) as Record<string, unknown>) : {};
  const ok =
    form.get('grant_type') === 'urn:ietf:params:oauth:grant-type:jwt-bearer' &&
    signed &&
    h.alg === 'RS256' &&
    c.iss === EMAIL &&
    c.aud === `${server.url}/token` &&
    c.scope === 'https://www.googleapis.com/auth/androidpublisher' &&
    Number(c.exp) - Number(c.iat) === 3600;
  if (!ok) return { status: 400, json: { error: 'invalid_grant', error_description: 'Invalid JWT Signature.' } };
  issued += 1;
  return { json: { access_token: `ya29.test-${issued}`, expires_in: 3599, token_type: 'Bearer' } };
}

function credentials(overrides: Record<string, string> = {}) {
  return {
    packageName: PACKAGE,
    clientEmail: EMAIL,
    privateKey: account.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString().replace(/\n/g, '\\n'),
    tokenUri: `${server.url}/token`,
    ...overrides,
  };
}

function input(overrides: Partial<VerifyInput> = {}): VerifyInput {
  return { credentials: credentials(), productIds: [MONTHLY, 'northwind_premium_yearly'], receiptData: TOKEN, allowSandbox: false, now: NOW, ...overrides };
}

const options = (overrides: GoogleOptions = {}): GoogleOptions => ({ apiBaseUrl: server.url, timeoutMs: 2_000, ...overrides });

/** A SubscriptionPurchaseV2 as purchases.subscriptionsv2.get returns it. */
function subscription(state = 'SUBSCRIPTION_STATE_ACTIVE', item: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) {
  return {
    kind: 'androidpublisher#subscriptionPurchaseV2',
    regionCode: 'US',
    startTime: new Date(NOW.getTime() - 40 * DAY).toISOString(),
    subscriptionState: state,
    latestOrderId: 'GPA.3345-1234-5678-91011..1',
    acknowledgementState: 'ACKNOWLEDGEMENT_STATE_ACKNOWLEDGED',
    lineItems: [
      {
        productId: MONTHLY,
        expiryTime: new Date(NOW.getTime() + 20 * DAY).toISOString(),
        autoRenewingPlan: { autoRenewEnabled: state === 'SUBSCRIPTION_STATE_ACTIVE' },
        offerDetails: { basePlanId: 'monthly' },
        latestSuccessfulOrderId: 'GPA.3345-1234-5678-91011..1',
        ...item,
      },
    ],
    ...extra,
  };
}

const expectOutcome = (verdict: StoreVerdict, outcome: StoreVerdict['outcome']) => expect(verdict.outcome, JSON.stringify(verdict)).toBe(outcome);
const apiRequests = () => server.requests.filter((r) => r.url !== '/token');

describe('Google Play subscriptions (purchases.subscriptionsv2.get)', () => {
  it('accepts an active subscription, exchanging a signed assertion for a bearer token it then caches', async () => {
    api = () => ({ json: subscription() });
    const verifier = googleVerifier(options());
    const verdict = await verifier.verifySubscription(input());
    expect(verdict).toMatchObject({
      outcome: 'valid',
      productId: MONTHLY,
      transactionId: 'GPA.3345-1234-5678-91011..1',
      originalTransactionId: TOKEN,
      expiresAt: new Date(NOW.getTime() + 20 * DAY),
      environment: 'production',
      autoRenewing: true,
    });
    expect(apiRequests().map((r) => r.url)).toEqual([`/androidpublisher/v3/applications/${PACKAGE}/purchases/subscriptionsv2/tokens/${TOKEN}`]);
    const bearer = apiRequests()[0]!.headers.authorization;
    expect(bearer).toMatch(/^Bearer ya29\.test-\d+$/);

    await verifier.verifySubscription(input({ now: new Date(NOW.getTime() + 30 * 60_000) }));
    expect(server.requests.filter((r) => r.url === '/token')).toHaveLength(1);
    expect(apiRequests()[1]!.headers.authorization).toBe(bearer);
    // Shortly before the hour is up, a new token is fetched.
    await verifier.verifySubscription(input({ now: new Date(NOW.getTime() + 59 * 60_000) }));
    expect(server.requests.filter((r) => r.url === '/token')).toHaveLength(2);
  });

  it('keeps access for a canceled subscription until its expiry time', async () => {
    api = () => ({ json: subscription('SUBSCRIPTION_STATE_CANCELED', {}, { canceledStateContext: { userInitiatedCancellation: {} } }) });
    expect(await googleVerifier(options()).verifySubscription(input())).toMatchObject({ outcome: 'valid', autoRenewing: false });
  });

  it('reports expired, revoked and on-hold subscriptions', async () => {
    api = () => ({ json: subscription('SUBSCRIPTION_STATE_EXPIRED', { expiryTime: new Date(NOW.getTime() - DAY).toISOString() }) });
    expectOutcome(await googleVerifier(options()).verifySubscription(input()), 'expired');
    api = () => ({ json: subscription('SUBSCRIPTION_STATE_EXPIRED', {}, { canceledStateContext: { developerInitiatedCancellation: {} } }) });
    expectOutcome(await googleVerifier(options()).verifySubscription(input()), 'revoked');
    api = () => ({ json: subscription('SUBSCRIPTION_STATE_ON_HOLD', { expiryTime: new Date(NOW.getTime() - DAY).toISOString() }) });
    expectOutcome(await googleVerifier(options()).verifySubscription(input()), 'expired');
    // An ACTIVE answer whose expiry already passed is judged by the caller's clock.
    api = () => ({ json: subscription('SUBSCRIPTION_STATE_ACTIVE', { expiryTime: new Date(NOW.getTime() - 1000).toISOString() }) });
    expectOutcome(await googleVerifier(options()).verifySubscription(input()), 'expired');
  });

  it('refuses another product and a test purchase in a production app', async () => {
    api = () => ({ json: subscription('SUBSCRIPTION_STATE_ACTIVE', { productId: 'other_app_premium' }) });
    expectOutcome(await googleVerifier(options()).verifySubscription(input()), 'wrong_product');
    api = () => ({ json: subscription('SUBSCRIPTION_STATE_ACTIVE', {}, { testPurchase: {} }) });
    expectOutcome(await googleVerifier(options()).verifySubscription(input()), 'sandbox_not_allowed');
    expect(await googleVerifier(options()).verifySubscription(input({ allowSandbox: true }))).toMatchObject({ outcome: 'valid', environment: 'sandbox' });
  });

  it('refuses a token of another app, as Google reports it or as the purchase JSON says', async () => {
    api = () => ({
      status: 400,
      json: {
        error: {
          code: 400,
          message: 'The purchase token does not match the package name.',
          errors: [{ domain: 'androidpublisher', reason: 'purchaseTokenDoesNotMatchPackageName', message: 'The purchase token does not match the package name.' }],
        },
      },
    });
    expectOutcome(await googleVerifier(options()).verifySubscription(input()), 'wrong_app');
    server.requests.length = 0;
    const purchaseJson = JSON.stringify({ orderId: 'GPA.1', packageName: 'com.other.app', productId: MONTHLY, purchaseToken: TOKEN });
    expectOutcome(await googleVerifier(options()).verifySubscription(input({ receiptData: purchaseJson })), 'wrong_app');
    expect(server.requests).toHaveLength(0);
  });

  it('refuses junk tokens and missing receipts', async () => {
    api = () => ({ status: 400, json: { error: { code: 400, message: 'Invalid Value', errors: [{ message: 'Invalid Value', domain: 'global', reason: 'invalid' }] } } });
    expectOutcome(await googleVerifier(options()).verifySubscription(input({ receiptData: 'junk' })), 'invalid');
    api = () => ({ status: 404, json: { error: { code: 404, message: 'The purchase token was not found.', errors: [{ reason: 'purchaseTokenNotFound' }] } } });
    expectOutcome(await googleVerifier(options()).verifySubscription(input()), 'invalid');
    expectOutcome(await googleVerifier(options()).verifySubscription(input({ receiptData: '' })), 'invalid');
    expectOutcome(await googleVerifier(options()).verifySubscription(input({ receiptData: '{not json' })), 'invalid');
  });

  it('restores by original transaction id (the purchase token)', async () => {
    api = () => ({ json: subscription() });
    expectOutcome(await googleVerifier(options()).verifySubscription(input({ receiptData: null, originalTransactionId: TOKEN })), 'valid');
  });

  it('is unavailable on 5xx, a non-JSON answer, a refused service account and a timeout', async () => {
    api = () => ({ status: 503, json: { error: { code: 503, message: 'The service is currently unavailable.', status: 'UNAVAILABLE' } } });
    expectOutcome(await googleVerifier(options()).verifySubscription(input()), 'unavailable');
    api = () => ({ status: 200, text: '<html>Error 502</html>' });
    expectOutcome(await googleVerifier(options()).verifySubscription(input()), 'unavailable');
    api = () => ({ status: 403, json: { error: { code: 403, message: 'The current user has insufficient permissions.', errors: [{ reason: 'permissionDenied' }] } } });
    expectOutcome(await googleVerifier(options()).verifySubscription(input()), 'unavailable');
    const stranger = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    expectOutcome(await googleVerifier(options()).verifySubscription(input({ credentials: credentials({ privateKey: stranger }) })), 'unavailable');
    expectOutcome(await googleVerifier(options()).verifySubscription(input({ credentials: credentials({ privateKey: 'not a key' }) })), 'unavailable');
    api = () => 'hang';
    expectOutcome(await googleVerifier(options({ timeoutMs: 150 })).verifySubscription(input()), 'unavailable');
  });

  it('fetches a fresh token once when the API rejects a cached one', async () => {
    const verifier = googleVerifier(options());
    api = () => ({ json: subscription() });
    await verifier.verifySubscription(input());
    let rejected = false;
    api = () => {
      if (!rejected) {
        rejected = true;
        return { status: 401, json: { error: { code: 401, message: 'Invalid Credentials', status: 'UNAUTHENTICATED' } } };
      }
      return { json: subscription() };
    };
    expectOutcome(await verifier.verifySubscription(input()), 'valid');
    expect(server.requests.filter((r) => r.url === '/token')).toHaveLength(2);
  });
});

describe('Google Play one-time products (purchases.products.get)', () => {
  /** A ProductPurchase; consumed, as the spec asks clients to consume PPV purchases. */
  const product = (extra: Record<string, unknown> = {}) => ({
    kind: 'androidpublisher#productPurchase',
    purchaseTimeMillis: String(NOW.getTime() - 60_000),
    purchaseState: 0,
    consumptionState: 1,
    orderId: 'GPA.3398-7766-5544-33221',
    acknowledgementState: 1,
    regionCode: 'US',
    ...extra,
  });
  const ppv = (overrides: Partial<VerifyInput> = {}) => input({ productIds: [RENTAL], productId: RENTAL, ...overrides });

  it('accepts a purchased (and consumed) product, naming it in the path', async () => {
    api = () => ({ json: product() });
    const verdict = await googleVerifier(options()).verifyPurchase(ppv());
    expect(verdict).toMatchObject({ outcome: 'valid', productId: RENTAL, transactionId: 'GPA.3398-7766-5544-33221', originalTransactionId: TOKEN, expiresAt: null });
    expect(apiRequests().map((r) => r.url)).toEqual([`/androidpublisher/v3/applications/${PACKAGE}/purchases/products/${RENTAL}/tokens/${TOKEN}`]);
  });

  it('reports refunded, pending and test purchases', async () => {
    api = () => ({ json: product({ purchaseState: 1 }) });
    expectOutcome(await googleVerifier(options()).verifyPurchase(ppv()), 'refunded');
    api = () => ({ json: product({ purchaseState: 2 }) });
    expectOutcome(await googleVerifier(options()).verifyPurchase(ppv()), 'invalid');
    api = () => ({ json: product({ purchaseType: 0 }) });
    expectOutcome(await googleVerifier(options()).verifyPurchase(ppv()), 'sandbox_not_allowed');
  });

  it("refuses a product id that is not the app's, without asking Google", async () => {
    expectOutcome(await googleVerifier(options()).verifyPurchase(ppv({ productId: MONTHLY })), 'wrong_product');
    expectOutcome(await googleVerifier(options()).verifyPurchase(ppv({ productId: null })), 'invalid');
    expect(server.requests).toHaveLength(0);
  });

  it('is unavailable on 5xx and a timeout', async () => {
    api = () => ({ status: 500, json: { error: { code: 500, message: 'Internal error encountered.' } } });
    expectOutcome(await googleVerifier(options()).verifyPurchase(ppv()), 'unavailable');
    api = () => 'hang';
    expectOutcome(await googleVerifier(options({ timeoutMs: 150 })).verifyPurchase(ppv()), 'unavailable');
  });
});
