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
