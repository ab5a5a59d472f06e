// The one writer of activity per process: requests submit validated events and wait for the
// commit of the batch that carries them ("group commit"). Batching is what lets one process
// take thousands of heartbeats a second: per-request transactions spend their time in round
// trips and commits (bench/README.md).
import type { Database, DatabaseHandle } from '../db/connect.ts';
import { isDatabaseUnavailable } from '../db/errors.ts';
import { activityBatchSize, observeActivityQueue } from '../observability/metrics.ts';
import { createBatcher, type BatcherOptions } from './batcher.ts';
import { recordActivityBatch, type ActivityRecord, type FindChannels, type RecordHooks, type RecordOutcome } from './record.ts';
import type { ActivityChannels } from './activity-channels.ts';

export interface ActivityRecorder {
  /**
   * Resolves after the commit; rejects when this record could not be written, or at once with
   * BatcherOverloaded when too many records wait (the caller answers its overload error).
   */
  record(record: ActivityRecord): Promise<RecordOutcome>;
}

export interface RecorderOptions extends BatcherOptions {
  /** Test seams of the write (record.ts). */
  hooks?: RecordHooks;
  /** The batch's channels from memory (activity-channels.ts); absent: read each batch. */
  channels?: ActivityChannels;
}

/** What a record weighs while it waits, when its body size is not known: the body limit. */
const UNKNOWN_WEIGHT = 64 * 1024;

type Settled = { ok: true; outcome: RecordOutcome } | { ok: false; error: unknown };

/**
 * One batch in flight per process, on both backends: while it commits, everything that arrives
 * waits and goes out as the next batch. A batch costs PostgreSQL about 2 ms of CPU whatever its
 * size, plus ~20 µs a heartbeat (bench/heartbeat-ceiling.ts), so the fewer and larger the
 * batches the more heartbeats one database core carries; four overlapping batches (the earlier
 * default) cut batches four ways and measured 1.5-2.5x the database CPU per heartbeat. Several
 * instances write their batches side by side. The waiting line is bounded (config).
 */
export function defaultRecorderOptions(
  database: DatabaseHandle,
  queue: { ACTIVITY_QUEUE_MAX: number; ACTIVITY_QUEUE_BYTES: number } = { ACTIVITY_QUEUE_MAX: 10_000, ACTIVITY_QUEUE_BYTES: 16 * 1024 * 1024 },
): RecorderOptions {
  return {
    maxBatch: 500,
    maxInFlight: 1,
    maxQueued: queue.ACTIVITY_QUEUE_MAX,
    maxQueuedWeight: queue.ACTIVITY_QUEUE_BYTES,
  };
}

export function createActivityRecorder(database: DatabaseHandle, options: RecorderOptions = defaultRecorderOptions(database)): ActivityRecorder {
  const write = (records: ActivityRecord[]) => {
    activityBatchSize.observe(records.length);
    return recordIsolating(database.db, records, options.hooks, options.channels ? (db, ids) => options.channels!.find(db, ids) : undefined);
  };
  const batcher = createBatcher(write, options, (r) => r.bytes ?? UNKNOWN_WEIGHT);
  observeActivityQueue(() => batcher.queued());
  return {
    async record(record) {
      const settled = await batcher.submit(record);
      if (!settled.ok) throw settled.error;
      return settled.outcome;
    },
  };
}

/** When a batch fails, each record is written alone, so one bad record cannot fail its neighbours. */
async function recordIsolating(db: Database, records: ActivityRecord[], hooks?: RecordHooks, find?: FindChannels): Promise<Settled[]> {
  try {
    return (await recordActivityBatch(db, records, hooks, find)).map((outcome) => ({ ok: true, outcome }));
  } catch (error) {
    if (records.length === 1 || isDatabaseUnavailable(error)) return records.map(() => ({ ok: false, error }));
    const settled: Settled[] = [];
    for (const record of records) settled.push((await recordIsolating(db, [record], hooks, find))[0]!);
    return settled;
  }
}
