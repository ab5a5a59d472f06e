// Rows of linear_ledger: each programme's sequence numbers, written once (src/linear/ledger.ts).
import { and, asc, eq, gte, inArray, sql } from 'drizzle-orm';
import type { Queryable } from '../db/connect.ts';
import { linearLedger } from '../db/schema.ts';

export type LedgerRowValues = Omit<typeof linearLedger.$inferSelect, 'channelId'>;

const columns = {
  programmeStart: linearLedger.programmeStart,
  mediaSequence: linearLedger.mediaSequence,
  discontinuitySequence: linearLedger.discontinuitySequence,
  videoId: linearLedger.videoId,
  segmentCount: linearLedger.segmentCount,
  discontinuities: linearLedger.discontinuities,
};

/**
 * Per channel, its rows from the last one starting at or before its `from` on, by start: one
 * query for every channel asked (a fleet's windows are made together, src/linear/live-stream.ts).
 */
export async function ledgerRowsFrom(db: Queryable, asks: ReadonlyArray<{ channelId: number; from: number }>): Promise<Map<number, LedgerRowValues[]>> {
  const out = new Map<number, LedgerRowValues[]>(asks.map((a) => [a.channelId, []]));
  if (asks.length === 0) return out;
  const ids = asks.map((a) => a.channelId);
  // Each row's channel's own `from`, by the channel's place in the arrays.
  const fromOf = sql`(${sql.param(asks.map((a) => a.from))}::bigint[])[array_position(${sql.param(ids)}::int[], ${linearLedger.channelId})]`;
  const floor = sql`coalesce((select max(m.programme_start) from linear_ledger m where m.channel_id = ${linearLedger.channelId} and m.programme_start <= ${fromOf}), ${fromOf})`;
  const rows = await db
    .select({ channelId: linearLedger.channelId, ...columns })
    .from(linearLedger)
    .where(and(inArray(linearLedger.channelId, ids), gte(linearLedger.programmeStart, floor)))
    .orderBy(asc(linearLedger.channelId), asc(linearLedger.programmeStart));
  for (const { channelId, ...row } of rows) out.get(channelId)!.push(row);
  return out;
}

/** Writes rows that are not there yet, of any channels (a row once written is never changed: on conflict, nothing). */
export async function insertLedgerRows(db: Queryable, rows: ReadonlyArray<LedgerRowValues & { channelId: number }>): Promise<void> {
  if (rows.length === 0) return;
  await db.insert(linearLedger).values([...rows]).onConflictDoNothing();
}

/** Whether the channel has aired (any row): its target duration is then fixed for life. */
export async function hasAired(db: Queryable, channelId: number): Promise<boolean> {
  const [row] = await db.select({ one: sql<number>`1` }).from(linearLedger).where(eq(linearLedger.channelId, channelId)).limit(1);
  return row !== undefined;
}
