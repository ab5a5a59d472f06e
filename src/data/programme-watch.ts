// Programme attribution in SQL: claiming closed sessions to credit, storing their programme rows,
// their dead air and the figures of the airings they touched. The split itself is sessions/programme-attribution.ts.
import { sql, type SQL } from 'drizzle-orm';
import type { Queryable } from '../db/connect.ts';
import { queryRows } from './activity.ts';

/** A session to credit, with its channel's zone; instants in epoch ms. */
export interface SessionToCredit {
  id: number;
  source: string;
  clientId: string;
  userId: string;
  channelId: number;
  ownerId: number;
  startedAt: number;
  lastHeartbeatAt: number;
  timezone: string;
}

/** A programme_watch row (sessions/programme-attribution.ts makes them); instants in epoch ms, the viewer as 64 bits. */
export interface ProgrammeWatchRow {
  sessionId: number;
  airingStart: number;
  airingStop: number;
  ownerId: number;
  channelId: number;
  videoId: number;
  isLive: boolean;
  source: string;
  viewer: bigint;
  watchStart: number;
  watchSeconds: number;
  /**
   * The airing of the session's previous row (null on its first): a read over a range counts a
   * session once, on its first row in the range, without a distinct count.
   */
  prevAiringStart: number | null;
}

export interface AiringFiguresRow {
  channelId: number;
  airingStart: number;
  source: string;
  airingStop: number;
  ownerId: number;
  videoId: number;
  isLive: boolean;
  watchSeconds: number;
  sessions: number;
  viewers: number;
  peakViewers: number;
}

const param = (values: unknown[]) => sql.param(values);
const instants = (ms: number[]) => param(ms.map((m) => new Date(m).toISOString()));
/** Timestamps leave raw statements as epoch milliseconds: the drivers would give Date or text. */
export const epochMs = (column: string) => sql.raw(`(extract(epoch from ${column}) * 1000)::float8`);

/** A SessionToCredit of the watch_sessions row `ws` (its channel's zone; UTC once the channel is gone). */
export const SESSION_TO_CREDIT = sql.raw(`ws.id::float8 as id, ws.source, ws.client_id as "clientId", ws.user_id as "userId",
  ws.channel_id as "channelId", ws.owner_id as "ownerId", (extract(epoch from ws.started_at) * 1000)::float8 as "startedAt",
  (extract(epoch from ws.last_heartbeat_at) * 1000)::float8 as "lastHeartbeatAt",
  coalesce((select c.timezone from channels c where c.id = ws.channel_id), 'UTC') as timezone`);

/**
 * Up to `limit` closed sessions not credited yet, oldest first, locked for this transaction;
 * those another process holds are skipped (it is crediting them).
 */
export async function claimSessionsToCredit(tx: Queryable, limit: number): Promise<SessionToCredit[]> {
  const rows = await queryRows<SessionToCredit>(tx, sql`
    select ${SESSION_TO_CREDIT} from watch_sessions ws
     where not ws.open and not ws.programmes_credited
     order by ws.id
     limit ${limit}
       for update of ws skip locked`);
  return rows.map((r) => ({ ...r, id: Number(r.id) }));
}

/** Closed sessions waiting for the crediter (a count over their own small index). */
export async function countSessionsToCredit(db: Queryable): Promise<number> {
  const rows = await queryRows<{ n: number }>(db, sql`select count(*)::integer as n from watch_sessions where not open and not programmes_credited`);
  return rows[0]?.n ?? 0;
}

export async function markSessionsCredited(tx: Queryable, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  await tx.execute(sql`update watch_sessions set programmes_credited = true where id = any(${param(ids)}::bigint[])`);
}

/** Stores the rows; a row already stored (a session credited twice) is left as it is. */
export async function insertProgrammeWatch(tx: Queryable, rows: ProgrammeWatchRow[]): Promise<void> {
  if (rows.length === 0) return;
  const column = <T>(pick: (r: ProgrammeWatchRow) => T) => param(rows.map(pick));
  await tx.execute(sql`
    insert into programme_watch (session_id, airing_start, airing_stop, owner_id, channel_id, video_id, is_live, source, viewer, watch_start, watch_seconds, prev_airing_start)
    select * from unnest(${column((r) => r.sessionId)}::bigint[], ${instants(rows.map((r) => r.airingStart))}::timestamptz[],
                         ${instants(rows.map((r) => r.airingStop))}::timestamptz[], ${column((r) => r.ownerId)}::integer[],
                         ${column((r) => r.channelId)}::integer[], ${column((r) => r.videoId)}::integer[], ${column((r) => r.isLive)}::boolean[],
                         ${column((r) => r.source)}::text[], ${column((r) => r.viewer.toString())}::bigint[],
                         ${instants(rows.map((r) => r.watchStart))}::timestamptz[], ${column((r) => r.watchSeconds)}::integer[],
                         ${param(rows.map((r) => (r.prevAiringStart === null ? null : new Date(r.prevAiringStart).toISOString())))}::timestamptz[])
    on conflict do nothing`);
}

/** A programme_dead_air row: a stretch of a session's watching while nothing was on air; instants in epoch ms. */
export interface DeadAirRow {
  sessionId: number;
  ownerId: number;
  channelId: number;
  source: string;
  viewer: bigint;
  watchStart: number;
  watchSeconds: number;
}

/** Stores the sessions' dead air; a stretch already stored (a session credited twice) is left as it is. */
export async function insertDeadAir(tx: Queryable, rows: readonly DeadAirRow[]): Promise<void> {
  if (rows.length === 0) return;
  const column = <T>(pick: (r: DeadAirRow) => T) => param(rows.map(pick));
  await tx.execute(sql`
    insert into programme_dead_air (session_id, watch_start, owner_id, channel_id, source, viewer, watch_seconds)
    select * from unnest(${column((r) => r.sessionId)}::bigint[], ${instants(rows.map((r) => r.watchStart))}::timestamptz[],
                         ${column((r) => r.ownerId)}::integer[], ${column((r) => r.channelId)}::integer[], ${column((r) => r.source)}::text[],
                         ${column((r) => r.viewer.toString())}::bigint[], ${column((r) => r.watchSeconds)}::integer[])
    on conflict do nothing`);
}

/** The airings as a relation a(channel_id, airing_start). */
function airingRelation(airings: { channelId: number; airingStart: number }[]): SQL {
  return sql`unnest(${param(airings.map((a) => a.channelId))}::integer[], ${instants(airings.map((a) => a.airingStart))}::timestamptz[]) as a(channel_id, airing_start)`;
}

/**
 * Locks the airings for the rest of the transaction (in one order, so crediters cannot deadlock):
 * two processes recomputing an airing's figures each from its own snapshot would lose the rows of
 * the other; with the lock, the second reads after the first committed.
 */
export async function lockAirings(tx: Queryable, airings: { channelId: number; airingStart: number }[]): Promise<void> {
  if (airings.length === 0) return;
  await tx.execute(sql`
    select pg_advisory_xact_lock(k) from (
      select distinct hashtextextended(a.channel_id::text || '|' || (extract(epoch from a.airing_start) * 1000)::bigint::text, 19) as k
        from ${airingRelation(airings)}
       order by k) keys`);
}

/** Every stored row of the airings. */
export async function airingWatchRows(db: Queryable, airings: { channelId: number; airingStart: number }[]): Promise<ProgrammeWatchRow[]> {
  if (airings.length === 0) return [];
  const rows = await queryRows<Omit<ProgrammeWatchRow, 'viewer'> & { viewer: string }>(db, sql`
    select pw.session_id::float8 as "sessionId", ${epochMs('pw.airing_start')} as "airingStart", ${epochMs('pw.airing_stop')} as "airingStop",
           pw.owner_id as "ownerId", pw.channel_id as "channelId", pw.video_id as "videoId", pw.is_live as "isLive", pw.source,
           pw.viewer::text as viewer, ${epochMs('pw.watch_start')} as "watchStart", pw.watch_seconds as "watchSeconds",
           ${epochMs('pw.prev_airing_start')} as "prevAiringStart"
      from ${airingRelation(airings)} join programme_watch pw on pw.channel_id = a.channel_id and pw.airing_start = a.airing_start`);
  return rows.map((r) => ({ ...r, sessionId: Number(r.sessionId), viewer: BigInt(r.viewer) }));
}

/** Replaces the figures of each (airing, source) given. */
export async function upsertAiringFigures(tx: Queryable, rows: AiringFiguresRow[]): Promise<void> {
  if (rows.length === 0) return;
  const column = <T>(pick: (r: AiringFiguresRow) => T) => param(rows.map(pick));
  await tx.execute(sql`
    insert into programme_airings (channel_id, airing_start, source, airing_stop, owner_id, video_id, is_live, watch_seconds, sessions, viewers, peak_viewers)
    select * from unnest(${column((r) => r.channelId)}::integer[], ${instants(rows.map((r) => r.airingStart))}::timestamptz[],
                         ${column((r) => r.source)}::text[], ${instants(rows.map((r) => r.airingStop))}::timestamptz[],
                         ${column((r) => r.ownerId)}::integer[], ${column((r) => r.videoId)}::integer[], ${column((r) => r.isLive)}::boolean[],
                         ${column((r) => r.watchSeconds)}::float8[], ${column((r) => r.sessions)}::integer[],
                         ${column((r) => r.viewers)}::integer[], ${column((r) => r.peakViewers)}::integer[])
    on conflict (channel_id, airing_start, source) do update
       set watch_seconds = excluded.watch_seconds, sessions = excluded.sessions, viewers = excluded.viewers, peak_viewers = excluded.peak_viewers`);
}
