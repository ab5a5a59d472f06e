// Trends under the REST API: watch figures per day (sessions fed through the real ingestion with
// the test clock) and subscriptions and purchases per day (the records verification and store
// notifications write, inserted as those flows write them), in a zone, against the previous range.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueToken } from '../src/access/tokens.ts';
import { ppvUnlocks, subscriptions, verificationAttempts } from '../src/db/schema.ts';
import { OWNER, smallCatalog } from './fixtures/catalog.ts';
import { testApp, type TestApp } from './support/app.ts';
import { BACKENDS } from './support/db.ts';

const REST = '/api/v1/rest';
const NOW = '2026-11-22T12:00:00.000Z';
const OTHER = 16;
const NY = 'timezone=America/New_York';
/** Two days in New York (UTC-5): 2026-11-20T05:00Z to 2026-11-22T05:00Z; previous 11-18T05:00Z to 11-20T05:00Z. */
const RANGE = 'from=2026-11-20&to=2026-11-21';

function trendsCatalog() {
  const catalog: any = smallCatalog();
  catalog.accounts.push({ id: OTHER, username: 'other', email: 'other@example.com', password: 'pw-other', publicUrl: 'other' });
  catalog.channels.push({ id: 401, ownerId: OTHER, name: 'Other channel', url: 'other', categoryId: 1, createdAt: '2026-01-01T00:00:00Z' });
  catalog.apps.push({ id: 399, ownerId: OTHER, platform: 'roku', appName: 'Other Roku', createdAt: '2026-03-01T00:00:00Z' });
  catalog.entitlements = { subscriptions: [], ppvUnlocks: [] };
  return catalog;
}

const minutes = (start: string, count: number) => Array.from({ length: count }, (_, m) => new Date(Date.parse(start) + m * 60_000).toISOString());
const beats = (start: string, count: number, body: object): [string, object][] => minutes(start, count).map((at) => [at, body]);

/** Sessions A to G; the figures below are worked out from them. */
const HEARTBEATS: [string, object][] = [
  ...beats('2026-11-20T04:30:00Z', 3, { source: 'roku_app', user_id: 'v1', channel_id: 201 }), // A: 120 s, NY 11-19 23:30 (previous)
  ...beats('2026-11-20T10:00:00Z', 4, { source: 'roku_app', user_id: 'v1', channel_id: 201 }), // B: 180 s, NY 11-20
  ...beats('2026-11-20T10:00:30Z', 1, { source: 'fire_tv', user_id: 'v2', channel_id: 202 }), // C: 60 s, NY 11-20
  ...beats('2026-11-21T04:59:00Z', 1, { source: 'mobile_app_on_ios', user_id: 'v2', channel_id: 201 }), // D: 60 s, NY 11-20 23:59
  ...beats('2026-11-21T05:00:00Z', 6, { source: 'roku_app', user_id: 'v3', channel_id: 202 }), // E: 300 s, NY 11-21 00:00
  ...beats('2026-11-20T12:00:00Z', 2, { source: 'roku_app', user_id: 'v9', channel_id: 401 }), // F: another owner's
  ...beats('2026-11-18T15:00:00Z', 1, { source: 'roku_app', user_id: 'v1', channel_id: 202 }), // G: 60 s, NY 11-18 (previous)
];

const figures = (uniqueDevices: number, sessions: number, watchSeconds: number) => ({ uniqueDevices, sessions, watchSeconds });
const change = (absolute: number, percent: number | null) => ({ absolute, percent });

describe.each(BACKENDS)('trends on %s', (backend) => {
  let t: TestApp;
  let token: string;
  let otherToken: string;
  beforeAll(async () => {
    t = await testApp(backend, trendsCatalog());
    for (const [now, body] of HEARTBEATS) {
      const response = await t.request({ method: 'POST', url: '/api/v1/activity', now, payload: { action: 'play_channel', client_id: 11, ...body } });
      expect(response.statusCode).toBe(200);
    }
    await seedSales(t);
    token = await issueToken(t.database.db, OWNER.id, { kind: 'sliding', seconds: 30 * 86_400 }, new Date(NOW));
    otherToken = await issueToken(t.database.db, OTHER, { kind: 'sliding', seconds: 30 * 86_400 }, new Date(NOW));
  });
  afterAll(() => t.close());

  const get = (path: string, headers: Record<string, string> = {}, bearer = token) =>
    t.request({ url: `${REST}/analytics/${path}`, headers: { authorization: `Bearer ${bearer}`, ...headers }, now: NOW });
  const data = async (path: string, bearer = token) => {
    const response = await get(path, {}, bearer);
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data;
  };

  it('counts devices, sessions and watch time per day of the zone, against the previous range', async () => {
    const trends = await data(`trends?${RANGE}&${NY}`);
    expect(trends).toMatchObject({
      from: '2026-11-20',
      to: '2026-11-21',
      timezone: 'America/New_York',
      days: 2,
      previous: { from: '2026-11-18', to: '2026-11-19' },
      channelId: null,
      source: null,
    });
    expect(trends.daily).toEqual([
      { day: '2026-11-20', ...figures(2, 3, 300) }, // B, C, D
      { day: '2026-11-21', ...figures(1, 1, 300) }, // E
    ]);
    expect(trends.totals).toEqual({
      current: figures(3, 4, 600),
      previous: figures(1, 2, 180), // A, G: one device
      change: { uniqueDevices: change(2, 200), sessions: change(2, 100), watchSeconds: change(420, 233.3) },
    });
    expect(trends.channels).toEqual([
      {
        channelId: 202,
        channelName: 'Alice Music',
        current: figures(2, 2, 360),
        previous: figures(1, 1, 60),
        change: { uniqueDevices: change(1, 100), sessions: change(1, 100), watchSeconds: change(300, 500) },
      },
      {
        channelId: 201,
        channelName: 'Alice News',
        current: figures(2, 2, 240),
        previous: figures(1, 1, 120),
        change: { uniqueDevices: change(1, 100), sessions: change(1, 100), watchSeconds: change(120, 100) },
      },
    ]);
    expect(trends.sources.map((s: any) => [s.source, s.current, s.previous, s.change.watchSeconds])).toEqual([
      ['roku_app', figures(2, 2, 480), figures(1, 2, 180), change(300, 166.7)],
      ['fire_tv', figures(1, 1, 60), figures(0, 0, 0), change(60, null)],
      ['mobile_app_on_ios', figures(1, 1, 60), figures(0, 0, 0), change(60, null)],
    ]);
  });

  it('puts day boundaries at midnight of the zone asked (UTC by default)', async () => {
    const utc = await data(`trends?${RANGE}`);
    expect(utc.timezone).toBe('UTC');
    expect(utc.daily).toEqual([
      { day: '2026-11-20', ...figures(2, 3, 360) },
      { day: '2026-11-21', ...figures(2, 2, 360) },
    ]); // A, B, C | D, E
    expect(utc.totals.previous).toEqual(figures(1, 1, 60)); // G
    // A Windows zone id is the same zone.
    expect((await data(`trends?${RANGE}&timezone=Eastern%20Standard%20Time`)).daily).toEqual((await data(`trends?${RANGE}&${NY}`)).daily);
  });

  it('filters by channel and platform', async () => {
    const news = await data(`trends?${RANGE}&${NY}&channelId=201`);
    expect([news.channelId, news.daily, news.totals.previous, news.channels.map((c: any) => c.channelId)]).toEqual([
      201,
      [
        { day: '2026-11-20', ...figures(2, 2, 240) },
        { day: '2026-11-21', ...figures(0, 0, 0) },
      ],
      figures(1, 1, 120),
      [201],
    ]);
    const roku = await data(`trends?${RANGE}&${NY}&channelId=202&source=roku_app`);
    expect([roku.source, roku.daily.map((d: any) => d.watchSeconds), roku.totals.current, roku.totals.previous]).toEqual([
      'roku_app',
      [0, 300],
      figures(1, 1, 300),
      figures(1, 1, 60),
    ]);
  });

  it('defaults to the 28 days ending today in the zone', async () => {
    const defaults = await data('trends');
    expect([defaults.from, defaults.to, defaults.days, defaults.previous, defaults.daily.length]).toEqual([
      '2026-10-26',
      '2026-11-22',
      28,
      { from: '2026-09-28', to: '2026-10-25' },
      28,
    ]);
    expect(defaults.totals.current).toEqual(figures(3, 6, 780));
  });

  it('counts new subscriptions, renewals, refunds and PPV purchases per day and store', async () => {
    const sales = await data(`entitlements?${RANGE}&${NY}`);
    const zero = { newSubscriptions: 0, renewals: 0, subscriptionRefunds: 0, ppvPurchases: 0, ppvRefunds: 0 };
    expect(sales).toMatchObject({ from: '2026-11-20', to: '2026-11-21', timezone: 'America/New_York', days: 2, store: null });
    expect(sales.daily).toEqual([
      { day: '2026-11-20', ...zero, newSubscriptions: 1, renewals: 1, ppvPurchases: 1 },
      { day: '2026-11-21', ...zero, subscriptionRefunds: 1, ppvRefunds: 1 },
    ]);
    expect(sales.totals.current).toEqual({ newSubscriptions: 1, renewals: 1, subscriptionRefunds: 1, ppvPurchases: 1, ppvRefunds: 1 });
    expect(sales.totals.previous).toEqual({ ...zero, newSubscriptions: 1, ppvPurchases: 1 });
    expect(sales.totals.change).toEqual({
      newSubscriptions: change(0, 0),
      renewals: change(1, null),
      subscriptionRefunds: change(1, null),
      ppvPurchases: change(0, 0),
      ppvRefunds: change(1, null),
    });
    expect(sales.stores.map((s: any) => [s.store, s.current, s.previous])).toEqual([
      ['Apple', { ...zero, newSubscriptions: 1 }, zero],
      ['Google', { ...zero, ppvRefunds: 1 }, { ...zero, ppvPurchases: 1 }],
      ['Roku', { ...zero, renewals: 1, subscriptionRefunds: 1, ppvPurchases: 1 }, { ...zero, newSubscriptions: 1 }],
    ]);
    const roku = await data(`entitlements?${RANGE}&${NY}&store=Roku`);
    expect([roku.store, roku.stores.map((s: any) => s.store), roku.totals.previous.newSubscriptions, roku.daily[1].subscriptionRefunds]).toEqual(['Roku', ['Roku'], 1, 1]);
    // In UTC the Apple purchase at 04:30Z falls on 11-21.
    expect((await data(`entitlements?${RANGE}`)).daily.map((d: any) => d.newSubscriptions)).toEqual([0, 1]);
  });

  it("shows another owner nothing of these, and another owner's channel is not found", async () => {
    const theirs = await data(`trends?${RANGE}&${NY}`, otherToken);
    expect([theirs.totals.current, theirs.channels.map((c: any) => c.channelId)]).toEqual([figures(1, 1, 60), [401]]);
    const sales = await data(`entitlements?${RANGE}&${NY}`, otherToken);
    expect([sales.totals.current.newSubscriptions, sales.totals.current.ppvPurchases, sales.stores.map((s: any) => s.store)]).toEqual([1, 1, ['Roku']]);
    const foreign = await get(`trends?${RANGE}&channelId=401`);
    expect([foreign.statusCode, foreign.json().error.code]).toEqual([404, 'channel_not_found']);
    expect((await t.request({ url: `${REST}/analytics/trends?${RANGE}`, now: NOW })).statusCode).toBe(401);
  });

  it('refuses bad ranges and parameters with 400', async () => {
    for (const query of [
      'from=2026-11-21&to=2026-11-20', // backwards
      'from=2025-11-20&to=2026-11-21', // 367 days
      'from=2026-02-30&to=2026-03-01', // not a date
      'from=2026-11-20T00:00:00Z', // an instant, not a date
      'from=1970-01-02&to=1970-01-02', // the previous range would start before 1970-01-02
      'timezone=Mars/Base',
      'source=betamax',
      'channelid=201',
    ]) {
      const response = await get(`trends?${query}`);
      expect([query, response.statusCode, response.json().error?.code]).toEqual([query, 400, 'invalid_request']);
    }
    for (const query of ['store=apple', 'from=2026-11-20&to=2026-11-21&channelId=201']) {
      expect((await get(`entitlements?${query}`)).statusCode).toBe(400);
    }
    expect((await data('trends?from=2025-11-21&to=2026-11-21')).days).toBe(366);
  });

  it('answers the days as CSV with Accept: text/csv', async () => {
    const trends = await get(`trends?${RANGE}&${NY}`, { accept: 'text/csv' });
    expect([trends.statusCode, trends.headers['content-type'], trends.headers['content-disposition']]).toEqual([
      200,
      'text/csv; charset=utf-8',
      'attachment; filename="trends-2026-11-20-2026-11-21.csv"',
    ]);
    expect(trends.body).toBe('day,uniqueDevices,sessions,watchSeconds\r\n2026-11-20,2,3,300\r\n2026-11-21,1,1,300\r\n');
    const sales = await get(`entitlements?${RANGE}&${NY}`, { accept: 'text/csv' });
    expect(sales.headers['content-disposition']).toBe('attachment; filename="entitlements-2026-11-20-2026-11-21.csv"');
    // These purchases carry no price (recorded as before migration 0020): counted apart, never as an amount.
    expect(sales.body).toBe(
      'day,newSubscriptions,renewals,subscriptionRefunds,ppvPurchases,ppvRefunds,salesPriceUnknown,refundsPriceUnknown\r\n2026-11-20,1,1,0,1,0,3,0\r\n2026-11-21,0,0,1,0,1,0,2\r\n',
    );
  });
});

/**
 * Verification attempts and unlocks as the purchase flows and the store notification worker record
 * them (src/entitlements/attempts.ts, data/ppv-unlocks.ts). Worked out in New York days:
 * Roku r-1 new on 11-18 (previous), renewed 11-20 (a new transaction), refunded 11-21; Apple a-1
 * new on 11-20 23:30; PPV bought 11-20 (Roku) and 11-19 (Google, refunded 11-21).
 */
async function seedSales(t: TestApp) {
  const { db } = t.database;
  const sub = (appId: number, storePlatform: 'Apple' | 'Roku', originalTransactionId: string) => ({
    appId,
    storePlatform,
    productId: 'p',
    originalTransactionId,
    status: 'active',
    updatedAt: new Date(NOW),
  });
  await db.insert(subscriptions).values([sub(303, 'Roku', 'r-1'), sub(301, 'Apple', 'a-1'), sub(301, 'Apple', 'a-2'), sub(399, 'Roku', 'o-1')]);
  type Route = 'subscription_verify' | 'subscription_restore' | 'subscription_status' | 'ppv_verify' | 'notification';
  const attempt = (at: string, appId: number, storePlatform: 'Apple' | 'Roku', route: Route, otx: string, tx: string, outcome: string, granted: boolean) => ({
    at: new Date(at),
    appId,
    storePlatform,
    route,
    originalTransactionId: otx,
    transactionId: tx,
    outcome,
    granted,
    deviceId: 'dev',
  });
  await db.insert(verificationAttempts).values([
    attempt('2026-11-18T15:00:00Z', 303, 'Roku', 'subscription_verify', 'r-1', 'r-1', 'valid', true), // new (previous)
    attempt('2026-11-20T15:00:00Z', 303, 'Roku', 'notification', 'r-1', 'r-1-2', 'valid', true), // renewal
    attempt('2026-11-20T16:00:00Z', 303, 'Roku', 'subscription_status', 'r-1', 'r-1-2', 'valid', true), // the same renewal again
    attempt('2026-11-21T15:00:00Z', 303, 'Roku', 'notification', 'r-1', 'r-1-2', 'refunded', false), // refund
    attempt('2026-11-21T16:00:00Z', 303, 'Roku', 'notification', 'r-1', 'r-1-2', 'refunded', false), // the same refund repeated
    attempt('2026-11-21T04:30:00Z', 301, 'Apple', 'subscription_verify', 'a-1', 'a-1', 'valid', true), // new, NY 11-20
    attempt('2026-11-21T04:40:00Z', 301, 'Apple', 'subscription_restore', 'a-1', 'a-1', 'valid', true), // moved to a device: not new
    attempt('2026-11-20T20:00:00Z', 301, 'Apple', 'subscription_verify', 'a-2', '', 'refused', false), // refused: nothing
    attempt('2026-11-20T20:00:00Z', 301, 'Apple', 'ppv_verify', 'no-sub', 'no-sub', 'valid', true), // not a subscription
    attempt('2026-11-20T20:00:00Z', 399, 'Roku', 'subscription_verify', 'o-1', 'o-1', 'valid', true), // another owner's
  ]);
  const unlock = (appId: number, storePlatform: 'Google' | 'Roku', transactionId: string, createdAt: string, revokedAt: string | null = null) => ({
    appId,
    videoId: 5002,
    storePlatform,
    productId: 'ppv',
    transactionId,
    deviceId: 'dev',
    createdAt: new Date(createdAt),
    expiresAt: new Date(Date.parse(createdAt) + 86_400_000),
    revokedAt: revokedAt ? new Date(revokedAt) : null,
  });
  await db
    .insert(ppvUnlocks)
    .values([
      unlock(303, 'Roku', 'ppv-1', '2026-11-20T18:00:00Z'),
      unlock(302, 'Google', 'ppv-2', '2026-11-19T18:00:00Z', '2026-11-21T18:00:00Z'),
      unlock(399, 'Roku', 'ppv-3', '2026-11-20T18:00:00Z'),
    ]);
}
