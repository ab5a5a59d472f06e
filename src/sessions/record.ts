// Records a batch of validated activity events: the channel checks, then one short transaction
// that stores every accepted event and applies its heartbeats to the watch sessions. Callers
// answer only after this resolves, i.e. after the commit.
import { closeStaleSessions, findActivityChannels, insertEventsAndUpsertSessions, upsertOpenSessions, type ActivityChannel, type ActivityEventRow } from '../data/activity.ts';
import type { Database, Queryable } from '../db/connect.ts';
import type { ActivityEvent } from './event.ts';
import { heartbeatRounds, keyText, type Heartbeat } from './rules.ts';

export interface ActivityRecord {
  event: ActivityEvent;
  /** When the event was received (request.now). */
  at: Date;
  /** What it weighs while waiting for its batch (its body's bytes); unknown: the body limit. */
  bytes?: number;
}

/** Test seams: a write that stops (or fails) after its statements and before its commit. */
export interface RecordHooks {
  beforeCommit?(records: readonly ActivityRecord[]): Promise<void>;
}

export type RecordOutcome = 'recorded' | 'unknown_channel' | 'no_service_plan';

/** Each attempt either applies a heartbeat or closes the stale session in its way; a few suffice. */
const MAX_UPSERT_ATTEMPTS = 5;
const MAX_TRANSACTION_ATTEMPTS = 3;
const DEADLOCK_DETECTED = '40P01';

/** How a batch finds its channels: the database (findActivityChannels), or memory in front of it (activity-channels.ts). */
export type FindChannels = (db: Database, ids: number[]) => Promise<Map<number, ActivityChannel>>;

export async function recordActivityBatch(db: Database, records: ActivityRecord[], hooks?: RecordHooks, find: FindChannels = findActivityChannels): Promise<RecordOutcome[]> {
  const ids = [...new Set(records.flatMap((r) => (r.event.channelId === null ? [] : [r.event.channelId])))];
  const channels = await find(db, ids);
  const outcomes = records.map((r) => outcomeOf(r.event, channels));
  const accepted = records.flatMap((r, i) => (outcomes[i] === 'recorded' ? [r] : []));
  if (accepted.length > 0) {
    await retryOnDeadlock(() =>
      db.transaction(async (tx) => {
        await writeAccepted(tx, accepted, channels);
        await hooks?.beforeCommit?.(accepted);
      }),
    );
  }
  return outcomes;
}

function outcomeOf(event: ActivityEvent, channels: Map<number, ActivityChannel>): RecordOutcome {
  if (event.channelId === null) return 'recorded';
  const channel = channels.get(event.channelId);
  if (!channel) return 'unknown_channel';
  return channel.servicePlanActive ? 'recorded' : 'no_service_plan';
}

async function writeAccepted(tx: Queryable, records: ActivityRecord[], channels: Map<number, ActivityChannel>) {
  const heartbeats = records.flatMap((r) => {
    const { event } = r;
    if (event.kind !== 'heartbeat' || event.channelId === null) return [];
    const ownerId = channels.get(event.channelId)!.ownerId;
    return [{ source: event.source, clientId: event.clientId ?? '', userId: event.userId ?? '', channelId: event.channelId, ownerId, at: r.at }];
  });
  const [first = [], ...later] = heartbeatRounds(heartbeats);
  // The events and the first round of heartbeats go in one statement; a later round (a key seen
  // twice in the batch) or a stale session to close takes the statements of applyRound.
  const applied = new Set((await insertEventsAndUpsertSessions(tx, records.map(eventRow), first)).map(keyText));
  await applyRound(
    tx,
    first.filter((h) => !applied.has(keyText(h))),
  );
  for (const round of later) await applyRound(tx, round);
}

function eventRow({ event, at }: ActivityRecord): ActivityEventRow {
  return {
    receivedAt: at,
    source: event.source,
    action: event.action,
    clientId: event.clientId,
    userId: event.userId,
    channelId: event.channelId,
    payload: event.payload,
    processed: event.kind !== 'legacy',
  };
}

/** Heartbeats an upsert did not apply (their session is past the gap): close that session, then upsert again. */
async function applyRound(tx: Queryable, round: Heartbeat[]): Promise<void> {
  let pending = round;
  for (let attempt = 1; attempt <= MAX_UPSERT_ATTEMPTS; attempt++) {
    if (pending.length === 0) return;
    await closeStaleSessions(tx, pending);
    const applied = new Set((await upsertOpenSessions(tx, pending)).map(keyText));
    pending = pending.filter((h) => !applied.has(keyText(h)));
  }
  if (pending.length === 0) return;
  throw new Error(`${pending.length} heartbeats were not applied after ${MAX_UPSERT_ATTEMPTS} attempts`);
}

async function retryOnDeadlock<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (attempt >= MAX_TRANSACTION_ATTEMPTS || sqlState(error) !== DEADLOCK_DETECTED) throw error;
    }
  }
}

/** Drizzle wraps driver errors; the SQLSTATE is on the error or its cause. */
function sqlState(error: unknown): string | undefined {
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return undefined;
}
