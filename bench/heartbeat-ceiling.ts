// npx tsx bench/heartbeat-ceiling.ts --url postgres://.../DB [--seconds 10 --batch 50 --writers 4 --prefill 20000000]
//
// The database's side of heartbeats (issue 29): group-commit batches written straight through
// recordActivityBatch (no HTTP, no load generator) by a few writers, and the CPU time of their
// PostgreSQL backends (Linux /proc) per heartbeat: 1,000,000 µs / that = the heartbeats one
// PostgreSQL core writes a second, whatever else the machine runs. Then, with --prefill N,
// activity_events is grown to N rows (30 days of heartbeats, SQL) and the same is measured again,
// with the table's size and a retention delete of its oldest day: whether the table's growth
// costs ingestion (the service never reads activity_events; analytics read watch_sessions).
// The database named by --url is emptied of activity first: give it one of your own.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { importCatalog } from '../src/catalog/import.ts';
import { queryRows } from '../src/data/activity.ts';
import { openDatabase, type Database } from '../src/db/connect.ts';
import { recordActivityBatch, type ActivityRecord } from '../src/sessions/record.ts';

const { values } = parseArgs({
  options: {
    url: { type: 'string' },
    seconds: { type: 'string', default: '10' },
    batch: { type: 'string', default: '50' },
    writers: { type: 'string', default: '4' },
    viewers: { type: 'string', default: '5000' },
    prefill: { type: 'string', default: '0' },
    // Measure the table as it is (a prefilled one kept from an earlier run), without emptying it.
    'as-is': { type: 'boolean', default: false },
  },
});
const url = values.url ?? process.env.DATABASE_URL;
if (!url) throw new Error('--url names the database to use (it is emptied of activity)');
const SECONDS = Number(values.seconds);
const BATCH = Number(values.batch);
const WRITERS = Number(values.writers);
const VIEWERS = Number(values.viewers);
const PREFILL = Number(values.prefill);
const OWNER = 900_001;
const CHANNELS = 200;

const cpuSeconds = (pid: number): number => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
};

async function backendCpu(db: Database): Promise<number> {
  const rows = await queryRows<{ pid: number }>(db, sql`select pid from pg_stat_activity where datname = current_database()`);
  return rows.reduce((sum, r) => {
    try {
      return sum + cpuSeconds(r.pid);
    } catch {
      return sum;
    }
  }, 0);
}

function catalog(now: Date) {
  return {
    format: 'channel-network-catalog',
    version: 1,
    accounts: [
      {
        id: OWNER,
        username: 'ceiling-owner',
        email: 'ceiling@channelnet.invalid',
        passwordHash: 'scrypt:16384:8:1:c2FsdHNhbHRzYWx0c2FsdA==:aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaGhhc2g=',
        publicUrl: 'ceiling-owner',
      },
    ],
    categories: [{ id: OWNER, name: 'Bench' }],
    channels: Array.from({ length: CHANNELS }, (_, i) => ({
      id: OWNER + i,
      ownerId: OWNER,
      name: `Ceiling ${i}`,
      url: `ceiling-${i}`,
      categoryId: OWNER,
      createdAt: now.toISOString(),
    })),
  };
}

/** Writers send batches of BATCH heartbeats for SECONDS; heartbeat n is viewer n mod V's, a second apart per round. */
async function measure(db: Database, label: string, start: number): Promise<void> {
  let next = 0;
  const deadline = performance.now() + SECONDS * 1000;
  const latencies: number[] = [];
  const record = (n: number): ActivityRecord => {
    const viewer = n % VIEWERS;
    return {
      event: {
        source: 'roku_app',
        action: 'play_channel',
        kind: 'heartbeat',
        clientId: String(OWNER),
        userId: `ceiling-${viewer}`,
        channelId: OWNER + (viewer % CHANNELS),
        payload: null,
      },
      at: new Date(start + Math.floor(n / VIEWERS) * 1000),
    };
  };
  const cpuBefore = await backendCpu(db);
  const clientBefore = process.cpuUsage();
  const began = performance.now();
  await Promise.all(
    Array.from({ length: WRITERS }, async () => {
      while (performance.now() < deadline) {
        const batch = Array.from({ length: BATCH }, () => record(next++));
        const t0 = performance.now();
        await recordActivityBatch(db, batch);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const elapsed = (performance.now() - began) / 1000;
  const db_ = (await backendCpu(db)) - cpuBefore;
  const client = process.cpuUsage(clientBefore);
  latencies.sort((a, b) => a - b);
  const perBeat = (db_ / next) * 1e6;
  const line = (k: string, v: string | number) => process.stdout.write(`${`${label}: ${k}`.padEnd(58)} ${v}\n`);
  line('heartbeats / s (wall)', Math.round(next / elapsed));
  line('batch commit p50 / p99 ms', `${latencies[latencies.length >> 1]!.toFixed(1)} / ${latencies[Math.floor(latencies.length * 0.99)]!.toFixed(1)}`);
  line('PostgreSQL backend CPU per heartbeat µs', perBeat.toFixed(1));
  line('heartbeats per PostgreSQL core-second', Math.round(1e6 / perBeat));
  line('this process (batching, drivers) CPU per heartbeat µs', ((client.user + client.system) / next).toFixed(1));
}

async function sizes(db: Database): Promise<string> {
  const [r] = await queryRows<{ rows: string; table: string; indexes: string }>(
    db,
    sql`
    select (select count(*) from activity_events)::text as rows, pg_size_pretty(pg_relation_size('activity_events')) as table,
           pg_size_pretty(pg_indexes_size('activity_events')) as indexes`,
  );
  return `${r!.rows} rows, table ${r!.table}, indexes ${r!.indexes}`;
}

const database = await openDatabase({ databaseUrl: url, poolSize: WRITERS + 1 });
try {
  await database.migrate();
  const db = database.db;
  const now = new Date();
  const imported = await importCatalog(db, catalog(now), { replace: false, now });
  if (!imported.ok) throw new Error(imported.errors.join('\n'));
  if (!values['as-is']) await db.execute(sql`truncate activity_events, watch_sessions`);
  process.stdout.write(`batch ${BATCH}, writers ${WRITERS}, ${VIEWERS} viewers, ${SECONDS} s per measurement\n`);
  await measure(db, values['as-is'] ? 'table as it is' : 'empty table', now.getTime());
  process.stdout.write(`  ${await sizes(db)}\n`);
  if (PREFILL > 0) {
    const t0 = performance.now();
    // 30 days before now, in order of time as the service writes them, in chunks of a million.
    const span = 30 * 86_400;
    for (let done = 0; done < PREFILL; done += 1_000_000) {
      const n = Math.min(1_000_000, PREFILL - done);
      await db.execute(sql`
        insert into activity_events (received_at, source, action, client_id, user_id, channel_id, payload, processed)
        select ${now.toISOString()}::timestamptz - interval '1 second' * (${span}::float8 * (1 - (${done}::bigint + g)::float8 / ${PREFILL}::float8)),
               'roku_app', 'play_channel', ${String(OWNER)}, 'old-' || (g % 50000), ${OWNER} + (g % ${CHANNELS}), null, true
          from generate_series(1, ${n}::bigint) g`);
    }
    await db.execute(sql`vacuum analyze activity_events`);
    process.stdout.write(`prefilled in ${((performance.now() - t0) / 1000).toFixed(0)} s: ${await sizes(db)}\n`);
    await measure(db, `${PREFILL.toLocaleString('en-US')} rows`, now.getTime() + 3_600_000);
    // Retention without partitions: the oldest day's rows deleted by one statement.
    const t1 = performance.now();
    const cpu0 = await backendCpu(db);
    const [deleted] = await queryRows<{ n: number }>(
      db,
      sql`
      with d as (delete from activity_events where received_at < ${now.toISOString()}::timestamptz - interval '29 days' returning 1)
      select count(*)::int as n from d`,
    );
    process.stdout.write(
      `retention delete of the oldest day: ${deleted!.n} rows in ${((performance.now() - t1) / 1000).toFixed(1)} s, ` +
        `${((await backendCpu(db)) - cpu0).toFixed(1)} s of PostgreSQL CPU (and the vacuum after it)\n`,
    );
  }
} finally {
  await database.close();
}
