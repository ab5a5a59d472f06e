// Words for money in the revenue tables (pure): an amount in millionths of its currency as the
// reader's locale writes that currency, and "unknown" where the store reported no price.

/** `micros` of `currency` as money ("$4.99", "−€5.99"); unknown when either is null. */
export function money(micros: number | null, currency: string | null, locale?: string): string {
  if (micros === null || currency === null) return 'unknown';
  try {
    return new Intl.NumberFormat(locale, { style: 'currency', currency, currencyDisplay: 'narrowSymbol' }).format(micros / 1_000_000);
  } catch {
    // A code Intl does not know: the amount and the code as the store wrote it.
    return `${(micros / 1_000_000).toFixed(2)} ${currency}`;
  }
}

/** The currency's column text: its code, or what a store's silence means. */
export const currencyLabel = (currency: string | null) => currency ?? 'Price unknown';

/** "2 sales, 1 refund". */
export function salesWords(sales: number, refunds: number): string {
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  return refunds > 0 ? `${plural(sales, 'sale')}, ${plural(refunds, 'refund')}` : plural(sales, 'sale');
}

/** A day's money in one currency (REST's `revenue.daily` line); `currency` null: sold without a price. */
export interface MoneyDay {
  day: string;
  currency: string | null;
  sales: number;
  refunds: number;
  netMicros: number | null;
}

/** What the revenue chart draws: one currency's net money on every day of the range. */
export interface RevenueChart {
  /** The currencies the range sold in with a price: the main one (most sales and refunds, then A to Z) first. */
  currencies: string[];
  /** The currency drawn: the one asked for when the range has it, else the main one. */
  currency: string;
  /** x: every day of the range (its UTC midnight in seconds); y: the day's net in units of the currency, 0 on a day without a sale or refund in it. */
  data: [number[], number[]];
  /** The drawn currency's net over the range, in millionths. */
  totalMicros: number;
  /** Sales and refunds of the range whose store reported no price: in no currency, so not drawn. */
  unpriced: { sales: number; refunds: number };
}

const DAY_SECONDS = 86_400;

/**
 * Shapes the revenue per day (`daily`: only days with a sale or refund, per currency) for a chart of
 * one currency over every day from `from`, `days` days long (issue 36 item 6). Currencies are never
 * added together, so a chart draws one; the others are listed beside it to be picked. Null when the
 * range sold nothing with a price. Pure.
 */
export function revenueChart(daily: readonly MoneyDay[], from: string, days: number, wanted?: string | null): RevenueChart | null {
  const activity = new Map<string, number>();
  const unpriced = { sales: 0, refunds: 0 };
  for (const d of daily) {
    if (d.currency === null || d.netMicros === null) {
      unpriced.sales += d.sales;
      unpriced.refunds += d.refunds;
    } else activity.set(d.currency, (activity.get(d.currency) ?? 0) + d.sales + d.refunds);
  }
  const currencies = [...activity.keys()].sort((a, b) => activity.get(b)! - activity.get(a)! || (a < b ? -1 : 1));
  const currency = wanted && activity.has(wanted) ? wanted : currencies[0];
  if (currency === undefined) return null;
  const first = Date.parse(`${from}T00:00:00Z`) / 1000;
  const x = Array.from({ length: days }, (_, i) => first + i * DAY_SECONDS);
  const micros = new Array<number>(days).fill(0);
  for (const d of daily) {
    if (d.currency !== currency || d.netMicros === null) continue;
    const index = Math.round((Date.parse(`${d.day}T00:00:00Z`) / 1000 - first) / DAY_SECONDS);
    if (index >= 0 && index < days) micros[index]! += d.netMicros;
  }
  return { currencies, currency, data: [x, micros.map((m) => m / 1_000_000)], totalMicros: micros.reduce((a, b) => a + b, 0), unpriced };
}
