// The SQL pieces every reader of watch sessions shares (activity.ts, watch-rollups.ts, trends.ts):
// raw rows of a statement, the session gap, and a session row as every read sees it at `now`.
import { sql, type SQL } from 'drizzle-orm';
import type { Queryable } from '../db/connect.ts';
// The two numbers of the session rules (spec "Limits") are written into the statements below
// as literals, so they are declared here; sessions/rules.ts states the rules with them.

/** A heartbeat more than this after the previous one closes the session. Exactly this extends it. */
export const SESSION_GAP_SECONDS = 180;
/** A closed session is credited at least this long. */
export const MIN_CREDITED_SECONDS = 60;

export const GAP = sql.raw(`interval '${SESSION_GAP_SECONDS} seconds'`);

/** Rows of a raw statement; both drivers answer an object with `rows`. */
export async function queryRows<T>(db: Queryable, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/** Credited seconds of a session row `alias`, ended at its last heartbeat. */
export const creditedOf = (alias: string) =>
  sql.raw(`greatest(${MIN_CREDITED_SECONDS}, floor(extract(epoch from ${alias}.last_heartbeat_at - ${alias}.started_at)))::integer`);

export const instantParam = (d: Date) => sql`${d.toISOString()}::timestamptz`;
export const lengthOf = sql.raw('floor(extract(epoch from ws.last_heartbeat_at - ws.started_at))::integer');

/**
 * A session row as every read sees it at `now`: open only while its last heartbeat is within
 * the gap, whatever its flag says; a stale row reads as closed at its last heartbeat with the
 * 60-second minimum; an open one is credited its length so far (no minimum yet).
 */
export function sessionView(now: Date) {
  const open = sql`(ws.open and ws.last_heartbeat_at >= ${instantParam(now)} - ${GAP})`;
  const credited = sql`(case when ${open} then ${lengthOf} else coalesce(ws.credited_seconds, ${creditedOf('ws')}) end)`;
  const endedAt = sql`(case when ${open} then null else coalesce(ws.ended_at, ws.last_heartbeat_at) end)`;
  /** Watching lasts from the start for the credited time; an open session up to its last heartbeat. */
  const watchedUntil = sql`(ws.started_at + ${credited} * interval '1 second')`;
  return { open, credited, endedAt, watchedUntil };
}
