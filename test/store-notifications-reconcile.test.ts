// `stores reconcile`: Apple's notification history and Google's voided purchases read back into
// the inbox from where the last run stopped, so a push that never arrived is caught up, once.
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { appStoreCredentials, ppvUnlocks, storeNotifications, storeReconciliations, subscriptions } from '../src/db/schema.ts';
import { BACKENDS } from './support/db.ts';
import { DAY, googleProduct, HOUR, NOW, SKU, useStores } from './support/entitlements.ts';
import { withSenders, appleSignedPayload, GOOGLE_MONTHLY, testClock, useNotificationApp } from './support/notifications.ts';
import { runChannelnet } from './support/processes.ts';

const stores = useStores();
const time = testClock();
const world = withSenders(stores);
const appleKey = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

describe.each(BACKENDS)('stores reconcile (%s)', (kind) => {
  const t = useNotificationApp(kind, world.stores, time.clock);
  const db = () => t().database.db;
  const reconcile = (since?: Date) => t().app.storeNotifications.reconcile(NOW, since);
  const withAppleApi = () =>
    db()
      .update(appStoreCredentials)
      .set({ credentials: { bundleId: 'com.alice', appAppleId: 1234567890, issuerId: 'issuer', keyId: 'KEY1', privateKey: appleKey } })
      .where(eq(appStoreCredentials.appId, 301));

  it('catches up a refund whose push never came, and only once', async () => {
    await withAppleApi();
    await db()
      .insert(subscriptions)
      .values({
        appId: 301,
        deviceId: 'dev-i',
        storePlatform: 'Apple',
        productId: SKU.appleMonthly,
        originalTransactionId: '2000000100',
        status: 'active',
        expiresAt: new Date(NOW.getTime() + 30 * DAY),
        updatedAt: NOW,
        autoRenewing: true,
      });
    world.senders().appleHistory = [
      appleSignedPayload(stores(), {
        type: 'REFUND',
        uuid: 'h-refund',
        signedAt: NOW.getTime() - 2 * HOUR,
        transaction: { revocationDate: NOW.getTime() - 2 * HOUR, revocationReason: 0 },
      }),
    ];
    world.senders().googleVoided = [];
    const lines = await reconcile();
    expect(lines).toEqual(
      expect.arrayContaining([
        { appId: 301, store: 'Apple', read: 1, added: 1 },
        { appId: 302, store: 'Google', read: 0, added: 0 },
      ]),
    );
    expect((await db().select().from(subscriptions))[0]).toMatchObject({ status: 'revoked' });
    const [asked] = stores().apple.server.requests.filter((r) => r.url.startsWith('/inApps/v1/notifications/history'));
    expect(asked!.headers.authorization).toMatch(/^Bearer ey/);
    expect(JSON.parse(asked!.body)).toEqual({ startDate: NOW.getTime() - 30 * DAY, endDate: NOW.getTime() });

    stores().apple.server.requests.length = 0;
    const again = await reconcile();
    expect(again.find((l) => l.store === 'Apple')).toEqual({ appId: 301, store: 'Apple', read: 1, added: 0 });
    // The second run starts where the first stopped, an hour back for late entries.
    expect(JSON.parse(stores().apple.server.requests[0]!.body).startDate).toBe(NOW.getTime() - HOUR);
    expect(await db().select().from(storeNotifications)).toHaveLength(1);
  });

  it('reads Google voided purchases: a refunded one-time purchase loses its unlock', async () => {
    await db()
      .insert(ppvUnlocks)
      .values({
        appId: 302,
        videoId: 5001,
        channelId: null,
        deviceId: 'dev-g',
        storePlatform: 'Google',
        productId: SKU.googlePpv,
        transactionId: 'GPA.5555',
        expiresAt: new Date(NOW.getTime() + DAY),
        createdAt: NOW,
      });
    stores().google.records.set('voided-token', googleProduct('GPA.5555', SKU.googlePpv, { purchaseState: 1 }));
    world.senders().appleHistory = [];
    world.senders().googleVoided = [
      {
        kind: 'androidpublisher#voidedPurchase',
        purchaseToken: 'voided-token',
        orderId: 'GPA.5555',
        voidedTimeMillis: String(NOW.getTime() - HOUR),
        voidedSource: 1,
        voidedReason: 1,
      },
    ];
    expect((await reconcile()).find((l) => l.store === 'Google')).toEqual({ appId: 302, store: 'Google', read: 1, added: 1 });
    expect((await db().select().from(ppvUnlocks))[0]).toMatchObject({ revokedAt: new Date(NOW.getTime() - HOUR) });
    const asked = stores().google.server.requests.find((r) => r.url.includes('/voidedpurchases'))!;
    expect(new URL(asked.url, 'http://x').searchParams.get('startTime')).toBe(String(NOW.getTime() - 30 * DAY));
    expect(GOOGLE_MONTHLY).toBeTruthy();
  });

  it('reports a store it could not read and keeps its mark, so the next run reads the same span', async () => {
    await withAppleApi();
    stores().apple.mode = 'down';
    const line = (await reconcile()).find((l) => l.store === 'Apple');
    expect(line).toMatchObject({ appId: 301, store: 'Apple', read: 0, added: 0, error: expect.stringMatching(/HTTP 503/) });
    expect(await db().select().from(storeReconciliations).where(eq(storeReconciliations.storePlatform, 'Apple'))).toEqual([]);
  });
});

describe('channelnet stores reconcile', () => {
  it('runs on an empty installation and refuses a bad --since', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'channelnet-reconcile-'));
    try {
      writeFileSync(join(dir, 'marker'), '');
      const ok = await runChannelnet(['stores', 'reconcile'], { DATA_DIR: join(dir, 'data') });
      expect([ok.code, ok.stdout, ok.stderr]).toEqual([0, '', '']);
      const bad = await runChannelnet(['stores', 'reconcile', '--since', 'last tuesday'], { DATA_DIR: join(dir, 'data') });
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain('--since takes an ISO 8601 instant');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
