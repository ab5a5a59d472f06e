// Issue 26, item 4, from the attacker's side: the Roku notification URL must not hand out the Roku
// Pay API key to whoever names a real transaction id. The key goes only to a push Roku Pay confirms
// as the app's channel's, of a type Roku documents, fresh (event within a day), once per event
// (transaction id and type), whichever process answers; ROKU_NOTIFY_SOURCES and a per-address
// limit refuse before anything is read. A push refused the key is still kept and applied.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { sourceList } from '../src/entitlements/notifications/sources.ts';
import { storeNotifications, subscriptions } from '../src/db/schema.ts';
import { rokuApiKeySent } from '../src/observability/metrics.ts';
import { cpuOf } from './fuzz/property.ts';
import { testApp, type TestApp } from './support/app.ts';
import { BACKENDS } from './support/db.ts';
import { DAY, NOW, ROKU_KEY, rokuTransaction, SKU, useStores } from './support/entitlements.ts';
import { notificationCatalog, senderConfig, testClock, URL_OF, useNotificationApp, withSenders } from './support/notifications.ts';
import { expectCpuUnder } from './support/cpu-bounds.ts';

const stores = useStores();
const time = testClock();
const world = withSenders(stores);

/** Well under the 200 ms budget for an anonymous request, with room for a loaded machine. */
const ANONYMOUS_CPU_MS = 200;
const RESPONSE_KEY = 'abcdabcd6b1649f681a408f1beebabcd';

const push = (fields: Record<string, unknown>) =>
  JSON.stringify({ transactionType: 'Sale', channelId: '4242', productCode: SKU.rokuMonthly, eventDate: NOW.toISOString(), responseKey: RESPONSE_KEY, ...fields });

async function keysSent(): Promise<number> {
  return (await rokuApiKeySent.get()).values.find((v) => v.labels.app === '303')?.value ?? 0;
}

function sender(t: () => TestApp) {
  return async (payload: string, headers: Record<string, string> = {}, url: string = URL_OF.roku) => {
    const { result, cpuMs } = await cpuOf(() => t().request({ method: 'POST', url, payload, headers: { 'content-type': 'text/plain', ...headers } }));
    await t().app.storeNotifications.inbox.idle();
    return Object.assign(result, { cpuMs });
  };
}

describe('ROKU_NOTIFY_SOURCES and RATE_LIMIT_NOTIFY_MAX', () => {
  it('take addresses and CIDRs (unset: any source) and a positive count; anything else stops the start, named', () => {
    expect(loadConfig({}).ROKU_NOTIFY_SOURCES).toEqual([]);
    expect(loadConfig({}).RATE_LIMIT_NOTIFY_MAX).toBe(300);
    expect(loadConfig({ ROKU_NOTIFY_SOURCES: ' 10.0.0.0/8, 192.0.2.7,2001:DB8::/32 ,' }).ROKU_NOTIFY_SOURCES).toEqual(['10.0.0.0/8', '192.0.2.7', '2001:db8::/32']);
    for (const bad of ['loopback', '10.0.0.0/33', 'push.roku.com', '10.0.0.0/8/1', '2001:db8::/129']) {
      expect(() => loadConfig({ ROKU_NOTIFY_SOURCES: bad }), bad).toThrow(/ROKU_NOTIFY_SOURCES: not an address or CIDR/);
    }
    expect(() => loadConfig({ RATE_LIMIT_NOTIFY_MAX: '0' })).toThrow(/RATE_LIMIT_NOTIFY_MAX/);
  });

  it('match the client address, IPv4 written as IPv6 included', () => {
    const list = sourceList(['10.0.0.0/8', '192.0.2.7', '2001:db8::/32']);
    expect(['10.9.8.7', '::ffff:10.9.8.7', '192.0.2.7', '2001:db8:ffff::1'].map((a) => list.allows(a))).toEqual([true, true, true, true]);
    expect(['11.0.0.1', '192.0.2.8', '2001:db9::1', '', 'garbage'].map((a) => list.allows(a))).toEqual([false, false, false, false, false]);
    expect(sourceList([]).allows('203.0.113.1')).toBe(true);
  });
});

describe.each(BACKENDS)('the Roku Pay API key (%s)', (kind) => {
  const t = useNotificationApp(kind, world.stores, time.clock);
  const send = sender(t);
  const inbox = () => t().database.db.select().from(storeNotifications);
  const rokuCalls = () => stores().roku.server.requests.filter((r) => r.url.includes('validate-transaction')).length;
  const holdRoku = (transactionId: string) =>
    t()
      .database.db.insert(subscriptions)
      .values({
        appId: 303,
        deviceId: 'dev-r',
        storePlatform: 'Roku',
        productId: SKU.rokuMonthly,
        originalTransactionId: transactionId,
        status: 'active',
        expiresAt: new Date(NOW.getTime() + 30 * DAY),
        updatedAt: NOW,
        autoRenewing: true,
      });
  const real = (transactionId: string, extra: Record<string, unknown> = {}) =>
    stores().roku.records.set(transactionId, rokuTransaction(transactionId, SKU.rokuMonthly, new Date(NOW.getTime() + 20 * DAY), extra));

  it('a genuine fresh push gets the key exactly once, is applied, and is counted', async () => {
    await holdRoku('tx-genuine');
    real('tx-genuine', { isEntitled: false, cancelled: true });
    const before = await keysSent();
    const first = await send(push({ transactionId: 'tx-genuine', transactionType: 'Refund' }));
    expect([first.statusCode, first.body, first.headers.apikey]).toEqual([200, RESPONSE_KEY, ROKU_KEY]);
    expect(await keysSent()).toBe(before + 1);
    const [held] = await t().database.db.select().from(subscriptions).where(eq(subscriptions.originalTransactionId, 'tx-genuine'));
    expect(held).toMatchObject({ status: 'revoked' });
    // The mark records the sending and to whom (the address, never the key).
    const mark = (await inbox()).find((n) => n.notificationId === 'acknowledged/Refund/tx-genuine');
    expect(mark).toMatchObject({ state: 'ignored', result: 'acknowledged with the API key, to 127.0.0.1', payload: {} });
    expect(JSON.stringify(await inbox())).not.toContain(ROKU_KEY);
  });

  it('a replay of a real transaction id gets no key: same body, another body, many at once', async () => {
    real('tx-replayed');
    expect((await send(push({ transactionId: 'tx-replayed' }))).headers.apikey).toBe(ROKU_KEY);
    const callsAfterFirst = rokuCalls();
    const before = await keysSent();
    const replays = [
      push({ transactionId: 'tx-replayed' }),
      push({ transactionId: 'tx-replayed', eventDate: new Date(NOW.getTime() - 3_600_000).toISOString(), responseKey: 'ffffffff6b1649f681a408f1beebffff' }),
      push({ transactionId: 'tx-replayed', amount: 1, nonce: Math.random() }),
    ];
    for (const payload of replays) {
      const answer = await send(payload);
      expect([answer.statusCode, answer.headers.apikey]).toEqual([200, undefined]);
      expectCpuUnder(answer.cpuMs, ANONYMOUS_CPU_MS);
    }
    // Each costs one question to Roku Pay (and the per-address limit bounds them), no key.
    expect(rokuCalls() - callsAfterFirst).toBeLessThanOrEqual(2 * replays.length);
    expect(await keysSent()).toBe(before);

    // Twenty pushes of one new event at once (two processes' worth of races): one key.
    real('tx-raced');
    const raced = await Promise.all(Array.from({ length: 20 }, () => send(push({ transactionId: 'tx-raced', transactionType: 'Renewal' }))));
    expect(raced.map((r) => r.statusCode)).toEqual(Array(20).fill(200));
    const keyed = raced.filter((r) => r.headers.apikey === ROKU_KEY).length;
    expect(keyed).toBeLessThanOrEqual(1);
    // On a loaded machine the fake Roku Pay may miss the test's 500 ms timeout for all twenty (then
    // none is keyed); Roku's next retry settles it: one key in all.
    const retry = await send(push({ transactionId: 'tx-raced', transactionType: 'Renewal' }));
    expect(keyed + (retry.headers.apikey === ROKU_KEY ? 1 : 0)).toBe(1);
    expect(await keysSent()).toBe(before + 1);
  });

  it('invented types never get the key, and count as one event', async () => {
    real('tx-typed');
    for (const transactionType of ['Refund2', 'sale', 'X'.repeat(100), undefined]) {
      const answer = await send(push({ transactionId: 'tx-typed', transactionType }));
      expect([answer.statusCode, answer.headers.apikey], String(transactionType)).toEqual([200, undefined]);
    }
    expect((await inbox()).map((n) => n.notificationId)).toEqual([`other/${NOW.toISOString()}/tx-typed`]);
  });

  it('a stale or undated event gets no key, and is still kept and applied', async () => {
    await holdRoku('tx-stale');
    real('tx-stale', { isEntitled: false, cancelled: true });
    const before = await keysSent();
    for (const eventDate of [new Date(NOW.getTime() - 2 * DAY).toISOString(), new Date(NOW.getTime() + 2 * DAY).toISOString(), '/Date(1000000000000+0000)/', undefined]) {
      const answer = await send(push({ transactionId: 'tx-stale', transactionType: 'Cancellation', eventDate }));
      expect([answer.statusCode, answer.headers.apikey], String(eventDate)).toEqual([200, undefined]);
    }
    expect(await keysSent()).toBe(before);
    // Not lost: each is in the inbox and handled (the worker asks Roku Pay itself).
    const kept = await inbox();
    expect(kept).toHaveLength(4);
    expect(kept.filter((n) => n.state === 'pending')).toEqual([]);
    const [held] = await t().database.db.select().from(subscriptions).where(eq(subscriptions.originalTransactionId, 'tx-stale'));
    expect(held).toMatchObject({ status: 'revoked' });
  });

  it("Roku Pay not naming the app's channel, or not answering: no key; Roku's retry once it answers gets it", async () => {
    real('tx-nameless', { channelId: undefined });
    expect((await send(push({ transactionId: 'tx-nameless' }))).headers.apikey).toBeUndefined();
    stores().roku.mode = 'down';
    real('tx-later');
    const unanswered = await send(push({ transactionId: 'tx-later' }));
    expect([unanswered.statusCode, unanswered.headers.apikey]).toEqual([200, undefined]);
    stores().roku.mode = 'up';
    // Roku, unacknowledged, sends the push again: now confirmed, it gets the key, and only once.
    expect((await send(push({ transactionId: 'tx-later' }))).headers.apikey).toBe(ROKU_KEY);
    expect((await send(push({ transactionId: 'tx-later' }))).headers.apikey).toBeUndefined();
  });

  it('a later event of the same transaction and type is kept and applied, without the key', async () => {
    await holdRoku('tx-twice');
    real('tx-twice');
    expect((await send(push({ transactionId: 'tx-twice', transactionType: 'Renewal' }))).headers.apikey).toBe(ROKU_KEY);
    real('tx-twice', { isEntitled: false, cancelled: true });
    const later = await send(push({ transactionId: 'tx-twice', transactionType: 'Renewal', eventDate: new Date(NOW.getTime() + 3_600_000).toISOString() }));
    expect([later.statusCode, later.headers.apikey]).toEqual([200, undefined]);
    const [held] = await t().database.db.select().from(subscriptions).where(eq(subscriptions.originalTransactionId, 'tx-twice'));
    expect(held).toMatchObject({ status: 'revoked' });
  });

  it('a made-up transaction is refused without the key, whatever else the body says', async () => {
    const answer = await send(push({ transactionId: 'made-up', channelId: '4242' }));
    expect([answer.statusCode, answer.json().error.code, answer.headers.apikey]).toEqual([401, 'not_confirmed', undefined]);
    for (const payload of [push({ transactionId: 'a b' }), push({ transactionId: 'x'.repeat(1025) }), push({ transactionId: 'ok', responseKey: 7 })]) {
      const refused = await send(payload);
      expect([refused.statusCode, refused.json().error.code, refused.headers.apikey]).toEqual([400, 'malformed', undefined]);
    }
    expect(await inbox()).toEqual([]);
  });

  it('a second process on the same database agrees (the key is not sent again after a restart); each sending is logged', async () => {
    real('tx-restart');
    expect((await send(push({ transactionId: 'tx-restart' }))).headers.apikey).toBe(ROKU_KEY);
    const config = {
      ...stores().config,
      ...senderConfig(stores()),
      CHANNELNET_TEST_CLOCK: true,
      RATE_LIMIT_ENABLED: false,
      MAX_EVENT_LOOP_DELAY_MS: 0,
      STORE_NOTIFICATION_POLL_MS: 0,
    } as const;
    const lines: string[] = [];
    const other = await buildApp({ database: t().database, config, clock: time.clock, logger: { level: 'info', stream: { write: (line: string) => void lines.push(line) } } });
    const post = (transactionId: string) =>
      other.inject({
        method: 'POST',
        url: URL_OF.roku,
        payload: push({ transactionId }),
        headers: { 'content-type': 'text/plain', 'x-test-now': NOW.toISOString() },
        remoteAddress: '192.0.2.77',
      });
    try {
      const again = await post('tx-restart');
      expect([again.statusCode, again.headers.apikey]).toEqual([200, undefined]);
      real('tx-logged');
      expect((await post('tx-logged')).headers.apikey).toBe(ROKU_KEY);
      await other.storeNotifications.inbox.idle();
    } finally {
      await other.close();
    }
    const sent = lines.map((line) => JSON.parse(line)).filter((line) => line.msg === 'Roku API key sent in an acknowledgement');
    expect(sent).toEqual([expect.objectContaining({ appId: 303, transactionId: 'tx-logged', address: '192.0.2.77' })]);
    expect(lines.join('')).not.toContain(ROKU_KEY);
  });
});

describe.each(BACKENDS)('who may post to the notification URLs (%s)', (kind) => {
  let t: TestApp;
  const send = sender(() => t);

  it('a source outside ROKU_NOTIFY_SOURCES is refused before anything is read; the proxy-resolved address counts', async () => {
    t = await testApp(
      kind,
      notificationCatalog(world.stores()),
      {
        ...world.stores().config,
        ...senderConfig(world.stores()),
        ROKU_NOTIFY_SOURCES: ['10.0.0.0/8', '2001:db8::/32'],
        TRUST_PROXY: 1,
      },
      time.clock,
    );
    try {
      stores().roku.records.set('tx-source', rokuTransaction('tx-source', SKU.rokuMonthly, new Date(NOW.getTime() + 20 * DAY)));
      const calls = stores().roku.calls();
      await send(push({ transactionId: 'tx-source' })); // the app's first request compiles code: not what an attacker repeats
      for (const forwarded of ['203.0.113.9', '10.0.0.1, 203.0.113.9', undefined]) {
        const answer = await send(push({ transactionId: 'tx-source' }), forwarded ? { 'x-forwarded-for': forwarded } : {});
        expect([answer.statusCode, answer.json().error.code, answer.headers.apikey], String(forwarded)).toEqual([403, 'forbidden_source', undefined]);
        expectCpuUnder(answer.cpuMs, ANONYMOUS_CPU_MS);
      }
      expect(stores().roku.calls()).toBe(calls);
      expect(await t.database.db.select().from(storeNotifications)).toEqual([]);
      const allowed = await send(push({ transactionId: 'tx-source' }), { 'x-forwarded-for': '10.20.30.40' });
      expect([allowed.statusCode, allowed.headers.apikey]).toEqual([200, ROKU_KEY]);
      // The allow-list is Roku's: another store's URL is not restricted by it.
      expect((await send('{}', { 'x-forwarded-for': '203.0.113.9' }, URL_OF.apple)).json().error.code).toBe('malformed');
    } finally {
      await t.close();
    }
  });

  it("each address is limited on every store's URL: 429 in the envelope with Retry-After, others unaffected", async () => {
    t = await testApp(
      kind,
      notificationCatalog(world.stores()),
      {
        ...world.stores().config,
        ...senderConfig(world.stores()),
        RATE_LIMIT_ENABLED: true,
        RATE_LIMIT_NOTIFY_MAX: 3,
      },
      time.clock,
    );
    try {
      for (const [index, url] of [URL_OF.roku, URL_OF.apple, URL_OF.google, URL_OF.amazon].entries()) {
        const calls = stores().roku.calls();
        const answers = [];
        for (let i = 0; i < 5; i++)
          answers.push(
            await t.request({ method: 'POST', url, payload: push({ transactionId: 'made-up' }), headers: { 'content-type': 'text/plain' }, remoteAddress: `198.51.100.${index}` }),
          );
        expect(
          answers.map((a) => a.statusCode),
          url,
        ).toEqual([answers[0]!.statusCode, answers[0]!.statusCode, answers[0]!.statusCode, 429, 429]);
        expect(answers[3]!.json()).toEqual({ success: false, error: { code: 'too_many_requests', message: expect.any(String) } });
        expect(Number(answers[3]!.headers['retry-after'])).toBeGreaterThan(0);
        if (url === URL_OF.roku) expect(stores().roku.calls()).toBe(calls + 3);
        const elsewhere = await t.request({ method: 'POST', url, payload: '{}', headers: { 'content-type': 'text/plain' }, remoteAddress: `192.0.2.${index}` });
        expect(elsewhere.statusCode, url).not.toBe(429);
      }
    } finally {
      await t.close();
    }
  });
});
