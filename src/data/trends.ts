// Day-by-day reads for the trend analytics (sessions/trends.ts, entitlements/sales-trends.ts):
// each buckets rows by the start instants of consecutive days (`bounds`, epoch ms, the
// previous range's days then the range's) with width_bucket, so one statement reads both ranges
// in any zone. Watch figures cost the rollup rows and identified devices of the days read plus the
// open sessions (watch-rollups.ts); sales cost the owner's rows in the two ranges.
import { sql, type SQL } from 'drizzle-orm';
import type { Queryable } from '../db/connect.ts';
import { queryRows } from './activity.ts';
import { deviceCounts, figuresRelation, groupedFigures, type DevicePlan, type RollupPlan } from './watch-rollups.ts';

export interface DayBounds {
  /** Instants where each day starts, and where the last ends (epoch ms, ascending). */
  bounds: number[];
}

const boundsParam = (b: DayBounds) => sql`${sql.param(b.bounds)}::float8[]`;
const ms = (column: SQL) => sql`(extract(epoch from ${column}) * 1000)::float8`;
/** The 0-based day of an instant among the bounds (callers keep instants within them). */
const dayOf = (column: SQL, b: DayBounds) => sql`(width_bucket(${ms(column)}, ${boundsParam(b)}) - 1)`;
const within = (column: SQL, b: DayBounds) =>
  sql`${column} >= ${new Date(b.bounds[0]!).toISOString()}::timestamptz and ${column} < ${new Date(b.bounds.at(-1)!).toISOString()}::timestamptz`;

export interface WatchTrendFilter extends DayBounds {
  ownerId: number;
  /** What comes from the rollups and what raw (sessions/rollup-plan.ts). */
  plan: RollupPlan;
  /** How identified devices are counted from the kept device figures; null: from device-days (watch_day_devices). */
  devices: DevicePlan | null;
  /** Days in the range read; days before `days` (0-based) are the previous range's. */
  days: number;
  channelId?: number | undefined;
  source?: string | undefined;
  now: Date;
}

/** One grouping of the watch figures: a day, a range (previous or current), a range's channel or source. */
export type WatchGroup = 'day' | 'range' | 'channel' | 'source';

export interface WatchTrendRow {
  group: WatchGroup;
  /** 0-based day among the bounds (group day). */
  day: number | null;
  /** true: the range read; false: the previous range (groups range, channel, source). */
  current: boolean | null;
  channelId: number | null;
  channelName: string | null;
  source: string | null;
  sessions: number;
  devices: number;
  watchSeconds: number;
}

/** grouping(d, cur, channel_id, source): a 1 bit for each column a row is NOT grouped by. */
const GROUP_OF_MASK: Record<number, WatchGroup> = { 0b0111: 'day', 0b1011: 'range', 0b1001: 'channel', 0b1010: 'source' };

/**
 * Sessions that started in the bounds, counted on the day they started: sessions, distinct
 * devices and credited seconds (read at `now`, as /analytics/summary), per day, per range, and per
 * range and channel or source, from the rollups and the raw sessions the plan names
 * (watch-rollups.ts figuresRelation). Distinct devices are not additive, hence grouping sets.
 */
export async function watchTrendRows(db: Queryable, f: WatchTrendFilter): Promise<WatchTrendRow[]> {
  const rows = await queryRows<{ mask: number; d: number | null; cur: boolean | null; channel_id: number | null; channel_name: string | null; source: string | null; sessions: number; devices: number; watch_seconds: number }>(db, sql`
    with ${figuresRelation({ ...f, deviceRows: f.devices === null })},
    ${groupedFigures(
      [sql`b`, sql`b >= ${f.days}`, sql`channel_id`, sql`source`],
      ['d', 'cur', 'channel_id', 'source'],
      '((d), (cur), (cur, channel_id), (cur, source))',
      f.devices === null ? undefined : deviceCounts({ ...f, devices: f.devices }),
    )}
    select g.mask, g.d, g.cur, g.channel_id, g.source, g.sessions, g.devices, g.watch_seconds, c.name as channel_name
      from grouped g left join channels c on c.id = g.channel_id`);
  return rows.map((r) => ({
    group: GROUP_OF_MASK[r.mask]!,
    day: r.d, current: r.cur, channelId: r.channel_id, channelName: r.channel_name, source: r.source,
    sessions: r.sessions, devices: r.devices, watchSeconds: Number(r.watch_seconds),
  }));
}

export interface SalesTrendFilter extends DayBounds {
  ownerId: number;
  store?: string | undefined;
}

export type SaleKind = 'new' | 'renewal' | 'refund' | 'ppv' | 'ppvRefund';

export interface SaleRow {
  day: number;
  store: string;
  kind: SaleKind;
  n: number;
}

const txOf = (alias: string) => sql.raw(`coalesce(nullif(${alias}.transaction_id, ''), ${alias}.original_transaction_id)`);
/** Attempts that granted access or said it was refunded or revoked (the rest change nothing here). */
const TELLING = sql.raw(`(va.granted or va.outcome in ('revoked', 'refunded')) and va.original_transaction_id is not null`);

/**
 * Subscription events of the owner's apps, from the record of every verification and applied
 * store notification (verification_attempts) of a recorded subscription:
 * - new: its first attempt that granted access;
 * - renewal: a later granted attempt naming a store transaction not granted before (each renewal
 *   is a new transaction at Apple, Google and Roku; Amazon keeps one receipt, so its renewals
 *   are not told apart);
 * - refund: the first revoked or refunded verdict about a store transaction (refunds and
 *   revocations, whether a store notification or a re-check said so).
 * PPV purchases and refunds come from the unlocks: made, and revoked, in the range.
 */
export async function saleRows(db: Queryable, f: SalesTrendFilter): Promise<SaleRow[]> {
  const store = (column: string) => (f.store === undefined ? sql`` : sql`and ${sql.raw(column)} = ${f.store}`);
  // Window functions over the history of the subscriptions touched in the range, not a lookup
  // per attempt: correlated subqueries made PostgreSQL estimate millions and spend seconds in JIT.
  return queryRows<SaleRow>(db, sql`
    with owned as (select id from apps where owner_id = ${f.ownerId}),
    touched as (
      select distinct va.app_id, va.store_platform, va.original_transaction_id
        from verification_attempts va
       where va.app_id in (select id from owned) and ${within(sql`va.at`, f)} ${store('va.store_platform')} and ${TELLING}),
    history as (
      select va.at, va.store_platform as store, va.granted,
             row_number() over (partition by va.app_id, va.store_platform, va.original_transaction_id, va.granted order by va.at, va.id) as nth_of_purchase,
             row_number() over (partition by va.app_id, va.store_platform, va.original_transaction_id, ${txOf('va')}, va.granted order by va.at, va.id) as nth_of_transaction
        from touched t
        join verification_attempts va on va.app_id = t.app_id and va.store_platform = t.store_platform and va.original_transaction_id = t.original_transaction_id
       where va.at < ${new Date(f.bounds.at(-1)!).toISOString()}::timestamptz and ${TELLING}
         and exists (select 1 from subscriptions s where s.app_id = t.app_id and s.store_platform = t.store_platform
                                                   and s.original_transaction_id = t.original_transaction_id)),
    sales as (
      select at, store, case
        when granted and nth_of_purchase = 1 then 'new'
        when granted and nth_of_transaction = 1 then 'renewal'
        when not granted and nth_of_transaction = 1 then 'refund' end as kind
        from history where at >= ${new Date(f.bounds[0]!).toISOString()}::timestamptz
      union all
      select created_at, store_platform, 'ppv' from ppv_unlocks
       where app_id in (select id from owned) and ${within(sql`created_at`, f)} ${store('store_platform')}
      union all
      select revoked_at, store_platform, 'ppvRefund' from ppv_unlocks
       where app_id in (select id from owned) and ${within(sql`revoked_at`, f)} ${store('store_platform')})
    select ${dayOf(sql`at`, f)}::integer as day, store, kind, count(*)::integer as n
      from sales where kind is not null group by 1, 2, 3 order by 1, 2, 3`);
}

export interface RevenueRow {
  day: number;
  store: string;
  kind: 'subscription' | 'ppv';
  productId: string;
  /** null: the store reported no price for these sales (unknown, not zero). */
  currency: string | null;
  /** Sales minus refunds in millionths of the currency; null with the currency. */
  micros: number | null;
  sales: number;
  refunds: number;
  /** The distinct prices the store reported for these sales and refunds (millionths, ascending). */
  prices: number[];
}

/**
 * Money of the owner's sales per day, store, product and currency (docs/entitlements.md,
 * Revenue): each subscription purchase or renewal (the first granted attempt naming a store
 * transaction, as saleRows counts them) adds the price the store reported for that transaction,
 * each refund or revocation (the first revoked or refunded verdict about it) takes it off on its
 * own day; PPV unlocks add their price when made and take it off when revoked. The price of a
 * transaction is the one a granted attempt recorded, else any attempt about it that carried one;
 * none: the row's currency and money are null (unknown), never summed as zero.
 */
export async function revenueRows(db: Queryable, f: SalesTrendFilter): Promise<RevenueRow[]> {
  const store = (column: string) => (f.store === undefined ? sql`` : sql`and ${sql.raw(column)} = ${f.store}`);
  const rows = await queryRows<Omit<RevenueRow, 'micros' | 'prices'> & { micros: string | number | null; prices: unknown }>(db, sql`
    with owned as (select id from apps where owner_id = ${f.ownerId}),
    touched as (
      select distinct va.app_id, va.store_platform, va.original_transaction_id
        from verification_attempts va
       where va.app_id in (select id from owned) and ${within(sql`va.at`, f)} ${store('va.store_platform')} and ${TELLING}),
    history as (
      select va.at, va.store_platform as store, va.granted,
             row_number() over (partition by va.app_id, va.store_platform, va.original_transaction_id, ${txOf('va')}, va.granted order by va.at, va.id) as nth_of_transaction,
             first_value(va.price_micros) over priced as micros,
             first_value(va.price_currency) over priced as currency,
             first_value(coalesce(va.price_product_id, va.product_id, s.product_id)) over priced as product_id
        from touched t
        join subscriptions s on s.app_id = t.app_id and s.store_platform = t.store_platform and s.original_transaction_id = t.original_transaction_id
        join verification_attempts va on va.app_id = t.app_id and va.store_platform = t.store_platform and va.original_transaction_id = t.original_transaction_id
       where va.at < ${new Date(f.bounds.at(-1)!).toISOString()}::timestamptz and ${TELLING}
      window priced as (partition by va.app_id, va.store_platform, va.original_transaction_id, ${txOf('va')}
                        order by (va.granted and va.price_micros is not null) desc, (va.price_micros is not null) desc, va.at, va.id)),
    sales as (
      select at, store, 'subscription' as kind, product_id, currency,
             case when granted then micros else -micros end as micros, granted as sale
        from history where nth_of_transaction = 1 and at >= ${new Date(f.bounds[0]!).toISOString()}::timestamptz
      union all
      select created_at, store_platform, 'ppv', product_id, price_currency, price_micros, true from ppv_unlocks
       where app_id in (select id from owned) and ${within(sql`created_at`, f)} ${store('store_platform')}
      union all
      select revoked_at, store_platform, 'ppv', product_id, price_currency, -price_micros, false from ppv_unlocks
       where app_id in (select id from owned) and ${within(sql`revoked_at`, f)} ${store('store_platform')})
    select ${dayOf(sql`at`, f)}::integer as day, store, kind, coalesce(product_id, '') as "productId",
           case when micros is null then null else currency end as currency,
           sum(micros) filter (where currency is not null) as micros,
           (count(*) filter (where sale))::integer as sales, (count(*) filter (where not sale))::integer as refunds,
           coalesce(array_agg(distinct abs(micros)) filter (where currency is not null and micros is not null), '{}') as prices
      from sales group by 1, 2, 3, 4, 5 order by 1, 2, 3, 4, 5`);
  return rows.map((r) => ({
    ...r,
    micros: r.currency === null || r.micros === null ? null : Number(r.micros),
    prices: (r.prices as unknown[]).map(Number).sort((a, b) => a - b),
  }));
}
