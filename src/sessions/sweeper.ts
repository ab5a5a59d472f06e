// Marks sessions closed once their last heartbeat is past the gap. Nothing depends on it for
// correctness (every read derives openness from lastHeartbeatAt, and the next heartbeat of a
// key closes its stale session itself); it keeps the open-key index small and stores the
// credited duration of sessions that simply stopped.
import { sweepStaleSessions } from '../data/activity.ts';
import type { Queryable } from '../db/connect.ts';
import { SESSION_GAP_SECONDS } from './rules.ts';

/**
 * Extra time before the sweeper closes a session, so that a heartbeat still being handled
 * (or stamped by a process whose clock is a little behind) extends its session rather than
 * finding it closed under it.
 */
const SWEEP_GRACE_SECONDS = 120;
const SWEEP_CHUNK = 5_000;

/** Closes every stale open session; in chunks, so no statement holds many row locks. */
export async function sweepSessions(db: Queryable, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - (SESSION_GAP_SECONDS + SWEEP_GRACE_SECONDS) * 1000);
  let total = 0;
  for (;;) {
    const closed = await sweepStaleSessions(db, cutoff, SWEEP_CHUNK);
    total += closed;
    if (closed < SWEEP_CHUNK) return total;
  }
}
