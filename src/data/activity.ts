// Activity events and watch sessions in SQL. The session rules of sessions/rules.ts are applied
// by single statements against the partial unique index on the open session key, so that any
// number of processes writing the same viewer's heartbeats agree without reading first.
import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { Queryable } from '../db/connect.ts';
import { channels } from '../db/schema.ts';
import { closingWithRollup, figuresRelation, groupedFigures, type RollupPlan } from './watch-rollups.ts';
import { creditedOf, GAP, instantParam, MIN_CREDITED_SECONDS, queryRows, SESSION_GAP_SECONDS, sessionView } from './session-sql.ts';

export { instantParam, MIN_CREDITED_SECONDS, queryRows, SESSION_GAP_SECONDS, sessionView } from './session-sql.ts';


/** The spec's session key; absent client_id and user_id are '' so that the key is never null. */
export interface SessionKey {
  source: string;
  clientId: string;
  userId: string;
  channelId: number;
}

export interface Heartbeat extends SessionKey {
  ownerId: number;
  at: Date;
}

export interface ActivityEventRow {
  receivedAt: Date;
  source: string;
  action: string;
  clientId: string | null;
  userId: string | null;
  channelId: number | null;
  payload: unknown;
  processed: boolean;
}

export interface ActivityChannel {
  ownerId: number;
  servicePlanActive: boolean;
}


// The write path runs thousands of times a second, so its statements are constant text with one
// array parameter per column (unnest): building a multi-row VALUES list through the query
// builder cost more CPU than the rest of a request.
const array = (values: unknown[]) => sql.param(values);
const instants = (dates: Date[]) => array(dates.map((d) => d.toISOString()));


/** Sessions open at `now`: their last heartbeat is at most the session gap old. */
export async function countOpenSessions(db: Queryable, now: Date): Promise<number> {
  const rows = await queryRows<{ open: number }>(db, sql`
    select count(*)::int as open from watch_sessions
     where open and last_heartbeat_at >= ${now.toISOString()}::timestamptz - ${GAP}`);
  return rows[0]?.open ?? 0;
}

/** The live (not deleted) channels among `ids`, with their owner's plan. */
export async function findActivityChannels(db: Queryable, ids: number[]): Promise<Map<number, ActivityChannel>> {
  if (ids.length === 0) return new Map();
  const rows = await queryRows<{ id: number; ownerId: number; servicePlanActive: boolean }>(db, sql`
    select c.id, c.owner_id as "ownerId", a.service_plan_active as "servicePlanActive"
      from channels c join accounts a on a.id = c.owner_id
     where c.id = any(${array(ids)}::integer[]) and not c.deleted`);
  return new Map(rows.map((r) => [r.id, { ownerId: r.ownerId, servicePlanActive: r.servicePlanActive }]));
}

/** Payloads go in as JSON text: the drivers would turn a JSON string payload into text, not jsonb. */
export async function insertActivityEvents(db: Queryable, rows: ActivityEventRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db.execute(eventInsert(rows));
}

function eventInsert(rows: ActivityEventRow[]): SQL {
  const column = <T>(pick: (r: ActivityEventRow) => T) => array(rows.map(pick));
  return sql`
    insert into activity_events (received_at, source, action, client_id, user_id, channel_id, payload, processed)
    select received_at, source, action, client_id, user_id, channel_id, payload::jsonb, processed
      from unnest(${instants(rows.map((r) => r.receivedAt))}::timestamptz[], ${column((r) => r.source)}::text[],
                  ${column((r) => r.action)}::text[], ${column((r) => r.clientId)}::text[], ${column((r) => r.userId)}::text[],
                  ${column((r) => r.channelId)}::integer[], ${column((r) => (r.payload === null ? null : JSON.stringify(r.payload)))}::text[],
                  ${column((r) => r.processed)}::boolean[])
           as e(received_at, source, action, client_id, user_id, channel_id, payload, processed)`;
}

/** The heartbeats as a relation h(source, client_id, user_id, channel_id, owner_id, at, n), n their order. */
function heartbeatRelation(heartbeats: Heartbeat[]): SQL {
  const column = <T>(pick: (h: Heartbeat) => T) => array(heartbeats.map(pick));
  return sql`unnest(${column((h) => h.source)}::text[], ${column((h) => h.clientId)}::text[], ${column((h) => h.userId)}::text[],
                    ${column((h) => h.channelId)}::integer[], ${column((h) => h.ownerId)}::integer[], ${instants(heartbeats.map((h) => h.at))}::timestamptz[])
             with ordinality as h(source, client_id, user_id, channel_id, owner_id, at, n)`;
}

/**
 * Extends the open session of each heartbeat's key, or opens one when the key has none, in
 * the order given (rules.heartbeatRounds: a fixed key order, so writers lock rows alike).
 * A heartbeat older than the session's last one never shrinks it; one up to 3 minutes before
 * the start moves the start back (a late first heartbeat). The update's WHERE refuses to
 * extend a session whose last heartbeat is more than 3 minutes before this one: such a
 * heartbeat is not in the answer, and the caller closes that session and tries again.
 * Returns the keys of the heartbeats applied.
 */
export async function upsertOpenSessions(db: Queryable, heartbeats: Heartbeat[]): Promise<SessionKey[]> {
  return queryRows<SessionKey>(db, sessionUpsert(heartbeats));
}

/**
 * insertActivityEvents and upsertOpenSessions in ONE statement (a data-modifying CTE): one
 * round trip less per batch of the group commit. Returns the keys of the heartbeats applied.
 */
export async function insertEventsAndUpsertSessions(db: Queryable, rows: ActivityEventRow[], heartbeats: Heartbeat[]): Promise<SessionKey[]> {
  if (heartbeats.length === 0) {
    await insertActivityEvents(db, rows);
    return [];
  }
  if (rows.length === 0) return upsertOpenSessions(db, heartbeats);
  return queryRows<SessionKey>(db, sql`with inserted_events as (${eventInsert(rows)}) ${sessionUpsert(heartbeats)}`);
}

function sessionUpsert(heartbeats: Heartbeat[]): SQL {
  const withinSession = sql`excluded.started_at >= ws.started_at - ${GAP}`;
  return sql`
    insert into watch_sessions as ws (source, client_id, user_id, channel_id, owner_id, started_at, last_heartbeat_at, heartbeats, open)
    select source, client_id, user_id, channel_id, owner_id, at, at, 1, true from ${heartbeatRelation(heartbeats)} order by n
    on conflict (source, client_id, user_id, channel_id) where open do update
       set last_heartbeat_at = greatest(ws.last_heartbeat_at, excluded.last_heartbeat_at),
           started_at = case when ${withinSession} then least(ws.started_at, excluded.started_at) else ws.started_at end,
           heartbeats = ws.heartbeats + case when ${withinSession} then 1 else 0 end
     where excluded.last_heartbeat_at <= ws.last_heartbeat_at + ${GAP}
    returning source, client_id as "clientId", user_id as "userId", channel_id as "channelId"`;
}


/** What a closing UPDATE returns for the rollups (data/watch-rollups.ts). */
const CLOSED_COLUMNS = sql.raw('ws.owner_id, ws.channel_id, ws.source, ws.user_id, ws.started_at, ws.credited_seconds');

/**
 * Closes the open session of each heartbeat's key when the heartbeat comes after the gap, and
 * rolls it up in the same statement.
 */
export async function closeStaleSessions(db: Queryable, heartbeats: Heartbeat[]): Promise<void> {
  if (heartbeats.length === 0) return;
  await db.execute(closingWithRollup(sql`
    update watch_sessions ws
       set open = false, ended_at = ws.last_heartbeat_at, credited_seconds = ${creditedOf('ws')}
      from ${heartbeatRelation(heartbeats)}
     where ws.open and ws.source = h.source and ws.client_id = h.client_id and ws.user_id = h.user_id
       and ws.channel_id = h.channel_id and ws.last_heartbeat_at < h.at - ${GAP}
    returning ${CLOSED_COLUMNS}`));
}

/**
 * Marks up to `limit` open rows whose last heartbeat is before `cutoff` closed, and rolls them
 * up in the same statement. Rows locked by a heartbeat being written are skipped (that heartbeat
 * deals with them). Returns the count.
 */
export async function sweepStaleSessions(db: Queryable, cutoff: Date, limit: number): Promise<number> {
  const rows = await queryRows<{ n: number }>(db, closingWithRollup(sql`
    update watch_sessions ws
       set open = false, ended_at = ws.last_heartbeat_at, credited_seconds = ${creditedOf('ws')}
     where ws.id in (select id from watch_sessions
                      where open and last_heartbeat_at < ${cutoff.toISOString()}::timestamptz
                      limit ${limit} for update skip locked)
    returning ${CLOSED_COLUMNS}`));
  return rows[0]?.n ?? 0;
}

// ---------------------------------------------------------------- analytics reads

/** Sessions of one owner that started in [from, to), optionally of one channel, read at `now`. */
export interface SessionFilter {
  ownerId: number;
  from: Date;
  to: Date;
  channelId?: number | undefined;
  now: Date;
}



const ofChannel = (channelId: number | undefined) => (channelId === undefined ? sql`` : sql`and ws.channel_id = ${channelId}`);

function startedWithin(f: SessionFilter): SQL {
  return sql`ws.owner_id = ${f.ownerId} and ws.started_at >= ${instantParam(f.from)} and ws.started_at < ${instantParam(f.to)} ${ofChannel(f.channelId)}`;
}

/** A viewer is a user_id; sessions without one cannot be told apart and count one viewer each. */
export const VIEWER_KEY = sql.raw(`(case when ws.user_id <> '' then 'u' || ws.user_id else 's' || ws.id end)`);

export async function ownsChannel(db: Queryable, ownerId: number, channelId: number): Promise<boolean> {
  const rows = await db.select({ id: channels.id }).from(channels).where(and(eq(channels.id, channelId), eq(channels.ownerId, ownerId)));
  return rows.length > 0;
}

export type SummaryGroup = 'channel' | 'source' | 'day';

export interface SummaryRow {
  /** null on the row of totals. */
  key: string | number | null;
  channelName: string | null;
  watchSeconds: number;
  sessions: number;
  viewers: number;
}

/** The grouping column of `figures` (watch-rollups.ts): a day is its bucket (the caller cuts the range at UTC midnights). */
const GROUP_KEY: Record<SummaryGroup, SQL> = {
  channel: sql.raw('channel_id'),
  source: sql.raw('source'),
  day: sql.raw('b'),
};

export interface SummaryFilter extends SessionFilter {
  /** Bucket i is [bounds[i], bounds[i + 1]): the range, or its UTC days for the day grouping. */
  bounds: number[];
  plan: RollupPlan;
}

/**
 * One row per group and a last row of totals (grouping sets: viewers are not additive), from the
 * rollups and the raw sessions the plan names. A day's key is its bucket number.
 */
export async function summaryRows(db: Queryable, f: SummaryFilter, group: SummaryGroup): Promise<SummaryRow[]> {
  const key = GROUP_KEY[group];
  const rows = await queryRows<{ key: string | number | null; channel_name: string | null; total: boolean; watch_seconds: number; sessions: number; viewers: number }>(db, sql`
    with ${figuresRelation(f)},
    ${groupedFigures([key], ['key'], '((key), ())')}
    select g.key, g.mask = 1 as total, g.watch_seconds, g.sessions, g.devices as viewers, ${group === 'channel' ? sql`c.name` : sql`null`} as channel_name
      from grouped g ${group === 'channel' ? sql`left join channels c on c.id = g.key` : sql``}
     order by g.mask, g.key`);
  return rows.map((r) => ({
    key: r.total ? null : r.key,
    channelName: group === 'channel' && !r.total ? r.channel_name : null,
    watchSeconds: Number(r.watch_seconds), sessions: r.sessions, viewers: r.viewers,
  }));
}

export interface SessionRow {
  source: string;
  clientId: string;
  userId: string;
  channelId: number;
  startedAt: Date;
  lastHeartbeatAt: Date;
  endedAt: Date | null;
  creditedSeconds: number;
  heartbeats: number;
  open: boolean;
}

/** Timestamps leave raw statements as epoch milliseconds: the drivers would give Date or text. */
const epochMs = (instant: SQL) => sql`(extract(epoch from ${instant}) * 1000)::float8`;
const dateOf = (ms: number | null) => (ms === null ? null : new Date(ms));

/** Sessions in start order (stable pages while new sessions arrive after the range). */
export async function sessionRows(db: Queryable, f: SessionFilter, limit: number, offset: number): Promise<SessionRow[]> {
  const v = sessionView(f.now);
  type Raw = Omit<SessionRow, 'startedAt' | 'lastHeartbeatAt' | 'endedAt'> & { startedAt: number; lastHeartbeatAt: number; endedAt: number | null };
  const rows = await queryRows<Raw>(db, sql`
    select ws.source, ws.client_id as "clientId", ws.user_id as "userId", ws.channel_id as "channelId",
           ${epochMs(sql`ws.started_at`)} as "startedAt", ${epochMs(sql`ws.last_heartbeat_at`)} as "lastHeartbeatAt",
           ${epochMs(v.endedAt)} as "endedAt", ${v.credited} as "creditedSeconds", ws.heartbeats, ${v.open} as open
      from watch_sessions ws
     where ${startedWithin(f)}
     order by ws.started_at, ws.id
     limit ${limit} offset ${offset}`);
  return rows.map((r) => ({ ...r, startedAt: dateOf(r.startedAt)!, lastHeartbeatAt: dateOf(r.lastHeartbeatAt)!, endedAt: dateOf(r.endedAt) }));
}

export async function sessionCount(db: Queryable, f: SessionFilter): Promise<number> {
  const rows = await queryRows<{ n: number }>(db, sql`select count(*)::integer as n from watch_sessions ws where ${startedWithin(f)}`);
  return rows[0]?.n ?? 0;
}

/** Buckets of `stepSeconds` from `origin` (epoch seconds); `count` of them. */
export interface Buckets {
  origin: number;
  stepSeconds: number;
  count: number;
}

/**
 * Distinct viewers watching during each bucket, for the buckets that have any: each session
 * is expanded to the buckets its watching time touches, so the cost follows the data, not
 * buckets times sessions.
 */
export async function concurrencyRows(db: Queryable, f: SessionFilter, b: Buckets): Promise<{ bucket: number; viewers: number }[]> {
  const v = sessionView(f.now);
  const index = (instant: SQL) => sql`((extract(epoch from ${instant}) - ${b.origin}::float8) / ${b.stepSeconds}::float8)`;
  return queryRows(db, sql`
    with s as (
      select ${VIEWER_KEY} as viewer, floor(${index(sql`ws.started_at`)})::integer as first,
             case when ${v.watchedUntil} > ws.started_at then ceil(${index(v.watchedUntil)})::integer - 1
                  else floor(${index(sql`ws.started_at`)})::integer end as last
        from watch_sessions ws
       where ws.owner_id = ${f.ownerId} and ws.started_at < ${instantParam(f.to)} and ${v.watchedUntil} >= ${instantParam(f.from)}
             ${ofChannel(f.channelId)})
    select b as bucket, count(distinct s.viewer)::integer as viewers
      from s, generate_series(greatest(s.first, 0), least(s.last, ${b.count - 1}::integer)) as b
     group by b order by b`);
}
