// Daily rollups of closed watch sessions (issue 37, docs/activity.md "Rollups"): written by the
// statements that close sessions, in the same statement, so a session is rolled up exactly once
// (a retried or failed transaction rolls both back; two processes never close the same row), and
// read with the open sessions and the raw quarter-hours a plan names as one relation of figures.
import { sql, type SQL } from 'drizzle-orm';
import type { Queryable } from '../db/connect.ts';
import { queryRows, sessionView } from './session-sql.ts';

/** Quarter-hours [lo, hi) (0-96) of one UTC date that belong to bucket `bucket`. */
export interface RollupPiece {
  /** The UTC date, yyyy-MM-dd. */
  day: string;
  bucket: number;
  lo: number;
  hi: number;
}

/** What a read takes from the rollups and what raw (sessions/rollup-plan.ts makes it). */
export interface RollupPlan {
  /** Instants [from, to) (epoch ms, ascending, disjoint) whose closed sessions are read raw. */
  rawWindows: [number, number][];
  pieces: RollupPiece[];
}

/** Bucket `bucket` (a zone day) as (day, [from, 96)) and (day + 1, [0, to)): devices with max_a >= from or min_b < to. */
export interface DayShape {
  bucket: number;
  /** The pair's first UTC date, yyyy-MM-dd. */
  day: string;
  from: number;
  to: number;
}

/** A range (previous or current) as its whole UTC days and its cut days. */
export interface RangeShape {
  current: boolean;
  /** The first and last whole UTC dates (yyyy-MM-dd); null: none (a range of one zone day off UTC). */
  whole: { first: string; last: string } | null;
  /** Pair rows of `day` with max_a >= q (max) or min_b < q (not max). */
  edges: { day: string; max: boolean; q: number }[];
}

/** How a trend read counts identified devices from the kept device figures (sessions/rollup-plan.ts devicePlan). */
export interface DevicePlan {
  days: DayShape[];
  ranges: RangeShape[];
}

/**
 * The statement that closes sessions (an UPDATE ... RETURNING owner_id, channel_id, source,
 * user_id, started_at, credited_seconds) with their rollup in the same statement. Rows are
 * written in key order, so two processes closing sessions of the same day lock alike.
 * Answers one row: n, the sessions closed.
 */
export function closingWithRollup(closing: SQL): SQL {
  return sql`
    with closed as (${closing}),
    q as (
      select owner_id, (started_at at time zone 'UTC')::date as day, channel_id, source, user_id, credited_seconds,
             mod(floor(extract(epoch from started_at) / 900)::bigint, 96)::integer as quarter
        from closed),
    per_quarter as (
      select owner_id, day, channel_id, source, quarter, count(*) as n, count(*) filter (where user_id = '') as anon, sum(credited_seconds) as secs
        from q group by owner_id, day, channel_id, source, quarter),
    grid as (
      select k.owner_id, k.day, k.channel_id, k.source, g.k
        from (select distinct owner_id, day, channel_id, source from per_quarter) k cross join generate_series(1, 96) g(k)),
    running as (
      select grid.owner_id, grid.day, grid.channel_id, grid.source, grid.k,
             sum(coalesce(p.n, 0)) over w as n, sum(coalesce(p.anon, 0)) over w as anon, sum(coalesce(p.secs, 0)) over w as secs
        from grid left join per_quarter p
          on p.owner_id = grid.owner_id and p.day = grid.day and p.channel_id = grid.channel_id and p.source = grid.source and p.quarter = grid.k - 1
      window w as (partition by grid.owner_id, grid.day, grid.channel_id, grid.source order by grid.k)),
    day_rows as (
      insert into watch_day_rollups as r (owner_id, day, channel_id, source, sessions, anonymous, watch_seconds)
      select owner_id, day, channel_id, source, array_agg(n::integer order by k), array_agg(anon::integer order by k), array_agg(secs::bigint order by k)
        from running group by owner_id, day, channel_id, source order by owner_id, day, channel_id, source
      on conflict (owner_id, day, channel_id, source) do update
         set sessions = ${added('sessions')}, anonymous = ${added('anonymous')}, watch_seconds = ${added('watch_seconds')}
      returning 1),
    device_rows as (
      insert into watch_day_devices as d (owner_id, day, channel_id, source, user_id, quarters)
      select owner_id, day, channel_id, source, user_id, bit_or(B'1'::bit(96) >> quarter)
        from q where user_id <> '' group by owner_id, day, channel_id, source, user_id order by owner_id, day, channel_id, source, user_id
      on conflict (owner_id, day, channel_id, source, user_id) do update set quarters = d.quarters | excluded.quarters
      returning 1),
    ${deviceRollups()}
    select count(*)::integer as n from closed`;
}

/**
 * The identified devices of `q` kept per scope (docs/activity.md "Devices per zone day and
 * range"): each device-day under its four scopes (channel and source, 0 or '' for all); its pair
 * rows (the day as the pair's first day: the last quarter, as its second: the first quarter),
 * whose change under the row lock (was_* -> new) is what watch_pair_counts adds; and its day bit
 * in the device's span of days (OR over the union of both spans: order-free). A device outside
 * a zone day starting at quarter s of the pair's day is in the gap [max_a + 1, min_b]; members
 * change by the old gap minus the new, a difference array made running totals over s as the day
 * rows are.
 */
const deviceRollups = () => sql`
    scoped as (
      select i.owner_id, i.day, v.c as channel_id, v.s as source, i.user_id, min(i.quarter) as lo, max(i.quarter) as hi
        from q i cross join lateral (values (i.channel_id, i.source), (i.channel_id, ''), (0, i.source), (0, '')) v(c, s)
       where i.user_id <> '' group by 1, 2, 3, 4, 5),
    pair_in as (
      select owner_id, day, channel_id, source, user_id, max(max_a) as max_a, min(min_b) as min_b from (
        select owner_id, day, channel_id, source, user_id, hi as max_a, 96 as min_b from scoped
        union all
        select owner_id, day - 1, channel_id, source, user_id, -1, lo from scoped) x
       group by 1, 2, 3, 4, 5),
    pairs as (
      insert into watch_pair_devices as p (owner_id, day, channel_id, source, user_id, max_a, min_b, was_max_a, was_min_b)
      select owner_id, day, channel_id, source, user_id, max_a, min_b, -1, 96 from pair_in order by 1, 2, 3, 4, 5
      on conflict (owner_id, day, channel_id, source, user_id) do update
         set was_max_a = p.max_a, was_min_b = p.min_b, max_a = greatest(p.max_a, excluded.max_a), min_b = least(p.min_b, excluded.min_b)
      returning owner_id, day, channel_id, source, max_a, min_b, was_max_a, was_min_b),
    gap_edges as (
      select owner_id, day, channel_id, source, e.k, sum(e.v) as v
        from pairs cross join lateral (values
          (was_max_a + 1, case when was_max_a < was_min_b then 1 else 0 end), (was_min_b + 1, case when was_max_a < was_min_b then -1 else 0 end),
          (max_a + 1, case when max_a < min_b then -1 else 0 end), (min_b + 1, case when max_a < min_b then 1 else 0 end)) e(k, v)
       where e.k < 96 and e.v <> 0 group by 1, 2, 3, 4, 5 having sum(e.v) <> 0),
    gap_grid as (
      select k.owner_id, k.day, k.channel_id, k.source, g.s
        from (select distinct owner_id, day, channel_id, source from gap_edges) k cross join generate_series(0, 95) g(s)),
    gap_running as (
      select grid.owner_id, grid.day, grid.channel_id, grid.source, grid.s, sum(coalesce(e.v, 0)) over w as v
        from gap_grid grid left join gap_edges e
          on e.owner_id = grid.owner_id and e.day = grid.day and e.channel_id = grid.channel_id and e.source = grid.source and e.k = grid.s
      window w as (partition by grid.owner_id, grid.day, grid.channel_id, grid.source order by grid.s)),
    pair_counts as (
      insert into watch_pair_counts as r (owner_id, day, channel_id, source, members)
      select owner_id, day, channel_id, source, array_agg(v::integer order by s)
        from gap_running group by owner_id, day, channel_id, source order by owner_id, day, channel_id, source
      on conflict (owner_id, day, channel_id, source) do update set members = ${added('members')}
      returning 1),
    span_days as (
      select owner_id, channel_id, source, user_id, day, min(day) over w as first_day, max(day) over w as last_day
        from scoped window w as (partition by owner_id, channel_id, source, user_id)),
    device_spans as (
      insert into watch_device_spans as w (owner_id, channel_id, source, user_id, first_day, last_day, days)
      select owner_id, channel_id, source, user_id, first_day, last_day, bit_or(rpad(lpad('1', day - first_day + 1, '0'), last_day - first_day + 1, '0')::varbit)
        from span_days group by 1, 2, 3, 4, 5, 6 order by 1, 2, 3, 4
      on conflict (owner_id, channel_id, source, user_id) do update
         set first_day = least(w.first_day, excluded.first_day), last_day = greatest(w.last_day, excluded.last_day),
             days = ${widened('w')} | ${widened('excluded')}
      returning 1)`;

/** A span's day bits laid over the union of the kept span and the new one (both start and end there). */
const widened = (alias: string) => {
  const first = 'least(w.first_day, excluded.first_day)';
  const last = 'greatest(w.last_day, excluded.last_day)';
  return sql.raw(`(repeat('0', ${alias}.first_day - ${first}) || ${alias}.days::text || repeat('0', ${last} - ${alias}.last_day))::varbit`);
};

/** Running totals add element by element (a sum of running totals is the running total of the sums). */
const added = (column: string) =>
  sql.raw(`(select array_agg(a + b order by i) from unnest(r.${column}, excluded.${column}) with ordinality as t(a, b, i))`);

export interface FigureScope {
  ownerId: number;
  channelId?: number | undefined;
  source?: string | undefined;
  /** Bucket i is [bounds[i], bounds[i + 1]) (epoch ms). */
  bounds: number[];
  plan: RollupPlan;
  /** The instant the figures are read at (sessionView). */
  now: Date;
  /** false: no rows of watch_day_devices (deviceCounts counts the identified devices). */
  deviceRows?: boolean;
}

/** The 0-based bucket among `bounds` of session `ws`'s start. */
const bucketOf = (bounds: number[]) => sql`(width_bucket((extract(epoch from ws.started_at) * 1000)::float8, ${param(bounds)}::float8[]) - 1)`;

/** 96 one bits: shifted right by lo and left by 96 - hi, their AND is the quarters [lo, hi). */
const ONES = sql.raw(`B'${'1'.repeat(96)}'`);
const instant = (ms: number) => sql`${new Date(ms).toISOString()}::timestamptz`;
const param = (values: unknown[]) => sql.param(values);

/**
 * Common table expressions ending in `figures(b, channel_id, source, sessions, anonymous,
 * seconds, device)`: bucket b's sessions, the anonymous ones among them (each a device), credited
 * seconds, and rows naming an identified device (sessions 0) or one raw session (both). Summed,
 * with count(distinct device) + sum(anonymous) as the devices, they are what the raw sessions
 * that started in the bounds give, read at `now`. Cost: the open sessions, the raw windows'
 * sessions, the rollup rows of the pieces' days and their identified devices.
 */
export function figuresRelation(f: FigureScope): SQL {
  const { credited } = sessionView(f.now);
  const only = (alias: string) => sql.join([
    f.channelId === undefined ? sql`` : sql`and ${sql.raw(alias)}.channel_id = ${f.channelId}`,
    f.source === undefined ? sql`` : sql`and ${sql.raw(alias)}.source = ${f.source}`,
  ], sql` `);
  const { rawWindows: windows, pieces } = f.plan;
  const bucket = bucketOf(f.bounds);
  // The raw windows' closed sessions, each window by the (owner, started_at) index: a lateral
  // subquery, so the planner cannot turn it into a scan of the owner's sessions filtered by the
  // windows (it did, for a channel's trends with no window at all: 0.5 s at 10,000,000 sessions);
  // and no part at all when there is no window (every trend read in a zone of whole quarter-hours).
  const windowed =
    windows.length === 0
      ? sql``
      : sql`union all
      select s.* from unnest(${param(windows.map((w) => new Date(w[0]).toISOString()))}::timestamptz[], ${param(windows.map((w) => new Date(w[1]).toISOString()))}::timestamptz[]) as w(lo, hi)
        cross join lateral (select ws.* from watch_sessions ws
          where ws.owner_id = ${f.ownerId} and ws.started_at >= w.lo and ws.started_at < w.hi and not ws.open ${only('ws')}) s`;
  return sql`
    raw as (
      select ws.* from watch_sessions ws
       where ws.owner_id = ${f.ownerId} and ws.open and ws.started_at >= ${instant(f.bounds[0]!)} and ws.started_at < ${instant(f.bounds.at(-1)!)} ${only('ws')}
      ${windowed}),
    pieces as (
      select p.day, p.bucket, p.lo, p.hi, (${ONES} >> p.lo) & (${ONES} << (96 - p.hi)) as mask
        from unnest(${param(pieces.map((p) => p.day))}::date[], ${param(pieces.map((p) => p.bucket))}::integer[],
                    ${param(pieces.map((p) => p.lo))}::integer[], ${param(pieces.map((p) => p.hi))}::integer[]) as p(day, bucket, lo, hi)),
    figures as (
      select ${bucket} as b, ws.channel_id, ws.source, 1 as sessions, (ws.user_id = '')::integer as anonymous,
             (${credited})::float8 as seconds, nullif(ws.user_id, '') as device
        from raw ws
      union all
      select b, channel_id, source, sessions, anonymous, seconds, null from (
        select p.bucket as b, r.channel_id, r.source, ${part('sessions')} as sessions, ${part('anonymous')} as anonymous, (${part('watch_seconds')})::float8 as seconds
          from pieces p join watch_day_rollups r on r.owner_id = ${f.ownerId} and r.day = p.day ${only('r')}) parts
       where sessions > 0
      ${f.deviceRows === false ? sql`` : sql`union all
      select p.bucket, d.channel_id, d.source, 0, 0, 0::float8, d.user_id
        from pieces p join watch_day_devices d on d.owner_id = ${f.ownerId} and d.day = p.day ${only('d')}
       where bit_count(d.quarters & p.mask) > 0`})`;
}

/**
 * The figures summed per grouping set, and distinct devices counted apart (only the rows naming
 * one go through the sorts of count(distinct)): columns mask (grouping() of `keys`), the keys,
 * sessions, devices (identified + anonymous) and watch_seconds. `keys` are columns of `figures`
 * or expressions over them, named by `names`. `counted`: CTEs ending in `identified` that count
 * the identified devices another way (deviceCounts).
 */
export function groupedFigures(keys: SQL[], names: string[], sets: string, counted?: SQL): SQL {
  const cols = sql.join(keys.map((k, i) => sql`${k} as ${sql.raw(names[i]!)}`), sql`, `);
  const list = sql.raw(names.join(', '));
  const same = sql.raw(names.map((n) => `coalesce(v.${n}::text, '') = coalesce(t.${n}::text, '')`).join(' and '));
  return sql`
    keyed as (select ${cols}, sessions, anonymous, seconds, device from figures),
    totals as (
      select grouping(${list})::integer as mask, ${list}, coalesce(sum(sessions), 0)::integer as sessions, coalesce(sum(anonymous), 0)::integer as anonymous,
             coalesce(sum(seconds), 0)::float8 as watch_seconds
        from keyed where sessions > 0 group by grouping sets ${sql.raw(sets)}),
    ${counted ?? sql`identified as (
      select grouping(${list})::integer as mask, ${list}, count(distinct device collate "C")::integer as n
        from keyed where device is not null group by grouping sets ${sql.raw(sets)})`},
    grouped as (
      select t.*, t.anonymous + coalesce(v.n, 0) as devices
        from totals t left join identified v on v.mask = t.mask and ${same})`;
}

export interface DeviceScope {
  ownerId: number;
  /** The read's buckets (figuresRelation's). */
  bounds: number[];
  channelId?: number | undefined;
  source?: string | undefined;
  /** Buckets before it are the previous range's. */
  days: number;
  devices: DevicePlan;
}

/**
 * `identified(mask, d, cur, channel_id, source, n)` for a trend read's groupings (day; range;
 * range and channel; range and source, as watchTrendRows' grouping sets), from the kept device
 * figures: a zone day's devices are one element of watch_pair_counts (or, on a day whose start
 * and end quarters differ, the day pair's device rows), a range's are its devices whose span
 * has a bit among its whole days or whose pair rows meet its cut days, under the scope each
 * grouping reads; identified devices of open sessions (`raw`: the device plan has no raw window)
 * count where the kept figures do not already hold them; `figures` is left to the sums, read
 * once. Cost: the days' count rows, the spans of the devices seen since the range began (per
 * scope read), the cut days' pair rows and the open sessions.
 */
export function deviceCounts(f: DeviceScope): SQL {
  const fc = f.channelId ?? 0;
  const fs = f.source ?? '';
  const { days, ranges } = f.devices;
  // The scopes a range reads: the filter's (range), each channel's under the filter's source
  // (unless a channel is filtered), each source's under the filter's channel (likewise).
  const scoped = (alias: string) => {
    const [c, s] = [sql.raw(`${alias}.channel_id`), sql.raw(`${alias}.source`)];
    return sql`((${c} = ${fc} and ${s} = ${fs})${fc === 0 ? sql` or (${c} <> 0 and ${s} = ${fs})` : sql``}${fs === '' ? sql` or (${c} = ${fc} and ${s} <> '')` : sql``})`;
  };
  const channels = fc === 0 ? sql`channel_id <> 0` : sql`channel_id = ${fc}`;
  const sources = fs === '' ? sql`source <> ''` : sql`source = ${fs}`;
  const whole = ranges.flatMap((r) => (r.whole ? [{ ...r.whole, current: r.current }] : []));
  const edges = ranges.flatMap((r) => r.edges.map((e) => ({ ...e, current: r.current })));
  const wholeHit = sql.raw(`w.last_day >= r.first_day and w.first_day <= r.last_day
     and bit_count(substring(w.days from (r.first_day - w.first_day) + 1 for (r.last_day - r.first_day) + 1)) > 0`);
  return sql`
    day_shapes as (
      select * from unnest(${param(days.map((d) => d.bucket))}::integer[], ${param(days.map((d) => d.day))}::date[],
                           ${param(days.map((d) => d.from))}::integer[], ${param(days.map((d) => d.to))}::integer[]) as t(b, day, s1, s2)),
    open_ids as (select distinct ${bucketOf(f.bounds)} as b, ws.channel_id, ws.source, ws.user_id as device from raw ws where ws.user_id <> ''),
    open_days as (
      select t.b, count(distinct o.device)::integer as n
        from open_ids o join day_shapes t on t.b = o.b
       where not exists (
         select 1 from watch_pair_devices p
          where p.owner_id = ${f.ownerId} and p.day = t.day and p.channel_id = ${fc} and p.source = ${fs} and p.user_id = o.device
            and (p.max_a >= t.s1 or p.min_b < t.s2))
       group by t.b),
    day_devices as (
      select t.b, (case when t.s1 = t.s2
                   then coalesce((select c.members[t.s1 + 1] from watch_pair_counts c
                                   where c.owner_id = ${f.ownerId} and c.day = t.day and c.channel_id = ${fc} and c.source = ${fs}), 0)
                   else (select count(*) from watch_pair_devices p
                          where p.owner_id = ${f.ownerId} and p.day = t.day and p.channel_id = ${fc} and p.source = ${fs} and (p.max_a >= t.s1 or p.min_b < t.s2)) end)::integer
             + coalesce(o.n, 0) as n
        from day_shapes t left join open_days o on o.b = t.b),
    range_whole as (
      select * from unnest(${param(whole.map((r) => r.current))}::boolean[], ${param(whole.map((r) => r.first))}::date[],
                           ${param(whole.map((r) => r.last))}::date[]) as r(cur, first_day, last_day)),
    range_edges as (
      select * from unnest(${param(edges.map((e) => e.current))}::boolean[], ${param(edges.map((e) => e.day))}::date[],
                           ${param(edges.map((e) => e.max))}::boolean[], ${param(edges.map((e) => e.q))}::integer[]) as e(cur, day, is_max, q)),
    whole_devices as (
      select r.cur, w.channel_id, w.source, count(*) as n
        from range_whole r join watch_device_spans w on w.owner_id = ${f.ownerId} and w.last_day >= r.first_day
       where ${scoped('w')} and ${wholeHit}
       group by r.cur, w.channel_id, w.source),
    -- Devices of the cut days and of open sessions, counted where no whole day holds them.
    cut_or_open as (
      select e.cur, p.channel_id, p.source, p.user_id
        from range_edges e cross join lateral (
          select p.channel_id, p.source, p.user_id from watch_pair_devices p
           where p.owner_id = ${f.ownerId} and p.day = e.day and ${scoped('p')} and (case when e.is_max then p.max_a >= e.q else p.min_b < e.q end)
          offset 0) p
      union
      select o.b >= ${f.days}, v.channel_id, v.source, o.device
        from open_ids o cross join lateral (values (${fc}, ${fs}::text), (o.channel_id, ${fs}::text), (${fc}, o.source)) v(channel_id, source)
       where ${scoped('v')}),
    extra_devices as (
      select x.cur, x.channel_id, x.source, count(*) as n
        from cut_or_open x
        left join range_whole r on r.cur = x.cur
        left join watch_device_spans w on w.owner_id = ${f.ownerId} and w.channel_id = x.channel_id and w.source = x.source and w.user_id = x.user_id
       where not coalesce(${wholeHit}, false)
       group by x.cur, x.channel_id, x.source),
    range_devices as (
      select cur, channel_id, source, sum(n)::integer as n
        from (select * from whole_devices union all select * from extra_devices) t group by cur, channel_id, source),
    identified as (
      select 7 as mask, b as d, null::boolean as cur, null::integer as channel_id, null::text as source, n from day_devices where n > 0
      union all
      select 11, null, cur, null, null, n from range_devices where channel_id = ${fc} and source = ${fs}
      union all
      select 9, null, cur, channel_id, null, n from range_devices where source = ${fs} and ${channels}
      union all
      select 10, null, cur, null, source, n from range_devices where channel_id = ${fc} and ${sources})`;
}

/**
 * What each way of counting a range's identified devices reads, over all channels and sources:
 * the device-days of UTC dates [from, to] (what groupedFigures sorts: watch_pair_counts' whole-day
 * element, one row a day) and the devices seen since `from` (what deviceCounts reads per scope,
 * an index range of watch_device_spans), counted no further than `devicesOver` of them.
 */
export async function deviceReadSizes(db: Queryable, ownerId: number, from: string, to: string, devicesOver: (deviceDays: number) => number): Promise<{ deviceDays: number; devices: number }> {
  const [days] = await queryRows<{ n: number }>(db, sql`
    select coalesce(sum(members[1]), 0)::integer as n from watch_pair_counts
     where owner_id = ${ownerId} and channel_id = 0 and source = '' and day >= ${from}::date and day <= ${to}::date`);
  const deviceDays = days!.n;
  const [devices] = await queryRows<{ n: number }>(db, sql`
    select count(*)::integer as n from (
      select 1 from watch_device_spans where owner_id = ${ownerId} and channel_id = 0 and source = '' and last_day >= ${from}::date
       limit ${devicesOver(deviceDays) + 1}) seen`);
  return { deviceDays, devices: devices!.n };
}

/** What the quarter-hours [lo, hi) of a rollup row hold: two running totals apart (element 0 is null: 0). */
const part = (column: string) => sql.raw(`(coalesce(r.${column}[p.hi], 0) - coalesce(r.${column}[p.lo], 0))`);

/** Rows of each table (tests and the bench check what a read may touch). */
export async function rollupSizes(db: Queryable, ownerId: number): Promise<{ days: number; devices: number }> {
  const rows = await queryRows<{ days: number; devices: number }>(db, sql`
    select (select count(*)::integer from watch_day_rollups where owner_id = ${ownerId}) as days,
           (select count(*)::integer from watch_day_devices where owner_id = ${ownerId}) as devices`);
  return rows[0]!;
}
