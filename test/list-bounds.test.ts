// Issue 26, the cold Custom channel lists of a large network: a list decides each channel's
// scheduleAvailable from its blocks' spans (src/schedules/entry-spans.ts), never compiling a day, so
// 500 channels, 50 of them full (720 entries a day), stay under the 200 ms anonymous budget cold.
// Cold is a new app on the same database (its caches empty) after one request of another owner
// (the route's own first-use costs are the process's, not the list's). CPU, never wall time.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { importCatalog } from '../src/catalog/import.ts';
import { cpuOf } from './fuzz/property.ts';
import { TEST_NOW } from './support/app.ts';
import { BACKENDS, freshDatabase, type TestDatabase } from './support/db.ts';
import { CHANNELS, FIRST_CHANNEL, FULL, networkCatalog } from './support/network.ts';
import { expectCpuUnder } from './support/cpu-bounds.ts';

const ANONYMOUS_CPU_MS = 200;

describe.each(BACKENDS)('cold Custom channel lists of a large network, on %s', (backend) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await freshDatabase(backend);
    const result = await importCatalog(database.db, networkCatalog(), { replace: false, now: new Date(TEST_NOW) });
    expect(result.ok, result.ok ? '' : result.errors.slice(0, 5).join('\n')).toBe(true);
  }, 300_000);
  afterAll(() => database?.close());

  /** The least CPU of `runs` cold requests, each to a new app on the database (its caches empty). */
  async function coldCpu(url: string, headers: Record<string, string> = {}, runs = 3) {
    let least = Infinity;
    let body: any;
    for (let run = 0; run < runs; run++) {
      const app = await buildApp({
        database,
        config: { CHANNELNET_TEST_CLOCK: true, LOG_LEVEL: 'silent', RATE_LIMIT_ENABLED: false, MAX_EVENT_LOOP_DELAY_MS: 0, STORE_NOTIFICATION_POLL_MS: 0 },
      });
      try {
        const inject = (path: string, h: Record<string, string>) => app.inject({ method: 'GET', url: `/api/v1/services/custom${path}`, headers: { 'x-test-now': TEST_NOW, ...h } });
        // The route's first use in this app (schemas, serializers) on another owner's one channel.
        expect((await inject(url.replace('/users/11/', '/users/16/'), headers)).statusCode).toBe(200);
        const { result, cpuMs } = await cpuOf(() => inject(url, headers));
        expect(result.statusCode, result.body.slice(0, 300)).toBe(200);
        body = result.json();
        least = Math.min(least, cpuMs);
      } finally {
        await app.close();
      }
    }
    if (process.env.BOUNDS_REPORT) console.log(`${backend} ${url} ${JSON.stringify(headers)}: ${least.toFixed(1)} ms`);
    return { cpuMs: least, body };
  }

  it(`the owner's list of ${CHANNELS} channels, ${FULL} of them full, and its categories, cold`, async () => {
    const list = await coldCpu('/users/11/channels');
    const network = list.body.data.filter((c: { id: number }) => c.id >= FIRST_CHANNEL);
    expect(network).toHaveLength(CHANNELS);
    expect(network.every((c: { scheduleAvailable: boolean }) => c.scheduleAvailable)).toBe(true);
    expectCpuUnder(list.cpuMs, ANONYMOUS_CPU_MS);
    const categories = await coldCpu('/users/11/categories');
    expectCpuUnder(categories.cpuMs, ANONYMOUS_CPU_MS);
  }, 120_000);

  it(`an app's list of the ${CHANNELS} channels, a page of it, and with a request zone, cold`, async () => {
    const tv = { 'platform-id': 'fire-tv' };
    for (const url of ['/users/11/channels', '/users/11/channels?skip=480&take=20', '/users/11/channels?timezone=Asia/Tokyo']) {
      const { cpuMs, body } = await coldCpu(url, tv);
      expect(body.data.length).toBeGreaterThan(0);
      expectCpuUnder(cpuMs, ANONYMOUS_CPU_MS, url);
    }
  }, 120_000);
});
