// npm run bench:studio -- [--network 200] [--n 60] [--url postgres://postgres@127.0.0.1:5432/]
// What a Studio write costs on a network of N channels (the bench network: one owner, N channels,
// a shared video pool), driven in-process (Fastify inject) so the figures are the service's own:
// wall time per write (median, p95) and CPU per write, plus the first Custom channel list after a
// write (the owner's cached answers were dropped) against the same list warm.
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { buildApp } from '../src/app.ts';
import { importCatalog } from '../src/catalog/import.ts';
import { openDatabase } from '../src/db/connect.ts';
import { BENCH_PASSWORD } from './catalog.ts';
import { createBenchDatabase } from './load.ts';
import { networkCatalog } from './network.ts';

const { values: args } = parseArgs({ options: { network: { type: 'string', default: '200' }, n: { type: 'string', default: '60' }, url: { type: 'string' } } });
const now = new Date();
const { catalog, channels } = networkCatalog(Number(args.network), now);
const target = args.url ? { databaseUrl: await createBenchDatabase(args.url) } : { dataDir: await mkdtemp(path.join(os.tmpdir(), 'cn-studio-')) };
const database = await openDatabase(target);
await database.migrate();
const imported = await importCatalog(database.db, catalog, { replace: false, now });
if (!imported.ok) throw new Error(imported.errors.join('\n'));
const app = await buildApp({ database, config: { LOG_LEVEL: 'silent', RATE_LIMIT_ENABLED: false, MAX_EVENT_LOOP_DELAY_MS: 0 } });
const login = await app.inject({ method: 'POST', url: '/api/v1/rest/auth/login', payload: { username: 'network', password: BENCH_PASSWORD } });
const headers = { authorization: `Bearer ${(login.json() as { data: { authToken: string } }).data.authToken}` };
const n = Number(args.n);
const videoIds = catalog.videos.map((v) => v.id);
const channelId = channels[0]!.id;
const ownerId = catalog.accounts[0]!.id;

type Op = { name: string; expect?: number; request: (i: number) => { method: string; url: string; payload?: unknown } };
const day = (i: number) => new Date(now.getTime() + (40 + i) * 86_400_000).toISOString().slice(0, 10);
const OPS: Op[] = [
  { name: 'PATCH /videos/{id} (title)', request: (i) => ({ method: 'PATCH', url: `/videos/${videoIds[i % videoIds.length]}`, payload: { title: `Title ${i}` } }) },
  { name: 'PATCH /channels/{id} (name)', request: (i) => ({ method: 'PATCH', url: `/channels/${channelId}`, payload: { name: `Channel ${i}` } }) },
  {
    name: 'PUT /channels/{id}/library (20 videos)',
    request: (i) => ({ method: 'PUT', url: `/channels/${channelId}/library`, payload: { videoIds: videoIds.slice(i % 10, (i % 10) + 20) } }),
  },
  // The bench channels loop all day, so every new block overlaps: refused, and with allowOverlap.
  {
    name: 'POST /channels/{id}/schedules (409 schedule_conflict)',
    expect: 409,
    request: (i) => ({ method: 'POST', url: `/channels/${channelId}/schedules`, payload: { startTime: `${day(i)}T08:00:00`, videoIds: videoIds.slice(0, 3) } }),
  },
  {
    name: 'POST /channels/{id}/schedules (allowOverlap)',
    request: (i) => ({ method: 'POST', url: `/channels/${channelId}/schedules`, payload: { startTime: `${day(i)}T08:00:00`, videoIds: videoIds.slice(0, 3), allowOverlap: true } }),
  },
  { name: 'PUT /channels/{id}/vast/roku', request: (i) => ({ method: 'PUT', url: `/channels/${channelId}/vast/roku`, payload: { vastUrl: `https://ads.invalid/${i}` } }) },
];

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
const lines: string[] = [];
for (const op of OPS) {
  const times: number[] = [];
  const cpu = process.cpuUsage();
  for (let i = 0; i < n; i++) {
    const { method, url, payload } = op.request(i);
    const started = performance.now();
    const r = await app.inject({ method: method as 'GET', url: `/api/v1/studio${url}`, headers, payload: payload as object });
    times.push(performance.now() - started);
    if (op.expect ? r.statusCode !== op.expect : r.statusCode >= 300) throw new Error(`${op.name}: ${r.statusCode} ${r.body.slice(0, 300)}`);
  }
  const used = process.cpuUsage(cpu);
  times.sort((a, b) => a - b);
  lines.push(`| ${op.name} | ${percentile(times, 0.5).toFixed(1)} | ${percentile(times, 0.95).toFixed(1)} | ${((used.user + used.system) / 1000 / n).toFixed(1)} |`);
}

// The owner's Custom channel list: warm, then the first after a write dropped the owner's answers.
const list = { method: 'GET' as const, url: `/api/v1/services/custom/users/${ownerId}/channels`, headers: { 'platform-id': 'roku' } };
const timed = async () => {
  const started = performance.now();
  const r = await app.inject(list);
  if (r.statusCode !== 200) throw new Error(`${r.statusCode} ${r.body.slice(0, 200)}`);
  return performance.now() - started;
};
await timed();
const warm: number[] = [];
const afterWrite: number[] = [];
for (let i = 0; i < n; i++) {
  warm.push(await timed());
  await app.inject({ method: 'PATCH', url: `/api/v1/studio/channels/${channelId}`, headers, payload: { name: `Again ${i}` } });
  afterWrite.push(await timed());
}
warm.sort((a, b) => a - b);
afterWrite.sort((a, b) => a - b);
await app.close();
await database.close();

process.stdout.write(`Studio writes, ${args.network}-channel network, ${args.url ? 'PostgreSQL' : 'PGlite'}, n=${n}, ${now.toISOString()}\n\n`);
process.stdout.write(`| write | median ms | p95 ms | CPU ms/write |\n|---|---|---|---|\n${lines.join('\n')}\n\n`);
process.stdout.write(
  `Custom channel list: warm median ${percentile(warm, 0.5).toFixed(2)} ms; first after a channel write median ${percentile(afterWrite, 0.5).toFixed(1)} ms (p95 ${percentile(afterWrite, 0.95).toFixed(1)})\n`,
);
