// Watch trends of an owner (REST /analytics/trends): per day of a range, unique devices, sessions
// and watch time, the same for the previous range of as many days, the change, and each channel's
// and platform's (activity source's) figures in both ranges. A session counts on the day it
// started in the reader's zone, with its whole credited time, as in /analytics/summary.
import { watchTrendRows, type WatchTrendRow } from '../data/trends.ts';
import { deviceReadSizes } from '../data/watch-rollups.ts';
import type { Queryable } from '../db/connect.ts';
import { devicePlan, rollupPlan, type DevicePlan, type RollupPlan } from './rollup-plan.ts';
import { changesOf, rangeDates, type Change, type TrendRange } from './trend-range.ts';

export interface WatchFigures {
  /** Distinct devices: the heartbeat's user_id (the app's end-viewer or device identifier); a session without one is a device of its own. */
  uniqueDevices: number;
  sessions: number;
  watchSeconds: number;
}

export interface Compared<F> {
  current: F;
  previous: F;
  change: Record<keyof F & string, Change>;
}

export interface WatchTrends {
  daily: ({ day: string } & WatchFigures)[];
  totals: Compared<WatchFigures>;
  channels: ({ channelId: number; channelName: string | null } & Compared<WatchFigures>)[];
  sources: ({ source: string } & Compared<WatchFigures>)[];
}

export interface WatchTrendFilter {
  ownerId: number;
  channelId?: number | undefined;
  source?: string | undefined;
  now: Date;
  /** How the read is split between rollups and raw sessions; rollupPlan unless a test compares rawPlan. */
  plan?: (bounds: readonly number[]) => RollupPlan;
  /** How identified devices are counted: the cheaper way (auto, the default), or one way (tests compare both). */
  devices?: 'auto' | 'kept' | 'device-days';
}

const ZERO: WatchFigures = { uniqueDevices: 0, sessions: 0, watchSeconds: 0 };
const figuresOf = (r: WatchTrendRow | undefined): WatchFigures => (r ? { uniqueDevices: r.devices, sessions: r.sessions, watchSeconds: r.watchSeconds } : ZERO);

export function compared<F extends { [K in keyof F]: number }>(current: F, previous: F): Compared<F> {
  return { current, previous, change: changesOf(current as Record<keyof F & string, number>, previous as Record<keyof F & string, number>) };
}

export async function watchTrends(db: Queryable, range: TrendRange, filter: WatchTrendFilter): Promise<WatchTrends> {
  const plan = (filter.plan ?? rollupPlan)(range.bounds);
  const devices = await deviceWay(db, filter, plan, range.days);
  const rows = await watchTrendRows(db, { ...filter, bounds: range.bounds, days: range.days, plan, devices });
  return shapeWatchTrends(range, rows);
}

/** The kept device figures' plan when they can answer and are the cheaper way; null: count device-days. */
async function deviceWay(db: Queryable, filter: WatchTrendFilter, plan: RollupPlan, days: number): Promise<DevicePlan | null> {
  const kept = devicePlan(plan, days);
  const way = filter.devices ?? 'auto';
  if (kept === null || way === 'device-days') return null;
  if (way === 'kept') return kept;
  const sizes = await deviceReadSizes(db, filter.ownerId, plan.pieces[0]!.day, plan.pieces.at(-1)!.day, (deviceDays) => Math.floor(deviceDays / KEPT_RATIO));
  return keptIsCheaper(sizes) ? kept : null;
}

const KEPT_RATIO = 3;

/**
 * The kept device figures read each device seen around the range under about three scopes
 * (data/watch-rollups.ts deviceCounts); device-days are sorted four times (groupedFigures). Real
 * viewers come back (a device is many device-days), so the kept figures win by the days a device
 * returns; an outsider minting a user_id per session makes every device one device-day, and
 * then the device-day read is the cheaper (docs/activity.md "Devices per zone day and range").
 */
export const keptIsCheaper = (sizes: { deviceDays: number; devices: number }) => sizes.deviceDays >= KEPT_RATIO * sizes.devices;

/** The rows of data/trends.ts as the answer: every day present (zeros too), breakdowns by most watched. Pure. */
export function shapeWatchTrends(range: TrendRange, rows: readonly WatchTrendRow[]): WatchTrends {
  const byDay = new Map(rows.filter((r) => r.group === 'day').map((r) => [r.day!, r]));
  const daily = rangeDates(range).map((day, i) => ({ day, ...figuresOf(byDay.get(range.days + i)) }));
  const ranges = rows.filter((r) => r.group === 'range');
  const totals = compared(figuresOf(ranges.find((r) => r.current)), figuresOf(ranges.find((r) => !r.current)));
  return {
    daily,
    totals,
    channels: breakdown(
      rows,
      'channel',
      (r) => r.channelId!,
      (r) => ({ channelId: r.channelId!, channelName: r.channelName }),
    ),
    sources: breakdown(
      rows,
      'source',
      (r) => r.source!,
      (r) => ({ source: r.source! }),
    ),
  };
}

function breakdown<K extends number | string, T>(
  rows: readonly WatchTrendRow[],
  group: 'channel' | 'source',
  keyOf: (r: WatchTrendRow) => K,
  idOf: (r: WatchTrendRow) => T,
): (T & Compared<WatchFigures>)[] {
  const pairs = new Map<K, { id: T; current?: WatchTrendRow; previous?: WatchTrendRow }>();
  for (const r of rows) {
    if (r.group !== group) continue;
    const pair = pairs.get(keyOf(r)) ?? { id: idOf(r) };
    if (r.current) pair.current = r;
    else pair.previous = r;
    pairs.set(keyOf(r), pair);
  }
  // Most watched in the range first, then in the previous one, then by id: a stable order.
  return [...pairs.entries()]
    .sort(
      ([ka, a], [kb, b]) =>
        (b.current?.watchSeconds ?? 0) - (a.current?.watchSeconds ?? 0) || (b.previous?.watchSeconds ?? 0) - (a.previous?.watchSeconds ?? 0) || (ka < kb ? -1 : ka > kb ? 1 : 0),
    )
    .map(([, p]) => ({ ...p.id, ...compared(figuresOf(p.current), figuresOf(p.previous)) }));
}
