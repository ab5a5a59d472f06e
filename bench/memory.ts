// node --expose-gc --import tsx bench/memory.ts [--network 200] [--n 300] [--concurrency 16] [--url postgres://.../DB]
//
// What holds memory after the network run (issue 29): the network's read routes driven in-process
// (Fastify inject; warm and rotating, n requests each, `concurrency` at a time), then the heap
// after a full collection and each cache's bytes as /metrics shows them (channelnet_cache_bytes).
// The live heap is what caches and code hold; RSS above it is garbage V8 has not returned yet
// and, on PGlite, the embedded database. HEAP_SNAPSHOT=file.heapsnapshot writes a snapshot at the
// end (open it in Chrome DevTools, Memory). With --url the catalog goes into that PostgreSQL
// database (emptied first: give one of your own) instead of PGlite.
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { writeHeapSnapshot } from 'node:v8';
import { parseArgs } from 'node:util';
import { buildApp } from '../src/app.ts';
import { openDatabase } from '../src/db/connect.ts';
import { registry } from '../src/observability/metrics.ts';
import { BENCH_PASSWORD } from './catalog.ts';
import { loadCatalog } from './load.ts';
import { networkCatalog } from './network.ts';
import { networkRoutes } from './network-routes.ts';

const { values: args } = parseArgs({
  options: { network: { type: 'string', default: '200' }, n: { type: 'string', default: '300' }, concurrency: { type: 'string', default: '16' }, url: { type: 'string' } },
});
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc --import tsx bench/memory.ts');
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
const report = (label: string) => {
  const m = process.memoryUsage();
  console.log(`${label.padEnd(28)} rss ${mb(m.rss)}, heap used ${mb(m.heapUsed)} of ${mb(m.heapTotal)}, external ${mb(m.external)}, array buffers ${mb(m.arrayBuffers)}`);
};

const now = new Date();
const { catalog, channels } = networkCatalog(Number(args.network), now);
const target = args.url ? { databaseUrl: args.url } : { dataDir: await mkdtemp(path.join(os.tmpdir(), 'cn-mem-')) };
await loadCatalog(target, catalog, now);
const database = await openDatabase(target);
const app = await buildApp({ database, config: { LOG_LEVEL: 'silent', RATE_LIMIT_ENABLED: false, MAX_EVENT_LOOP_DELAY_MS: 0, GUIDE_WARM_DAYS: 0 } });
await app.ready();
gc();
report('started, catalog loaded');
const login = await app.inject({ method: 'POST', url: '/api/v1/rest/auth/login', payload: { username: 'network', password: BENCH_PASSWORD } });
const token = (login.json() as { data?: { authToken?: string } }).data?.authToken ?? '';
const n = Number(args.n);
const concurrency = Number(args.concurrency);
for (const route of networkRoutes(channels, token, now)) {
  for (const spec of route.rotating ? [() => route.warm, route.rotating] : [() => route.warm]) {
    let next = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        for (let i = next++; i < n; i = next++) {
          const s = spec(i);
          const r = await app.inject({ method: 'GET', url: s.path, headers: s.headers });
          if (r.statusCode !== 200) throw new Error(`${route.name}: ${r.statusCode} ${r.body.slice(0, 200)}`);
          // Let the event loop turn: an answer from memory completes its inject in microtasks, and
          // each inject's response waits on an Immediate, so without a turn they piled up (3,000
          // REST channel lists of 1.6 MB ran the heap out of memory: an artifact, not the service's).
          await new Promise(setImmediate);
        }
      }),
    );
  }
}
report('after the routes');
gc();
gc();
report('after a full collection');
const caches = (await registry.getSingleMetric('channelnet_cache_bytes')!.get()).values;
for (const v of caches.sort((a, b) => b.value - a.value)) console.log(`  cache ${String(v.labels.cache).padEnd(20)} ${mb(v.value)}`);
if (process.env.HEAP_SNAPSHOT) console.log(`heap snapshot: ${writeHeapSnapshot(process.env.HEAP_SNAPSHOT)}`);
await app.close();
await database.close();
