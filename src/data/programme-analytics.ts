// Programme analytics reads (issue 19): figures of an owner's airings that started in a range,
// from the credited rows (programme_watch, programme_airings) together with the rows of sessions
// not credited yet, which the caller splits on the fly and passes in (`live`).
import { sql, type SQL } from 'drizzle-orm';
import type { Queryable } from '../db/connect.ts';
import { queryRows } from './activity.ts';
import { epochMs, type AiringFiguresRow, type ProgrammeWatchRow, type SessionToCredit } from './programme-watch.ts';

/** Which sessions and airings a read covers: the owner's airings that started in [from, to). */
export interface ProgrammeFilter {
  ownerId: number;
  from: Date;
  to: Date;
  channelId?: number | undefined;
}

/** What figures are grouped by: the programme (video), a channel, a source, a UTC day. */
export type ProgrammeKey = 'video' | 'channel' | 'source' | 'day';
export type ProgrammeMetric = 'watchSeconds' | 'sessions' | 'viewers' | 'peakViewers';

export interface FigureRow {
  /** null on the row of totals. */
  videoId: number | null;
  channelId: number | null;
  source: string | null;
  day: string | null;
  watchSeconds: number;
  sessions: number;
  viewers: number;
  peakViewers: number;
}

/** Rows of sessions not credited yet, and their airings' figures, computed by the caller. */
export interface LiveRows {
  watch: ProgrammeWatchRow[];
  airings: AiringFiguresRow[];
}

const param = (values: unknown[]) => sql.param(values);
const instant = (d: Date | number) => sql`${new Date(d).toISOString()}::timestamptz`;
const instants = (ms: number[]) => param(ms.map((m) => new Date(m).toISOString()));

/**
 * Sessions not credited yet that may have watched the owner's airings: every open one (the open
 * key's index holds only those) and every closed one the crediter has not reached (its own
 * index), at most `limit`, most recent first.
 */
export async function uncreditedSessions(db: Queryable, f: ProgrammeFilter, limit: number): Promise<SessionToCredit[]> {
  const mine = sql`ws.owner_id = ${f.ownerId} and ws.last_heartbeat_at >= ${instant(f.from)} - interval '1 day' and ws.started_at < ${instant(f.to)} + interval '1 day'
                   ${f.channelId === undefined ? sql`` : sql`and ws.channel_id = ${f.channelId}`}`;
  const columns = sql`ws.id::float8 as id, ws.source, ws.client_id as "clientId", ws.user_id as "userId", ws.channel_id as "channelId",
           ws.owner_id as "ownerId", ${epochMs('ws.started_at')} as "startedAt", ${epochMs('ws.last_heartbeat_at')} as "lastHeartbeatAt",
           coalesce((select c.timezone from channels c where c.id = ws.channel_id), 'UTC') as timezone, ws.last_heartbeat_at`;
  // An open session is never credited (crediting follows closing); each half reads its partial index.
  const rows = await queryRows<SessionToCredit>(db, sql`
    select * from (
      select ${columns} from watch_sessions ws where ws.open and ${mine}
      union all
      select ${columns} from watch_sessions ws where not ws.open and not ws.programmes_credited and ${mine}) s
     order by last_heartbeat_at desc
     limit ${limit}`);
  return rows.map((r) => ({ ...r, id: Number(r.id) }));
}

const KEY_COLUMN: Record<ProgrammeKey, string> = {
  video: 'video_id',
  channel: 'channel_id',
  source: 'source',
  day: `to_char(airing_start at time zone 'UTC', 'YYYY-MM-DD')`,
};

/** The live rows as relations shaped like the stored tables (only the columns the reads use). */
function liveWatch(live: LiveRows): SQL {
  const w = live.watch;
  const column = <T>(pick: (r: ProgrammeWatchRow) => T) => param(w.map(pick));
  return sql`select * from unnest(${column((r) => r.sessionId)}::bigint[], ${instants(w.map((r) => r.airingStart))}::timestamptz[],
      ${column((r) => r.videoId)}::integer[], ${column((r) => r.channelId)}::integer[], ${column((r) => r.source)}::text[],
      ${column((r) => r.viewer.toString())}::bigint[], ${instants(w.map((r) => r.watchStart))}::timestamptz[], ${column((r) => r.watchSeconds)}::integer[])
    as l(session_id, airing_start, video_id, channel_id, source, viewer, watch_start, watch_seconds)`;
}

function liveAirings(live: LiveRows): SQL {
  const a = live.airings;
  const column = <T>(pick: (r: AiringFiguresRow) => T) => param(a.map(pick));
  return sql`select * from unnest(${column((r) => r.channelId)}::integer[], ${instants(a.map((r) => r.airingStart))}::timestamptz[],
      ${column((r) => r.source)}::text[], ${column((r) => r.videoId)}::integer[], ${column((r) => r.peakViewers)}::integer[])
    as l(channel_id, airing_start, source, video_id, peak_viewers)`;
}

/** The watch rows of the filter: stored ones of credited sessions, and the live ones. */
function watchRows(f: ProgrammeFilter, live: LiveRows): SQL {
  const liveIds = param([...new Set(live.watch.map((r) => r.sessionId))]);
  const inRange = sql`airing_start >= ${instant(f.from)} and airing_start < ${instant(f.to)} ${f.channelId === undefined ? sql`` : sql`and channel_id = ${f.channelId}`}`;
  return sql`
    select session_id, airing_start, video_id, channel_id, source, viewer, watch_seconds from programme_watch
     where owner_id = ${f.ownerId} and ${inRange} and not session_id = any(${liveIds}::bigint[])
    union all
    select session_id, airing_start, video_id, channel_id, source, viewer, watch_seconds from (${liveWatch(live)}) l where ${inRange}`;
}

/**
 * Peaks of the filter's airings: the stored figures, replaced by the live ones for an airing
 * that live rows touch (recomputed by the caller from its stored and live rows).
 */
function airingPeaks(f: ProgrammeFilter, live: LiveRows, perSource: boolean): SQL {
  const inRange = sql`airing_start >= ${instant(f.from)} and airing_start < ${instant(f.to)} ${f.channelId === undefined ? sql`` : sql`and channel_id = ${f.channelId}`}`;
  const sources = perSource ? sql`source <> ''` : sql`source = ''`;
  const liveKeys = live.airings.filter((a) => a.source === '');
  return sql`
    select channel_id, airing_start, source, video_id, peak_viewers from programme_airings pa
     where owner_id = ${f.ownerId} and ${inRange} and ${sources}
       and not exists (select 1 from unnest(${param(liveKeys.map((a) => a.channelId))}::integer[], ${instants(liveKeys.map((a) => a.airingStart))}::timestamptz[]) as k(channel_id, airing_start)
                        where k.channel_id = pa.channel_id and k.airing_start = pa.airing_start)
    union all
    select channel_id, airing_start, source, video_id, peak_viewers from (${liveAirings(live)}) l where ${inRange} and ${sources}`;
}

const ORDER: Record<ProgrammeMetric, string> = {
  watchSeconds: 'watch_seconds', sessions: 'sessions', viewers: 'viewers', peakViewers: 'peak_viewers',
};

export interface FigureQuery {
  keys: readonly ProgrammeKey[];
  orderBy: ProgrammeMetric;
  limit: number;
  offset: number;
}

export interface FigurePage {
  rows: FigureRow[];
  totals: FigureRow;
  /** How many groups there are in all. */
  groups: number;
}

/**
 * One row per group of `keys` (a page of them, best first by `orderBy`), the row of totals and
 * the number of groups. Watch time and sessions add up; viewers are counted distinct per group
 * (not additive: one device watching two programmes is one viewer of the totals); peak viewers
 * is the highest peak of the group's airings.
 */
export async function figureRows(db: Queryable, f: ProgrammeFilter, live: LiveRows, q: FigureQuery): Promise<FigurePage> {
  const keyList = sql.raw(q.keys.map((k) => `${KEY_COLUMN[k]} as ${k}`).join(', '));
  const keyNames = sql.raw(q.keys.join(', '));
  const joinOn = sql.raw(q.keys.map((k) => `p.${k} = g.${k}`).join(' and '));
  const metric = sql.raw(ORDER[q.orderBy]);
  type Raw = { video: number | null; channel: number | null; source: string | null; day: string | null; total: boolean; watch_seconds: number; sessions: number; viewers: number; peak_viewers: number | null; groups: number };
  const rows = await queryRows<Raw>(db, sql`
    with w as (${watchRows(f, live)}),
    g as (
      select ${keyList}, sum(watch_seconds)::float8 as watch_seconds, count(distinct session_id)::integer as sessions,
             count(distinct viewer)::integer as viewers
        from w group by ${keyNames}),
    p as (select ${keyList}, max(peak_viewers)::integer as peak_viewers from (${airingPeaks(f, live, q.keys.includes('source'))}) a group by ${keyNames}),
    page as (
      select g.*, coalesce(p.peak_viewers, 0) as peak_viewers, false as total, count(*) over ()::integer as groups
        from g left join p on ${joinOn}
       order by ${metric} desc, ${keyNames}
       limit ${q.limit} offset ${q.offset}),
    totals as (
      select coalesce(sum(watch_seconds), 0)::float8 as watch_seconds, count(distinct session_id)::integer as sessions,
             count(distinct viewer)::integer as viewers from w)
    select ${sql.raw(q.keys.map((k) => `page.${k}`).join(', '))}, page.total, page.watch_seconds, page.sessions, page.viewers, page.peak_viewers, page.groups from page
    union all
    select ${sql.raw(q.keys.map(() => 'null').join(', '))}, true, t.watch_seconds, t.sessions, t.viewers,
           (select coalesce(max(peak_viewers), 0)::integer from (${airingPeaks(f, live, false)}) a), 0
      from totals t`);
  const toRow = (r: Raw): FigureRow => ({
    videoId: r.video ?? null, channelId: r.channel ?? null, source: r.source ?? null, day: r.day ?? null,
    watchSeconds: Number(r.watch_seconds), sessions: r.sessions, viewers: r.viewers, peakViewers: r.peak_viewers ?? 0,
  });
  const totals = rows.find((r) => r.total)!;
  const page = rows.filter((r) => !r.total);
  return { rows: page.map(toRow), totals: toRow(totals), groups: page[0]?.groups ?? 0 };
}

/** The stored rows of one channel's airings that started in [from, to) (a channel-day's curve). */
export async function channelWatchSpans(db: Queryable, channelId: number, from: number, to: number, excludeSessions: number[]): Promise<{ viewer: bigint; watchStart: number; watchSeconds: number }[]> {
  const rows = await queryRows<{ viewer: string; watchStart: number; watchSeconds: number }>(db, sql`
    select viewer::text as viewer, ${epochMs('watch_start')} as "watchStart", watch_seconds as "watchSeconds" from programme_watch
     where channel_id = ${channelId} and airing_start >= ${instant(from)} and airing_start < ${instant(to)}
       and not session_id = any(${param(excludeSessions)}::bigint[])`);
  return rows.map((r) => ({ ...r, viewer: BigInt(r.viewer) }));
}

/** The stored airings (all sources) of one channel that started in [from, to). */
export async function channelAirings(db: Queryable, channelId: number, from: number, to: number): Promise<{ airingStart: number; airingStop: number; videoId: number; isLive: boolean }[]> {
  return queryRows(db, sql`
    select ${epochMs('airing_start')} as "airingStart", ${epochMs('airing_stop')} as "airingStop", video_id as "videoId", is_live as "isLive"
      from programme_airings
     where channel_id = ${channelId} and source = '' and airing_start >= ${instant(from)} and airing_start < ${instant(to)}
     order by airing_start`);
}

/** Titles of videos (a deleted video has none). */
export async function videoTitles(db: Queryable, ids: readonly number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await queryRows<{ id: number; title: string }>(db, sql`select id, title from videos where id = any(${param([...ids])}::integer[])`);
  return new Map(rows.map((r) => [r.id, r.title]));
}

/** Names of channels. */
export async function channelNames(db: Queryable, ids: readonly number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await queryRows<{ id: number; name: string }>(db, sql`select id, name from channels where id = any(${param([...ids])}::integer[])`);
  return new Map(rows.map((r) => [r.id, r.name]));
}

/** The owner's channel with its zone; undefined for another owner's or no channel. */
export async function ownedChannel(db: Queryable, ownerId: number, channelId: number): Promise<{ id: number; timezone: string; ownerId: number } | undefined> {
  const rows = await queryRows<{ id: number; timezone: string; ownerId: number }>(db, sql`
    select id, timezone, owner_id as "ownerId" from channels where id = ${channelId} and owner_id = ${ownerId}`);
  return rows[0];
}
