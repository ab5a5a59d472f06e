// Google Play (Pub/Sub push with OIDC), Amazon (SNS) and Roku Pay notifications on every
// backend: the sender's proof checked first, the purchase re-read from the store before any
// change, a store down during the re-read retried later with the entitlement unchanged.
import { generateKeyPairSync } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ppvUnlocks, storeNotifications, subscriptions, verificationAttempts } from '../src/db/schema.ts';
import { customClient, type Headers } from './support/custom.ts';
import { BACKENDS } from './support/db.ts';
import { amazonReceipt, at, DAY, googleProduct, HOUR, NOW, ROKU_KEY, rokuTransaction, SKU, useStores, dataOf, PPV } from './support/entitlements.ts';
import {
  withSenders,
  GOOGLE_MONTHLY,
  googlePush,
  PUSH_ACCOUNT,
  PUSH_AUDIENCE,
  rtnMessage,
  snsMessage,
  testClock,
  TOPIC,
  URL_OF,
  useNotificationApp,
  type Senders,
} from './support/notifications.ts';

const stores = useStores();
const segment = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
/** A JWT with an empty signature (what `alg: none` means). */
const unsigned = (header: object, claims: object) => `${segment(header)}.${segment(claims)}.`;
const time = testClock();
const world = withSenders(stores);

describe.each(BACKENDS)('store notifications (%s)', (kind) => {
  const t = useNotificationApp(kind, world.stores, time.clock);
  const { get, post } = customClient(t);
  const idle = () => t().app.storeNotifications.inbox.idle();
  const inbox = () => t().database.db.select().from(storeNotifications);
  const send = async (url: string, payload: string, headers: Headers = {}) => {
    const response = await t().request({ method: 'POST', url, payload, headers: { 'content-type': 'text/plain; charset=UTF-8', ...headers } });
    await idle();
    return response;
  };
  const hold = (values: Partial<typeof subscriptions.$inferInsert> & Pick<typeof subscriptions.$inferInsert, 'appId' | 'storePlatform' | 'originalTransactionId' | 'productId'>) =>
    t()
      .database.db.insert(subscriptions)
      .values({ deviceId: 'dev-x', status: 'active', expiresAt: new Date(NOW.getTime() + 30 * DAY), updatedAt: NOW, autoRenewing: true, ...values });
  const subscriptionOf = async (appId: number) => (await t().database.db.select().from(subscriptions).where(eq(subscriptions.appId, appId)))[0];

  describe('Google Play', () => {
    const push = (data: Record<string, unknown>, options: Parameters<typeof googlePush>[2]) => {
      const { headers, payload } = googlePush(world.senders(), data, options);
      return send(URL_OF.google, payload, headers);
    };
    const subscriptionRecord = (state: string, expiry: Date) => ({
      kind: 'androidpublisher#subscriptionPurchaseV2',
      subscriptionState: state,
      latestOrderId: 'GPA.9',
      testPurchase: undefined,
      lineItems: [{ productId: GOOGLE_MONTHLY, expiryTime: expiry.toISOString(), autoRenewingPlan: { autoRenewEnabled: state === 'SUBSCRIPTION_STATE_ACTIVE' } }],
    });
    const revoked = { subscriptionNotification: { version: '1.0', notificationType: 12, purchaseToken: 'sub-token', subscriptionId: GOOGLE_MONTHLY } };

    it('re-reads subscriptionsv2 and applies what Google says now, not what the message says', async () => {
      await hold({ appId: 302, storePlatform: 'Google', originalTransactionId: 'sub-token', productId: GOOGLE_MONTHLY });
      stores().google.records.set('sub-token', subscriptionRecord('SUBSCRIPTION_STATE_EXPIRED', new Date(NOW.getTime() + 20 * DAY)));
      const response = await push(revoked, { messageId: 'm-1' });
      expect([response.statusCode, response.json().data]).toEqual([200, { received: 1, repeated: 0 }]);
      expect(await subscriptionOf(302)).toMatchObject({ status: 'revoked', autoRenewing: false });
      expect(stores().google.server.requests.some((r) => r.url.endsWith('/subscriptionsv2/tokens/sub-token'))).toBe(true);
      // The message said "revoked"; a re-read that finds it active again keeps it active.
      stores().google.records.set('sub-token', subscriptionRecord('SUBSCRIPTION_STATE_ACTIVE', new Date(NOW.getTime() + 40 * DAY)));
      await push(revoked, { messageId: 'm-2' });
      expect(await subscriptionOf(302)).toMatchObject({ status: 'active', expiresAt: new Date(NOW.getTime() + 40 * DAY) });
    });

    it('retries a re-read the store could not answer, leaving the entitlement as it was', async () => {
      await hold({ appId: 302, storePlatform: 'Google', originalTransactionId: 'sub-token', productId: GOOGLE_MONTHLY });
      stores().google.records.set('sub-token', subscriptionRecord('SUBSCRIPTION_STATE_EXPIRED', new Date(NOW.getTime() + 20 * DAY)));
      stores().google.mode = 'down';
      expect((await push(revoked, { messageId: 'm-down' })).statusCode).toBe(200);
      expect(await subscriptionOf(302)).toMatchObject({ status: 'active' });
      const [waiting] = await inbox();
      expect(waiting).toMatchObject({ state: 'pending', attempts: 1 });
      expect(waiting!.result).toMatch(/^waiting: /);
      expect(waiting!.nextAttemptAt.getTime()).toBe(NOW.getTime() + 30_000);
      // Not due yet: nothing happens.
      expect(await t().app.storeNotifications.inbox.drain()).toBe(0);
      stores().google.mode = 'up';
      time.set(new Date(NOW.getTime() + 31_000));
      try {
        expect(await t().app.storeNotifications.inbox.drain()).toBe(1);
      } finally {
        time.set(NOW);
      }
      expect(await subscriptionOf(302)).toMatchObject({ status: 'revoked' });
      expect(await inbox()).toEqual([expect.objectContaining({ state: 'applied', attempts: 2 })]);
    });

    it('a voided one-time purchase ends its unlock: the video no longer plays', async () => {
      const tv = { 'platform-id': 'android-tv', 'device-id': 'dev-g' };
      stores().google.records.set('ppv-token', googleProduct('GPA.1111', SKU.googlePpv));
      expect(dataOf(await post(`${PPV}/verify`, { store_platform: 'Google', product_id: SKU.googlePpv, video_tube_id: 5001, receipt_data: 'ppv-token' }, tv))).toMatchObject({
        unlocked: true,
      });
      expect(dataOf(await get(`${PPV}/status?video_tube_id=5001`, tv))).toMatchObject({ unlocked: true });
      stores().google.records.set('ppv-token', googleProduct('GPA.1111', SKU.googlePpv, { purchaseState: 1 }));
      await push({ voidedPurchaseNotification: { purchaseToken: 'ppv-token', orderId: 'GPA.1111', productType: 2, refundType: 1 } }, { messageId: 'm-void' });
      expect((await t().database.db.select().from(ppvUnlocks))[0]).toMatchObject({ transactionId: 'GPA.1111', revokedAt: NOW });
      expect(dataOf(await get(`${PPV}/status?video_tube_id=5001`, tv))).toMatchObject({ unlocked: false });
    });

    it('refuses a push without a valid OIDC token of the configured audience and account', async () => {
      await hold({ appId: 302, storePlatform: 'Google', originalTransactionId: 'sub-token', productId: GOOGLE_MONTHLY });
      const { payload } = googlePush(world.senders(), revoked, { messageId: 'm-x' });
      const cases: [Headers, number, string][] = [
        [{}, 401, 'unauthenticated'],
        [{ authorization: 'Bearer not-a-jwt' }, 401, 'invalid_signature'],
        // alg none, with the claims a real push carries: never trusted.
        [
          {
            authorization: `Bearer ${unsigned({ alg: 'none', kid: 'test-kid' }, { iss: 'https://accounts.google.com', aud: PUSH_AUDIENCE, email: PUSH_ACCOUNT, email_verified: true, exp: Math.floor(NOW.getTime() / 1000) + 3600 })}`,
          },
          401,
          'invalid_signature',
        ],
        [googlePush(world.senders(), revoked, { messageId: 'm-x', audience: 'https://evil.example/' }).headers, 401, 'invalid_signature'],
        [googlePush(world.senders(), revoked, { messageId: 'm-x', email: 'someone@evil.iam.gserviceaccount.com' }).headers, 401, 'invalid_signature'],
        [googlePush(world.senders(), revoked, { messageId: 'm-x', exp: Math.floor(NOW.getTime() / 1000) - 3600 }).headers, 401, 'invalid_signature'],
        [googlePush(world.senders(), revoked, { messageId: 'm-x', key: generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey }).headers, 401, 'invalid_signature'],
      ];
      for (const [headers, status, code] of cases) {
        const response = await send(URL_OF.google, payload, headers);
        expect([response.statusCode, response.json().error.code]).toEqual([status, code]);
      }
      const otherApp = googlePush(world.senders(), { ...revoked, packageName: 'com.other' }, { messageId: 'm-y' });
      expect((await send(URL_OF.google, otherApp.payload, otherApp.headers)).json().error.code).toBe('wrong_app');
      expect(await inbox()).toEqual([]);
      expect(await subscriptionOf(302)).toMatchObject({ status: 'active' });
      expect(PUSH_ACCOUNT).toContain('@');
    });
  });

  describe('Amazon', () => {
    const rtn = (fields: Record<string, unknown>, messageId = 'sns-1') => snsMessage(stores(), world.senders(), { Message: rtnMessage(fields), MessageId: messageId });
    const FIRE: Headers = { 'platform-id': 'fire-tv', 'device-id': 'dev-f' };

    it('confirms an SNS subscription by visiting its SubscribeURL', async () => {
      const subscribeUrl = `${stores().amazon.server.url}/sns/confirm?Token=abc`;
      const message = snsMessage(stores(), world.senders(), {
        Type: 'SubscriptionConfirmation',
        Message: 'You have chosen to subscribe',
        Token: 'abc',
        SubscribeURL: subscribeUrl,
      });
      const response = await send(URL_OF.amazon, message);
      expect(response.statusCode).toBe(200);
      expect(world.senders().confirmed).toContain('/sns/confirm?Token=abc');
      expect(await inbox()).toEqual([]);
    });

    it('re-reads the receipt with RVS: a cancelled subscription ends, the Fire TV list closes', async () => {
      await hold({ appId: 304, storePlatform: 'Amazon', originalTransactionId: 'rcpt-1', productId: SKU.amazonMonthly, deviceId: 'dev-f', lookupId: 'amzn-user-1:rcpt-1' });
      expect((await get('/users/11/channels', FIRE)).statusCode).toBe(200);
      stores().amazon.records.set('rcpt-1', amazonReceipt('rcpt-1', SKU.amazonMonthly, new Date(NOW.getTime() + 20 * DAY), { cancelDate: NOW.getTime() - HOUR, cancelReason: 1 }));
      const response = await send(URL_OF.amazon, rtn({ notificationType: 'SUBSCRIPTION_CANCELLED', receiptId: 'rcpt-1' }));
      expect(response.statusCode).toBe(200);
      expect(await subscriptionOf(304)).toMatchObject({ status: 'expired', autoRenewing: false });
      expect((await get('/users/11/channels', FIRE)).statusCode).toBe(403);
      const [attempt] = await t().database.db.select().from(verificationAttempts);
      expect(attempt).toMatchObject({ route: 'notification', storePlatform: 'Amazon', deviceId: 'dev-f', outcome: 'expired' });
    });

    it('refuses a forged signature, a certificate from elsewhere and another topic', async () => {
      await hold({ appId: 304, storePlatform: 'Amazon', originalTransactionId: 'rcpt-1', productId: SKU.amazonMonthly });
      const message = { Message: rtnMessage({ notificationType: 'SUBSCRIPTION_CANCELLED', receiptId: 'rcpt-1' }) };
      const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
      const cases: [string, number, string][] = [
        [snsMessage(stores(), world.senders(), message, other), 401, 'invalid_signature'],
        [snsMessage(stores(), world.senders(), { ...message, SigningCertURL: 'https://evil.example/cert.pem' }), 401, 'invalid_signature'],
        [snsMessage(stores(), world.senders(), { ...message, SignatureVersion: '3' }), 401, 'invalid_signature'],
        [snsMessage(stores(), world.senders(), { ...message, TopicArn: 'arn:aws:sns:us-east-1:999:other' }), 400, 'wrong_app'],
        [
          JSON.stringify({
            ...JSON.parse(snsMessage(stores(), world.senders(), message)),
            Message: rtnMessage({ notificationType: 'SUBSCRIPTION_CANCELLED', receiptId: 'rcpt-2' }),
          }),
          401,
          'invalid_signature',
        ],
      ];
      for (const [body, status, code] of cases) {
        const response = await send(URL_OF.amazon, body);
        expect([response.statusCode, response.json().error.code], body.slice(0, 80)).toEqual([status, code]);
      }
      expect(await inbox()).toEqual([]);
      expect(stores().amazon.server.requests.some((r) => r.url.includes('evil'))).toBe(false);
      expect(TOPIC).toMatch(/^arn:aws:sns:/);
    });
  });

  describe('Roku Pay', () => {
    const body = (fields: Record<string, unknown>) =>
      JSON.stringify({
        transactionType: 'Refund',
        channelId: '4242',
        productCode: SKU.rokuMonthly,
        eventDate: NOW.toISOString(),
        responseKey: 'abcdabcd6b1649f681a408f1beebabcd',
        ...fields,
      });

    it('confirms the transaction with Roku Pay, echoes the responseKey with the API key, and ends a refunded subscription', async () => {
      await hold({ appId: 303, storePlatform: 'Roku', originalTransactionId: 'roku-tx', productId: SKU.rokuMonthly });
      stores().roku.records.set('roku-tx', rokuTransaction('roku-tx', SKU.rokuMonthly, new Date(NOW.getTime() + 20 * DAY), { isEntitled: false, cancelled: true }));
      const response = await send(URL_OF.roku, body({ transactionId: 'roku-tx' }));
      expect([response.statusCode, response.body, response.headers.apikey]).toEqual([200, 'abcdabcd6b1649f681a408f1beebabcd', ROKU_KEY]);
      expect(await subscriptionOf(303)).toMatchObject({ status: 'revoked' });
      // Roku sending it again gets no key (the first answer carried it); the event is kept once,
      // beside the mark that records the key was sent.
      const again = await send(URL_OF.roku, body({ transactionId: 'roku-tx' }));
      expect([again.statusCode, again.headers.apikey]).toEqual([200, undefined]);
      expect((await inbox()).map((n) => [n.notificationId, n.state]).sort()).toEqual([
        [`Refund/${NOW.toISOString()}/roku-tx`, 'applied'],
        ['acknowledged/Refund/roku-tx', 'ignored'],
      ]);
    });

    it('refuses a transaction Roku Pay does not know, without the API key', async () => {
      const response = await send(URL_OF.roku, body({ transactionId: 'made-up' }));
      expect([response.statusCode, response.json().error.code, response.headers.apikey]).toEqual([401, 'not_confirmed', undefined]);
      expect(await inbox()).toEqual([]);
    });

    it('keeps a push Roku Pay could not confirm without acknowledging it, and drops it if Roku later denies it', async () => {
      stores().roku.mode = 'down';
      const response = await send(URL_OF.roku, body({ transactionId: 'ghost' }));
      expect([response.statusCode, response.headers.apikey]).toEqual([200, undefined]);
      stores().roku.mode = 'up';
      time.set(new Date(NOW.getTime() + 31_000));
      try {
        await t().app.storeNotifications.inbox.drain();
      } finally {
        time.set(NOW);
      }
      expect(await inbox()).toEqual([expect.objectContaining({ state: 'refused', payload: {} })]);
      expect((await inbox())[0]!.result).toMatch(/^Roku Pay does not confirm/);
      expect(at(0)).toBe(NOW.toISOString());
    });
  });
});
