import { describe, expect, it } from 'vitest';
import { currencyLabel, money, revenueChart, salesWords, type MoneyDay } from './revenue.ts';

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

  it('charts one currency over every day of the range, the main one unless another is picked, the unknown apart', () => {
    const day = (date: string, currency: string | null, sales: number, refunds: number, netMicros: number | null): MoneyDay => ({ day: date, currency, sales, refunds, netMicros });
    const daily = [
      day('2026-11-23', 'EUR', 1, 0, 5_990_000),
      day('2026-11-23', 'USD', 1, 0, 4_990_000),
      day('2026-11-25', 'EUR', 1, 1, 0), // a renewal refunded the same day
      day('2026-11-25', null, 2, 0, null),
      day('2026-11-29', 'EUR', 0, 1, -5_990_000), // a refund alone: a negative day
    ];
    const chart = revenueChart(daily, '2026-11-23', 7)!;
    // EUR had 4 sales and refunds, USD 1: EUR is the main currency.
    expect(chart.currencies).toEqual(['EUR', 'USD']);
    expect(chart.currency).toBe('EUR');
    expect(chart.data[0]).toEqual([0, 1, 2, 3, 4, 5, 6].map((i) => Date.parse('2026-11-23T00:00:00Z') / 1000 + i * 86_400));
    expect(chart.data[1]).toEqual([5.99, 0, 0, 0, 0, 0, -5.99]);
    expect(chart.totalMicros).toBe(0);
    expect(chart.unpriced).toEqual({ sales: 2, refunds: 0 });
    const usd = revenueChart(daily, '2026-11-23', 7, 'USD')!;
    expect([usd.currency, usd.data[1], usd.totalMicros]).toEqual(['USD', [4.99, 0, 0, 0, 0, 0, 0], 4_990_000]);
    // A currency the range does not have falls back to the main one; ties go A to Z.
    expect(revenueChart(daily, '2026-11-23', 7, 'JPY')!.currency).toBe('EUR');
    expect(revenueChart([day('2026-11-24', 'USD', 1, 0, 1), day('2026-11-24', 'EUR', 1, 0, 1)], '2026-11-24', 1)!.currencies).toEqual(['EUR', 'USD']);
    // Nothing sold with a price: no chart (never a line of zeros for prices nobody reported).
    expect(revenueChart([day('2026-11-25', null, 2, 0, null)], '2026-11-23', 7)).toBeNull();
    expect(revenueChart([], '2026-11-23', 7)).toBeNull();
  });
});
