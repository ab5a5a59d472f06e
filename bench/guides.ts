// XMLTV guides of a network from prepared bytes (src/guides): the CPU of a guide's first request
// (rendered in the request when its cold part is small, else answered `preparing`), of preparing
// it in the background, and of a warm request (the guide looked up and its document written to a
// sink that drops it), and the memory the kept days add. In-process, so HTTP parsing and the
// socket are left out; the figures are the guide's own work.
//   tsx bench/guides.ts [channels=200]          (PGlite)
//   DATABASE_URL=postgres://... tsx bench/guides.ts 200   (an empty database; it is migrated and filled)
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { PGlite } from '@electric-sql/pglite';
import { buildApp } from '../src/app.ts';
import { importCatalog } from '../src/catalog/import.ts';
import { scopedChannels } from '../src/channels/listing.ts';
import type { App } from '../src/data/apps.ts';
import { openDatabase } from '../src/db/connect.ts';
import { xmltvChunks } from '../src/presenters/xmltv.ts';
import { networkCatalog } from '../test/support/guide-network.ts';

const cpu = async <T>(work: () => Promise<T>) => {
  const before = process.cpuUsage();
  const result = await work();
  const used = process.cpuUsage(before);
  return { result, ms: Math.round((used.user + used.system) / 100) / 10 };
};

const channelCount = Number(process.argv[2] ?? 200);
const url = process.env.DATABASE_URL;
const database = url ? await openDatabase({ databaseUrl: url, poolSize: 4 }) : await openDatabase({ pglite: await PGlite.create() });
await database.migrate();
const imported = await importCatalog(database.db, networkCatalog(channelCount), { replace: false, now: new Date('2026-11-21T15:00:00Z') });
if (!imported.ok) throw new Error(imported.errors.slice(0, 3).join('\n'));
const app = await buildApp({
  database,
  config: { LOG_LEVEL: 'silent', RATE_LIMIT_ENABLED: false, MAX_EVENT_LOOP_DELAY_MS: 0, STORE_NOTIFICATION_POLL_MS: 0, GUIDE_WARM_DAYS: 0, DEMO_ON_EMPTY: false },
});
await app.ready();
const guides = app.guides.prepared;
const channels = await scopedChannels(database.db, 11, { id: 302 } as App);

/** A guide request as the route makes it, its document written to a sink. */
async function request(days: number, now: Date) {
  const outcome = await guides.guide(channels, days, now);
  if (outcome.kind !== 'ready') return { kind: outcome.kind, bytes: 0 };
  let bytes = 0;
  await pipeline(
    Readable.from(xmltvChunks(channels, outcome.days), { objectMode: false }),
    new Writable({
      write(chunk, _e, done) {
        bytes += chunk.length;
        done();
      },
    }),
  );
  return { kind: outcome.kind, bytes };
}

global.gc?.();
const rss = process.memoryUsage().rss;
console.log(`${url ? 'PostgreSQL' : 'PGlite'}, ${channels.length} channels of 144 programmes a day`);
for (const [run, days] of [1, 1, 7, 14].entries()) {
  // Each run is days nothing asked before (the first run of all also pays for the process's first queries).
  const now = new Date(Date.parse('2027-01-01T15:00:00Z') + run * 40 * 86_400_000);
  const first = await cpu(() => request(days, now));
  const prepare = await cpu(() => guides.whenIdle());
  const warm = [await cpu(() => request(days, now)), await cpu(() => request(days, now)), await cpu(() => request(days, now))];
  console.log(
    `days=${days}: first request ${first.result.kind} ${first.ms} ms; preparing ${prepare.ms} ms in the background; ` +
      `warm ${Math.min(...warm.map((w) => w.ms))} ms (least of 3) for ${warm[0]!.result.bytes} bytes; kept ${app.guides.cache.size} days, ${app.guides.cache.bytes} bytes`,
  );
}
global.gc?.();
console.log(`RSS added: ${Math.round((process.memoryUsage().rss - rss) / 1e6)} MB`);
await app.close();
await database.close();
