// App Store Server Notifications V2 at /api/v1/stores/apple/{appId}, on every backend: signed
// by the test chain as Apple signs them, verified, kept in the inbox and applied by the worker.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { issueToken } from '../src/access/tokens.ts';
import { ppvUnlocks, storeNotifications, subscriptions, verificationAttempts } from '../src/db/schema.ts';
import { storeNotifications as notificationCounter } from '../src/observability/metrics.ts';
import { customClient, failureOf, type Headers } from './support/custom.ts';
import { BACKENDS } from './support/db.ts';
import { DAY, HOUR, NOW, SKU, useStores } from './support/entitlements.ts';
import { appleBody, appleSignedPayload, withSenders, testClock, URL_OF, useNotificationApp, type AppleNotice } from './support/notifications.ts';
import { signAppleJws, makeTestChain } from './stores/support/apple-pki.ts';

const stores = useStores();
const IOS: Headers = { 'platform-id': 'ios', 'device-id': 'dev-i' };
const time = testClock();

describe.each(BACKENDS)('Apple notifications (%s)', (kind) => {
  const t = useNotificationApp(kind, withSenders(stores).stores, time.clock);
  const { get } = customClient(t);

  const post = (payload: string) => t().request({ method: 'POST', url: URL_OF.apple, payload, headers: { 'content-type': 'application/json' } });
  const notify = async (n: AppleNotice) => {
    const response = await post(appleBody(stores(), n));
    await t().app.storeNotifications.inbox.idle();
    return response;
  };
  const held = (extra: Partial<typeof subscriptions.$inferInsert> = {}) =>
    t()
      .database.db.insert(subscriptions)
      .values({
        appId: 301,
        deviceId: 'dev-i',
        viewerId: null,
        storePlatform: 'Apple',
        productId: SKU.appleMonthly,
        originalTransactionId: '2000000100',
        status: 'active',
        expiresAt: new Date(NOW.getTime() + 30 * DAY),
        updatedAt: NOW,
        autoRenewing: true,
        ...extra,
      });
  const subscription = async () => (await t().database.db.select().from(subscriptions).where(eq(subscriptions.appId, 301)))[0]!;
  const inbox = () => t().database.db.select().from(storeNotifications);
  const channels = () => get('/users/11/channels', IOS);

  it('a refund ends access at once: the next channel list is 403 subscription_required', async () => {
    await held();
    expect((await channels()).statusCode).toBe(200);
    const refund = { type: 'REFUND', uuid: 'n-refund', transaction: { revocationDate: NOW.getTime() - HOUR, revocationReason: 0 } };
    const response = await notify(refund);
    expect([response.statusCode, response.json()]).toEqual([200, { success: true, data: { received: 1, repeated: 0 } }]);
    expect(await subscription()).toMatchObject({ status: 'revoked', autoRenewing: false });
    const refused = await channels();
    expect([refused.statusCode, refused.json()]).toEqual([403, failureOf(403, 'subscription_required')]);
    expect(await inbox()).toEqual([expect.objectContaining({ notificationId: 'n-refund', type: 'REFUND', state: 'applied', attempts: 1 })]);
    const [attempt] = await t().database.db.select().from(verificationAttempts);
    expect(attempt).toMatchObject({
      route: 'notification',
      appId: 301,
      deviceId: 'dev-i',
      storePlatform: 'Apple',
      originalTransactionId: '2000000100',
      outcome: 'refunded',
      granted: false,
    });
  });

  it('a revocation (Family Sharing lost) is revoked too; a reversed refund gives access back', async () => {
    await held();
    await notify({ type: 'REVOKE', uuid: 'n-revoke', signedAt: NOW.getTime() - 2 * HOUR, transaction: { revocationDate: NOW.getTime() - 2 * HOUR } });
    expect(await subscription()).toMatchObject({ status: 'revoked' });
    await notify({ type: 'REFUND_REVERSED', uuid: 'n-reversed', signedAt: NOW.getTime() - HOUR });
    expect(await subscription()).toMatchObject({ status: 'active', expiresAt: new Date(NOW.getTime() + 30 * DAY) });
    expect((await channels()).statusCode).toBe(200);
  });

  it('a renewal moves the expiry; a renewal status change records auto-renew off', async () => {
    await held({ expiresAt: new Date(NOW.getTime() - HOUR), status: 'expired' });
    await notify({ type: 'DID_RENEW', uuid: 'n-renew', status: 1, transaction: { transactionId: '2000000222', expiresDate: NOW.getTime() + 31 * DAY } });
    expect(await subscription()).toMatchObject({ status: 'active', expiresAt: new Date(NOW.getTime() + 31 * DAY), autoRenewing: true });
    await notify({
      type: 'DID_CHANGE_RENEWAL_STATUS',
      subtype: 'AUTO_RENEW_DISABLED',
      uuid: 'n-off',
      signedAt: NOW.getTime() + 1000,
      status: 1,
      renewal: { autoRenewStatus: 0 },
      transaction: { expiresDate: NOW.getTime() + 31 * DAY },
    });
    expect(await subscription()).toMatchObject({ status: 'active', autoRenewing: false });
  });

  it('a renewal and its refund carry the price Apple signed: revenue adds it, then takes it off (issue 36 item 6)', async () => {
    await held({ expiresAt: new Date(NOW.getTime() - HOUR), status: 'expired' });
    const renewal = { transactionId: '2000000333', expiresDate: NOW.getTime() + 31 * DAY, price: 3990, currency: 'GBP' };
    await notify({ type: 'DID_RENEW', uuid: 'n-renew-priced', signedAt: NOW.getTime() - 2 * HOUR, status: 1, transaction: renewal });
    await notify({
      type: 'REFUND',
      uuid: 'n-refund-priced',
      signedAt: NOW.getTime() - HOUR,
      transaction: { ...renewal, revocationDate: NOW.getTime() - HOUR, revocationReason: 0 },
    });
    const attempts = await t().database.db.select().from(verificationAttempts).orderBy(verificationAttempts.id);
    expect(attempts.map((a) => [a.transactionId, a.outcome, a.granted, a.priceMicros, a.priceCurrency, a.priceProductId])).toEqual([
      ['2000000333', 'valid', true, 3_990_000, 'GBP', SKU.appleMonthly],
      ['2000000333', 'refunded', false, 3_990_000, 'GBP', SKU.appleMonthly],
    ]);
    const token = await issueToken(t().database.db, 11, { kind: 'sliding', seconds: 86_400 }, NOW);
    const day = NOW.toISOString().slice(0, 10);
    const response = await t().request({ url: `/api/v1/rest/analytics/entitlements?from=${day}&to=${day}`, headers: { authorization: `Bearer ${token}` }, now: NOW.toISOString() });
    expect(response.json().data.revenue.totals).toEqual([
      { currency: 'GBP', current: { currency: 'GBP', sales: 1, refunds: 1, netMicros: 0 }, previous: { currency: 'GBP', sales: 0, refunds: 0, netMicros: 0 } },
    ]);
  });

  it('a billing grace period keeps access until it ends; its end and EXPIRED end it', async () => {
    await held({ expiresAt: new Date(NOW.getTime() - HOUR) });
    const graceEnd = NOW.getTime() + 6 * DAY;
    await notify({
      type: 'DID_FAIL_TO_RENEW',
      subtype: 'GRACE_PERIOD',
      uuid: 'n-grace',
      status: 4,
      transaction: { expiresDate: NOW.getTime() - HOUR },
      renewal: { gracePeriodExpiresDate: graceEnd },
    });
    expect(await subscription()).toMatchObject({ status: 'active', expiresAt: new Date(graceEnd) });
    expect((await channels()).statusCode).toBe(200);
    await notify({ type: 'GRACE_PERIOD_EXPIRED', uuid: 'n-grace-end', signedAt: NOW.getTime() + 1000, transaction: { expiresDate: NOW.getTime() - HOUR } });
    expect(await subscription()).toMatchObject({ status: 'expired' });
    expect((await channels()).statusCode).toBe(403);
  });

  it('billing retry without grace is expired but still auto-renewing, so status re-checks keep looking', async () => {
    await held({ expiresAt: new Date(NOW.getTime() - HOUR) });
    await notify({ type: 'DID_FAIL_TO_RENEW', uuid: 'n-retry', transaction: { expiresDate: NOW.getTime() - HOUR } });
    expect(await subscription()).toMatchObject({ status: 'expired', autoRenewing: true });
  });

  it('is order-safe: an older EXPIRED arriving after a newer renewal changes nothing', async () => {
    await held();
    await notify({ type: 'DID_RENEW', uuid: 'n-new', signedAt: NOW.getTime(), status: 1, transaction: { expiresDate: NOW.getTime() + 60 * DAY } });
    await notify({ type: 'EXPIRED', uuid: 'n-old', signedAt: NOW.getTime() - DAY, status: 2, transaction: { expiresDate: NOW.getTime() - DAY } });
    expect(await subscription()).toMatchObject({ status: 'active', expiresAt: new Date(NOW.getTime() + 60 * DAY) });
    expect((await inbox()).find((n) => n.notificationId === 'n-old')).toMatchObject({ state: 'ignored', result: 'a later notification of this subscription was applied already' });
  });

  it('a replayed notification is acknowledged and applied once', async () => {
    await held();
    const body = appleBody(stores(), { type: 'REFUND', uuid: 'n-once', transaction: { revocationDate: NOW.getTime(), revocationReason: 1 } });
    const first = await post(body);
    const again = await post(body);
    await t().app.storeNotifications.inbox.idle();
    expect(first.json().data).toEqual({ received: 1, repeated: 0 });
    expect([again.statusCode, again.json().data]).toEqual([200, { received: 0, repeated: 1 }]);
    expect(await inbox()).toHaveLength(1);
    expect(await t().database.db.select().from(verificationAttempts)).toHaveLength(1);
  });

  it('acknowledges CONSUMPTION_REQUEST, TEST and unknown types, changing nothing', async () => {
    await held();
    for (const type of ['CONSUMPTION_REQUEST', 'TEST', 'SOMETHING_APPLE_ADDS_LATER']) {
      expect((await notify({ type, uuid: `n-${type}` })).statusCode).toBe(200);
    }
    expect(await subscription()).toMatchObject({ status: 'active', storeEventAt: null });
    expect((await inbox()).map((n) => n.state)).toEqual(['ignored', 'ignored', 'ignored']);
  });

  it('a refund of a product the app no longer sells still ends it', async () => {
    await held({ productId: 'com.alice.retired' });
    await notify({ type: 'REFUND', uuid: 'n-retired', transaction: { productId: 'com.alice.retired', revocationDate: NOW.getTime(), revocationReason: 0 } });
    expect(await subscription()).toMatchObject({ status: 'revoked' });
  });

  it('a refunded one-time purchase ends its unlock at once', async () => {
    await t()
      .database.db.insert(ppvUnlocks)
      .values({
        appId: 301,
        videoId: 5002,
        channelId: null,
        deviceId: 'dev-i',
        storePlatform: 'Apple',
        productId: 'com.alice.movie',
        transactionId: '3000000001',
        expiresAt: new Date(NOW.getTime() + DAY),
        createdAt: NOW,
      });
    await notify({
      type: 'REFUND',
      uuid: 'n-ppv',
      transaction: {
        transactionId: '3000000001',
        originalTransactionId: '3000000001',
        productId: 'com.alice.movie',
        type: 'Consumable',
        expiresDate: undefined,
        revocationDate: NOW.getTime(),
        revocationReason: 1,
      },
    });
    expect((await t().database.db.select().from(ppvUnlocks))[0]).toMatchObject({ revokedAt: NOW });
  });

  it('ignores a purchase no device holds', async () => {
    await notify({ type: 'REFUND', uuid: 'n-stranger', transaction: { originalTransactionId: '999', revocationDate: NOW.getTime() } });
    expect(await inbox()).toEqual([expect.objectContaining({ state: 'ignored', result: 'no device or viewer holds this purchase' })]);
  });

  describe('refuses what Apple did not send, storing nothing', () => {
    const refused = async (payload: string, status: number, code: string) => {
      const count = async () => (await notificationCounter.get()).values.find((v) => v.labels.store === 'Apple' && v.labels.result === 'refused')?.value ?? 0;
      const before = await count();
      const response = await post(payload);
      expect([response.statusCode, response.json().error?.code]).toEqual([status, code]);
      expect(await inbox()).toEqual([]);
      expect(await count()).toBe(before + 1);
    };

    it('a forged signature, another chain, a tampered payload', async () => {
      await held();
      const genuine = appleSignedPayload(stores(), { type: 'REFUND', uuid: 'n-x', transaction: { revocationDate: NOW.getTime(), revocationReason: 0 } });
      const [header, payload, signature] = genuine.split('.');
      const tampered = JSON.parse(Buffer.from(payload!, 'base64url').toString());
      tampered.notificationUUID = 'n-y';
      await refused(JSON.stringify({ signedPayload: `${header}.${Buffer.from(JSON.stringify(tampered)).toString('base64url')}.${signature}` }), 401, 'invalid_signature');
      const other = makeTestChain('Mallory');
      await refused(JSON.stringify({ signedPayload: signAppleJws(other, JSON.parse(Buffer.from(payload!, 'base64url').toString())) }), 401, 'invalid_signature');
      expect(await subscription()).toMatchObject({ status: 'active' });
    });

    it('another bundle, another Apple app id, an Xcode environment', async () => {
      await refused(appleBody(stores(), { type: 'REFUND', uuid: 'n-b', bundleId: 'com.other' }), 400, 'wrong_app');
      await refused(appleBody(stores(), { type: 'REFUND', uuid: 'n-e', environment: 'Xcode' }), 401, 'invalid_signature');
    });

    it('malformed bodies, and apps with no Apple credentials or none at all', async () => {
      for (const body of ['', 'not json', '[]', '{"signedPayload": 42}', '{"signedPayload": "a.b.c"}']) {
        const response = await post(body);
        expect(response.statusCode, body).toBeGreaterThanOrEqual(400);
        expect(response.statusCode, body).toBeLessThan(500);
      }
      const elsewhere = await t().request({ method: 'POST', url: '/api/v1/stores/apple/303', payload: appleBody(stores(), { type: 'REFUND', uuid: 'n-z' }) });
      expect([elsewhere.statusCode, elsewhere.json().error.code]).toEqual([404, 'not_configured']);
      for (const url of ['/api/v1/stores/apple/999999', '/api/v1/stores/nokia/301', '/api/v1/stores/apple/abc']) {
        expect((await t().request({ method: 'POST', url, payload: '{}' })).statusCode, url).toBe(404);
      }
      expect(await inbox()).toEqual([]);
    });
  });
});
