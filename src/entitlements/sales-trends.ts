// Subscribers and purchases of an owner per day (REST /analytics/entitlements): new
// subscriptions, renewals, subscription refunds and revocations, PPV purchases and PPV refunds,
// from what verification and the stores' notifications recorded (data/trends.ts saleRows says
// how each is told apart), per store, with the previous range of as many days and the change.
import { saleRows, type SaleKind, type SaleRow } from '../data/trends.ts';
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
}

const FIELD: Record<SaleKind, keyof SaleFigures> = {
  new: 'newSubscriptions', renewal: 'renewals', refund: 'subscriptionRefunds', ppv: 'ppvPurchases', ppvRefund: 'ppvRefunds',
};
const zero = (): SaleFigures => ({ newSubscriptions: 0, renewals: 0, subscriptionRefunds: 0, ppvPurchases: 0, ppvRefunds: 0 });

export async function salesTrends(db: Queryable, range: TrendRange, filter: { ownerId: number; store?: string | undefined }, stores: readonly string[]): Promise<SalesTrends> {
  return shapeSalesTrends(range, await saleRows(db, { ...filter, bounds: range.bounds }), stores);
}

/** Adds the rows up per day, per range and per store and range. Pure. */
export function shapeSalesTrends(range: TrendRange, rows: readonly SaleRow[], stores: readonly string[]): SalesTrends {
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
