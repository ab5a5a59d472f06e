// The entitlement suites' world: the Custom catalog with paid and PPV apps on all four stores,
// and real local HTTP servers answering as each store documents (test/stores/support), with
// a switch to make a store go down, answer HTML or hang. The app reaches them through its
// STORE_* configuration, as a staging deployment would.
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import type { Clock } from '../../src/clock.ts';
import type { Config } from '../../src/config.ts';
import type { DatabaseKind } from '../../src/db/connect.ts';
import { ppvUnlocks, subscriptions, verificationAttempts } from '../../src/db/schema.ts';
import { makeTestChain, signAppleJws, type TestChain } from '../stores/support/apple-pki.ts';
import { startStoreServer, type Received, type Reply, type StoreServer } from '../stores/support/server.ts';
import { testApp, TEST_NOW, type TestApp } from './app.ts';
import { customCatalog } from './custom.ts';

export const NOW = new Date(TEST_NOW);
export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;
export const at = (ms: number) => new Date(NOW.getTime() + ms).toISOString();

export const ROKU_KEY = 'ROKU-PARTNER-KEY-TEST';
export const AMAZON_SECRET = '2:amazon-shared-secret-test';
export const AMAZON_USER = 'amzn-user-1';
export const APPLE_BUNDLE = 'com.alice';
export const GOOGLE_PACKAGE = 'com.alice.tv';
export const GOOGLE_EMAIL = 'verifier@alice.iam.gserviceaccount.com';

/** SKUs of the test apps. */
export const SKU = {
  rokuMonthly: 'alice.roku.monthly',
  rokuYearly: 'alice.roku.yearly',
  rokuRetired: 'alice.roku.weekly',
  rokuPpv: 'alice.roku.ppv',
  appleMonthly: 'com.alice.monthly',
  googlePpv: 'alice_ppv',
  amazonMonthly: 'alice.amzn.monthly',
} as const;

/** How a fake store behaves besides answering: `down` 503, `html` a 200 that is not JSON, `hang` no answer. */
export type StoreMode = 'up' | 'down' | 'html' | 'hang';

export interface FakeStore {
  server: StoreServer;
  mode: StoreMode;
  /** Store records by id (transaction, token, receipt), as the store would answer for them. */
  records: Map<string, Record<string, unknown>>;
  /** Requests that reached the store's API (token requests excluded). */
  calls(): number;
}

async function fakeStore(route: (request: Received, store: FakeStore) => Reply): Promise<FakeStore> {
  const server = await startStoreServer();
  const store: FakeStore = { server, mode: 'up', records: new Map(), calls: () => server.requests.filter((r) => r.url !== '/token').length };
  server.reply = (request) => {
    if (store.mode === 'down') return { status: 503, text: 'Service Unavailable' };
    if (store.mode === 'html') return { status: 200, text: '<html><body>Down for maintenance</body></html>' };
    if (store.mode === 'hang') return 'hang';
    return route(request, store);
  };
  return store;
}

/** Roku Pay validate-transaction (JSON, WCF dates, status 0 success). */
function roku(request: Received, store: FakeStore): Reply {
  const match = /^\/listen\/transaction-service\.svc\/validate-transaction\/([^/]+)\/([^/]+)$/.exec(request.url);
  if (!match) return { status: 404, text: 'Endpoint not found.' };
  if (decodeURIComponent(match[1]!) !== ROKU_KEY) return { json: { status: 1, errorMessage: 'Invalid partner API key.', isEntitled: false } };
  const record = store.records.get(decodeURIComponent(match[2]!));
  return { json: record ?? { status: 1, errorCode: null, errorMessage: 'Invalid transaction id.', isEntitled: false } };
}

export function rokuTransaction(id: string, productId: string, expires: Date | null, extra: Record<string, unknown> = {}) {
  const wcf = (date: Date) => `/Date(${date.getTime()}+0000)/`;
  return {
    status: 0,
    errorMessage: '',
    transactionId: id,
    OriginalTransactionId: id,
    productId,
    channelId: '4242',
    cancelled: false,
    isEntitled: true,
    purchaseDate: wcf(new Date(NOW.getTime() - DAY)),
    expirationDate: expires ? wcf(expires) : null,
    amount: 4.99,
    ...extra,
  };
}

/** Amazon RVS verifyReceiptId; unknown receipts are a 400, a wrong secret a 496. */
function amazon(request: Received, store: FakeStore): Reply {
  const match = /^\/version\/1\.0\/verifyReceiptId\/developer\/([^/]+)\/user\/([^/]+)\/receiptId\/([^/]+)$/.exec(request.url);
  if (!match) return { status: 404, text: 'Not Found' };
  if (decodeURIComponent(match[1]!) !== AMAZON_SECRET) return { status: 496, text: '' };
  if (decodeURIComponent(match[2]!) !== AMAZON_USER) return { status: 497, text: '' };
  const record = store.records.get(decodeURIComponent(match[3]!));
  return record ? { json: record } : { status: 400, text: '' };
}

export function amazonReceipt(receiptId: string, productId: string, renewal: Date, extra: Record<string, unknown> = {}) {
  return {
    receiptId,
    productId,
    productType: 'SUBSCRIPTION',
    autoRenewing: true,
    cancelDate: null,
    renewalDate: renewal.getTime(),
    purchaseDate: NOW.getTime() - DAY,
    testTransaction: false,
    term: '1 Month',
    ...extra,
  };
}

export const amazonReceiptData = (receiptId: string) => JSON.stringify({ userId: AMAZON_USER, receiptId });

/** Google: token endpoint and purchases.products / subscriptionsv2; unknown tokens are Google's 400. */
function google(request: Received, store: FakeStore): Reply {
  if (request.url === '/token') return { json: { access_token: 'ya29.test', expires_in: 3599, token_type: 'Bearer' } };
  if (request.headers.authorization !== 'Bearer ya29.test') return { status: 401, json: { error: { code: 401, status: 'UNAUTHENTICATED' } } };
  const match = new RegExp(`^/androidpublisher/v3/applications/${GOOGLE_PACKAGE}/purchases/(?:products/[^/]+|subscriptionsv2)/tokens/([^/]+)$`).exec(request.url);
  const record = match ? store.records.get(decodeURIComponent(match[1]!)) : undefined;
  return record ? { json: record } : { status: 400, json: { error: { code: 400, message: 'Invalid Value', errors: [{ reason: 'invalid' }] } } };
}

export function googleProduct(orderId: string, productId: string, extra: Record<string, unknown> = {}) {
  return { kind: 'androidpublisher#productPurchase', orderId, productId, purchaseState: 0, consumptionState: 1, purchaseTimeMillis: String(NOW.getTime() - HOUR), ...extra };
}

/** Apple verifyReceipt: every legacy receipt the tests send is junk (21002). */
function apple(request: Received): Reply {
  return request.url.endsWith('/verifyReceipt') ? { json: { status: 21002 } } : { status: 404, json: { errorCode: 4040010, errorMessage: 'Transaction id not found.' } };
}

export interface Stores {
  roku: FakeStore;
  amazon: FakeStore;
  google: FakeStore;
  apple: FakeStore;
  chain: TestChain;
  googleKey: string;
  /** The STORE_* and APPLE_ROOT_CERTIFICATES configuration pointing at these servers. */
  config: Partial<Config>;
  reset(): void;
  close(): Promise<void>;
}

export async function startStores(): Promise<Stores> {
  const [rokuStore, amazonStore, googleStore, appleStore] = await Promise.all([fakeStore(roku), fakeStore(amazon), fakeStore(google), fakeStore(apple)]);
  const chain = makeTestChain('Entitlements');
  const dir = mkdtempSync(join(tmpdir(), 'entitlement-roots-'));
  writeFileSync(join(dir, 'root.cer'), chain.rootDer);
  const all = [rokuStore, amazonStore, googleStore, appleStore];
  return {
    roku: rokuStore,
    amazon: amazonStore,
    google: googleStore,
    apple: appleStore,
    chain,
    googleKey: generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    config: {
      APPLE_ROOT_CERTIFICATES: join(dir, 'root.cer'),
      STORE_ROKU_URL: rokuStore.server.url,
      STORE_AMAZON_URL: amazonStore.server.url,
      STORE_AMAZON_SANDBOX_URL: `${amazonStore.server.url}/sandbox`,
      STORE_GOOGLE_API_URL: googleStore.server.url,
      STORE_GOOGLE_TOKEN_URL: `${googleStore.server.url}/token`,
      STORE_APPLE_API_URL: appleStore.server.url,
      STORE_APPLE_VERIFY_RECEIPT_URL: `${appleStore.server.url}/verifyReceipt`,
      STORE_APPLE_VERIFY_RECEIPT_SANDBOX_URL: `${appleStore.server.url}/sandbox/verifyReceipt`,
      // Long enough for a fake store in the same worker to answer on a loaded machine (500 ms was
      // not: a restore then granted only what answered in time); a hanging store costs this once.
      STORE_TIMEOUT_MS: 2_000,
    },
    reset() {
      for (const store of all) Object.assign(store, { mode: 'up' }).records.clear();
      for (const store of all) store.server.requests.length = 0;
    },
    async close() {
      await Promise.all(all.map((store) => store.server.close()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A StoreKit 2 transaction of the Alice app as the App Store signs it. */
export function appleJws(stores: Stores, overrides: Record<string, unknown> = {}): string {
  return signAppleJws(stores.chain, {
    transactionId: '2000000111',
    originalTransactionId: '2000000100',
    bundleId: APPLE_BUNDLE,
    productId: SKU.appleMonthly,
    purchaseDate: NOW.getTime() - DAY,
    expiresDate: NOW.getTime() + 30 * DAY,
    type: 'Auto-Renewable Subscription',
    signedDate: NOW.getTime() - DAY,
    environment: 'Production',
    ...overrides,
  });
}

/**
 * The Custom catalog plus: mobile 301 (paid; Apple, offline JWS only), roku 303 (paid, with VOD
 * PPV for 24 h; channels 201 and 202, video 5002 in both catalogs), androidtv 302 (free; Google
 * PPV) and firetv 304 (paid; Amazon).
 */
export function entitlementCatalog(stores: Stores) {
  const catalog = customCatalog();
  const app = (id: number) => catalog.apps.find((a: any) => a.id === id);
  const channel = (id: number) => catalog.channels.find((c: any) => c.id === id);
  channel(202).vodVideoIds = [5003, 5002];
  const product = (storePlatform: string, productId: string, billingPeriod: string, isActive = true) => ({ storePlatform, productId, billingPeriod, isActive });
  Object.assign(app(303), {
    isPaid: true,
    storeProducts: [product('Roku', SKU.rokuMonthly, 'Monthly'), product('Roku', SKU.rokuYearly, 'Yearly'), product('Roku', SKU.rokuRetired, 'Weekly', false)],
    vodPpv: { isEnabled: true, accessDurationHours: 24, previewSeconds: 0, storeProducts: [product('Roku', SKU.rokuPpv, 'OneTime')] },
    storeCredentials: { roku: { apiKey: ROKU_KEY, channelId: '4242' } },
    channels: [{ channelId: 201 }, { channelId: 202 }],
  });
  app(302).storeCredentials = { google: { packageName: GOOGLE_PACKAGE, clientEmail: GOOGLE_EMAIL, privateKey: stores.googleKey } };
  Object.assign(app(304), {
    isPaid: true,
    storeProducts: [product('Amazon', SKU.amazonMonthly, 'Monthly')],
    storeCredentials: { amazon: { sharedSecret: AMAZON_SECRET } },
  });
  return catalog;
}

export function entitlementTestApp(kind: DatabaseKind, stores: Stores, config: Partial<Config> = {}, clock?: Clock): Promise<TestApp> {
  return testApp(kind, entitlementCatalog(stores), { ...stores.config, ...config }, clock);
}

export const ROKU = { 'platform-id': 'roku' } as const;
export const SUBSCRIPTION = '/users/11/apps/subscription';
export const PPV = '/users/11/apps/vod_ppv';

/** The fake stores of a test file: started once, reset before each test. */
export function useStores(): () => Stores {
  let stores: Stores;
  beforeAll(async () => {
    stores = await startStores();
  });
  afterAll(() => stores.close());
  beforeEach(() => stores.reset());
  return () => stores;
}

/**
 * One app for the describe block, its entitlements emptied before each test (building an app
 * takes seconds; deleting three tables' rows, milliseconds). The catalog's own entitlements go too.
 */
export function useEntitlementApp(kind: DatabaseKind, stores: () => Stores): () => TestApp {
  let t: TestApp;
  beforeAll(async () => {
    t = await entitlementTestApp(kind, stores());
  });
  afterAll(() => t?.close());
  beforeEach(async () => {
    for (const table of [subscriptions, ppvUnlocks, verificationAttempts]) await t.database.db.delete(table);
  });
  return () => t;
}

/** The `data` of a 200 answer. */
export function dataOf(response: LightMyRequestResponse) {
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data;
}
