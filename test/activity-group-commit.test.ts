// Group commit of activity (src/sessions/recorder.ts, batcher.ts) on every backend: heartbeats
// submitted together are written by one statement in one transaction, each is acknowledged only
// after that commit, a failed commit acknowledges none of its batch and leaves nothing behind,
// and the waiting line is bounded (503 in the activity group's envelope, never unbounded memory).
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { queryRows } from '../src/data/activity.ts';
import { activityEvents, watchSessions } from '../src/db/schema.ts';
import type { ActivityEvent } from '../src/sessions/event.ts';
import { createActivityRecorder, defaultRecorderOptions, type RecorderOptions } from '../src/sessions/recorder.ts';
import type { ActivityRecord } from '../src/sessions/record.ts';
import { smallCatalog } from './fixtures/catalog.ts';
import { testApp, type TestApp } from './support/app.ts';
import { BACKENDS } from './support/db.ts';

const AT = new Date('2026-11-21T15:00:00Z');
const heartbeat = (viewer: number): ActivityRecord => ({
  event: { source: 'roku_app', action: 'play_channel', kind: 'heartbeat', clientId: '11', userId: `viewer-${viewer}`, channelId: 201, payload: { viewer } } satisfies ActivityEvent,
  at: AT,
  bytes: 120,
});

/** A promise and the function that settles it. */
function gate() {
  let open: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

/** Resolves when `condition` holds, checking once per turn of the event loop (no timer). */
async function until(condition: () => boolean, turns = 10_000): Promise<void> {
  for (let i = 0; i < turns && !condition(); i++) await new Promise((resolve) => setImmediate(resolve));
  expect(condition()).toBe(true);
}

describe.each(BACKENDS)('group commit of activity on %s', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp(backend, smallCatalog(), { ACTIVITY_QUEUE_MAX: 2 });
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.database.db.delete(activityEvents);
    await t.database.db.delete(watchSessions);
  });

  const counts = async () => {
    const [row] = await queryRows<{ events: number; sessions: number }>(
      t.database.db,
      sql`
      select (select count(*)::int from activity_events) as events, (select count(*)::int from watch_sessions) as sessions`,
    );
    return row!;
  };
  const recorder = (options: Partial<RecorderOptions> = {}) => createActivityRecorder(t.database, { ...defaultRecorderOptions(t.database), ...options });

  it('writes heartbeats submitted together with one statement in one transaction', async () => {
    const r = recorder();
    const outcomes = await Promise.all(Array.from({ length: 40 }, (_, i) => r.record(heartbeat(i))));
    expect(new Set(outcomes)).toEqual(new Set(['recorded']));
    // Rows written by one statement of one transaction share its transaction id and command id.
    const statements = await queryRows<{ xmin: string; cmin: string; n: number }>(
      t.database.db,
      sql`
      select xmin::text as xmin, cmin::text as cmin, count(*)::int as n from activity_events group by 1, 2`,
    );
    expect(statements.map((s) => s.n)).toEqual([40]);
    const sessions = await queryRows<{ xmin: string; n: number }>(
      t.database.db,
      sql`
      select xmin::text as xmin, count(*)::int as n from watch_sessions group by 1`,
    );
    expect(sessions).toEqual([{ xmin: statements[0]!.xmin, n: 40 }]);
  });

  it('acknowledges a heartbeat only after the commit of its batch', async () => {
    const held = gate();
    const reached = gate();
    const r = recorder({
      hooks: {
        beforeCommit: async () => {
          reached.open();
          await held.opened;
        },
      },
    });
    let acknowledged = false;
    const writes = [1, 2, 3].map((v) =>
      r.record(heartbeat(v)).then((outcome) => {
        acknowledged = true;
        return outcome;
      }),
    );
    await reached.opened; // the statements ran; the commit waits
    expect(acknowledged).toBe(false);
    if (backend === 'postgres') expect(await counts()).toEqual({ events: 0, sessions: 0 }); // another connection sees nothing yet
    held.open();
    expect(await Promise.all(writes)).toEqual(['recorded', 'recorded', 'recorded']);
    expect(await counts()).toEqual({ events: 3, sessions: 3 });
  });

  it('answers an error to every heartbeat of a batch whose commit fails, and writes nothing of it', async () => {
    let attempts = 0;
    const failing = recorder({
      hooks: {
        beforeCommit: async () => {
          attempts++;
          throw new Error('commit refused');
        },
      },
    });
    const results = await Promise.allSettled([1, 2, 3, 4].map((v) => failing.record(heartbeat(v))));
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected', 'rejected']);
    expect(attempts).toBe(1 + 4); // the batch, then each alone (one bad record must not fail its neighbours)
    expect(await counts()).toEqual({ events: 0, sessions: 0 });

    // An unreachable database fails the whole batch at once: no record is tried alone.
    attempts = 0;
    const unreachable = Object.assign(new Error('connection terminated'), { code: '08006' });
    const down = recorder({
      hooks: {
        beforeCommit: async () => {
          attempts++;
          throw unreachable;
        },
      },
    });
    const refused = await Promise.allSettled([1, 2, 3].map((v) => down.record(heartbeat(v))));
    expect(refused).toEqual([1, 2, 3].map(() => ({ status: 'rejected', reason: unreachable })));
    expect(attempts).toBe(1);
    expect(await counts()).toEqual({ events: 0, sessions: 0 });
  });

  it('writes every heartbeat once when a failed batch is written again record by record', async () => {
    let attempts = 0;
    const once = recorder({
      hooks: {
        beforeCommit: async () => {
          if (attempts++ === 0) throw new Error('first commit refused');
        },
      },
    });
    expect(await Promise.all([1, 2, 3].map((v) => once.record(heartbeat(v))))).toEqual(['recorded', 'recorded', 'recorded']);
    const rows = await queryRows<{ viewer: string; n: number; beats: number }>(
      t.database.db,
      sql`
      select e.user_id as viewer, count(*)::int as n, min(s.heartbeats)::int as beats
        from activity_events e join watch_sessions s using (user_id) group by 1 order by 1`,
    );
    expect(rows).toEqual([1, 2, 3].map((v) => ({ viewer: `viewer-${v}`, n: 1, beats: 1 })));
  });

  it('refuses heartbeats past the waiting line with 503 while the database is behind, and stores every one it acknowledged', async () => {
    // The channel lookup of the first batch waits on this lock: that batch stays in flight while requests arrive.
    const held = gate();
    const locked = gate();
    const lock = t.database.db.transaction(async (tx) => {
      await tx.execute(sql`lock table channels in access exclusive mode`);
      locked.open();
      await held.opened;
    });
    await locked.opened;
    const body = { source: 'roku_app', action: 'play_channel', client_id: 11, channel_id: 201 };
    const answers: Array<{ status: number; body: unknown; retryAfter: unknown }> = [];
    const sent = 20;
    // With ACTIVITY_QUEUE_MAX 2, each batch in flight holds at most the 2 that waited, and 2 more wait.
    const taken = (defaultRecorderOptions(t.database).maxInFlight + 1) * 2;
    const requests = Array.from({ length: sent }, (_, i) =>
      t
        .request({ method: 'POST', url: '/api/v1/activity', payload: { ...body, user_id: `viewer-${i}` } })
        .then((r) => answers.push({ status: r.statusCode, body: r.json(), retryAfter: r.headers['retry-after'] })),
    );
    await until(() => answers.length >= sent - taken); // the rest are refused before the lock is released
    held.open();
    await lock;
    await Promise.all(requests);
    const refused = answers.filter((a) => a.status === 503);
    const accepted = answers.filter((a) => a.status === 200);
    expect(refused.length + accepted.length).toBe(sent);
    expect(refused.length).toBeGreaterThanOrEqual(sent - taken);
    expect(accepted.length).toBeGreaterThanOrEqual(1);
    expect(refused[0]).toEqual({ status: 503, body: { message: 'The service is temporarily unavailable; try again shortly.' }, retryAfter: '5' });
    expect((await counts()).events).toBe(accepted.length);
  });
});
