// App subscriptions over HTTP on every backend: status, verify, restore and the re-check of
// expired auto-renewing subscriptions, with Roku Pay (a local server) as the store.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { subscriptions, verificationAttempts } from '../src/db/schema.ts';
import { storeVerifications } from '../src/observability/metrics.ts';
import { bearer, customClient, failureOf, invalidWith, type Headers } from './support/custom.ts';
import { BACKENDS } from './support/db.ts';
import { at, dataOf, DAY, HOUR, ROKU, rokuTransaction, SKU, SUBSCRIPTION, useEntitlementApp, useStores } from './support/entitlements.ts';

const stores = useStores();

const device = (id: string): Headers => ({ ...ROKU, 'device-id': id });

describe.each(BACKENDS)('app subscriptions (%s)', (kind) => {
  const t = useEntitlementApp(kind, stores);
  const { get, post, login } = customClient(t);

  const status = async (headers: Headers, now?: string) => {
    return dataOf(await get(`${SUBSCRIPTION}/status`, headers, now));
  };
  const verify = (body: Record<string, unknown>, headers: Headers = device('dev-a'), now?: string) =>
    post(`${SUBSCRIPTION}/verify`, { store_platform: 'Roku', product_id: SKU.rokuMonthly, ...body }, headers, now);
  const verified = async (body: Record<string, unknown>, headers?: Headers, now?: string) => {
    return dataOf(await verify(body, headers, now));
  };
  const sell = (id: string, expires = new Date(Date.parse(at(0)) + 30 * DAY), extra: Record<string, unknown> = {}) =>
    stores().roku.records.set(id, rokuTransaction(id, SKU.rokuMonthly, expires, extra));
  const rows = () => t().database.db.select().from(subscriptions).where(eq(subscriptions.appId, 303));
  const channels = (headers: Headers, now?: string) => get('/users/11/channels', headers, now);

  describe('status', () => {
    it('reports not_subscribed on a paid app, with the active SKUs of the client store', async () => {
      expect(await status(device('dev-a'))).toEqual({
        entitled: false,
        status: 'not_subscribed',
        expiresUtc: null,
        isPaidApp: true,
        storeProductId: SKU.rokuMonthly,
        storeProductIds: [SKU.rokuMonthly, SKU.rokuYearly],
      });
    });

    it('says entitled on an app that is not paid', async () => {
      expect(await status({ 'platform-id': 'android-tv', 'device-id': 'dev-a' })).toEqual({
        entitled: true,
        status: 'not_subscribed',
        expiresUtc: null,
        isPaidApp: false,
        storeProductId: '',
        storeProductIds: [],
      });
    });

    it('requires Platform-Id and Device-Id, and an app for the platform', async () => {
      expect((await get(`${SUBSCRIPTION}/status`, { 'device-id': 'dev-a' })).json()).toEqual(invalidWith('platform_id'));
      expect((await get(`${SUBSCRIPTION}/status`, ROKU)).json()).toEqual(invalidWith('device_id'));
      const none = await get(`/users/17/apps/subscription/status`, device('dev-a'));
      expect([none.statusCode, none.json()]).toEqual([404, failureOf(404, 'App not found')]);
    });
  });

  describe('verify', () => {
    it('grants a valid purchase to the device: status active, paid lists open', async () => {
      expect((await channels(device('dev-a'))).statusCode).toBe(403);
      sell('tx-1');
      expect(await verified({ receipt_data: 'tx-1' })).toEqual({ ok: true, entitled: true, error: null, expiresUtc: at(30 * DAY) });
      expect(await status(device('dev-a'))).toMatchObject({ entitled: true, status: 'active', expiresUtc: at(30 * DAY) });
      expect((await channels(device('dev-a'))).statusCode).toBe(200);
      expect((await channels(device('dev-b'))).statusCode).toBe(403);
      expect(await rows()).toEqual([expect.objectContaining({ deviceId: 'dev-a', viewerId: null, status: 'active', autoRenewing: true, environment: 'production' })]);
    });

    it('records the viewer too when a Bearer is sent, so the viewer is entitled on any device', async () => {
      const token = await login('victor@example.com', 'viewer pass');
      sell('tx-1');
      expect(await verified({ receipt_data: 'tx-1' }, { ...device('dev-a'), ...bearer(token) })).toMatchObject({ ok: true, entitled: true });
      expect(await status({ ...device('dev-z'), ...bearer(token) })).toMatchObject({ entitled: true, status: 'active' });
      expect(await status(device('dev-z'))).toMatchObject({ entitled: false });
    });

    it('is idempotent: the same transaction twice is one subscription', async () => {
      sell('tx-1');
      const first = await verified({ receipt_data: 'tx-1' });
      expect(await verified({ receipt_data: 'tx-1' })).toEqual(first);
      expect(await rows()).toHaveLength(1);
    });

    it('moves a transaction claimed by a second device to it (transfer to the latest claimant)', async () => {
      const token = await login('victor@example.com', 'viewer pass');
      sell('tx-1');
      await verified({ receipt_data: 'tx-1' }, { ...device('dev-a'), ...bearer(token) });
      // The same device again without a Bearer keeps the viewer.
      await verified({ receipt_data: 'tx-1' }, device('dev-a'));
      expect(await status({ ...device('dev-z'), ...bearer(token) })).toMatchObject({ entitled: true });
      expect(await verified({ receipt_data: 'tx-1' }, device('dev-b'))).toMatchObject({ ok: true, entitled: true });
      expect(await status(device('dev-b'))).toMatchObject({ entitled: true, status: 'active' });
      expect(await status(device('dev-a'))).toMatchObject({ entitled: false, status: 'not_subscribed' });
      expect(await status({ ...device('dev-z'), ...bearer(token) })).toMatchObject({ entitled: false });
      expect(await rows()).toEqual([expect.objectContaining({ deviceId: 'dev-b', viewerId: null })]);
    });

    it('takes device_id from the body over the Device-Id header, and either alone', async () => {
      sell('tx-1');
      await verified({ receipt_data: 'tx-1', device_id: 'dev-body' }, device('dev-header'));
      expect(await status(device('dev-body'))).toMatchObject({ entitled: true });
      expect(await status(device('dev-header'))).toMatchObject({ entitled: false });
      expect((await verify({ receipt_data: 'tx-1', device_id: 'dev-c' }, ROKU)).statusCode).toBe(200);
      expect((await verify({ receipt_data: 'tx-1' }, ROKU)).json()).toEqual(invalidWith('device_id'));
    });

    it('uses the store of Platform-Id when store_platform is absent, and refuses an unknown store', async () => {
      sell('tx-1');
      expect(await verified({ store_platform: undefined, receipt_data: 'tx-1' })).toMatchObject({ ok: true });
      expect((await verify({ store_platform: 'Windows', receipt_data: 'tx-1' })).json()).toEqual(invalidWith('store_platform'));
    });

    it('refuses with 422 an unknown, retired or other-store product id and a missing receipt; nothing is granted', async () => {
      sell('tx-1');
      for (const product_id of ['alice.roku.lifetime', SKU.rokuRetired, SKU.appleMonthly]) {
        const response = await verify({ product_id, receipt_data: 'tx-1' });
        expect([response.statusCode, response.json()], product_id).toEqual([422, invalidWith('product_id')]);
      }
      // The Apple SKU named with its own store, on the Roku app: not a Roku app product either.
      expect((await verify({ store_platform: 'Apple', product_id: SKU.appleMonthly, receipt_data: 'x' })).json()).toEqual(invalidWith('product_id'));
      expect((await verify({})).json()).toEqual(invalidWith('receipt_data'));
      expect((await verify({ receipt_data: '   ' })).json()).toEqual(invalidWith('receipt_data'));
      expect((await verify({ receipt_data: 'tx\u00001' })).json()).toEqual(invalidWith('receipt_data'));
      expect(stores().roku.calls()).toBe(0);
      expect(await rows()).toEqual([]);
    });

    it('answers ok false for a receipt the store does not know (junk), granting nothing', async () => {
      expect(await verified({ receipt_data: 'not-a-transaction' })).toEqual({ ok: false, entitled: false, error: 'invalid', expiresUtc: null });
      expect(await rows()).toEqual([]);
    });

    it('answers ok false for a transaction of another Roku channel (another app)', async () => {
      stores().roku.records.set('tx-other', rokuTransaction('tx-other', SKU.rokuMonthly, new Date(Date.parse(at(DAY))), { channelId: '9999' }));
      expect(await verified({ receipt_data: 'tx-other' })).toMatchObject({ ok: false, entitled: false, error: 'wrong_app' });
    });

    it('answers ok false wrong_product when the store names a product the client did not buy from this app', async () => {
      stores().roku.records.set('tx-2', rokuTransaction('tx-2', 'other.channel.product', new Date(Date.parse(at(DAY)))));
      expect(await verified({ receipt_data: 'tx-2' })).toMatchObject({ ok: false, entitled: false, error: 'wrong_product' });
    });

    it('keeps the entitlement as it was when the store is down, answers HTML or does not answer', async () => {
      sell('tx-1');
      await verified({ receipt_data: 'tx-1' });
      for (const mode of ['down', 'html', 'hang'] as const) {
        stores().roku.mode = mode;
        expect(await verified({ receipt_data: 'tx-1' }), mode).toEqual({ ok: false, entitled: true, error: 'store_unavailable', expiresUtc: at(30 * DAY) });
        expect(await verified({ receipt_data: 'tx-new' }, device('dev-b')), mode).toEqual({ ok: false, entitled: false, error: 'store_unavailable', expiresUtc: null });
      }
      expect(await status(device('dev-a'))).toMatchObject({ entitled: true, status: 'active' });
    });

    it('ends the subscription when the store says it was revoked, and refuses an expired one', async () => {
      sell('tx-1');
      await verified({ receipt_data: 'tx-1' });
      sell('tx-1', new Date(Date.parse(at(30 * DAY))), { isEntitled: false, cancelled: true });
      expect(await verified({ receipt_data: 'tx-1' })).toEqual({ ok: false, entitled: false, error: 'revoked', expiresUtc: null });
      expect(await status(device('dev-a'))).toMatchObject({ entitled: false, status: 'revoked' });
      expect((await channels(device('dev-a'))).statusCode).toBe(403);
      sell('tx-old', new Date(Date.parse(at(-DAY))));
      expect(await verified({ receipt_data: 'tx-old' }, device('dev-b'))).toMatchObject({ ok: false, entitled: false, error: 'expired' });
    });

    it('refuses an oversized body with 413', async () => {
      const response = await verify({ receipt_data: 'x'.repeat(1024 * 1024 + 10) });
      expect(response.statusCode).toBe(413);
      expect(response.json().data.status_code).toBe(413);
    });

    it('records every attempt for support, with a fingerprint of the receipt, never the receipt', async () => {
      sell('tx-1');
      await verified({ receipt_data: 'tx-1' });
      await verify({ product_id: 'nope', receipt_data: 'tx-1' });
      stores().roku.mode = 'down';
      await verified({ receipt_data: 'tx-1' });
      const attempts = await t().database.db.select().from(verificationAttempts).orderBy(verificationAttempts.id);
      expect(attempts.map((a) => [a.route, a.outcome, a.granted])).toEqual([
        ['subscription_verify', 'valid', true],
        ['subscription_verify', 'refused', false],
        ['subscription_verify', 'unavailable', false],
      ]);
      expect(attempts[0]).toMatchObject({
        appId: 303,
        deviceId: 'dev-a',
        storePlatform: 'Roku',
        productId: SKU.rokuMonthly,
        transactionId: 'tx-1',
        originalTransactionId: 'tx-1',
        receiptSha256: expect.stringMatching(/^[0-9a-f]{64}$/),
        storeAnswer: expect.objectContaining({ transactionId: 'tx-1' }),
      });
      expect(attempts[2]!.reason).toMatch(/503/);
      expect(JSON.stringify(attempts)).not.toContain(stores().config.STORE_ROKU_URL);
    });

    it('counts store calls by store and outcome', async () => {
      const count = async (outcome: string) => (await storeVerifications.get()).values.find((v) => v.labels.store === 'Roku' && v.labels.outcome === outcome)?.value ?? 0;
      const before = [await count('valid'), await count('invalid')];
      sell('tx-1');
      await verified({ receipt_data: 'tx-1' });
      await verified({ receipt_data: 'junk' });
      expect([await count('valid'), await count('invalid')]).toEqual([before[0]! + 1, before[1]! + 1]);
    });
  });

  describe('restore', () => {
    const restore = (body: Record<string, unknown>, headers: Headers = device('dev-r')) => post(`${SUBSCRIPTION}/restore`, { store_platform: 'Roku', ...body }, headers);

    it('re-verifies each id and grants what the store confirms', async () => {
      sell('tx-1', new Date(Date.parse(at(10 * DAY))));
      sell('tx-2', new Date(Date.parse(at(40 * DAY))));
      sell('tx-old', new Date(Date.parse(at(-DAY))));
      const response = await restore({ original_transaction_ids: ['tx-1', 'tx-unknown', 'tx-2', 'tx-old', 'tx-1'] });
      expect(response.json()).toEqual({ data: { ok: true, entitled: true, error: null, expiresUtc: at(40 * DAY) } });
      expect((await rows()).map((r) => r.originalTransactionId).sort()).toEqual(['tx-1', 'tx-2']);
      expect(stores().roku.calls()).toBe(4);
      expect(await status(device('dev-r'))).toMatchObject({ entitled: true, expiresUtc: at(40 * DAY) });
    });

    it('answers ok false with the store verdict when nothing is confirmed, store_unavailable when the store is down', async () => {
      sell('tx-old', new Date(Date.parse(at(-DAY))));
      expect((await restore({ original_transaction_ids: ['tx-old'] })).json().data).toEqual({ ok: false, entitled: false, error: 'expired', expiresUtc: null });
      stores().roku.mode = 'down';
      expect((await restore({ original_transaction_ids: ['tx-old', 'tx-1'] })).json().data).toMatchObject({ ok: false, error: 'store_unavailable' });
    });

    it('refuses an empty or oversized id list, and a store the app sells nothing on', async () => {
      expect((await restore({ original_transaction_ids: [] })).json()).toEqual(invalidWith('original_transaction_ids'));
      expect((await restore({})).json()).toEqual(invalidWith('original_transaction_ids'));
      expect((await restore({ original_transaction_ids: Array.from({ length: 21 }, (_, i) => `tx-${i}`) })).json()).toEqual(invalidWith('original_transaction_ids'));
      expect((await restore({ store_platform: 'Google', original_transaction_ids: ['tx-1'] })).json()).toEqual(invalidWith('store_platform'));
    });
  });

  describe('re-check of an expired auto-renewing subscription', () => {
    it('asks the store at most once per interval, and sees the renewal', async () => {
      sell('tx-1', new Date(Date.parse(at(DAY))));
      await verified({ receipt_data: 'tx-1' });
      expect(stores().roku.calls()).toBe(1);
      // Expired for Roku too: not renewed yet.
      sell('tx-1', new Date(Date.parse(at(DAY))), { isEntitled: false });
      expect(await status(device('dev-a'), at(2 * DAY))).toMatchObject({ entitled: false, status: 'expired', expiresUtc: at(DAY) });
      expect(stores().roku.calls()).toBe(2);
      sell('tx-1', new Date(Date.parse(at(31 * DAY))));
      expect(await status(device('dev-a'), at(2 * DAY + 30 * 60_000))).toMatchObject({ entitled: false, status: 'expired' });
      expect((await channels(device('dev-a'), at(2 * DAY + 30 * 60_000))).statusCode).toBe(403);
      expect(stores().roku.calls()).toBe(2);
      expect(await status(device('dev-a'), at(2 * DAY + HOUR))).toEqual(expect.objectContaining({ entitled: true, status: 'active', expiresUtc: at(31 * DAY) }));
      expect(stores().roku.calls()).toBe(3);
      expect((await channels(device('dev-a'), at(2 * DAY + HOUR))).statusCode).toBe(200);
    });

    it('keeps the subscription expired while the store is down, and never re-checks a cancelled one', async () => {
      sell('tx-1', new Date(Date.parse(at(DAY))));
      await verified({ receipt_data: 'tx-1' });
      stores().roku.mode = 'down';
      expect(await status(device('dev-a'), at(2 * DAY))).toMatchObject({ entitled: false, status: 'expired' });
      stores().roku.mode = 'up';
      sell('tx-2', new Date(Date.parse(at(DAY))), { cancelled: true });
      await verified({ receipt_data: 'tx-2' }, device('dev-b'));
      const calls = stores().roku.calls();
      expect(await status(device('dev-b'), at(2 * DAY))).toMatchObject({ entitled: false, status: 'expired' });
      expect(stores().roku.calls()).toBe(calls);
    });

    it('does not re-check on list requests', async () => {
      sell('tx-1', new Date(Date.parse(at(DAY))));
      await verified({ receipt_data: 'tx-1' });
      expect((await channels(device('dev-a'), at(2 * DAY))).statusCode).toBe(403);
      expect(stores().roku.calls()).toBe(1);
    });
  });
});
