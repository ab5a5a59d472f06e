// PROFILE=out.cpuprofile npx tsx bench/profile.ts [--url postgres://postgres@127.0.0.1:5432/] [--cold] [--network 200] [--route "Custom channels"] [--mode warm|rotating] [--n 400] [--concurrency 1] [--before 20]
// One network route driven in-process (Fastify inject, embedded PGlite) so a CPU profile shows what
// computing its answer costs, without the load generator and PostgreSQL in the picture.
import { writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { CATALOG_CHANNEL } from '../src/cache/catalog-cache.ts';
import { importCatalog } from '../src/catalog/import.ts';
import { openDatabase } from '../src/db/connect.ts';
import { buildApp } from '../src/app.ts';
import { BENCH_PASSWORD } from './catalog.ts';
import { createBenchDatabase } from './load.ts';
import { networkCatalog } from './network.ts';
import { networkRoutes } from './network-routes.ts';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

const { values: args } = parseArgs({
  options: {
    network: { type: 'string', default: '200' },
    route: { type: 'string', default: 'Custom channels' },
    mode: { type: 'string', default: 'warm' },
    n: { type: 'string', default: '400' },
    cold: { type: 'boolean', default: false },
    url: { type: 'string' },
    concurrency: { type: 'string', default: '1' },
    before: { type: 'string', default: '20' },
  },
});
const now = new Date();
const { catalog, channels } = networkCatalog(Number(args.network), now);
let queries = 0;
// --url postgres://...: a fresh channelnet_bench database on that server; else embedded PGlite.
const target = args.url ? { databaseUrl: await createBenchDatabase(args.url) } : { dataDir: await mkdtemp(path.join(os.tmpdir(), 'cn-prof-')) };
const database = await openDatabase({ ...target, onQuery: () => void queries++ });
await database.migrate();
const imported = await importCatalog(database.db, catalog, { replace: false, now });
if (!imported.ok) throw new Error(imported.errors.join('\n'));
const app = await buildApp({ database, config: { LOG_LEVEL: 'silent', RATE_LIMIT_ENABLED: false, MAX_EVENT_LOOP_DELAY_MS: 0 } });
const login = await app.inject({ method: 'POST', url: '/api/v1/rest/auth/login', payload: { username: 'network', password: BENCH_PASSWORD } });
const token = (login.json() as { data?: { authToken?: string } }).data?.authToken ?? '';
const route = networkRoutes(channels, token, now).find((r) => r.name === args.route)!;
const spec = (i: number) => (args.mode === 'rotating' && route.rotating ? route.rotating(i) : route.warm);
const n = Number(args.n);
// --before K: K requests (of the same stream, after the measured ones: not replayed) before measuring, so a rotating stream is measured warm.
const before = Number(args.before);
for (let i = 0; i < before; i++) await app.inject({ method: 'GET', url: spec(n + i).path, headers: spec(n + i).headers });
const session = new Session();
session.connect();
if (process.env.PROFILE) {
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
}
const cpu = process.cpuUsage();
queries = 0;
let bytes = 0;
// --concurrency C: C requests in flight at once (as the bench's connections), in waves.
const concurrency = Number(args.concurrency);
if (concurrency > 1) {
  for (let i = 0; i < n; i += concurrency) {
    const wave = await Promise.all(
      Array.from({ length: Math.min(concurrency, n - i) }, (_, k) => {
        const s = spec(i + k);
        return app.inject({ method: s.method as 'GET', url: s.path, headers: s.headers, payload: s.body });
      }),
    );
    for (const r of wave) {
      if (r.statusCode !== 200) throw new Error(`${r.statusCode} ${r.body.slice(0, 300)}`);
      bytes += r.rawPayload.length;
    }
  }
}
for (let i = 0; i < (concurrency > 1 ? 0 : n); i++) {
  // --cold: every request is the first after a catalog change (caches dropped through NOTIFY).
  if (args.cold) {
    await database.db.execute(sql`select pg_notify(${CATALOG_CHANNEL}, '')`);
    // The notice reaches the listener asynchronously (PostgreSQL: its own connection); give it time.
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const s = spec(i);
  const r = await app.inject({ method: s.method as 'GET', url: s.path, headers: s.headers, payload: s.body });
  if (r.statusCode !== 200) throw new Error(`${r.statusCode} ${r.body.slice(0, 300)}`);
  bytes += r.rawPayload.length;
  // A turn of the event loop, as a server gets between requests: an inject answered in microtasks
  // leaves its response waiting on an Immediate, and thousands of them held made the collector's
  // work part of every profile (bench/memory.ts ran out of heap on them).
  await new Promise(setImmediate);
}
const used = process.cpuUsage(cpu);
if (process.env.PROFILE) {
  const { profile } = await session.post('Profiler.stop');
  await writeFile(process.env.PROFILE, JSON.stringify(profile));
}
const mem = process.memoryUsage();
console.log(
  `rss ${Math.round(mem.rss / 1e6)} MB, heap used ${Math.round(mem.heapUsed / 1e6)} MB of ${Math.round(mem.heapTotal / 1e6)} MB, external ${Math.round(mem.external / 1e6)} MB`,
);
console.log(
  `${route.name} ${args.mode}: ${((used.user + used.system) / 1000 / n).toFixed(3)} ms CPU per request, ${Math.round(bytes / n)} B, ${(queries / n).toFixed(2)} queries per request`,
);
await app.close();
await database.close();
