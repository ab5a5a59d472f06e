// Atomic failure counting: one upsert per failed attempt, correct with many instances.
import { and, eq, inArray, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { Queryable } from '../db/connect.ts';
import { loginThrottles } from '../db/schema.ts';

export async function blockedUntil(db: Queryable, keys: string[]): Promise<Date | undefined> {
  if (keys.length === 0) return undefined;
  const rows = await db.select({ blockedUntil: loginThrottles.blockedUntil }).from(loginThrottles).where(inArray(loginThrottles.key, keys));
  const times = rows.map((r) => r.blockedUntil).filter((d): d is Date => d !== null);
  return times.length === 0 ? undefined : new Date(Math.max(...times.map((d) => d.getTime())));
}

export interface FailurePolicy {
  maxFailures: number;
  windowMs: number;
  blockMs: number;
}

/** Counts one failure for `key`; opens a new window when the old one is over. */
export async function recordFailure(db: Queryable, key: string, now: Date, policy: FailurePolicy): Promise<void> {
  const windowStart = new Date(now.getTime() - policy.windowMs);
  const blockEnd = new Date(now.getTime() + policy.blockMs);
  const fresh = sql`${loginThrottles.windowStartedAt} < ${windowStart}`;
  const failures = sql`case when ${fresh} then 1 else ${loginThrottles.failures} + 1 end`;
  await db
    .insert(loginThrottles)
    .values({ key, failures: 1, windowStartedAt: now, blockedUntil: policy.maxFailures <= 1 ? blockEnd : null })
    .onConflictDoUpdate({
      target: loginThrottles.key,
      set: {
        failures,
        windowStartedAt: sql`case when ${fresh} then ${now} else ${loginThrottles.windowStartedAt} end`,
        blockedUntil: sql`case when ${failures} >= ${policy.maxFailures} then ${blockEnd} else ${loginThrottles.blockedUntil} end`,
      },
    });
}

export async function clearFailures(db: Queryable, key: string): Promise<void> {
  await db.delete(loginThrottles).where(eq(loginThrottles.key, key));
}

/**
 * Deletes up to `limit` rows whose window started before `windowsBefore` and whose block is over:
 * they count as nothing (a new failure opens a new window). Called on each failure, a few at a
 * time, so names an attacker rotates through do not pile up, at a bounded cost per request.
 */
export async function pruneThrottles(db: Queryable, now: Date, windowsBefore: Date, limit: number): Promise<void> {
  const stale = db
    .select({ key: loginThrottles.key })
    .from(loginThrottles)
    .where(
      and(
        lt(loginThrottles.windowStartedAt, windowsBefore),
        or(isNull(loginThrottles.blockedUntil), lte(loginThrottles.blockedUntil, now)),
      ),
    )
    .limit(limit);
  await db.delete(loginThrottles).where(inArray(loginThrottles.key, stale));
}
