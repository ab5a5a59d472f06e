// Several `channelnet serve` processes on one PostgreSQL receive the same viewer's heartbeats at
// the same moment: the database, not the processes, keeps one open session per key.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { asc, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importCatalog } from '../src/catalog/import.ts';
import { queryRows } from '../src/data/activity.ts';
import { watchSessions } from '../src/db/schema.ts';
import { smallCatalog } from './fixtures/catalog.ts';
import type { TestDatabase } from './support/db.ts';

const BIN = fileURLToPath(new URL('../bin/channelnet.mjs', import.meta.url));
const PROCESSES = 3;
const T0 = Date.parse('2026-11-21T10:00:00Z');
const at = (minutes: number) => new Date(T0 + minutes * 60_000).toISOString();

function serve(databaseUrl: string): Promise<{ child: ChildProcess; url: string }> {
  const env = {
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl,
    DEMO_ON_EMPTY: 'false',
    CHANNELNET_TEST_CLOCK: '1',
    LOG_LEVEL: 'error',
    RATE_LIMIT_ENABLED: 'false',
  };
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'serve'], { env });
    let output = '';
    child.stdout.on('data', (d: Buffer) => {
      output += d;
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) resolve({ child, url: match[1]! });
    });
    child.stderr.on('data', (d: Buffer) => (output += d));
    child.on('exit', (code) => reject(new Error(`serve exited with ${code}:\n${output}`)));
  });
}

describe.runIf(process.env.TEST_DATABASE_URL)('heartbeats raced across processes on PostgreSQL', () => {
  let database: TestDatabase;
  let servers: { child: ChildProcess; url: string }[] = [];
  let seq = 0;

  beforeAll(async () => {
    const { freshDatabase } = await import('./support/db.ts');
    database = await freshDatabase('postgres');
    const imported = await importCatalog(database.db, smallCatalog(), { replace: false, now: new Date(T0) });
    expect(imported.ok).toBe(true);
    servers = await Promise.all(Array.from({ length: PROCESSES }, () => serve(database.url!)));
  });

  afterAll(async () => {
    await Promise.all(servers.map((s) => new Promise((resolve) => (s.child.once('exit', resolve), s.child.kill('SIGTERM')))));
    await database?.close();
  });

  /** `count` heartbeats of each viewer, all at once, spread over the processes, all stamped `now`. */
  async function fire(viewers: string[], count: number, now: string): Promise<void> {
    const requests = viewers.flatMap((viewer) =>
      Array.from({ length: count }, () => {
        const n = seq++;
        const body = { source: 'roku_app', action: 'play_channel', client_id: 11, user_id: viewer, channel_id: 201, payload: { seq: n } };
        return fetch(`${servers[n % servers.length]!.url}/api/v1/activity`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-test-now': now },
          body: JSON.stringify(body),
        });
      }),
    );
    const statuses = (await Promise.all(requests)).map((r) => r.status);
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
  }

  const sessionsOf = (viewer: string) =>
    database.db
      .select()
      .from(watchSessions)
      .where(sql`${watchSessions.userId} = ${viewer}`)
      .orderBy(asc(watchSessions.id));

  async function expectEveryEventOnce(): Promise<void> {
    const [row] = await queryRows<{ total: number; distinct: number; max: number }>(
      database.db,
      sql`
      select count(*)::integer as total, count(distinct payload->>'seq')::integer as distinct,
             max((payload->>'seq')::integer) as max from activity_events`,
    );
    expect(row).toEqual({ total: seq, distinct: seq, max: seq - 1 });
  }

  it('opens exactly one session when the first heartbeats of a viewer arrive together', async () => {
    await fire(['race-1'], 60, at(0));
    expect(await sessionsOf('race-1')).toMatchObject([{ open: true, heartbeats: 60, startedAt: new Date(at(0)) }]);
    await expectEveryEventOnce();
  });

  it('extends that one session, then closes it and opens exactly one new one after a gap', async () => {
    await fire(['race-1'], 60, at(1));
    expect(await sessionsOf('race-1')).toMatchObject([{ open: true, heartbeats: 120 }]);
    await fire(['race-1'], 60, at(10));
    expect(await sessionsOf('race-1')).toMatchObject([
      { open: false, heartbeats: 120, endedAt: new Date(at(1)), creditedSeconds: 60 },
      { open: true, heartbeats: 60, startedAt: new Date(at(10)) },
    ]);
    await expectEveryEventOnce();
  });

  it('keeps one open session per viewer with many viewers racing', async () => {
    const viewers = Array.from({ length: 25 }, (_, i) => `crowd-${i}`);
    await fire(viewers, 8, at(20));
    await fire(viewers, 8, at(21));
    await fire(viewers, 8, at(30));
    const rows = await queryRows<{ user_id: string; open: number; closed: number; beats: number }>(
      database.db,
      sql`
      select user_id, count(*) filter (where open)::integer as open, count(*) filter (where not open)::integer as closed,
             sum(heartbeats)::integer as beats
        from watch_sessions where user_id like 'crowd-%' group by user_id`,
    );
    expect(rows).toHaveLength(viewers.length);
    for (const row of rows) expect(row).toMatchObject({ open: 1, closed: 1, beats: 24 });
    await expectEveryEventOnce();
  });
});
