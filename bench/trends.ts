// npm run bench:trends -- [--url postgres://postgres@127.0.0.1:5432/ | --pglite] [--sessions 1000000]
//                         [--channels 8] [--identified 20] [--devices 2000] [--open 2000] [--span 732] [--runs 5] [--raw] [--keep] [--explain]
//                         [--dir D] [--reuse]
//
// Owner reads against history (issue 37, item 1): one owner's `--sessions` watch sessions spread
// evenly over the `--span` days before NOW (732: a 366-day range and its previous range; 1: the
// audit's outsider, whose sessions fill hours) (a 366-day range and its previous range), written with
// generate_series in chunks of 250,000 and closed by the real sweeper statement (which rolls
// them up), plus `--open` sessions open at NOW (read raw). `--identified` percent of the sessions
// carry a user_id from a pool of `--devices` devices (each device on one source, any channel); the
// rest are anonymous (each its own device). Then, in-process, each read `--runs` times after a
// warm-up: the CPU of this process (the service's part; with PGlite also the database's) and of
// its PostgreSQL backend (from /proc), per read. `--raw` also times the same reads over the raw
// sessions (rawPlan, what the service did before the rollups). `--reuse` reads a database kept
// by an earlier `--keep` run (PostgreSQL) or the PGlite directory `--dir` without seeding it again:
// seed 10,000,000 sessions while the machine is busy, then measure it quiet. Figures on a shared
// machine are not results; the markdown goes to stdout.
import { mkdtemp, rm } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sql, type SQL } from 'drizzle-orm';
import { queryRows, sweepStaleSessions } from '../src/data/activity.ts';
import { rollupSizes } from '../src/data/watch-rollups.ts';
import { openDatabase, type Database, type DatabaseHandle } from '../src/db/connect.ts';
import { summary } from '../src/sessions/analytics.ts';
import { rawPlan, rollupPlan, type RollupPlan } from '../src/sessions/rollup-plan.ts';
import { resolveTrendRange } from '../src/sessions/trend-range.ts';
import { watchTrends } from '../src/sessions/trends.ts';
import { adminQuery, databaseUrl } from './load.ts';

const NOW = new Date('2026-11-25T12:00:00Z');
const OWNER = 1;
const DAYS = 732;
const CHUNK = 250_000;
const SOURCES = ['roku_app', 'fire_tv', 'mobile_app_on_ios', 'web'];
const BENCH_DATABASE = 'channelnet_bench_trends';

const { values } = parseArgs({
  options: {
    url: { type: 'string' },
    pglite: { type: 'boolean', default: false },
    sessions: { type: 'string', default: '1000000' },
    channels: { type: 'string', default: '8' },
    identified: { type: 'string', default: '20' },
    devices: { type: 'string', default: '2000' },
    open: { type: 'string', default: '2000' },
    runs: { type: 'string', default: '5' },
    raw: { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
    explain: { type: 'boolean', default: false },
    dir: { type: 'string' },
    reuse: { type: 'boolean', default: false },
    span: { type: 'string', default: String(732) },
  },
});
const o = {
  url: values.pglite ? undefined : (values.url ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/'),
  sessions: Number(values.sessions),
  channels: Number(values.channels),
  identified: Number(values.identified),
  devices: Number(values.devices),
  open: Number(values.open),
  runs: Number(values.runs),
  raw: values.raw,
  keep: values.keep,
  explain: values.explain,
  dir: values.dir,
  reuse: values.reuse,
  span: Number(values.span),
};

async function openTarget(): Promise<{ database: DatabaseHandle; kind: string; cleanup: () => Promise<void> }> {
  if (o.url) {
    const url = o.url;
    if (!o.reuse) {
      await adminQuery(url, `drop database if exists ${BENCH_DATABASE} with (force)`);
      await adminQuery(url, `create database ${BENCH_DATABASE}`);
    }
    // One connection: its backend is the one whose CPU is read.
    const database = await openDatabase({ databaseUrl: databaseUrl(url, BENCH_DATABASE), poolSize: 1 });
    return { database, kind: 'PostgreSQL', cleanup: async () => (o.keep ? undefined : adminQuery(url, `drop database if exists ${BENCH_DATABASE} with (force)`)) };
  }
  const dir = o.dir ?? (await mkdtemp(path.join(os.tmpdir(), 'cn-trends-')));
  const database = await openDatabase({ dataDir: path.join(dir, 'data') });
  return { database, kind: `PGlite (${dir})`, cleanup: async () => (o.keep ? undefined : rm(dir, { recursive: true, force: true })) };
}

/** Sessions [first, last] of the `--sessions`, evenly over the DAYS before NOW, open and stale (the sweeper closes them). */
async function seedChunk(db: Database, first: number, last: number): Promise<void> {
  const span = o.span * 86_400;
  await db.execute(sql`
    insert into watch_sessions (source, client_id, user_id, channel_id, owner_id, started_at, last_heartbeat_at, heartbeats)
    select case when identified then (${sql.param(SOURCES)}::text[])[1 + device % 4] else (${sql.param(SOURCES)}::text[])[1 + (i / 3) % 4] end,
           'c' || i, case when identified then 'd' || device else '' end, 1 + i % ${o.channels}, ${OWNER}, started, started + (60 + (i * 37) % 3600) * interval '1 second', 2
      from (select i, i % 100 < ${o.identified} as identified, (i * 7919) % ${o.devices} as device,
                   ${NOW.toISOString()}::timestamptz - interval '2 hours' - (i::float8 * ${span} / ${o.sessions}) * interval '1 second' as started
              from generate_series(${first}::bigint, ${last}::bigint) i) g`);
  while ((await sweepStaleSessions(db, new Date(NOW.getTime() - 300_000), CHUNK)) > 0);
}

async function seedOpen(db: Database): Promise<void> {
  await db.execute(sql`
    insert into watch_sessions (source, client_id, user_id, channel_id, owner_id, started_at, last_heartbeat_at, heartbeats)
    select 'roku_app', 'open-' || i, case when i % 2 = 0 then 'd' || i else '' end, 1 + i % ${o.channels}, ${OWNER},
           ${NOW.toISOString()}::timestamptz - (i % 120) * interval '1 minute', ${NOW.toISOString()}::timestamptz - interval '30 seconds', 10
      from generate_series(1, ${o.open}) i`);
}

function procCpuMs(pid: number | undefined): number {
  if (pid === undefined) return 0;
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) / 100) * 1000;
}

interface Timing {
  name: string;
  processMs: number;
  backendMs: number;
}

async function time(name: string, backend: number | undefined, read: () => Promise<unknown>): Promise<Timing> {
  await read();
  const cpu = process.cpuUsage();
  const before = procCpuMs(backend);
  for (let i = 0; i < o.runs; i++) await read();
  const used = process.cpuUsage(cpu);
  return { name, processMs: (used.user + used.system) / 1000 / o.runs, backendMs: (procCpuMs(backend) - before) / o.runs };
}

function reads(db: Database, plan: (bounds: readonly number[]) => RollupPlan, label: string) {
  const year = resolveTrendRange('2025-11-25', '2026-11-24', 'America/New_York', NOW);
  const day = resolveTrendRange('2026-11-24', '2026-11-24', 'Asia/Kathmandu', NOW);
  if (!year.ok || !day.ok) throw new Error('range');
  const now = NOW;
  return [
    [`${label} trends, 366 days (America/New_York)`, () => watchTrends(db, year.value, { ownerId: OWNER, now, plan })],
    [`${label} trends, 366 days, one channel`, () => watchTrends(db, year.value, { ownerId: OWNER, channelId: 1, now, plan })],
    [`${label} trends, 1 day (Asia/Kathmandu)`, () => watchTrends(db, day.value, { ownerId: OWNER, now, plan })],
    [`${label} summary by day, 92 days to now`, () => summary(db, { ownerId: OWNER, from: new Date(NOW.getTime() - 92 * 86_400_000), to: NOW, now }, 'day', plan)],
    [
      `${label} summary by channel, 1 UTC day`,
      () => summary(db, { ownerId: OWNER, from: new Date('2026-11-24T00:00:00Z'), to: new Date('2026-11-25T00:00:00Z'), now }, 'channel', plan),
    ],
  ] as const;
}

/** EXPLAIN (ANALYZE, BUFFERS) of the statement a read sends. */
async function explained(db: Database, read: (db: Database) => Promise<unknown>): Promise<string> {
  let statement: SQL | undefined;
  const spy = new Proxy(db, { get: (target, key) => (key === 'execute' ? (q: SQL) => ((statement = q), target.execute(q)) : Reflect.get(target, key)) });
  await read(spy);
  const rows = await queryRows<{ 'QUERY PLAN': string }>(db, sql`explain (analyze, buffers) ${statement!}`);
  return rows.map((r) => r['QUERY PLAN']).join('\n');
}

async function main(): Promise<void> {
  const { database, kind, cleanup } = await openTarget();
  const { db } = database;
  try {
    await database.migrate();
    const started = performance.now();
    if (!o.reuse) {
      for (let first = 1; first <= o.sessions; first += CHUNK) {
        await seedChunk(db, first, Math.min(first + CHUNK - 1, o.sessions));
        console.error(`seeded ${Math.min(first + CHUNK - 1, o.sessions)} sessions (${((performance.now() - started) / 1000).toFixed(0)} s)`);
      }
      await seedOpen(db);
      // What autovacuum does on a live system: the rows closed by the sweep leave the open index.
      await db.execute(sql`vacuum analyze`);
    }
    const seedSeconds = (performance.now() - started) / 1000;
    const sizes = await rollupSizes(db, OWNER);
    const [{ n: sessions } = { n: 0 }] = await queryRows<{ n: number }>(db, sql`select count(*)::integer as n from watch_sessions where owner_id = ${OWNER}`);
    const backend = o.url ? (await queryRows<{ pid: number }>(db, sql`select pg_backend_pid() as pid`))[0]!.pid : undefined;
    if (o.explain) console.log(await explained(db, (spy) => reads(spy, rollupPlan, '')[0][1]()));
    const timings: Timing[] = [];
    for (const [name, read] of reads(db, rollupPlan, 'rollups:')) timings.push(await time(name, backend, read));
    if (o.raw) for (const [name, read] of reads(db, rawPlan, 'raw:')) timings.push(await time(name, backend, read));
    console.log(`# Owner reads against history (bench/trends.ts), ${new Date().toISOString()}

${kind}; ${sessions.toLocaleString('en')} sessions (${o.open.toLocaleString('en')} of them open) over ${o.span} days (${o.identified}% identified from ${o.devices} devices), ${o.channels} channels; ${o.reuse ? 'seeded by an earlier run' : `seeded and rolled up in ${seedSeconds.toFixed(0)} s`}.
Rollup rows of the owner: ${sizes.days.toLocaleString('en')} day rows, ${sizes.devices.toLocaleString('en')} device rows. Mean of ${o.runs} runs after a warm-up.

| read | process CPU ms | PostgreSQL backend CPU ms | total |
|---|---:|---:|---:|
${timings.map((t) => `| ${t.name} | ${t.processMs.toFixed(1)} | ${o.url ? t.backendMs.toFixed(0) : '(in process)'} | ${(t.processMs + t.backendMs).toFixed(1)} |`).join('\n')}
`);
  } finally {
    await database.close();
    await cleanup();
  }
}

await main();
