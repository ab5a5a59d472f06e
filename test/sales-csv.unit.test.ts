// The purchases CSV (REST /analytics/entitlements with Accept: text/csv): the day's counts, then
// the money per currency the range sold in, and the sales whose store reported no price counted
// apart, never written as an amount (docs/activity.md, Trends; docs/entitlements.md, Revenue).
import { describe, expect, it } from 'vitest';
import { salesCsv } from '../src/rest/analytics-presenter.ts';

const counts = (day: string, newSubscriptions: number, ppvPurchases: number) => ({ day, newSubscriptions, renewals: 0, subscriptionRefunds: 0, ppvPurchases, ppvRefunds: 0 });
const money = (day: string, currency: string | null, sales: number, refunds: number, netMicros: number | null) => ({ day, currency, sales, refunds, netMicros });

describe('the purchases CSV', () => {
  it('adds a revenue column per currency in units of it, and counts the unknown apart', () => {
    const csv = salesCsv({
      daily: [counts('2026-11-20', 2, 0), counts('2026-11-21', 0, 2), counts('2026-11-22', 0, 0)],
      revenue: {
        daily: [
          money('2026-11-20', 'USD', 1, 0, 4_990_000),
          money('2026-11-20', 'EUR', 1, 0, 5_990_000),
          money('2026-11-21', 'EUR', 0, 1, -5_990_000),
          money('2026-11-21', null, 2, 0, null),
        ],
      },
    });
    expect(csv.split('\r\n')).toEqual([
      'day,newSubscriptions,renewals,subscriptionRefunds,ppvPurchases,ppvRefunds,revenueEUR,revenueUSD,salesPriceUnknown,refundsPriceUnknown',
      '2026-11-20,2,0,0,0,0,5.99,4.99,0,0',
      // A refund alone: a negative amount, written as a number (not neutralised as a formula).
      '2026-11-21,0,0,0,2,0,-5.99,0,2,0',
      '2026-11-22,0,0,0,0,0,0,0,0,0',
      '',
    ]);
  });

  it('writes no money column for a range with no price, and the counts alone for a range with no sale', () => {
    const unknownOnly = salesCsv({ daily: [counts('2026-11-21', 0, 1)], revenue: { daily: [money('2026-11-21', null, 1, 0, null)] } });
    expect(unknownOnly).toBe('day,newSubscriptions,renewals,subscriptionRefunds,ppvPurchases,ppvRefunds,salesPriceUnknown,refundsPriceUnknown\r\n2026-11-21,0,0,0,1,0,1,0\r\n');
    expect(salesCsv({ daily: [counts('2026-11-21', 0, 0)], revenue: { daily: [] } })).toBe(
      'day,newSubscriptions,renewals,subscriptionRefunds,ppvPurchases,ppvRefunds\r\n2026-11-21,0,0,0,0,0\r\n',
    );
  });

  it('keeps amounts exact to the millionth', () => {
    const csv = salesCsv({
      daily: [counts('2026-11-21', 3, 0)],
      revenue: { daily: [money('2026-11-21', 'JPY', 3, 0, 1_440_000_000), money('2026-11-21', 'KWD', 1, 0, 1_234_567)] },
    });
    expect(csv.split('\r\n')[1]).toBe('2026-11-21,3,0,0,0,0,1440,1.234567');
  });
});
