export {};
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { PGlite } from '@electric-sql/pglite';
import { openDatabase } from '../src/db/connect.ts';
import { importCatalog } from '../src/catalog/import.ts';
import { buildApp } from '../src/app.ts';
import { scopedChannels } from '../src/channels/listing.ts';
import { xmltvChunks } from '../src/presenters/xmltv.ts';
import { Readable } from 'node:stream';
import { networkCatalog } from '../test/support/guide-network.ts';

const cpu = async <T>(f: () => Promise<T>) => { const b = process.cpuUsage(); const w = performance.now(); const r = await f(); const u = process.cpuUsage(b); return { r, ms: Math.round((u.user + u.system) / 100) / 10, wall: Math.round(performance.now() - w) }; };
const channels = Number(process.argv[2] ?? 200);
const database = process.env.DATABASE_URL ? await openDatabase({ databaseUrl: process.env.DATABASE_URL, poolSize: 4 }) : await openDatabase({ pglite: await PGlite.create() });
await database.migrate();
if (process.env.DATABASE_URL) await (database.db as any).execute(`truncate accounts cascade`).catch(() => undefined);
const imp = await cpu(() => importCatalog(database.db, networkCatalog(channels), { replace: !!process.env.DATABASE_URL, now: new Date('2026-11-21T15:00:00Z') }));
console.log('import', imp.ms, (imp.r as any).ok, (imp.r as any).errors?.slice(0, 3));
const app = await buildApp({ database, config: { LOG_LEVEL: 'silent', RATE_LIMIT_ENABLED: false, MAX_EVENT_LOOP_DELAY_MS: 0, STORE_NOTIFICATION_POLL_MS: 0, GUIDE_WARM_DAYS: 0, DEMO_ON_EMPTY: false } });
await app.ready();
const guides = app.guides.prepared;
const list = await scopedChannels(database.db, 11, { id: 302 } as any);
console.log('channels', list.length);
const sink = () => new Writable({ write(_c, _e, cb) { cb(); } });
const rss0 = process.memoryUsage().rss;
for (const days of [1, 7]) {
  const now = new Date(Date.parse('2027-01-01T15:00:00Z') + days * 40 * 86400000);
  const first = await cpu(() => guides.guide(list, days, now));
  const prep = await cpu(() => guides.whenIdle());
  const warm = await cpu(async () => { const o = await guides.guide(list, days, now); if (o.kind !== 'ready') throw new Error(o.kind); let n = 0; await pipeline(Readable.from(xmltvChunks(list, o.days), { objectMode: false }), new Writable({ write(c, _e, cb) { n += c.length; cb(); } })); return n; });
  const warm2 = await cpu(async () => { const o = await guides.guide(list, days, now); if (o.kind !== 'ready') throw new Error(o.kind); let n = 0; await pipeline(Readable.from(xmltvChunks(list, o.days), { objectMode: false }), new Writable({ write(c, _e, cb) { n += c.length; cb(); } })); return n; });
  console.log(`channels ${channels} days ${days}: first ${first.r.kind} ${first.ms} ms; prepare ${prep.ms} ms cpu ${prep.wall} ms wall; warm ${warm.ms}/${warm2.ms} ms for ${warm.r} bytes; cache ${app.guides.cache.bytes} bytes ${app.guides.cache.size} days`);
}
global.gc?.();
console.log('rss added MB', Math.round((process.memoryUsage().rss - rss0) / 1e6));
// inject round trip
const inj = await cpu(() => app.inject({ method: 'GET', url: '/api/v1/rest/epg.xml?days=7' }));
await app.close();
