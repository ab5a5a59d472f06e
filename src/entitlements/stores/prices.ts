// The price a store reported with a verified transaction, read from its own answer (the verdict's
// `raw`), as millionths of the currency unit so that every store's figure is exact. A store that
// reports no price, or a price without its currency, gives null: unknown, never zero.
//
// What each store's verified answer carries (docs/entitlements.md, Revenue):
// - Apple: JWSTransactionDecodedPayload `price` (milli-units of `currency`, ISO 4217), on
//   StoreKit 2 transactions from the device, the App Store Server API and notifications.
// - Google: purchases.subscriptionsv2 `lineItems[].autoRenewingPlan.recurringPrice` (a Money:
//   `currencyCode`, `units`, `nanos`), or `priceAmountMicros` with `priceCurrencyCode` (the older
//   purchases.subscriptions answer); purchases.products (PPV) carries no price.
// - Amazon: the Receipt Verification Service answers no price (term SKU only): always unknown.
// - Roku: validate-transaction `amount` (a decimal, tax excluded: `tax` is apart) and `currency`.
import type { StorePlatform } from '../../vocabulary.ts';

export interface Price {
  /** Millionths of the currency unit (4.99 USD is 4_990_000). */
  micros: number;
  /** ISO 4217, upper case. */
  currency: string;
}

const record = (value: unknown): Record<string, unknown> | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;

/** A currency code as ISO 4217 spells it (Roku writes "usd"); anything else is no currency. */
function currencyOf(value: unknown): string | undefined {
  return typeof value === 'string' && /^[A-Za-z]{3}$/.test(value) ? value.toUpperCase() : undefined;
}

/** A finite number, or a numeric string (Google's int64 fields are strings). */
function numberOf(value: unknown): number | undefined {
  const n = typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value.trim()) ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) ? n : undefined;
}

function priced(micros: number | undefined, currency: string | undefined): Price | null {
  if (micros === undefined || currency === undefined || !Number.isSafeInteger(micros) || micros < 0) return null;
  return { micros, currency };
}

function apple(raw: Record<string, unknown>): Price | null {
  const tx = record(raw['transaction']) ?? raw;
  const milli = numberOf(tx['price']);
  return priced(milli === undefined ? undefined : Math.round(milli * 1000), currencyOf(tx['currency']));
}

function google(raw: Record<string, unknown>, productId: string | undefined): Price | null {
  const items = (Array.isArray(raw['lineItems']) ? raw['lineItems'] : []).map(record).filter((i) => i !== undefined);
  const item = items.find((i) => productId !== undefined && i['productId'] === productId) ?? items[0];
  const money = record(record(item?.['autoRenewingPlan'])?.['recurringPrice']);
  if (money) {
    const units = numberOf(money['units'] ?? 0);
    const nanos = numberOf(money['nanos'] ?? 0);
    const micros = units === undefined || nanos === undefined ? undefined : units * 1_000_000 + Math.round(nanos / 1000);
    return priced(micros, currencyOf(money['currencyCode']));
  }
  const micros = numberOf(raw['priceAmountMicros']);
  return priced(micros === undefined ? undefined : Math.round(micros), currencyOf(raw['priceCurrencyCode']));
}

function roku(raw: Record<string, unknown>): Price | null {
  const amount = numberOf(raw['amount']);
  return priced(amount === undefined ? undefined : Math.round(amount * 1_000_000), currencyOf(raw['currency']));
}

/** The price in the store's answer about one transaction of `productId`, or null when it names none. */
export function priceOf(store: StorePlatform, raw: unknown, productId?: string): Price | null {
  const answer = record(raw);
  if (!answer) return null;
  switch (store) {
    case 'Apple':
      return apple(answer);
    case 'Google':
      return google(answer, productId);
    case 'Amazon':
      return null;
    case 'Roku':
      return roku(answer);
  }
}
