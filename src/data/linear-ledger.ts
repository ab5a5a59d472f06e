// Rows of linear_ledger: each programme's sequence numbers, written once (src/linear/ledger.ts).
import { and, asc, eq, gte, lte, max, sql } from 'drizzle-orm';
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

/** The channel's rows from the last one starting at or before `from` on, by start (one query). */
export async function ledgerRowsFrom(db: Queryable, channelId: number, from: number): Promise<LedgerRowValues[]> {
  const floor = db
    .select({ at: max(linearLedger.programmeStart) })
    .from(linearLedger)
    .where(and(eq(linearLedger.channelId, channelId), lte(linearLedger.programmeStart, from)));
  return db
    .select(columns)
    .from(linearLedger)
    .where(and(eq(linearLedger.channelId, channelId), gte(linearLedger.programmeStart, sql`coalesce((${floor}), ${from})`)))
    .orderBy(asc(linearLedger.programmeStart));
}

/** Writes rows that are not there yet (a row once written is never changed: on conflict, nothing). */
export async function insertLedgerRows(db: Queryable, channelId: number, rows: readonly LedgerRowValues[]): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insert(linearLedger)
    .values(rows.map((r) => ({ channelId, ...r })))
    .onConflictDoNothing();
}

/** Whether the channel has aired (any row): its target duration is then fixed for life. */
export async function hasAired(db: Queryable, channelId: number): Promise<boolean> {
  const [row] = await db.select({ one: sql<number>`1` }).from(linearLedger).where(eq(linearLedger.channelId, channelId)).limit(1);
  return row !== undefined;
}
