// Nothing acknowledged is lost: a server process acknowledges a Google notification, starts
// applying it (the store re-read hangs) and is killed; a new process applies it, once. Real
// processes on one PostgreSQL; the fake stores run in this test process.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importCatalog } from '../src/catalog/import.ts';
import { storeNotifications, subscriptions, verificationAttempts } from '../src/db/schema.ts';
import { freshDatabase, type TestDatabase } from './support/db.ts';
import { DAY, NOW, startStores, type Stores } from './support/entitlements.ts';
import { addSenders, GOOGLE_MONTHLY, googlePush, notificationCatalog, senderConfig, URL_OF, type Senders } from './support/notifications.ts';
import { startServerProcess, type ServerProcess } from './support/processes.ts';

const POLL = { timeout: 30_000, interval: 50 };

describe.runIf(process.env.TEST_DATABASE_URL)('store notifications survive a killed process', () => {
  let database: TestDatabase;
  let stores: Stores;
  let senders: Senders;
  let env: Record<string, string>;
  const servers: ServerProcess[] = [];

  beforeAll(async () => {
    stores = await startStores();
    senders = addSenders(stores);
    database = await freshDatabase('postgres');
    await importCatalog(database.db, notificationCatalog(stores), { replace: false, now: NOW });
    const config = { ...stores.config, ...senderConfig(stores) };
    env = {
      ...Object.fromEntries(Object.entries(config).map(([key, value]) => [key, String(value)])),
      DATABASE_URL: database.url!,
      DEMO_ON_EMPTY: 'false',
      CHANNELNET_TEST_CLOCK: '1',
      CHANNELNET_SKIP_CONSOLE_BUILD: '1',
      STORE_NOTIFICATION_LEASE_SECONDS: '2',
      STORE_NOTIFICATION_POLL_MS: '100',
    };
  }, 120_000);
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await database?.close();
    await stores?.close();
  });

  it('is applied after a restart, once', async () => {
    await database.db.insert(subscriptions).values({
      appId: 302,
      deviceId: 'dev-g',
      storePlatform: 'Google',
      productId: GOOGLE_MONTHLY,
      originalTransactionId: 'sub-token',
      status: 'active',
      expiresAt: new Date(NOW.getTime() + 3650 * DAY),
      updatedAt: NOW,
      autoRenewing: true,
    });
    stores.google.records.set('sub-token', {
      subscriptionState: 'SUBSCRIPTION_STATE_EXPIRED',
      latestOrderId: 'GPA.7',
      lineItems: [{ productId: GOOGLE_MONTHLY, expiryTime: new Date(NOW.getTime() + 3650 * DAY).toISOString() }],
    });
    stores.google.mode = 'hang';
    // The first process waits on the store for a minute: long enough to be killed mid-apply.
    const first = await startServerProcess({ ...env, STORE_TIMEOUT_MS: '60000' });
    servers.push(first);
    const { headers, payload } = googlePush(
      senders,
      { subscriptionNotification: { notificationType: 12, purchaseToken: 'sub-token', subscriptionId: GOOGLE_MONTHLY } },
      { messageId: 'm-kill' },
    );
    const acknowledged = await fetch(`${first.url}${URL_OF.google}`, { method: 'POST', headers: { ...headers, 'x-test-now': NOW.toISOString() }, body: payload });
    expect(acknowledged.status).toBe(200);
    // The worker is inside the re-read (its token request or the purchase read is waiting on Google).
    await expect.poll(() => stores.google.server.requests.some((r) => r.url === '/token' || r.url.includes('/subscriptionsv2/')), POLL).toBe(true);
    const exited = new Promise((resolve) => first.child.once('exit', resolve));
    first.child.kill('SIGKILL');
    await exited;
    servers.pop();

    const inbox = () => database.db.select().from(storeNotifications);
    expect(await inbox()).toEqual([expect.objectContaining({ notificationId: 'm-kill', state: 'pending', attempts: 1 })]);
    expect((await database.db.select().from(subscriptions).where(eq(subscriptions.appId, 302)))[0]).toMatchObject({ status: 'active' });

    stores.google.mode = 'up';
    servers.push(await startServerProcess({ ...env, STORE_TIMEOUT_MS: '5000' }));
    await expect.poll(async () => (await inbox())[0]?.state, POLL).toBe('applied');
    expect(await inbox()).toEqual([expect.objectContaining({ state: 'applied', attempts: 2 })]);
    expect((await database.db.select().from(subscriptions).where(eq(subscriptions.appId, 302)))[0]).toMatchObject({ status: 'revoked' });
    const applied = await database.db.select().from(verificationAttempts).where(eq(verificationAttempts.route, 'notification'));
    expect(applied).toHaveLength(1);
  }, 120_000);
});
