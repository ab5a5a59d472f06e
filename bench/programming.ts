// npm run bench:programming -- [--n 5] [--url postgres://postgres@127.0.0.1:5432/ | --database-url postgres://.../an_empty_database]
// What a generated week of a 24-hour channel costs to apply: a slot plan of 48 half-hour slots
// every day (336 blocks a week) with playlists of uneven videos and filler on, applied over an
// empty week of a channel of a 20-channel bench network, then undone, n times. Driven in-process
// (Fastify inject), so the figures are the service's own: wall time per apply, preview and undo.
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
import { halfHourSlots, programmingVideos } from './programming-plan.ts';

const { values: args } = parseArgs({ options: { n: { type: 'string', default: '5' }, url: { type: 'string' }, 'database-url': { type: 'string' } } });
const now = new Date();
const { catalog } = networkCatalog(20, now);
const ownerId = catalog.accounts[0]!.id;
const { programmes, filler } = programmingVideos(catalog.videos[0]!, ownerId);
catalog.videos.push(...programmes, ...filler);
const channelId = 800_000;
catalog.channels.push({ ...catalog.channels[0]!, id: channelId, name: 'Programmed channel', url: 'programmed', timezone: 'America/New_York', schedules: [], liveStreams: [] });

// --database-url: a database of one's own, used as it is (the shared bench database is dropped and made again by --url).
const target = args['database-url']
  ? { databaseUrl: args['database-url'] }
  : args.url
    ? { databaseUrl: await createBenchDatabase(args.url) }
    : { dataDir: await mkdtemp(path.join(os.tmpdir(), 'cn-programming-')) };
const database = await openDatabase(target);
await database.migrate();
const imported = await importCatalog(database.db, catalog, { replace: false, now });
if (!imported.ok) throw new Error(imported.errors.join('\n'));
const app = await buildApp({ database, config: { LOG_LEVEL: 'silent', RATE_LIMIT_ENABLED: false, MAX_EVENT_LOOP_DELAY_MS: 0 } });
const login = await app.inject({ method: 'POST', url: '/api/v1/rest/auth/login', payload: { username: 'network', password: BENCH_PASSWORD } });
const headers = { authorization: `Bearer ${(login.json() as { data: { authToken: string } }).data.authToken}` };
const cpuMs: Record<string, number[]> = {};
const call = async (method: 'GET' | 'PUT' | 'POST', url: string, payload?: object, expect = 200) => {
  const started = performance.now();
  const cpu = process.cpuUsage();
  const r = await app.inject({ method, url: `/api/v1/studio/channels/${channelId}${url}`, headers, ...(payload ? { payload } : {}) });
  const ms = performance.now() - started;
  const used = process.cpuUsage(cpu);
  (cpuMs[url] ??= []).push((used.user + used.system) / 1000);
  if (r.statusCode !== expect) throw new Error(`${method} ${url}: ${r.statusCode} ${r.body.slice(0, 300)}`);
  return { ms, body: r.json() as { data: any } };
};

await call('PUT', '/programming/slots', { slots: halfHourSlots(programmes) });
await call('PUT', '/programming/filler', { videoIds: filler.map((v) => v.id) });

const monday = (() => {
  const d = new Date(now.getTime() + 14 * 86_400_000);
  d.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7));
  return d.toISOString().slice(0, 10);
})();
const sunday = new Date(Date.parse(`${monday}T00:00:00Z`) + 6 * 86_400_000).toISOString().slice(0, 10);
const week = { from: monday, to: sunday, fill: true };

const n = Number(args.n);
const previews: number[] = [];
const applies: number[] = [];
const undos: number[] = [];
let totals = { blocks: 0, videos: 0, fillerVideos: 0 };
for (let i = 0; i < n; i++) {
  const preview = await call('POST', '/programming/preview', week);
  previews.push(preview.ms);
  totals = preview.body.data.totals;
  const applied = await call('POST', '/programming/apply', week, 201);
  applies.push(applied.ms);
  if (applied.body.data.items.length !== 336) throw new Error(`expected 336 blocks, got ${applied.body.data.items.length}`);
  undos.push((await call('POST', '/programming/undo', {})).ms);
}
await app.close();
await database.close();

const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;
const max = (list: number[]) => Math.max(...list);
process.stdout.write(
  `Programming a week, ${args.url || args['database-url'] ? 'PostgreSQL' : 'PGlite'}, n=${n}, ${now.toISOString()}: ${totals.blocks} blocks, ${totals.videos} videos (${totals.fillerVideos} filler)\n\n`,
);
// CPU: this process's (on PGlite the database's work too; on PostgreSQL the server's is not counted).
process.stdout.write('| request | median ms | max ms | median CPU ms |\n|---|---|---|---|\n');
for (const [name, list] of [
  ['preview', previews],
  ['apply', applies],
  ['undo', undos],
] as const) {
  process.stdout.write(`| POST programming/${name} | ${median(list).toFixed(0)} | ${max(list).toFixed(0)} | ${median(cpuMs[`/programming/${name}`]!).toFixed(0)} |\n`);
}
