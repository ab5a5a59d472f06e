// The one writer of activity per process: requests submit validated events and wait for the
// commit of the batch that carries them ("group commit"). Batching is what lets one process
// take thousands of heartbeats a second: per-request transactions spend their time in round
// trips and commits (bench/README.md).
import type { Database, DatabaseHandle } from '../db/connect.ts';
import { isDatabaseUnavailable } from '../db/errors.ts';
import { createBatcher, type BatcherOptions } from './batcher.ts';
import { recordActivityBatch, type ActivityRecord, type RecordOutcome } from './record.ts';

export interface ActivityRecorder {
  /** Resolves after the commit; rejects when this record could not be written. */
  record(record: ActivityRecord): Promise<RecordOutcome>;
}

type Settled = { ok: true; outcome: RecordOutcome } | { ok: false; error: unknown };

/**
 * PGlite has one connection, so one batch at a time; on PostgreSQL a few batches overlap so
 * that one batch's round trips and commit do not idle the others, leaving pool connections
 * for reads.
 */
export function defaultRecorderOptions(database: DatabaseHandle): BatcherOptions {
  return { maxBatch: 500, maxInFlight: database.kind === 'pglite' ? 1 : 4 };
}

export function createActivityRecorder(database: DatabaseHandle, options = defaultRecorderOptions(database)): ActivityRecorder {
  const batcher = createBatcher((records: ActivityRecord[]) => recordIsolating(database.db, records), options);
  return {
    async record(record) {
      const settled = await batcher.submit(record);
      if (!settled.ok) throw settled.error;
      return settled.outcome;
    },
  };
}

/** When a batch fails, each record is written alone, so one bad record cannot fail its neighbours. */
async function recordIsolating(db: Database, records: ActivityRecord[]): Promise<Settled[]> {
  try {
    return (await recordActivityBatch(db, records)).map((outcome) => ({ ok: true, outcome }));
  } catch (error) {
    if (records.length === 1 || isDatabaseUnavailable(error)) return records.map(() => ({ ok: false, error }));
    const settled: Settled[] = [];
    for (const record of records) settled.push((await recordIsolating(db, [record]))[0]!);
    return settled;
  }
}
