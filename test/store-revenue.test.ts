// Selling with prices (issue 36 item 6), on every backend: the price and currency each store
// reports with a verified purchase are stored with it (Roku's amount and currency, Apple's signed
// price in milli-units; Amazon RVS and Google's one-time products report none: unknown), and the
// REST /analytics/entitlements answer adds revenue per day, store, product and currency, refunds
// netted on their own day, currencies never summed together. Another owner sees none of it.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { issueToken } from '../src/access/tokens.ts';
import { ppvUnlocks, verificationAttempts } from '../src/db/schema.ts';
import { customClient, type Headers } from './support/custom.ts';
import { BACKENDS } from './support/db.ts';
import {
  amazonReceipt,
  amazonReceiptData,
  appleJws,
  at,
  dataOf,
  DAY,
  googleProduct,
  HOUR,
  NOW,
  PPV,
  ROKU,
  rokuTransaction,
  SKU,
  SUBSCRIPTION,
  useEntitlementApp,
  useStores,
} from './support/entitlements.ts';

const stores = useStores();
const IOS: Headers = { 'platform-id': 'ios', 'device-id': 'dev-i' };
const FIRE: Headers = { 'platform-id': 'fire-tv', 'device-id': 'dev-f' };
const TV: Headers = { 'platform-id': 'android-tv', 'device-id': 'dev-g' };
const RK: Headers = { ...ROKU, 'device-id': 'dev-r' };
/** The test day (NOW is 2026-11-21T15:00Z) and the day before, in UTC. */
const RANGE = 'from=2026-11-20&to=2026-11-21';

describe.each(BACKENDS)('revenue (%s)', (kind) => {
  const t = useEntitlementApp(kind, stores);
  const { post } = customClient(t);
  const verified = async (path: string, body: Record<string, unknown>, headers: Headers, now?: string) => dataOf(await post(path, body, headers, now));
  const roku = (id: string, extra: Record<string, unknown>) => stores().roku.records.set(id, rokuTransaction(id, SKU.rokuMonthly, new Date(NOW.getTime() + 30 * DAY), extra));
  const rokuVerify = (receipt_data: string, now: string) => verified(`${SUBSCRIPTION}/verify`, { store_platform: 'Roku', product_id: SKU.rokuMonthly, receipt_data }, RK, now);
  const revenue = async (owner: number, query = RANGE) => {
    const token = await issueToken(t().database.db, owner, { kind: 'sliding', seconds: 86_400 }, NOW);
    const response = await t().request({ url: `/api/v1/rest/analytics/entitlements?${query}`, headers: { authorization: `Bearer ${token}` }, now: NOW.toISOString() });
    return dataOf(response).revenue;
  };

  /**
   * On 11-20: Roku r-1 bought (4.99 USD), Apple a-1 bought (5.99 EUR). On 11-21: Roku r-1 renewed
   * as r-2 (4.99 USD), r-2 refunded, Amazon bought (no price), a Google PPV bought (no price).
   */
  async function sell() {
    roku('r-1', { currency: 'usd' });
    expect(await rokuVerify('r-1', at(-DAY))).toMatchObject({ ok: true });
    expect(
      await verified(
        `${SUBSCRIPTION}/verify`,
        {
          store_platform: 'Apple',
          product_id: SKU.appleMonthly,
          receipt_data: appleJws(stores(), { price: 5990, currency: 'EUR' }),
        },
        IOS,
        at(-DAY),
      ),
    ).toMatchObject({ ok: true });
    roku('r-2', { OriginalTransactionId: 'r-1', currency: 'USD' });
    expect(await rokuVerify('r-2', at(-2 * HOUR))).toMatchObject({ ok: true });
    roku('r-2', { OriginalTransactionId: 'r-1', currency: 'USD', isEntitled: false, cancelled: true });
    expect(await rokuVerify('r-2', at(-HOUR))).toMatchObject({ ok: false, error: 'revoked' });
    stores().amazon.records.set('am-1', amazonReceipt('am-1', SKU.amazonMonthly, new Date(NOW.getTime() + 10 * DAY)));
    expect(await verified(`${SUBSCRIPTION}/verify`, { store_platform: 'Amazon', product_id: SKU.amazonMonthly, receipt_data: amazonReceiptData('am-1') }, FIRE)).toMatchObject({
      ok: true,
    });
    stores().google.records.set('token-1', googleProduct('GPA.1111', SKU.googlePpv));
    expect(await verified(`${PPV}/verify`, { store_platform: 'Google', product_id: SKU.googlePpv, receipt_data: 'token-1', video_tube_id: 5001 }, TV)).toMatchObject({ ok: true });
  }

  it('stores the price and currency each store reports, and none where it reports none', async () => {
    await sell();
    const attempts = await t().database.db.select().from(verificationAttempts).orderBy(verificationAttempts.id);
    expect(attempts.map((a) => [a.storePlatform, a.transactionId, a.outcome, a.priceMicros, a.priceCurrency, a.priceProductId])).toEqual([
      ['Roku', 'r-1', 'valid', 4_990_000, 'USD', SKU.rokuMonthly],
      ['Apple', '2000000111', 'valid', 5_990_000, 'EUR', SKU.appleMonthly],
      ['Roku', 'r-2', 'valid', 4_990_000, 'USD', SKU.rokuMonthly],
      ['Roku', 'r-2', 'revoked', 4_990_000, 'USD', SKU.rokuMonthly],
      ['Amazon', 'am-1', 'valid', null, null, SKU.amazonMonthly],
      ['Google', 'GPA.1111', 'valid', null, null, SKU.googlePpv],
    ]);
    const [unlock] = await t().database.db.select().from(ppvUnlocks).where(eq(ppvUnlocks.transactionId, 'GPA.1111'));
    expect([unlock!.priceMicros, unlock!.priceCurrency]).toEqual([null, null]);
  });

  it('stores a Roku PPV purchase with its price, and an amount without a currency as unknown', async () => {
    stores().roku.records.set('ppv-1', rokuTransaction('ppv-1', SKU.rokuPpv, null, { amount: 2.5, currency: 'CAD' }));
    stores().roku.records.set('ppv-2', rokuTransaction('ppv-2', SKU.rokuPpv, null, { amount: 2.5 }));
    for (const [receipt, video] of [
      ['ppv-1', 5002],
      ['ppv-2', 5003],
    ] as const) {
      expect(await verified(`${PPV}/verify`, { store_platform: 'Roku', product_id: SKU.rokuPpv, receipt_data: receipt, video_tube_id: video }, RK)).toMatchObject({ ok: true });
    }
    const unlocks = await t().database.db.select().from(ppvUnlocks).orderBy(ppvUnlocks.transactionId);
    expect(unlocks.map((u) => [u.transactionId, u.priceMicros, u.priceCurrency])).toEqual([
      ['ppv-1', 2_500_000, 'CAD'],
      ['ppv-2', null, null],
    ]);
  });

  it('adds revenue up per day, store, product and currency, refunds netted, the unknown apart', async () => {
    await sell();
    const money = (currency: string | null, sales: number, refunds: number, netMicros: number | null) => ({ currency, sales, refunds, netMicros });
    const r = await revenue(11);
    expect(r.totals).toEqual([
      { currency: 'EUR', current: money('EUR', 1, 0, 5_990_000), previous: money('EUR', 0, 0, 0) },
      { currency: 'USD', current: money('USD', 2, 1, 4_990_000), previous: money('USD', 0, 0, 0) },
      { currency: null, current: money(null, 2, 0, null), previous: money(null, 0, 0, null) },
    ]);
    expect(r.daily).toEqual([
      { day: '2026-11-20', ...money('EUR', 1, 0, 5_990_000) },
      { day: '2026-11-20', ...money('USD', 1, 0, 4_990_000) },
      // The renewal and its refund on the same day net to nothing.
      { day: '2026-11-21', ...money('USD', 1, 1, 0) },
      { day: '2026-11-21', ...money(null, 2, 0, null) },
    ]);
    expect(r.stores).toEqual([
      { store: 'Apple', ...money('EUR', 1, 0, 5_990_000) },
      { store: 'Google', ...money(null, 1, 0, null) },
      { store: 'Amazon', ...money(null, 1, 0, null) },
      { store: 'Roku', ...money('USD', 2, 1, 4_990_000) },
    ]);
    // Each product with the prices its store reported (none where it reported none).
    expect(r.products).toEqual([
      { store: 'Apple', kind: 'subscription', productId: SKU.appleMonthly, ...money('EUR', 1, 0, 5_990_000), prices: [5_990_000] },
      { store: 'Google', kind: 'ppv', productId: SKU.googlePpv, ...money(null, 1, 0, null), prices: [] },
      { store: 'Amazon', kind: 'subscription', productId: SKU.amazonMonthly, ...money(null, 1, 0, null), prices: [] },
      { store: 'Roku', kind: 'subscription', productId: SKU.rokuMonthly, ...money('USD', 2, 1, 4_990_000), prices: [4_990_000] },
    ]);
    // The refund counts on its own day: the day alone shows the renewal and the refund netted.
    const day = await revenue(11, 'from=2026-11-21&to=2026-11-21');
    expect(day.totals.find((x: any) => x.currency === 'USD')).toEqual({ currency: 'USD', current: money('USD', 1, 1, 0), previous: money('USD', 1, 0, 4_990_000) });
    expect((await revenue(11, `${RANGE}&store=Apple`)).totals).toEqual([{ currency: 'EUR', current: money('EUR', 1, 0, 5_990_000), previous: money('EUR', 0, 0, 0) }]);
  });

  it('writes the money in the purchases CSV: a column per currency, the unknown counted apart and never as an amount', async () => {
    await sell();
    const token = await issueToken(t().database.db, 11, { kind: 'sliding', seconds: 86_400 }, NOW);
    const csv = async (query: string) =>
      (await t().request({ url: `/api/v1/rest/analytics/entitlements?${query}`, headers: { authorization: `Bearer ${token}`, accept: 'text/csv' }, now: NOW.toISOString() })).body;
    expect(await csv(RANGE)).toBe(
      'day,newSubscriptions,renewals,subscriptionRefunds,ppvPurchases,ppvRefunds,revenueEUR,revenueUSD,salesPriceUnknown,refundsPriceUnknown\r\n' +
        '2026-11-20,2,0,0,0,0,5.99,4.99,0,0\r\n' +
        // The renewal and its refund net to nothing; Amazon's and Google's sales have no price.
        '2026-11-21,1,1,1,1,0,0,0,2,0\r\n',
    );
    // The store filter applies: Amazon reports no price, so no money column at all.
    expect(await csv(`${RANGE}&store=Amazon`)).toBe(
      'day,newSubscriptions,renewals,subscriptionRefunds,ppvPurchases,ppvRefunds,salesPriceUnknown,refundsPriceUnknown\r\n2026-11-20,0,0,0,0,0,0,0\r\n2026-11-21,1,0,0,0,0,1,0\r\n',
    );
  });

  it('shows another owner none of it', async () => {
    await sell();
    expect(await revenue(16)).toEqual({ totals: [], daily: [], stores: [], products: [] });
    expect(await revenue(16, `${RANGE}&store=Roku`)).toEqual({ totals: [], daily: [], stores: [], products: [] });
  });
});
