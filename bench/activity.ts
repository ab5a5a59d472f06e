// npm run bench:activity [-- --url postgres://... --duration 20 --connections 64 --viewers 5000 --rate 0]
//
// Starts `channelnet serve` on PostgreSQL (DATABASE_URL or --url) with the test clock, drives
// many viewers' play_channel heartbeats at it with autocannon, the 60-second cadence compressed
// through X-Test-Now, then checks in the database that every heartbeat answered 200 is stored
// exactly once and counted once in the watch sessions.
import autocannon from 'autocannon';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { importCatalog } from '../src/catalog/import.ts';
import { queryRows } from '../src/data/activity.ts';
import { openDatabase, type Database } from '../src/db/connect.ts';

const BIN = fileURLToPath(new URL('../bin/channelnet.mjs', import.meta.url));
const OWNER = 900_001;
const CHANNELS = 20;
const SOURCES = ['roku_app', 'fire_tv', 'android_tv', 'apple_tv', 'mobile_app_on_ios', 'mobile_app_on_android'];

interface Options {
  url: string;
  duration: number;
  connections: number;
  viewers: number;
  rate: number;
}

function options(): Options {
  const { values } = parseArgs({
    options: {
      url: { type: 'string' },
      duration: { type: 'string', default: '20' },
      connections: { type: 'string', default: '64' },
      viewers: { type: 'string', default: '5000' },
      rate: { type: 'string', default: '0' },
    },
  });
  const url = values.url ?? process.env.DATABASE_URL;
  if (!url) throw new Error('Give the PostgreSQL database with --url or DATABASE_URL (the benchmark writes a bench owner and its channels into it).');
  return { url, duration: Number(values.duration), connections: Number(values.connections), viewers: Number(values.viewers), rate: Number(values.rate) };
}

/** An owner with a service plan and its channels, ids far from real data; merged, so reruns are fine. */
function benchCatalog(now: Date) {
  return {
    format: 'channel-network-catalog',
    version: 1,
    accounts: [
      {
        id: OWNER,
        username: 'bench-owner',
        email: 'bench-owner@channelnet.invalid',
        passwordHash: 'scrypt:16384:8:1:c2FsdHNhbHRzYWx0c2FsdA==:aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaGhhc2g=',
        publicUrl: 'bench-owner',
      },
    ],
    categories: [{ id: OWNER, name: 'Bench' }],
    channels: Array.from({ length: CHANNELS }, (_, i) => ({
      id: OWNER + i,
      ownerId: OWNER,
      name: `Bench ${i}`,
      url: `bench-${i}`,
      categoryId: OWNER,
      createdAt: now.toISOString(),
    })),
  };
}

function startServer(url: string): Promise<{ child: ChildProcess; base: string }> {
  const env = {
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: url,
    DEMO_ON_EMPTY: 'false',
    CHANNELNET_TEST_CLOCK: '1',
    LOG_LEVEL: 'warn',
    // One address sends every heartbeat here; per-address limits would measure the limiter.
    RATE_LIMIT_ENABLED: 'false',
  };
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'serve'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    child.stdout!.on('data', (d: Buffer) => {
      output += d;
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) resolve({ child, base: match[1]! });
    });
    child.on('exit', (code) => reject(new Error(`serve exited with ${code}:\n${output}`)));
  });
}

/**
 * Heartbeat n belongs to viewer n mod V, in its round n div V: a minute of test time per round.
 * Every tenth viewer pauses 5 minutes after every third round, so sessions also close and reopen.
 */
function heartbeat(n: number, run: string, viewers: number, start: number) {
  const viewer = n % viewers;
  const round = Math.floor(n / viewers);
  const pauses = viewer % 10 === 0 ? Math.floor(round / 3) * 300 : 0;
  const at = new Date(start + (round * 60 + pauses + (viewer % 60)) * 1000).toISOString();
  const body = {
    source: SOURCES[viewer % SOURCES.length],
    action: 'play_channel',
    client_id: OWNER,
    user_id: `${run}-${viewer}`,
    channel_id: OWNER + (viewer % CHANNELS),
    payload: { run, seq: n },
  };
  return { at, body: JSON.stringify(body) };
}

interface Load {
  result: autocannon.Result;
  acknowledged: Set<number>;
  /** CPU seconds the server process used during the run (Linux /proc), if known. */
  serverCpuSeconds: number | undefined;
  /** CPU seconds this process (the load generator) used during the run. */
  loadCpuSeconds: number;
}

/** User plus system CPU seconds of a process, from /proc (clock ticks are 100 Hz on Linux). */
function cpuSeconds(pid: number | undefined): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

/** CPU seconds of the server's PostgreSQL backends: the ones on this database other than ours. */
async function serverBackendCpuSeconds(db: Database): Promise<number | undefined> {
  const rows = await queryRows<{ pid: number }>(
    db,
    sql`
    select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`,
  );
  const seconds = rows.map((r) => cpuSeconds(r.pid));
  return seconds.some((s) => s === undefined) ? undefined : seconds.reduce((a: number, b) => a + b!, 0);
}

async function drive(server: { child: ChildProcess; base: string }, o: Options, run: string, start: number): Promise<Load> {
  let next = 0;
  const cpuBefore = cpuSeconds(server.child.pid);
  const loadBefore = process.cpuUsage();
  const acknowledged = new Set<number>();
  const result = await autocannon({
    url: server.base,
    connections: o.connections,
    duration: o.duration,
    ...(o.rate > 0 ? { overallRate: o.rate } : {}),
    requests: [
      {
        method: 'POST',
        path: '/api/v1/activity',
        setupRequest: (request, context) => {
          const n = next++;
          (context as { seq?: number }).seq = n;
          const { at, body } = heartbeat(n, run, o.viewers, start);
          return { ...request, body, headers: { 'content-type': 'application/json', 'x-test-now': at } };
        },
        // One request at a time per connection, so the context names the request answered.
        onResponse: (status, _body, context) => {
          if (status === 200) acknowledged.add((context as { seq: number }).seq);
        },
      },
    ],
  });
  const cpuAfter = cpuSeconds(server.child.pid);
  const load = process.cpuUsage(loadBefore);
  const serverCpuSeconds = cpuBefore === undefined || cpuAfter === undefined ? undefined : cpuAfter - cpuBefore;
  return { result, acknowledged, serverCpuSeconds, loadCpuSeconds: (load.user + load.system) / 1e6 };
}

interface Verification {
  stored: number;
  distinct: number;
  missing: number;
  duplicates: number;
  sessions: number;
  openKeysWithTwoRows: number;
  heartbeatsInSessions: number;
}

async function verify(db: Database, run: string, acknowledged: Set<number>): Promise<Verification> {
  const seqs = await queryRows<{ seq: number; copies: number }>(
    db,
    sql`
    select (payload->>'seq')::integer as seq, count(*)::integer as copies
      from activity_events where payload->>'run' = ${run} group by 1`,
  );
  const stored = new Map(seqs.map((r) => [r.seq, r.copies]));
  const [sessions] = await queryRows<{ sessions: number; beats: number; doubled: number }>(
    db,
    sql`
    select count(*)::integer as sessions, coalesce(sum(heartbeats), 0)::integer as beats,
           (select count(*)::integer from (select 1 from watch_sessions where open and user_id like ${`${run}-%`}
             group by source, client_id, user_id, channel_id having count(*) > 1) d) as doubled
      from watch_sessions where user_id like ${`${run}-%`}`,
  );
  return {
    stored: seqs.reduce((n, r) => n + r.copies, 0),
    distinct: stored.size,
    missing: [...acknowledged].filter((seq) => !stored.has(seq)).length,
    duplicates: seqs.filter((r) => r.copies > 1).length,
    sessions: sessions!.sessions,
    openKeysWithTwoRows: sessions!.doubled,
    heartbeatsInSessions: sessions!.beats,
  };
}

function report(o: Options, load: Load & { backendCpuSeconds: number | undefined }, v: Verification): boolean {
  const { result, acknowledged } = load;
  const seconds = result.duration;
  const line = (label: string, value: string | number) => process.stdout.write(`${label.padEnd(34)} ${value}\n`);
  line('connections / duration', `${o.connections} / ${seconds.toFixed(1)} s${o.rate > 0 ? ` (offered ${o.rate}/s)` : ''}`);
  line('requests sent / answered 200', `${result.requests.sent} / ${acknowledged.size}`);
  line('non-2xx / errors / timeouts', `${result.non2xx} / ${result.errors} / ${result.timeouts}`);
  line('accepted heartbeats per second', Math.round(acknowledged.size / seconds));
  if (load.serverCpuSeconds !== undefined) {
    line('server CPU per heartbeat (µs)', Math.round((load.serverCpuSeconds / Math.max(1, acknowledged.size)) * 1e6));
  }
  if (load.backendCpuSeconds !== undefined) {
    line('PostgreSQL backend CPU per heartbeat (µs)', Math.round((load.backendCpuSeconds / Math.max(1, acknowledged.size)) * 1e6));
  }
  line('load generator CPU per request (µs)', Math.round((load.loadCpuSeconds / Math.max(1, result.requests.sent)) * 1e6));
  line('machine load average (1 min)', loadavg()[0]!.toFixed(2));
  line('latency p50 / p90 / p99 / max (ms)', `${result.latency.p50} / ${result.latency.p90} / ${result.latency.p99} / ${result.latency.max}`);
  line('stored events (distinct)', `${v.stored} (${v.distinct})`);
  line('acknowledged but missing', v.missing);
  line('stored more than once', v.duplicates);
  line('sessions / heartbeats counted in them', `${v.sessions} / ${v.heartbeatsInSessions}`);
  line('keys with more than one open row', v.openKeysWithTwoRows);
  const ok = v.missing === 0 && v.duplicates === 0 && v.openKeysWithTwoRows === 0 && v.heartbeatsInSessions === v.stored;
  line('verdict', ok ? 'every acknowledged heartbeat stored once and counted once' : 'MISMATCH');
  return ok;
}

async function main(): Promise<number> {
  const o = options();
  // One connection, so that every other backend on this database is the server's.
  const database = await openDatabase({ databaseUrl: o.url, poolSize: 1 });
  try {
    await database.migrate();
    const now = new Date();
    const imported = await importCatalog(database.db, benchCatalog(now), { replace: false, now });
    if (!imported.ok) throw new Error(imported.errors.join('\n'));
    const server = await startServer(o.url);
    const run = randomBytes(4).toString('hex');
    const load = await drive(server, o, run, now.getTime());
    const backendCpu = await serverBackendCpuSeconds(database.db);
    server.child.kill('SIGTERM');
    await new Promise((resolve) => server.child.once('exit', resolve));
    return report(o, { ...load, backendCpuSeconds: backendCpu }, await verify(database.db, run, load.acknowledged)) ? 0 : 1;
  } finally {
    await database.close();
  }
}

process.exitCode = await main().catch((error: unknown) => {
  process.stderr.write(`bench:activity: ${error instanceof Error ? error.message : String(error)}\n`);
  return 2;
});
