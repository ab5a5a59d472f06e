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
      returning 1)
    select count(*)::integer as n from closed`;
}

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
}

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
  const bucket = sql`(width_bucket((extract(epoch from ws.started_at) * 1000)::float8, ${param(f.bounds)}::float8[]) - 1)`;
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
      union all
      select p.bucket, d.channel_id, d.source, 0, 0, 0::float8, d.user_id
        from pieces p join watch_day_devices d on d.owner_id = ${f.ownerId} and d.day = p.day ${only('d')}
       where bit_count(d.quarters & p.mask) > 0)`;
}

/**
 * The figures summed per grouping set, and distinct devices counted apart (only the rows naming
 * one go through the sorts of count(distinct)): columns mask (grouping() of `keys`), the keys,
 * sessions, devices (identified + anonymous) and watch_seconds. `keys` are columns of `figures`
 * or expressions over them, named by `names`.
 */
export function groupedFigures(keys: SQL[], names: string[], sets: string): SQL {
  const cols = sql.join(keys.map((k, i) => sql`${k} as ${sql.raw(names[i]!)}`), sql`, `);
  const list = sql.raw(names.join(', '));
  const same = sql.raw(names.map((n) => `coalesce(v.${n}::text, '') = coalesce(t.${n}::text, '')`).join(' and '));
  return sql`
    keyed as (select ${cols}, sessions, anonymous, seconds, device from figures),
    totals as (
      select grouping(${list})::integer as mask, ${list}, coalesce(sum(sessions), 0)::integer as sessions, coalesce(sum(anonymous), 0)::integer as anonymous,
             coalesce(sum(seconds), 0)::float8 as watch_seconds
        from keyed where sessions > 0 group by grouping sets ${sql.raw(sets)}),
    identified as (
      select grouping(${list})::integer as mask, ${list}, count(distinct device collate "C")::integer as n
        from keyed where device is not null group by grouping sets ${sql.raw(sets)}),
    grouped as (
      select t.*, t.anonymous + coalesce(v.n, 0) as devices
        from totals t left join identified v on v.mask = t.mask and ${same})`;
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
