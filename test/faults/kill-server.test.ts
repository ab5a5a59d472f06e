// Fault: the server process dies (kill -9) under heartbeat load. A heartbeat is answered 200
// only after the commit of the batch that carries it (src/sessions/recorder.ts), so every
// acknowledged heartbeat must be in the database after a restart, once, and its watch
// session must have been written in the same transaction.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importCatalog } from '../../src/catalog/import.ts';
import { smallCatalog } from '../fixtures/catalog.ts';
import { freshDatabase, type TestDatabase } from '../support/db.ts';
import { startServerProcess, type ServerProcess } from '../support/processes.ts';
import { killHard, poll, sqlOnce } from './support.ts';

/** Concurrent heartbeat senders (connections). */
const SENDERS = 32;
/** Distinct viewers: enough keys that batches hold many sessions, few enough that keys repeat. */
const VIEWERS = 400;
/** Heartbeats acknowledged in a round before the kill. */
const ACKED_BEFORE_KILL = 600;
const ROUNDS = 2;
/** A bound on each round, should the server answer anything but 200 for long. */
const MAX_SENT_PER_ROUND = 20_000;
/** Each heartbeat's X-Test-Now is BASE + its seq in milliseconds: all of a viewer's fall in one session. */
const BASE = Date.parse('2026-11-21T15:00:00Z');
const viewerOf = (seq: number) => `viewer-${seq % VIEWERS}`;

interface Load {
  /** Seqs answered 200 { message: 'Success' }. */
  acked: number[];
  /** Seqs whose request failed without an answer (connection lost at the kill). */
  lost: number[];
  /** Statuses other than 200, with their counts (503 is load shedding: allowed, not acknowledged). */
  others: Record<number, number>;
  sent: number;
}

describe.runIf(process.env.TEST_DATABASE_URL)('fault: kill -9 of the server under heartbeat load', () => {
  let database: TestDatabase;
  let server: ServerProcess | undefined;
  const env = () => ({ DATABASE_URL: database.url!, DEMO_ON_EMPTY: 'false', RATE_LIMIT_ENABLED: 'false', CHANNELNET_TEST_CLOCK: '1' });
  let nextSeq = 0;

  beforeAll(async () => {
    database = await freshDatabase('postgres');
    const imported = await importCatalog(database.db, smallCatalog(), { replace: false, now: new Date() });
    expect(imported.ok).toBe(true);
  });
  afterAll(async () => {
    await killHard(server?.child);
    await database?.close();
  });

  const heartbeat = (url: string, seq: number) =>
    fetch(`${url}/api/v1/activity`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-test-now': new Date(BASE + seq).toISOString() },
      body: JSON.stringify({ source: 'roku_app', action: 'play_channel', client_id: 11, user_id: viewerOf(seq), channel_id: 201, payload: { seq } }),
      signal: AbortSignal.timeout(10_000),
    });

  /** Sends heartbeats from SENDERS loops until the server is killed once ACKED_BEFORE_KILL are acknowledged. */
  async function loadAndKill(target: ServerProcess): Promise<Load> {
    const load: Load = { acked: [], lost: [], others: {}, sent: 0 };
    let killed = false;
    let killing: ReturnType<typeof killHard> | undefined;
    const sender = async () => {
      while (!killed && load.sent < MAX_SENT_PER_ROUND) {
        const seq = nextSeq++;
        load.sent++;
        try {
          const response = await heartbeat(target.url, seq);
          // The status line is the acknowledgement: it is written only after the commit.
          if (response.status === 200) load.acked.push(seq);
          else load.others[response.status] = (load.others[response.status] ?? 0) + 1;
          await response.text().catch(() => undefined);
        } catch {
          load.lost.push(seq);
        }
        if (!killed && load.acked.length >= ACKED_BEFORE_KILL) {
          killed = true;
          killing = killHard(target.child);
        }
      }
    };
    await Promise.all(Array.from({ length: SENDERS }, sender));
    expect(killed, `${ACKED_BEFORE_KILL} heartbeats acknowledged within ${MAX_SENT_PER_ROUND} sent: ${JSON.stringify(load.others)}`).toBe(true);
    expect(await killing).toEqual({ code: null, signal: 'SIGKILL' });
    return load;
  }

  it(`loses no acknowledged heartbeat across ${ROUNDS} kills and restarts`, { timeout: 90_000 }, async () => {
    const loads: Load[] = [];
    server = await startServerProcess(env());
    for (let round = 0; round < ROUNDS; round++) {
      loads.push(await loadAndKill(server));
      server = await startServerProcess(env());
      await poll('the restarted server is ready', async () => (await fetch(`${server!.url}/readyz`)).status === 200, { attempts: 50 });
    }

    // The restarted server takes heartbeats on the sessions the killed one left open.
    const after = nextSeq++;
    const response = await heartbeat(server.url, after);
    expect([response.status, await response.json()]).toEqual([200, { message: 'Success' }]);

    const stored = await sqlOnce<{ seq: number; n: number }>(database.url!, `select (payload->>'seq')::integer as seq, count(*)::integer as n from activity_events group by 1`);
    const storedSeqs = new Map(stored.map((r) => [r.seq, r.n]));
    const acked = [...loads.flatMap((l) => l.acked), after];
    const missing = acked.filter((seq) => !storedSeqs.has(seq));
    expect(missing, 'acknowledged heartbeats missing from activity_events').toEqual([]);
    expect(
      stored.filter((r) => r.n !== 1),
      'heartbeats stored more than once',
    ).toEqual([]);
    expect(
      stored.every((r) => r.seq < nextSeq),
      'only heartbeats that were sent are stored',
    ).toBe(true);
    // The kills came mid-load: requests were cut off without an answer.
    expect(
      loads.reduce((n, l) => n + l.lost.length, 0),
      'requests in flight at the kills',
    ).toBeGreaterThan(0);
    for (const load of loads)
      expect(
        Object.keys(load.others).filter((s) => s !== '503'),
        'answers other than 200 or 503',
      ).toEqual([]);

    const doubleOpen = await sqlOnce(
      database.url!,
      `select source, client_id, user_id, channel_id, count(*)::integer as open_rows from watch_sessions
        where open group by 1, 2, 3, 4 having count(*) > 1`,
    );
    expect(doubleOpen, 'keys with more than one open session').toEqual([]);
    // Events and sessions are written in one transaction: per key, the heartbeats counted in
    // its sessions are exactly its stored events (all of a viewer's fall within one session).
    const mismatched = await sqlOnce(
      database.url!,
      `with e as (select user_id, count(*)::integer as events from activity_events group by 1),
            s as (select user_id, sum(heartbeats)::integer as counted, count(*)::integer as sessions from watch_sessions group by 1)
       select e.user_id, e.events, s.counted, s.sessions from e full join s using (user_id)
        where e.events is distinct from s.counted or s.sessions <> 1`,
    );
    expect(mismatched, 'keys whose sessions disagree with their events').toEqual([]);

    const storedNotAcked = stored.length - acked.length;
    console.info(
      `kill-server: ${loads.map((l, i) => `round ${i + 1}: ${l.sent} sent, ${l.acked.length} acked, ${l.lost.length} cut off`).join('; ')}; ` +
        `${stored.length} stored (${storedNotAcked} committed but never acknowledged)`,
    );
  });
});
