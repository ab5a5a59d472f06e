// npm run bench [-- --scale 0.1 --duration 10 --warmup 2 --connections 64 --url postgres://... --pglite --keep
//                   --no-shed --logins 100 --viewers 50000 --only "custom vod,legacy" --validate]
// npm run bench -- --network 200 [--duration 3 --rounds 3 ...]: the one-creator network scenario (network-run.ts)
//
// Generates the benchmark catalog, loads it into a fresh database (PostgreSQL `channelnet_bench`
// created from --url / DATABASE_URL, or a PGlite data directory with --pglite), starts the
// service and a Fastify hello-world as child processes, drives each route with autocannon and
// writes the table to bench/results/<date>[-small][-pglite].md (and .json, which the full-size
// run reads to compare its p99 with the small catalog's). See bench/report.ts for the targets.
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { DateTime } from 'luxon';
import pg from 'pg';
import { validateCatalog, EMPTY_EXISTING } from '../src/catalog/validate.ts';
import { benchCatalog, BENCH_PASSWORD, type BenchOwner } from './catalog.ts';
import { measure, probe, settle, warmUp } from './drive.ts';
import { BENCH_DATABASE, createBenchDatabase, dropBenchDatabase, loadCatalog } from './load.ts';
import { cpuSample, cpuUsed, foreignCpuShare, rssMb, startBaseline, startService, waitIdle, type Child } from './processes.ts';
import { consoleTable, markdown, summary, type Report, type RouteResult } from './report.ts';
import { benchRoutes, type Route } from './routes.ts';

const RESULTS = fileURLToPath(new URL('./results/', import.meta.url));
const DEFAULT_URL = 'postgres://postgres@127.0.0.1:5432/';

const { values: args } = parseArgs({
  options: {
    scale: { type: 'string', default: '1' },
    duration: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '2' },
    connections: { type: 'string', default: '64' },
    rounds: { type: 'string', default: '3' },
    url: { type: 'string' },
    pglite: { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
    'no-shed': { type: 'boolean', default: false },
    'rate-limits': { type: 'boolean', default: false },
    validate: { type: 'boolean', default: false },
    logins: { type: 'string', default: '100' },
    viewers: { type: 'string', default: '50000' },
    only: { type: 'string' },
    modes: { type: 'string' },
    network: { type: 'string' },
  },
});
const scale = Number(args.scale);
const o = { seconds: Number(args.duration), warmup: Number(args.warmup), connections: Number(args.connections) };
const serverUrl = args.url ?? process.env.DATABASE_URL ?? DEFAULT_URL;
const small = scale < 1;
/** The small size is the one the issue compares with; other scales are named by their factor. */
const sizeTag = scale === 1 ? '' : scale === 0.1 ? '-small' : `-x${scale}`;
/** Runs that are not comparable get their own files: backend and shedding are part of the name. */
const variant = `${args.pglite ? '-pglite' : ''}${args['no-shed'] ? '-noshed' : ''}${args['rate-limits'] ? '-ratelimits' : ''}`;
const suffix = `${sizeTag}${variant}`;

const percent = (share: number | undefined) => (share === undefined ? '?' : `${Math.round(share * 100)}%`);
const log = (line: string) => process.stdout.write(`${line}\n`);
const seconds = (since: number) => (performance.now() - since) / 1000;

async function timed<T>(label: string, work: () => Promise<T> | T): Promise<[T, number]> {
  const started = performance.now();
  const value = await work();
  const took = seconds(started);
  log(`${label}: ${took.toFixed(1)} s`);
  return [value, took];
}

/** Real REST logins (scrypt on the server) for an evenly spread sample of owners. */
async function login(base: string, owners: BenchOwner[], count: number): Promise<Array<{ owner: BenchOwner; token: string }>> {
  const sample = Array.from({ length: Math.min(count, owners.length) }, (_, i) => owners[Math.floor((i * owners.length) / Math.min(count, owners.length))]!);
  const tokens: Array<{ owner: BenchOwner; token: string }> = [];
  // Two at a time: the server runs at most two password checks per client address and refuses
  // more at once (src/access/password-slots.ts), and only two scrypt run at once anyway.
  for (let i = 0; i < sample.length; i += 2) {
    await Promise.all(
      sample.slice(i, i + 2).map(async (owner) => {
        const response = await fetch(new URL('/api/v1/rest/auth/login', base), {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username: owner.username, password: BENCH_PASSWORD }),
        });
        const body = (await response.json()) as { data?: { authToken?: string } };
        if (!body.data?.authToken) throw new Error(`login of ${owner.username} failed: ${response.status} ${JSON.stringify(body)}`);
        tokens.push({ owner, token: body.data.authToken });
      }),
    );
  }
  return tokens;
}

/** p99 per route of the latest small-catalog run of the same variant, for the flatness check. */
async function latestSmall(): Promise<Map<string, number> | undefined> {
  const wanted = `-small${variant}.json`;
  const files = (await readdir(RESULTS).catch(() => [] as string[])).filter((f) => f.endsWith(wanted) && /^\d{4}-\d{2}-\d{2}-small/.test(f)).sort();
  if (files.length === 0) return undefined;
  const saved = JSON.parse(await readFile(path.join(RESULTS, files.at(-1)!), 'utf8')) as { results: RouteResult[] };
  return new Map(saved.results.flatMap((r) => (r.measurement ? [[r.name, r.measurement.p99] as const] : [])));
}

async function databaseVersion(url: string | undefined): Promise<string> {
  if (!url) return 'PGlite (embedded, in the server process)';
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ v: string }>("select current_setting('server_version') as v");
    return `PostgreSQL ${rows[0]!.v}`;
  } finally {
    await client.end();
  }
}

function commandLine(): string {
  const given = process.argv.slice(2).join(' ');
  const script = process.env.npm_lifecycle_event;
  // `npx tsx bench/run.ts` runs under npm too, as the lifecycle event "npx".
  return script && script !== 'npx' ? `npm run ${script}${given ? ` -- ${given}` : ''}` : `tsx bench/run.ts ${given}`;
}

/** One route: wait out the previous route's backlog, probe, warm up, measure with CPU and RSS. */
async function driveRoute(route: Route, target: Child, servicePid: number, database: string | undefined): Promise<RouteResult> {
  if (route.target === 'service') {
    const recovery = (await settle(target.url)) + (await waitIdle(servicePid));
    if (recovery > 1) log(`  (the service took ${recovery.toFixed(1)} s to drain the previous route's backlog)`);
  }
  const checked = await probe(target.url, route);
  log(`${route.name}: ${checked.status}, ${checked.bytes} B${checked.detail ? ` (${checked.detail})` : ''}`);
  const result: RouteResult = { name: route.name, kind: route.kind, probe: checked };
  if (checked.status !== 'ok') return result;
  await warmUp(target.url, route, o);
  const before = await cpuSample(target.pid, database);
  const m = (result.measurement = await measure(target.url, route, o));
  const cpu = cpuUsed(before, await cpuSample(target.pid, database));
  // Per successful answer: shed 503s cost little, and a route is judged by what it serves.
  if (m.ok > 0) {
    m.serverCpuMs = (1000 * cpu.service) / m.ok;
    if (database) m.dbCpuMs = (1000 * cpu.db) / m.ok;
  }
  result.rssMb = await rssMb(target.pid);
  const ms = (x: number | undefined) => (x === undefined ? '-' : x.toFixed(2));
  log(
    `  ${Math.round(m.rps)} req/s, p50 ${m.p50} ms, p99 ${m.p99} ms, non-2xx ${m.non2xx}, errors ${m.errors}, ` +
      `rss ${result.rssMb?.toFixed(0) ?? '?'} MB, CPU/req server ${ms(m.serverCpuMs)} ms, db ${ms(m.dbCpuMs)} ms`,
  );
  return result;
}

const children: Child[] = [];
let cleanup: (() => Promise<void>) | undefined;
process.once('SIGINT', () => void (cleanup?.() ?? Promise.resolve()).finally(() => process.exit(130)));

async function main(): Promise<void> {
  if (args.network !== undefined) {
    const channels = Number(args.network);
    if (!Number.isInteger(channels) || channels < 1) throw new Error(`--network wants a channel count, got ${args.network}`);
    const { runNetwork } = await import('./network-run.ts');
    const rounds = Number(args.rounds);
    if (!Number.isInteger(rounds) || rounds < 1) throw new Error(`--rounds wants a whole number of runs, got ${args.rounds}`);
    return runNetwork({
      ...o,
      channels,
      rounds,
      serverUrl,
      pglite: args.pglite,
      keep: args.keep,
      shed: !args['no-shed'],
      command: commandLine(),
      log,
      only: args.only,
      modes: args.modes,
    });
  }
  const now = new Date();
  const started = DateTime.fromJSDate(now);
  const [{ catalog, owners, counts }, genSeconds] = await timed('generate catalog', () => benchCatalog(scale, now));
  log(
    `catalog: ${Object.entries(counts)
      .map(([k, v]) => `${k} ${v.toLocaleString('en-US')}`)
      .join(', ')}`,
  );
  let validateLine = 'not validated at this size (the same generator is validated at --scale 0.1)';
  if (small || args.validate) {
    const [result, took] = await timed('validate catalog (importCatalog rules)', () => validateCatalog(catalog, EMPTY_EXISTING));
    if (!result.ok) throw new Error(`the bench catalog does not validate:\n${result.errors.slice(0, 20).join('\n')}`);
    validateLine = `validated by the importer's validateCatalog in ${took.toFixed(1)} s`;
  }

  const work = await mkdtemp(path.join(os.tmpdir(), 'channelnet-bench-'));
  const dataDir = args.pglite ? path.join(work, 'data') : undefined;
  let benchUrl: string | undefined;
  cleanup = async () => {
    for (const child of children.splice(0)) await child.stop();
    if (args.keep) {
      log(`kept: ${benchUrl ?? dataDir} (server log ${path.join(work, 'service.log')})`);
      return;
    }
    if (benchUrl) await dropBenchDatabase(serverUrl).catch((e: unknown) => log(`could not drop the bench database: ${String(e)}`));
    await rm(work, { recursive: true, force: true });
  };

  try {
    if (!args.pglite) benchUrl = await createBenchDatabase(serverUrl);
    const [rowCount, loadSeconds] = await timed(`load into ${args.pglite ? 'PGlite' : 'PostgreSQL'}`, () =>
      loadCatalog(benchUrl ? { databaseUrl: benchUrl } : { dataDir: dataDir! }, catalog, now, log),
    );
    log(`rows loaded: ${rowCount.toLocaleString('en-US')} (${Math.round(rowCount / loadSeconds).toLocaleString('en-US')} rows/s)`);

    const baseline = await startBaseline(path.join(work, 'baseline.log'));
    children.push(baseline);
    const service = await startService({ databaseUrl: benchUrl, dataDir, shed: !args['no-shed'], rateLimits: args['rate-limits'], logFile: path.join(work, 'service.log') });
    children.push(service);
    log(`service ${service.url} (pid ${service.pid}), baseline ${baseline.url}`);
    const [tokens] = await timed(`REST logins (${Math.min(Number(args.logins), owners.length)} owners)`, () => login(service.url, owners, Number(args.logins)));

    const routes = benchRoutes({ owners, tokens, now, viewers: Number(args.viewers) }).filter(
      (r) => r.kind === 'baseline' || !args.only || args.only.split(',').some((w) => r.name.toLowerCase().includes(w.trim().toLowerCase())),
    );
    const results: RouteResult[] = [];
    const busyBefore = await foreignCpuShare();
    log(`CPU busy with other work while the bench idles: ${percent(busyBefore)}`);
    for (const route of routes) {
      const target = route.target === 'baseline' ? baseline : service;
      const database = route.target === 'service' && benchUrl ? BENCH_DATABASE : undefined;
      results.push(await driveRoute(route, target, service.pid, database));
      if (route.target === 'baseline') await baseline.stop(); // idle from here on; frees its memory
    }

    await settle(service.url);
    const busyAfter = await foreignCpuShare();
    const cpus = os.cpus();
    const report: Report = {
      title: `Benchmark ${started.toFormat('yyyy-MM-dd HH:mm ZZZZ')}: ${small ? `catalog x${scale}` : 'full catalog'} on ${args.pglite ? 'PGlite' : 'PostgreSQL'}`,
      command: commandLine(),
      machine:
        `${cpus.length} cores (${cpus[0]?.model.trim() ?? '?'}), ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB RAM, ` +
        `Node ${process.version}, ${os.type()} ${os.release()}, ${await databaseVersion(benchUrl)}`,
      setup: [
        `Catalog: ${Object.entries(counts)
          .map(([k, v]) => `${v.toLocaleString('en-US')} ${k}`)
          .join(', ')}; generated in ${genSeconds.toFixed(1)} s, ${validateLine}`,
        `Loaded ${rowCount.toLocaleString('en-US')} rows in ${loadSeconds.toFixed(1)} s, then ANALYZE`,
        `autocannon ${o.connections} connections, ${o.seconds} s per route after a ${o.warmup} s warm-up, in the benchmark process on the same machine as the server and the database`,
        `Requests rotate over ${owners.length.toLocaleString('en-US')} owners (REST: ${tokens.length} logged-in owners), 6 Platform-Ids, 10,000 Device-Ids, ${Number(args.viewers).toLocaleString('en-US')} heartbeat viewers`,
        'RSS: VmRSS of the service process after each route; Req/s counts 2xx answers only',
        args['no-shed']
          ? "Load shedding off (--no-shed: MAX_DB_POOL_WAITING=0, MAX_EVENT_LOOP_DELAY_MS=0): the routes' capacity"
          : 'Load shedding as deployed (MAX_DB_POOL_WAITING, MAX_EVENT_LOOP_DELAY_MS defaults); --no-shed turns it off',
        'CPU ms/req: CPU time of the server process and of the database backends over the measured run, per 2xx answer: what a route costs, whatever else the machine runs; ' +
          'CPU ceiling: cores x 1000 / (server + database ms), the most the machine could serve with the load generator and other processes left out',
        `CPU busy with other work while the bench idled: ${percent(busyBefore)} before the first route, ${percent(busyAfter)} after the last` +
          (Math.max(busyBefore ?? 0, busyAfter ?? 0) > 0.1 ? ' (other processes shared the machine: the figures are lower than on a quiet one)' : ''),
      ],
      results,
      postgres: !args.pglite,
      cores: cpus.length,
      ...(small ? {} : { smallP99: await latestSmall() }),
    };
    if (report.smallP99 === undefined) delete report.smallP99;
    log('');
    log(consoleTable(report));
    log('');
    for (const line of summary(report)) log(line);
    await mkdir(RESULTS, { recursive: true });
    const file = path.join(RESULTS, `${started.toFormat('yyyy-MM-dd')}${suffix}`);
    await writeFile(`${file}.md`, markdown(report));
    await writeFile(`${file}.json`, `${JSON.stringify({ title: report.title, command: report.command, machine: report.machine, results }, null, 2)}\n`);
    log(`\nwrote ${path.relative(process.cwd(), `${file}.md`)}`);
  } finally {
    await cleanup();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
