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
