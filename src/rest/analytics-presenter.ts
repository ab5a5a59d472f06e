// The CSV shapes of the REST analytics answers (`Accept: text/csv`): one column per field, in the
// order a spreadsheet reads them; the JSON shapes are the response schemas of schemas.ts.
import type { SummaryGroup } from '../data/activity.ts';
import type { ConcurrencyBucket, PresentedSession, Summary, SummaryLine } from '../sessions/analytics.ts';
import { toCsv, type CsvColumn, type CsvValue } from '../sessions/csv.ts';

const LINE_COLUMNS: CsvColumn<SummaryLine>[] = [
  { header: 'watchSeconds', value: (r) => r.watchSeconds },
  { header: 'sessions', value: (r) => r.sessions },
  { header: 'uniqueViewers', value: (r) => r.uniqueViewers },
  { header: 'averageSessionSeconds', value: (r) => r.averageSessionSeconds },
];

/** The key columns of each grouping, before the figures. */
const KEY_COLUMNS: Record<SummaryGroup, readonly string[]> = {
  channel: ['channelId', 'channelName'],
  source: ['source'],
  day: ['day'],
};

const SESSION_FIELDS = ['source', 'clientId', 'userId', 'channelId', 'startedAt', 'endedAt', 'lastHeartbeatAt', 'creditedSeconds', 'heartbeats', 'open'] as const;

export function summaryCsv(groupBy: SummaryGroup, groups: Summary['groups']): string {
  const keys = KEY_COLUMNS[groupBy].map((key) => ({ header: key, value: (r: Record<string, unknown>) => r[key] as string }));
  return toCsv([...keys, ...LINE_COLUMNS], groups);
}

export function sessionsCsv(items: readonly PresentedSession[]): string {
  return toCsv(
    SESSION_FIELDS.map((key) => ({ header: key, value: (r: PresentedSession) => r[key] })),
    items,
  );
}

export function concurrencyCsv(buckets: readonly ConcurrencyBucket[]): string {
  const columns: CsvColumn<ConcurrencyBucket>[] = [
    { header: 'start', value: (b) => b.start },
    { header: 'end', value: (b) => b.end },
    { header: 'viewers', value: (b) => b.viewers },
  ];
  return toCsv(columns, buckets);
}

/** One row per day of the range, the JSON's `daily` fields in order. */
export function dailyCsv<T extends { day: string }>(daily: readonly T[]): string {
  const fields = Object.keys(daily[0] ?? { day: '' }) as (keyof T & string)[];
  return toCsv(
    fields.map((key) => ({ header: key, value: (r: T) => r[key] as CsvValue })),
    daily,
  );
}

/** The purchases answer's parts the CSV reads (REST /analytics/entitlements). */
interface SalesForCsv<T extends { day: string }> {
  daily: readonly T[];
  revenue: { daily: readonly { day: string; currency: string | null; sales: number; refunds: number; netMicros: number | null }[] };
}

/**
 * One row per day of the range: the `daily` counts in order, then the money (docs/activity.md,
 * Trends): `revenue<CUR>` per currency the range sold in with a price (A to Z), that day's sales less
 * refunds in units of the currency (4.99; 0 when none); and, when the range sold any without a price,
 * `salesPriceUnknown` and `refundsPriceUnknown`, counts only: an unknown price is never written as an amount.
 */
export function salesCsv<T extends { day: string }>(sales: SalesForCsv<T>): string {
  const known = [...new Set(sales.revenue.daily.flatMap((m) => (m.currency === null ? [] : [m.currency])))].sort();
  const money = new Map<string, number>();
  const unknown = new Map<string, { sales: number; refunds: number }>();
  for (const m of sales.revenue.daily) {
    if (m.currency === null || m.netMicros === null) {
      const counted = unknown.get(m.day) ?? { sales: 0, refunds: 0 };
      unknown.set(m.day, { sales: counted.sales + m.sales, refunds: counted.refunds + m.refunds });
    } else money.set(`${m.day}|${m.currency}`, (money.get(`${m.day}|${m.currency}`) ?? 0) + m.netMicros);
  }
  const fields = Object.keys(sales.daily[0] ?? { day: '' }) as (keyof T & string)[];
  const columns: CsvColumn<T>[] = [
    ...fields.map((key) => ({ header: key, value: (r: T) => r[key] as CsvValue })),
    // A number, not text: "-5.99" as text would be taken for a formula and neutralised.
    ...known.map((currency) => ({ header: `revenue${currency}`, value: (r: T) => (money.get(`${r.day}|${currency}`) ?? 0) / 1_000_000 })),
    ...(unknown.size === 0
      ? []
      : [
          { header: 'salesPriceUnknown', value: (r: T) => unknown.get(r.day)?.sales ?? 0 },
          { header: 'refundsPriceUnknown', value: (r: T) => unknown.get(r.day)?.refunds ?? 0 },
        ]),
  ];
  return toCsv(columns, sales.daily);
}
