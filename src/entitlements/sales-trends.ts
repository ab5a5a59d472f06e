// Subscribers and purchases of an owner per day (REST /analytics/entitlements): new
// subscriptions, renewals, subscription refunds and revocations, PPV purchases and PPV refunds,
// from what verification and the stores' notifications recorded (data/trends.ts saleRows says
// how each is told apart), per store, with the previous range of as many days and the change.
import { revenueRows, saleRows, type RevenueRow, type SaleKind, type SaleRow } from '../data/trends.ts';
import type { Queryable } from '../db/connect.ts';
import { compared, type Compared } from '../sessions/trends.ts';
import { rangeDates, type TrendRange } from '../sessions/trend-range.ts';

export interface SaleFigures {
  newSubscriptions: number;
  renewals: number;
  /** Refunded or revoked subscriptions (one per store transaction). */
  subscriptionRefunds: number;
  ppvPurchases: number;
  ppvRefunds: number;
}

export interface SalesTrends {
  daily: ({ day: string } & SaleFigures)[];
  totals: Compared<SaleFigures>;
  /** Every store with a figure in either range, in the order of STORE_PLATFORMS. */
  stores: ({ store: string } & Compared<SaleFigures>)[];
  revenue: Revenue;
}

/** Money of sales and refunds: `currency` null is what the stores sold without reporting a price. */
export interface Money {
  currency: string | null;
  /** Sales (purchases, renewals) and refunds (refunds, revocations) counted. */
  sales: number;
  refunds: number;
  /** Sales minus refunds in millionths of the currency; null when the currency is (unknown). */
  netMicros: number | null;
}

export interface Revenue {
  /** Per currency (never summed across currencies), the range's and the previous range's. */
  totals: { currency: string | null; current: Money; previous: Money }[];
  /** Days of the range with a sale or refund, per currency. */
  daily: ({ day: string } & Money)[];
  /** The range's money per store and currency. */
  stores: ({ store: string } & Money)[];
  /** The range's money per product (store, kind, the store's product id) and currency, with the
   *  distinct prices the store reported for it (millionths, ascending; none when unknown). */
  products: ({ store: string; kind: 'subscription' | 'ppv'; productId: string } & Money & { prices: number[] })[];
}

const FIELD: Record<SaleKind, keyof SaleFigures> = {
  new: 'newSubscriptions',
  renewal: 'renewals',
  refund: 'subscriptionRefunds',
  ppv: 'ppvPurchases',
  ppvRefund: 'ppvRefunds',
};
const zero = (): SaleFigures => ({ newSubscriptions: 0, renewals: 0, subscriptionRefunds: 0, ppvPurchases: 0, ppvRefunds: 0 });

export async function salesTrends(db: Queryable, range: TrendRange, filter: { ownerId: number; store?: string | undefined }, stores: readonly string[]): Promise<SalesTrends> {
  const [sales, money] = [await saleRows(db, { ...filter, bounds: range.bounds }), await revenueRows(db, { ...filter, bounds: range.bounds })];
  return { ...shapeSalesTrends(range, sales, stores), revenue: shapeRevenue(range, money, stores) };
}

/** Currencies in alphabetical order, the unknown (null) last. */
const byCurrency = (a: string | null, b: string | null) => (a === b ? 0 : a === null ? 1 : b === null ? -1 : a < b ? -1 : 1);

/** Adds the money rows up per currency: per range, per day, store and product of the range. Pure. */
export function shapeRevenue(range: TrendRange, rows: readonly RevenueRow[], stores: readonly string[]): Revenue {
  const none = (currency: string | null): Money => ({ currency, sales: 0, refunds: 0, netMicros: currency === null ? null : 0 });
  const add = (m: Money, r: RevenueRow) => {
    m.sales += r.sales;
    m.refunds += r.refunds;
    if (m.netMicros !== null) m.netMicros += r.micros ?? 0;
  };
  const groups = <K>() => new Map<string, { key: K; money: Money }>();
  const into = <K>(map: Map<string, { key: K; money: Money }>, id: string, key: K, r: RevenueRow) => {
    const entry = map.get(id) ?? { key, money: none(r.currency) };
    map.set(id, entry);
    add(entry.money, r);
  };
  const totals = groups<string | null>();
  const previous = groups<string | null>();
  const daily = groups<number>();
  const perStore = groups<string>();
  const products = groups<{ store: string; kind: 'subscription' | 'ppv'; productId: string }>();
  const prices = new Map<string, number[]>();
  for (const r of rows) {
    const current = r.day >= range.days;
    into(current ? totals : previous, String(r.currency), r.currency, r);
    if (!current) continue;
    into(daily, `${r.day}|${r.currency}`, r.day - range.days, r);
    into(perStore, `${r.store}|${r.currency}`, r.store, r);
    const product = `${r.store}|${r.kind}|${r.productId}|${r.currency}`;
    into(products, product, { store: r.store, kind: r.kind, productId: r.productId }, r);
    prices.set(
      product,
      [...new Set([...(prices.get(product) ?? []), ...r.prices])].sort((a, b) => a - b),
    );
  }
  const dates = rangeDates(range);
  const storeOrder = (s: string) => stores.indexOf(s);
  const currencies = [...new Set([...totals.values(), ...previous.values()].map((e) => e.money.currency))].sort(byCurrency);
  return {
    totals: currencies.map((currency) => ({
      currency,
      current: totals.get(String(currency))?.money ?? none(currency),
      previous: previous.get(String(currency))?.money ?? none(currency),
    })),
    daily: [...daily.values()].sort((a, b) => a.key - b.key || byCurrency(a.money.currency, b.money.currency)).map((e) => ({ day: dates[e.key]!, ...e.money })),
    stores: [...perStore.values()]
      .sort((a, b) => storeOrder(a.key) - storeOrder(b.key) || byCurrency(a.money.currency, b.money.currency))
      .map((e) => ({ store: e.key, ...e.money })),
    products: [...products.values()]
      .sort(
        (a, b) =>
          storeOrder(a.key.store) - storeOrder(b.key.store) ||
          a.key.kind.localeCompare(b.key.kind) ||
          (a.key.productId < b.key.productId ? -1 : a.key.productId > b.key.productId ? 1 : 0) ||
          byCurrency(a.money.currency, b.money.currency),
      )
      .map((e) => ({ ...e.key, ...e.money, prices: prices.get(`${e.key.store}|${e.key.kind}|${e.key.productId}|${e.money.currency}`) ?? [] })),
  };
}

/** Adds the rows up per day, per range and per store and range. Pure. */
export function shapeSalesTrends(range: TrendRange, rows: readonly SaleRow[], stores: readonly string[]): Omit<SalesTrends, 'revenue'> {
  const days = Array.from({ length: range.days }, zero);
  const totals = { current: zero(), previous: zero() };
  const perStore = new Map<string, { current: SaleFigures; previous: SaleFigures }>();
  for (const r of rows) {
    const field = FIELD[r.kind];
    const current = r.day >= range.days;
    if (current) days[r.day - range.days]![field] += r.n;
    totals[current ? 'current' : 'previous'][field] += r.n;
    const store = perStore.get(r.store) ?? { current: zero(), previous: zero() };
    store[current ? 'current' : 'previous'][field] += r.n;
    perStore.set(r.store, store);
  }
  return {
    daily: rangeDates(range).map((day, i) => ({ day, ...days[i]! })),
    totals: compared(totals.current, totals.previous),
    stores: stores.filter((s) => perStore.has(s)).map((store) => ({ store, ...compared(perStore.get(store)!.current, perStore.get(store)!.previous) })),
  };
}
