// The entitlement routes wired to each store through configuration: Apple (StoreKit 2 JWS
// against the configured roots, legacy receipts through verifyReceipt) on the iOS app and
// Amazon RVS on the Fire TV app (restore of several receipts, re-check of a renewal); plus the
// store configuration itself.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { subscriptions } from '../src/db/schema.ts';
import { storeAnswer } from '../src/entitlements/attempts.ts';
import { storeVerifierOptions } from '../src/entitlements/store-options.ts';
import { APPLE_URLS } from '../src/entitlements/stores/apple.ts';
import { customClient, type Headers } from './support/custom.ts';
import { BACKENDS } from './support/db.ts';
import {
  amazonReceipt,
  amazonReceiptData,
  AMAZON_USER,
  appleJws,
  at,
  dataOf,
  DAY,
  entitlementTestApp,
  NOW,
  SKU,
  SUBSCRIPTION,
  useEntitlementApp,
  useStores,
} from './support/entitlements.ts';

const stores = useStores();

const IOS: Headers = { 'platform-id': 'ios', 'device-id': 'dev-i' };
const FIRE: Headers = { 'platform-id': 'fire-tv', 'device-id': 'dev-f' };

describe.each(BACKENDS)('store wiring (%s)', (kind) => {
  const t = useEntitlementApp(kind, stores);
  const { get, post } = customClient(t);
  const verified = async (body: Record<string, unknown>, headers: Headers) => dataOf(await post(`${SUBSCRIPTION}/verify`, body, headers));
  const status = async (headers: Headers, now?: string) => (await get(`${SUBSCRIPTION}/status`, headers, now)).json().data;

  describe('Apple', () => {
    const apple = (receipt_data: string) => verified({ store_platform: 'Apple', product_id: SKU.appleMonthly, receipt_data }, IOS);

    it('grants a StoreKit 2 transaction signed under the configured root', async () => {
      expect(await apple(appleJws(stores()))).toEqual({ ok: true, entitled: true, error: null, expiresUtc: at(30 * DAY) });
      expect(await status(IOS)).toMatchObject({ entitled: true, status: 'active', storeProductIds: [SKU.appleMonthly, 'com.alice.yearly'] });
      expect((await get('/users/11/channels', IOS)).statusCode).toBe(200);
    });

    it('refuses a transaction of another app, a sandbox purchase in a production app, and a tampered one', async () => {
      expect(await apple(appleJws(stores(), { bundleId: 'com.other.app' }))).toMatchObject({ ok: false, entitled: false, error: 'wrong_app' });
      expect(await apple(appleJws(stores(), { environment: 'Sandbox' }))).toMatchObject({ ok: false, entitled: false, error: 'sandbox_not_allowed' });
      const [header, , signature] = appleJws(stores()).split('.');
      const payload = Buffer.from(
        JSON.stringify({ bundleId: 'com.alice', productId: SKU.appleMonthly, expiresDate: NOW.getTime() + 999 * DAY, environment: 'Production' }),
      ).toString('base64url');
      expect(await apple(`${header}.${payload}.${signature}`)).toMatchObject({ ok: false, entitled: false, error: 'invalid' });
      expect(await t().database.db.select().from(subscriptions).where(eq(subscriptions.deviceId, 'dev-i'))).toEqual([]);
    });

    it('sends a legacy receipt to verifyReceipt with the shared secret; junk is invalid', async () => {
      expect(await apple('bm90IGEgcmVjZWlwdA==')).toMatchObject({ ok: false, entitled: false, error: 'invalid' });
      const [request] = stores().apple.server.requests;
      expect([request?.method, request?.url, JSON.parse(request?.body ?? '{}').password]).toEqual(['POST', '/verifyReceipt', 's3cret']);
    });

    it('cannot verify a signed transaction without root certificates: store_unavailable, nothing granted', async () => {
      const bare = await entitlementTestApp(kind, stores(), { APPLE_ROOT_CERTIFICATES: undefined });
      try {
        const response = await bare.request({
          method: 'POST',
          url: `/api/v1/services/custom${SUBSCRIPTION}/verify`,
          headers: IOS,
          payload: { store_platform: 'Apple', product_id: SKU.appleMonthly, receipt_data: appleJws(stores()) },
        });
        expect(response.json().data).toEqual({ ok: false, entitled: false, error: 'store_unavailable', expiresUtc: null });
      } finally {
        await bare.close();
      }
    });
  });

  describe('Amazon', () => {
    const sell = (receiptId: string, renewal: number, extra: Record<string, unknown> = {}) =>
      stores().amazon.records.set(receiptId, amazonReceipt(receiptId, SKU.amazonMonthly, new Date(NOW.getTime() + renewal), extra));

    it('grants an RVS-confirmed subscription, and restores several receipts at once', async () => {
      sell('r-1', 10 * DAY);
      sell('r-2', 20 * DAY);
      expect(await verified({ store_platform: 'Amazon', product_id: SKU.amazonMonthly, receipt_data: amazonReceiptData('r-1') }, FIRE)).toMatchObject({
        ok: true,
        expiresUtc: at(10 * DAY),
      });
      const restored = await post(`${SUBSCRIPTION}/restore`, { original_transaction_ids: [`${AMAZON_USER}:r-1`, amazonReceiptData('r-2')] }, { ...FIRE, 'device-id': 'dev-f2' });
      expect(restored.json().data).toEqual({ ok: true, entitled: true, error: null, expiresUtc: at(20 * DAY) });
      expect(await status(FIRE)).toMatchObject({ entitled: false, status: 'not_subscribed' });
      expect(await status({ ...FIRE, 'device-id': 'dev-f2' })).toMatchObject({ entitled: true, expiresUtc: at(20 * DAY) });
    });

    it('re-checks an expired renewing subscription with the customer id RVS needs', async () => {
      sell('r-1', DAY);
      await verified({ store_platform: 'Amazon', product_id: SKU.amazonMonthly, receipt_data: amazonReceiptData('r-1') }, FIRE);
      sell('r-1', 31 * DAY);
      expect(await status(FIRE, at(2 * DAY))).toMatchObject({ entitled: true, status: 'active', expiresUtc: at(31 * DAY) });
      expect(stores().amazon.server.requests.at(-1)?.url).toContain(`/user/${AMAZON_USER}/receiptId/r-1`);
    });
  });
});

describe('store configuration', () => {
  it('defaults to the real stores, a 10 s timeout and an hourly re-check', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ STORE_TIMEOUT_MS: 10_000, SUBSCRIPTION_RECHECK_SECONDS: 3600 });
    expect(storeVerifierOptions(config).apple?.apiUrls).toEqual(APPLE_URLS.api);
  });

  it('overrides one URL of a pair alone, and refuses a URL that is not http(s)', () => {
    const options = storeVerifierOptions(loadConfig({ STORE_APPLE_API_URL: 'http://127.0.0.1:1/apple', STORE_ROKU_URL: 'http://127.0.0.1:1/roku' }));
    expect(options.apple?.apiUrls).toEqual({ production: 'http://127.0.0.1:1/apple', sandbox: APPLE_URLS.api.sandbox });
    expect(options.roku?.baseUrl).toBe('http://127.0.0.1:1/roku');
    expect(() => loadConfig({ STORE_GOOGLE_API_URL: 'ftp://example.com' })).toThrow(/STORE_GOOGLE_API_URL/);
  });

  it('stops the start when a listed Apple root certificate cannot be read', () => {
    expect(() => storeVerifierOptions(loadConfig({ APPLE_ROOT_CERTIFICATES: '/nonexistent/AppleRootCA-G3.cer' }))).toThrow(/APPLE_ROOT_CERTIFICATES/);
  });
});

describe('the support record of a store answer', () => {
  it('drops receipts and secrets, NUL characters and oversized answers', () => {
    const answer = { status: 0, latest_receipt: 'MIIT...', receipt: { in_app: [{ password: 'x', product_id: 'p\u0000' }] }, 'k\u0000': 1 };
    expect(storeAnswer(answer)).toEqual({ status: 0, receipt: { in_app: [{ product_id: 'p' }] }, k: 1 });
    expect(storeAnswer({ blob: 'x'.repeat(70_000) })).toEqual({ truncated: true, chars: 70_011 });
    expect(storeAnswer(undefined)).toBeNull();
  });
});
