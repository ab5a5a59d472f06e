import { describe, expect, it } from 'vitest';
import { currencyLabel, money, salesWords } from './revenue.ts';

describe('revenue words', () => {
  it('writes money in its own currency, never a price it does not know', () => {
    expect(money(4_990_000, 'USD', 'en-US')).toBe('$4.99');
    expect(money(-5_990_000, 'EUR', 'en-US')).toBe('-€5.99');
    expect(money(0, 'JPY', 'en-US')).toBe('¥0');
    expect(money(null, null)).toBe('unknown');
    expect(money(1_000_000, 'ZZZ', 'en-US')).toMatch(/1\.00/);
    expect(currencyLabel(null)).toBe('Price unknown');
  });

  it('counts sales and refunds in words', () => {
    expect(salesWords(1, 0)).toBe('1 sale');
    expect(salesWords(2, 1)).toBe('2 sales, 1 refund');
  });
});
