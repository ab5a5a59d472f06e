// Watch analytics for an owner: ranges, buckets and the shape of each answer. Every figure is
// read at `now` with the session rules (data/activity.ts sessionView), so a session that stopped
// counts as closed whether or not the sweeper has run.
import { concurrencyRows, sessionCount, sessionRows, summaryRows, type SessionFilter, type SessionRow, type SummaryGroup } from '../data/activity.ts';
import type { Queryable } from '../db/connect.ts';
import { rollupPlan, type RollupPlan } from './rollup-plan.ts';

const DAY_MS = 86_400_000;
export const DEFAULT_RANGE_DAYS = 7;
export const MAX_RANGE_DAYS = 92;
export const MAX_BUCKETS = 10_080;

/** Bucket widths; each divides a day, so buckets line up with UTC days. */
export const INTERVALS = { '1m': 60, '5m': 300, '10m': 600, '15m': 900, '30m': 1800, '1h': 3600, '3h': 10_800, '6h': 21_600, '12h': 43_200, '1d': 86_400 } as const;
export type Interval = keyof typeof INTERVALS;

export interface Range {
  from: Date;
  to: Date;
}

export type Checked<T> = { ok: true; value: T } | { ok: false; message: string };

/**
 * The instants a range may touch: PostgreSQL refuses year 0 and JS writes years past 9999 as
 * +010000-..., so a range near either end failed its query. The upper end leaves room for
 * widening the range to whole buckets (at most a day).
 */
const EARLIEST_MS = Date.UTC(1970, 0, 1);
const LATEST_MS = Date.UTC(9999, 0, 1);

/** [from, to): `to` defaults to now, `from` to 7 days before `to`; at most 92 days, within 1970-9998. */
export function resolveRange(from: Date | undefined, to: Date | undefined, now: Date): Checked<Range> {
  const end = to ?? now;
  const start = from ?? new Date(end.getTime() - DEFAULT_RANGE_DAYS * DAY_MS);
  if (start.getTime() < EARLIEST_MS || end.getTime() > LATEST_MS) return { ok: false, message: 'from and to must be between 1970-01-01 and 9999-01-01.' };
  if (start.getTime() >= end.getTime()) return { ok: false, message: 'from must be before to.' };
  if (end.getTime() - start.getTime() > MAX_RANGE_DAYS * DAY_MS) return { ok: false, message: `The range may span at most ${MAX_RANGE_DAYS} days.` };
  return { ok: true, value: { from: start, to: end } };
}

export interface SummaryLine {
  watchSeconds: number;
  sessions: number;
  uniqueViewers: number;
  averageSessionSeconds: number;
}

export interface Summary {
  groups: (SummaryLine & Record<string, string | number | null>)[];
  totals: SummaryLine;
}

const GROUP_FIELD: Record<SummaryGroup, string> = { channel: 'channelId', source: 'source', day: 'day' };

/**
 * The buckets of a summary: the range, cut at each UTC midnight inside it for the day grouping
 * (a session counts on the UTC day it started). Pure.
 */
export function summaryBounds(range: Range, groupBy: SummaryGroup): number[] {
  const from = range.from.getTime();
  const to = range.to.getTime();
  if (groupBy !== 'day') return [from, to];
  const midnights = [];
  for (let t = Math.floor(from / DAY_MS) * DAY_MS + DAY_MS; t < to; t += DAY_MS) midnights.push(t);
  return [from, ...midnights, to];
}

export async function summary(db: Queryable, filter: SessionFilter, groupBy: SummaryGroup, plan: (bounds: readonly number[]) => RollupPlan = rollupPlan): Promise<Summary> {
  const bounds = summaryBounds(filter, groupBy);
  const raw = await summaryRows(db, { ...filter, bounds, plan: plan(bounds) }, groupBy);
  // A day's key is its bucket: the UTC date the bucket starts in.
  const rows = groupBy === 'day' ? raw.map((r) => (r.key === null ? r : { ...r, key: new Date(bounds[Number(r.key)]!).toISOString().slice(0, 10) })) : raw;
  const line = (r: (typeof rows)[number]): SummaryLine => ({
    watchSeconds: r.watchSeconds,
    sessions: r.sessions,
    uniqueViewers: r.viewers,
    averageSessionSeconds: r.sessions === 0 ? 0 : Math.round((r.watchSeconds / r.sessions) * 10) / 10,
  });
  const groups = rows.filter((r) => r.key !== null).map((r) => ({ [GROUP_FIELD[groupBy]]: r.key, ...(groupBy === 'channel' ? { channelName: r.channelName } : {}), ...line(r) }));
  const total = rows.find((r) => r.key === null);
  return { groups, totals: total ? line(total) : { watchSeconds: 0, sessions: 0, uniqueViewers: 0, averageSessionSeconds: 0 } };
}

export interface PresentedSession extends Omit<SessionRow, 'clientId' | 'userId'> {
  clientId: string | null;
  userId: string | null;
}

export interface SessionPage {
  items: PresentedSession[];
  page: number;
  perPage: number;
  total: number;
}

export async function sessionsPage(db: Queryable, filter: SessionFilter, page: number, perPage: number): Promise<SessionPage> {
  const [rows, total] = await Promise.all([sessionRows(db, filter, perPage, (page - 1) * perPage), sessionCount(db, filter)]);
  // '' is how the key stores an absent id (so the key is never null); callers see null.
  const items = rows.map((r) => ({ ...r, clientId: r.clientId || null, userId: r.userId || null }));
  return { items, page, perPage, total };
}

/** Buckets aligned to UTC multiples of the interval, covering the range (widened to whole buckets). */
export function bucketsFor(range: Range, interval: Interval): Checked<{ origin: number; stepSeconds: number; count: number }> {
  const step = INTERVALS[interval];
  const origin = Math.floor(range.from.getTime() / 1000 / step) * step;
  const count = Math.ceil((range.to.getTime() / 1000 - origin) / step);
  if (count > MAX_BUCKETS) return { ok: false, message: `Too many intervals (${count}); at most ${MAX_BUCKETS}: use a longer interval or a shorter range.` };
  return { ok: true, value: { origin, stepSeconds: step, count } };
}

export interface ConcurrencyBucket {
  start: Date;
  end: Date;
  viewers: number;
}

export async function concurrency(db: Queryable, filter: SessionFilter, interval: Interval): Promise<Checked<ConcurrencyBucket[]>> {
  const buckets = bucketsFor(filter, interval);
  if (!buckets.ok) return buckets;
  const { origin, stepSeconds, count } = buckets.value;
  const widened = { ...filter, from: new Date(origin * 1000), to: new Date((origin + count * stepSeconds) * 1000) };
  const viewers = new Map((await concurrencyRows(db, widened, buckets.value)).map((r) => [r.bucket, r.viewers]));
  const value = Array.from({ length: count }, (_, i) => ({
    start: new Date((origin + i * stepSeconds) * 1000),
    end: new Date((origin + (i + 1) * stepSeconds) * 1000),
    viewers: viewers.get(i) ?? 0,
  }));
  return { ok: true, value };
}
