// The days of a trend read (REST /analytics/trends and /analytics/entitlements): calendar dates
// [from, to] of one zone, the previous range of as many days just before, and the instants where
// each of those days starts, so one query buckets both ranges by day. Pure.
//
// A day is a calendar date of the zone the reader names (the console sends the browser's), UTC
// when none: an owner has no zone of their own, and a network's channels each have theirs.
import { DateTime } from 'luxon';
import { requireZone } from '../schedules/labels.ts';

export const MAX_TREND_DAYS = 366;
export const DEFAULT_TREND_DAYS = 28;
const EARLIEST = '1970-01-02';
const LATEST = '9998-12-30';

export type Checked<T> = { ok: true; value: T } | { ok: false; message: string };

export interface TrendRange {
  /** First and last dates (inclusive) of the range read. */
  from: string;
  to: string;
  zone: string;
  days: number;
  previous: { from: string; to: string };
  /**
   * 2 x days + 1 instants (epoch ms): where each day of the previous range, then of the range,
   * starts, and where the range ends. Day i (0-based) is [bounds[i], bounds[i + 1]); the first
   * `days` are the previous range's.
   */
  bounds: number[];
}

const date = (d: DateTime) => d.toISODate()!;

/**
 * The range of `from` to `to` (dates yyyy-MM-dd, already well-formed) in `zone` (canonical, as
 * resolveZone gives it). `to` defaults to today in the zone, `from` to 27 days before `to`
 * (4 weeks); at most 366 days; the previous range must start on or after 1970-01-02.
 */
export function resolveTrendRange(from: string | undefined, to: string | undefined, zone: string, now: Date): Checked<TrendRange> {
  const z = requireZone(zone);
  const last = to ?? date(DateTime.fromMillis(now.getTime(), { zone: z }));
  const lastDay = DateTime.fromISO(last, { zone: z });
  const first = from ?? date(lastDay.minus({ days: DEFAULT_TREND_DAYS - 1 }));
  if (first > last) return { ok: false, message: 'from must be on or before to.' };
  const firstDay = DateTime.fromISO(first, { zone: z });
  const days = Math.round(lastDay.diff(firstDay, 'days').days) + 1;
  if (days > MAX_TREND_DAYS) return { ok: false, message: `The range may span at most ${MAX_TREND_DAYS} days (from and to included).` };
  const previousFirst = firstDay.minus({ days });
  if (date(previousFirst) < EARLIEST || last > LATEST) {
    return { ok: false, message: `Dates must be between ${EARLIEST} and ${LATEST}, with as many days before from.` };
  }
  // startOf('day') copes with zones whose midnight is skipped (the day then starts at 01:00).
  const bounds = Array.from({ length: 2 * days + 1 }, (_, i) => previousFirst.plus({ days: i }).startOf('day').toMillis());
  return { ok: true, value: { from: first, to: last, zone, days, previous: { from: date(previousFirst), to: date(firstDay.minus({ days: 1 })) }, bounds } };
}

/** The dates of the range read, in order (bounds' second half). */
export function rangeDates(range: TrendRange): string[] {
  const first = DateTime.fromISO(range.from, { zone: requireZone(range.zone) });
  return Array.from({ length: range.days }, (_, i) => date(first.plus({ days: i })));
}

export interface Change {
  absolute: number;
  /** Percent of the previous figure, one decimal; null when the previous is 0 (no base to compare). */
  percent: number | null;
}

export function changeOf(current: number, previous: number): Change {
  return { absolute: current - previous, percent: previous === 0 ? null : Math.round(((current - previous) / previous) * 1000) / 10 };
}

/** Each figure of `current` against the same of `previous`. */
export function changesOf<K extends string>(current: Record<K, number>, previous: Record<K, number>): Record<K, Change> {
  const keys = Object.keys(current) as K[];
  return Object.fromEntries(keys.map((k) => [k, changeOf(current[k], previous[k])])) as Record<K, Change>;
}
