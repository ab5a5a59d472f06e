// Programme analytics reads (issue 19): figures of an owner's airings that started in a range,
// from the credited rows (programme_watch, programme_airings) together with the rows of sessions
// not credited yet, which the caller splits on the fly and passes in (`live`); and the stored dead
// air of a range (programme_dead_air), which the caller ranks among them as a row per channel.
import { sql, type SQL } from 'drizzle-orm';
import type { Queryable } from '../db/connect.ts';
import { queryRows } from './activity.ts';
import { epochMs, SESSION_TO_CREDIT, type AiringFiguresRow, type DeadAirRow, type ProgrammeWatchRow, type SessionToCredit } from './programme-watch.ts';

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
  /** A channel's dead air (videoId null, channelId its channel): watching while nothing was on air. */
  deadAir: boolean;
}

/**
 * The figures of a channel's dead air (and of a source or UTC day number when grouped so),
 * computed by the caller; ranked and paged among the programmes' rows.
 */
export interface DeadAirGroup {
  channelId: number;
  source: string | null;
  day: number | null;
  watchSeconds: number;
  sessions: number;
  viewers: number;
  peakViewers: number;
}

/** What the totals add for dead air: its watch time and peak, and the sessions and devices that watched it. */
export interface DeadAirTotals {
  watchSeconds: number;
  peakViewers: number;
  sessionIds: readonly number[];
  viewers: readonly bigint[];
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
  const columns = sql`${SESSION_TO_CREDIT}, ws.last_heartbeat_at`;
  // An open session is never credited (crediting follows closing); each half reads its partial index.
  const rows = await queryRows<SessionToCredit & { last_heartbeat_at: unknown }>(db, sql`
    select * from (
      select ${columns} from watch_sessions ws where ws.open and ${mine}
      union all
      select ${columns} from watch_sessions ws where not ws.open and not ws.programmes_credited and ${mine}) s
     order by last_heartbeat_at desc
     limit ${limit}`);
  return rows.map(({ last_heartbeat_at: _ordered, ...r }) => ({ ...r, id: Number(r.id) }));
}

/** Each key as a column of programme_watch and of programme_airings; a day is a UTC day number, named on the page only. */
const KEY_COLUMN: Record<ProgrammeKey, string> = {
  video: 'video_id',
  channel: 'channel_id',
  source: 'source',
  day: `floor(extract(epoch from airing_start) / 86400)::integer`,
};

/** The live rows as a relation shaped like programme_watch (the columns the reads use). */
function liveWatch(live: LiveRows): SQL {
  const w = live.watch;
  const column = <T>(pick: (r: ProgrammeWatchRow) => T) => param(w.map(pick));
  return sql`select * from unnest(${column((r) => r.sessionId)}::bigint[], ${instants(w.map((r) => r.airingStart))}::timestamptz[],
      ${column((r) => r.videoId)}::integer[], ${column((r) => r.channelId)}::integer[], ${column((r) => r.source)}::text[],
      ${column((r) => r.viewer.toString())}::bigint[], ${column((r) => r.watchSeconds)}::integer[],
      ${param(w.map((r) => (r.prevAiringStart === null ? null : new Date(r.prevAiringStart).toISOString())))}::timestamptz[])
    as l(session_id, airing_start, video_id, channel_id, source, viewer, watch_seconds, prev_airing_start)`;
}

/** The live airings' figures as a relation shaped like programme_airings. */
function liveAirings(live: LiveRows): SQL {
  const a = live.airings;
  const column = <T>(pick: (r: AiringFiguresRow) => T) => param(a.map(pick));
  return sql`select * from unnest(${column((r) => r.channelId)}::integer[], ${instants(a.map((r) => r.airingStart))}::timestamptz[],
      ${column((r) => r.source)}::text[], ${column((r) => r.videoId)}::integer[], ${column((r) => r.watchSeconds)}::float8[],
      ${column((r) => r.sessions)}::integer[], ${column((r) => r.peakViewers)}::integer[])
    as l(channel_id, airing_start, source, video_id, watch_seconds, sessions, peak_viewers)`;
}

const inRange = (f: ProgrammeFilter) =>
  sql`airing_start >= ${instant(f.from)} and airing_start < ${instant(f.to)} ${f.channelId === undefined ? sql`` : sql`and channel_id = ${f.channelId}`}`;

/**
 * The watch rows of the filter (stored rows of credited sessions, and the live rows), with the
 * columns `columns`; `videos` narrows them to those programmes (read through their own index).
 */
function watchRows(f: ProgrammeFilter, live: LiveRows, columns: string, videos?: readonly number[]): SQL {
  const liveIds = param([...new Set(live.watch.map((r) => r.sessionId))]);
  const only = videos === undefined ? sql`` : sql`and video_id = any(${param([...videos])}::integer[])`;
  const cols = sql.raw(columns);
  return sql`
    select ${cols} from programme_watch
     where owner_id = ${f.ownerId} and ${inRange(f)} ${only} and not session_id = any(${liveIds}::bigint[])
    union all
    select ${cols} from (${liveWatch(live)}) l where ${inRange(f)} ${only}`;
}

/**
 * The figures of the filter's airings (per source, or all sources together: source ''): the
 * stored ones, replaced by the live ones for an airing that live rows touch (recomputed by the
 * caller from its stored and live rows).
 */
function airingRows(f: ProgrammeFilter, live: LiveRows, perSource: boolean): SQL {
  const sources = perSource ? sql`source <> ''` : sql`source = ''`;
  const liveKeys = live.airings.filter((a) => a.source === '');
  return sql`
    select channel_id, airing_start, source, video_id, watch_seconds, sessions, peak_viewers from programme_airings pa
     where owner_id = ${f.ownerId} and ${sources} and ${inRange(f)}
       and not exists (select 1 from unnest(${param(liveKeys.map((a) => a.channelId))}::integer[], ${instants(liveKeys.map((a) => a.airingStart))}::timestamptz[]) as k(channel_id, airing_start)
                        where k.channel_id = pa.channel_id and k.airing_start = pa.airing_start)
    union all
    select channel_id, airing_start, source, video_id, watch_seconds, sessions, peak_viewers from (${liveAirings(live)}) l where ${sources} and ${inRange(f)}`;
}

const ORDER: Record<ProgrammeMetric, string> = {
  watchSeconds: 'watch_seconds', sessions: 'sessions', viewers: 'viewers', peakViewers: 'peak_viewers',
};

export interface FigureQuery {
  keys: readonly ProgrammeKey[];
  orderBy: ProgrammeMetric;
  limit: number;
  offset: number;
  /** Whether the totals are wanted (they read every row of the range). */
  totals: boolean;
  /** Dead-air rows to rank among the programmes' (none: programmes only), and what the totals add for them. */
  deadAir?: { groups: readonly DeadAirGroup[]; totals: DeadAirTotals } | undefined;
}

export interface FigurePage {
  rows: FigureRow[];
  /** Undefined unless asked. */
  totals: FigureRow | undefined;
  /** How many groups there are in all. */
  groups: number;
}

type GroupRaw = {
  video?: number;
  channel?: number;
  source?: string;
  day?: number;
  watch_seconds: number;
  sessions: number;
  peak_viewers: number;
  viewers?: number;
  groups: number;
  /** The channel of a dead-air row (null on a programme's). */
  dead_channel?: number | null;
  dead_viewers?: number | null;
};

const keysOf = (keys: readonly ProgrammeKey[]) => sql.raw(keys.join(', '));
const keyColumns = (keys: readonly ProgrammeKey[]) => sql.raw(keys.map((k) => `${KEY_COLUMN[k]} as ${k}`).join(', '));
/** Distinct viewers per group of `keys` in the rows `w` (a hash aggregate of pairs: no sort of every row). */
const viewersPerGroup = (keys: readonly ProgrammeKey[], w: SQL) =>
  sql`select ${keysOf(keys)}, count(*)::integer as viewers from (select ${keyColumns(keys)}, viewer from (${w}) w group by ${keysOf(keys)}, viewer) pairs group by ${keysOf(keys)}`;

/**
 * One row per group of `keys` (a page of them, best first by `orderBy`), the row of totals and
 * the number of groups. Watch time, sessions and peaks come from the airings' figures (sessions
 * per showing: a session that saw two showings of a programme counts in both; the peak is the
 * highest of the group's airings); viewers are counted distinct per group, for the page's groups
 * only unless the ranking is by viewers. The totals count each session and each device once.
 */
export async function figureRows(db: Queryable, f: ProgrammeFilter, live: LiveRows, q: FigureQuery): Promise<FigurePage> {
  // Independent reads, concurrent on PostgreSQL's pool (PGlite runs them one after another).
  const totalsRead = q.totals ? totals(db, f, live, q.deadAir?.totals) : Promise.resolve(undefined);
  const page = await rankedGroups(db, f, live, q);
  const isDead = (r: GroupRaw) => r.dead_channel !== undefined && r.dead_channel !== null;
  const viewers = q.orderBy === 'viewers' ? undefined : await pageViewers(db, f, live, q.keys, page.filter((r) => !isDead(r)));
  const groupKey = (r: GroupRaw) => q.keys.map((k) => r[k]).join('|');
  const rows = page.map((r): FigureRow => ({
    videoId: r.video ?? null, channelId: isDead(r) ? r.dead_channel! : (r.channel ?? null), source: r.source ?? null,
    day: r.day === undefined || r.day === null ? null : new Date(r.day * 86_400_000).toISOString().slice(0, 10),
    watchSeconds: Number(r.watch_seconds), sessions: r.sessions, peakViewers: r.peak_viewers,
    viewers: isDead(r) ? r.dead_viewers! : (r.viewers ?? viewers?.get(groupKey(r)) ?? 0),
    deadAir: isDead(r),
  }));
  // A page past the last has no row to carry the count: the first page's does.
  const groups = page[0]?.groups ?? (q.offset > 0 ? ((await rankedGroups(db, f, live, { ...q, limit: 1, offset: 0 }))[0]?.groups ?? 0) : 0);
  return { rows, totals: await totalsRead, groups };
}

/** A row that is its session's first in the range: counting these counts each session once. */
const firstInRange = (f: ProgrammeFilter) => sql`(prev_airing_start is null or prev_airing_start < ${instant(f.from)})`;

async function rankedGroups(db: Queryable, f: ProgrammeFilter, live: LiveRows, q: FigureQuery): Promise<GroupRaw[]> {
  const keys = keysOf(q.keys);
  const using = sql.raw(`using (${q.keys.join(', ')})`);
  const byViewers = q.orderBy === 'viewers';
  // Ranking by viewers needs every group's: the slow path (every row of the range is read).
  const viewers = byViewers
    ? sql`, v as (${viewersPerGroup(q.keys, watchRows(f, live, 'video_id, channel_id, source, airing_start, viewer'))})`
    : sql``;
  // A session has one channel and one source: groups without a programme count their sessions
  // once each (their first rows in the range); a programme's are its showings' sessions.
  const perSession = !q.keys.includes('video');
  const sessions = perSession
    ? sql`, s as (select ${keyColumns(q.keys)}, count(*)::integer as sessions from (${watchRows(f, live, 'airing_start, channel_id, source, prev_airing_start')}) w
                   where ${firstInRange(f)} group by ${keys})`
    : sql``;
  return queryRows<GroupRaw>(db, sql`
    with g as (
      select ${keyColumns(q.keys)}, sum(watch_seconds)::float8 as watch_seconds, sum(sessions)::integer as sessions,
             max(peak_viewers)::integer as peak_viewers
        from (${airingRows(f, live, q.keys.includes('source'))}) a group by ${keys})${viewers}${sessions},
    ranked as (
      select ${keys}, g.watch_seconds, ${perSession ? sql`coalesce(s.sessions, 0)::integer` : sql`g.sessions`} as sessions, g.peak_viewers
             ${byViewers ? sql`, coalesce(v.viewers, 0)::integer as viewers` : sql``}, null::integer as dead_channel, null::integer as dead_viewers
        from g ${perSession ? sql`left join s ${using}` : sql``} ${byViewers ? sql`left join v ${using}` : sql``}
      ${deadAirRows(q)})
    select ranked.*, count(*) over ()::integer as groups from ranked
     order by ${sql.raw(ORDER[q.orderBy])} desc, ${keys}, dead_channel
     limit ${q.limit} offset ${q.offset}`);
}

/** The caller's dead-air groups as rows shaped like ranked's (video null), to rank among them; nothing without any. */
function deadAirRows(q: FigureQuery): SQL {
  const d = q.deadAir?.groups ?? [];
  if (d.length === 0) return sql``;
  const KEY: Record<ProgrammeKey, string> = { video: 'null::integer', channel: 'd.channel', source: 'd.source', day: 'd.day' };
  const column = <T>(pick: (r: DeadAirGroup) => T) => param(d.map(pick));
  return sql`
      union all
      select ${sql.raw(q.keys.map((k) => `${KEY[k]} as ${k}`).join(', '))}, d.watch_seconds, d.sessions, d.peak_viewers
             ${q.orderBy === 'viewers' ? sql`, d.viewers` : sql``}, d.channel, d.viewers
        from unnest(${column((r) => r.channelId)}::integer[], ${column((r) => r.source)}::text[], ${column((r) => r.day)}::integer[],
                    ${column((r) => r.watchSeconds)}::float8[], ${column((r) => r.sessions)}::integer[], ${column((r) => r.peakViewers)}::integer[],
                    ${column((r) => r.viewers)}::integer[])
          as d(channel, source, day, watch_seconds, sessions, peak_viewers, viewers)`;
}

/** Distinct viewers of the page's groups, keyed by their keys joined with '|'. */
async function pageViewers(db: Queryable, f: ProgrammeFilter, live: LiveRows, keys: readonly ProgrammeKey[], page: GroupRaw[]): Promise<Map<string, number>> {
  if (page.length === 0) return new Map();
  const videos = keys.includes('video') ? [...new Set(page.map((r) => r.video!))] : undefined;
  const w = watchRows(f, live, 'video_id, channel_id, source, airing_start, viewer', videos);
  // Only the rows of the page's groups are paired with their viewers.
  const pageKeys = keys.map((k) => sql`${sql.raw(KEY_COLUMN[k])} = any(${param([...new Set(page.map((r) => r[k]))])})`);
  const narrowed = sql`select * from (${w}) w where ${sql.join(pageKeys, sql` and `)}`;
  const rows = await queryRows<GroupRaw & { viewers: number }>(db, viewersPerGroup(keys, narrowed));
  return new Map(rows.map((r) => [keys.map((k) => r[k]).join('|'), r.viewers]));
}

/**
 * The whole filter's figures: watch time and peak from the airings (all sources); each session
 * counted once, on its first row in the range (no distinct count); devices counted distinct.
 */
async function totals(db: Queryable, f: ProgrammeFilter, live: LiveRows, deadAir?: DeadAirTotals): Promise<FigureRow> {
  const one = async <T>(query: SQL) => (await queryRows<T>(db, query))[0]!;
  const deadSessions = deadAir?.sessionIds ?? [];
  const deadViewers = deadAir?.viewers ?? [];
  const [airings, sessions, onlyDead, viewers] = await Promise.all([
    one<{ watch_seconds: number; peak_viewers: number }>(sql`
      select coalesce(sum(watch_seconds), 0)::float8 as watch_seconds, coalesce(max(peak_viewers), 0)::integer as peak_viewers from (${airingRows(f, live, false)}) a`),
    one<{ n: number }>(sql`select count(*)::integer as n from (${watchRows(f, live, 'airing_start, channel_id, prev_airing_start')}) w where ${firstInRange(f)}`),
    // Sessions that watched dead air and no programme of the range: counted once more each.
    deadSessions.length === 0
      ? { n: 0 }
      : one<{ n: number }>(sql`
      select count(*)::integer as n from unnest(${param([...deadSessions])}::bigint[]) d(id)
       where not exists (select 1 from (${watchRows(f, live, 'session_id, airing_start, channel_id')}) w where w.session_id = d.id)`),
    one<{ n: number }>(sql`select count(*)::integer as n from (select viewer from (select viewer from (${watchRows(f, live, 'airing_start, channel_id, viewer')}) w
      ${deadViewers.length === 0 ? sql`` : sql`union all select unnest(${param(deadViewers.map(String))}::bigint[]) as viewer`}) v group by viewer) d`),
  ]);
  return {
    videoId: null, channelId: null, source: null, day: null, deadAir: false,
    watchSeconds: Number(airings.watch_seconds) + (deadAir?.watchSeconds ?? 0), sessions: sessions.n + onlyDead.n, viewers: viewers.n,
    peakViewers: Math.max(airings.peak_viewers, deadAir?.peakViewers ?? 0),
  };
}

/** The stored rows of one channel's airings that started in [from, to) (a channel-day's curve). */
export async function channelWatchSpans(db: Queryable, channelId: number, from: number, to: number, excludeSessions: number[]): Promise<{ viewer: bigint; watchStart: number; watchSeconds: number }[]> {
  const rows = await queryRows<{ viewer: string; watchStart: number; watchSeconds: number }>(db, sql`
    select viewer::text as viewer, ${epochMs('watch_start')} as "watchStart", watch_seconds as "watchSeconds" from programme_watch
     where channel_id = ${channelId} and airing_start >= ${instant(from)} and airing_start < ${instant(to)}
       and not session_id = any(${param(excludeSessions)}::bigint[])`);
  return rows.map((r) => ({ ...r, viewer: BigInt(r.viewer) }));
}

/**
 * The channel's sessions watching during [from, to) (started at most a day before it, as the
 * curve's airings): what the curve counts in the minutes nothing is on air (dead air).
 */
export async function channelSessionsDuring(db: Queryable, channelId: number, from: number, to: number): Promise<SessionToCredit[]> {
  const rows = await queryRows<SessionToCredit>(db, sql`
    select ${SESSION_TO_CREDIT} from watch_sessions ws
     where ws.channel_id = ${channelId} and ws.started_at >= ${instant(from)} - interval '1 day' and ws.started_at < ${instant(to)}
       and ws.last_heartbeat_at >= ${instant(from)}`);
  return rows.map((r) => ({ ...r, id: Number(r.id) }));
}

/**
 * The stored dead air (programme_dead_air, written by the crediter) of the filter's sessions but
 * `excludeSessions` that meets [from, to): stretches that started at most a day before `from`
 * (a session's stretch is no longer than the session: a day at most, as the other reads of
 * sessions take them), read by an index-only scan. At most `limit`, the most recent first.
 */
export async function storedDeadAir(db: Queryable, f: ProgrammeFilter, excludeSessions: readonly number[], limit: number): Promise<DeadAirRow[]> {
  const rows = await queryRows<Omit<DeadAirRow, 'viewer'> & { viewer: string }>(db, sql`
    select session_id::float8 as "sessionId", owner_id as "ownerId", channel_id as "channelId", source, viewer::text as viewer,
           ${epochMs('watch_start')} as "watchStart", watch_seconds as "watchSeconds"
      from programme_dead_air
     where owner_id = ${f.ownerId} ${f.channelId === undefined ? sql`` : sql`and channel_id = ${f.channelId}`}
       and watch_start >= ${instant(f.from)} - interval '1 day' and watch_start < ${instant(f.to)}
       and watch_start + watch_seconds * interval '1 second' >= ${instant(f.from)}
       and not session_id = any(${param([...excludeSessions])}::bigint[])
     order by watch_start desc, session_id
     limit ${limit}`);
  return rows.map((r) => ({ ...r, sessionId: Number(r.sessionId), viewer: BigInt(r.viewer) }));
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
