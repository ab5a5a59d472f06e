// What each store's verified answer carries for price (src/entitlements/stores/prices.ts): exact
// millionths of the currency, or null (unknown) when the store names no price or no currency.
import { describe, expect, it } from 'vitest';
import { priceOf } from '../src/entitlements/stores/prices.ts';

describe('priceOf', () => {
  it("reads Apple's signed price in milli-units with its currency", () => {
    expect(priceOf('Apple', { source: 'signed transaction', transaction: { price: 4990, currency: 'USD' } })).toEqual({ micros: 4_990_000, currency: 'USD' });
    expect(priceOf('Apple', { transaction: { price: 4990 } })).toBeNull();
    expect(priceOf('Apple', { transaction: {} })).toBeNull();
  });

  it("reads Google's recurring price of the line item of the product, or the older priceAmountMicros", () => {
    const answer = {
      lineItems: [
        { productId: 'other', autoRenewingPlan: { recurringPrice: { currencyCode: 'USD', units: '1', nanos: 0 } } },
        { productId: 'monthly', autoRenewingPlan: { recurringPrice: { currencyCode: 'EUR', units: '5', nanos: 990_000_000 } } },
      ],
    };
    expect(priceOf('Google', answer, 'monthly')).toEqual({ micros: 5_990_000, currency: 'EUR' });
    expect(priceOf('Google', { priceAmountMicros: '2990000', priceCurrencyCode: 'GBP' })).toEqual({ micros: 2_990_000, currency: 'GBP' });
    expect(priceOf('Google', { kind: 'androidpublisher#productPurchase', orderId: 'GPA.1' })).toBeNull();
  });

  it("reads Roku's amount and currency (tax apart), and knows no Amazon price", () => {
    expect(priceOf('Roku', { amount: 9.99, currency: 'usd', tax: 0.79, total: 10.78 })).toEqual({ micros: 9_990_000, currency: 'USD' });
    expect(priceOf('Roku', { amount: 9.99 })).toBeNull();
    expect(priceOf('Roku', { amount: 'x', currency: 'USD' })).toBeNull();
    expect(priceOf('Amazon', { receiptId: 'r', productId: 'p', term: '1 Month', termSku: 'p-m' })).toBeNull();
    expect(priceOf('Roku', null)).toBeNull();
  });
});

describe("the stores' credential forms", () => {
  it('require exactly what the verifiers require', async () => {
    const { CREDENTIAL_KEYS } = await import('../src/entitlements/stores/index.ts');
    const { STORE_CREDENTIAL_FIELDS, CREDENTIAL_STORES } = await import('../src/vocabulary.ts');
    for (const store of CREDENTIAL_STORES) {
      const verifier = Object.entries(CREDENTIAL_KEYS[store])
        .filter(([, doc]) => doc.required)
        .map(([key]) => key)
        .sort();
      const form = STORE_CREDENTIAL_FIELDS[store]
        .filter((f) => f.required)
        .map((f) => f.key)
        .sort();
      expect(form, store).toEqual(verifier);
      // Every key a form names is one the verifiers read.
      expect(
        STORE_CREDENTIAL_FIELDS[store].map((f) => f.key).filter((key) => !(key in CREDENTIAL_KEYS[store])),
        store,
      ).toEqual([]);
    }
  });
});
