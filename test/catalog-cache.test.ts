import { ScheduleTimelines } from '../src/schedules/timelines.ts';
import { sql } from 'drizzle-orm';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CatalogCache } from '../src/cache/catalog-cache.ts';
import { estimateBytes } from '../src/cache/size.ts';
import type { CatalogInput } from '../src/catalog/format.ts';
import { importCatalog } from '../src/catalog/import.ts';
import { loadConfig } from '../src/config.ts';
import { legacyRoutes } from '../src/legacy/routes.ts';
import { OWNER, PNG_1X1, smallCatalog } from './fixtures/catalog.ts';
import { testApp } from './support/app.ts';
import { BACKENDS, freshDatabase, type TestDatabase } from './support/db.ts';

const counting = () => {
  let calls = 0;
  return { load: async () => ++calls, calls: () => calls };
};

describe('catalog cache', () => {
  it('bypasses itself until told the catalog is being watched', async () => {
    const cache = new CatalogCache({ maxEntries: 10, maxBytes: 1 << 20 });
    const source = counting();
    await cache.get('a', source.load);
    await cache.get('a', source.load);
    expect(source.calls()).toBe(2);
    cache.invalidate(true);
    await cache.get('a', source.load);
    expect(await cache.get('a', source.load)).toBe(3);
    expect(source.calls()).toBe(3);
  });

  it('drops everything on a change, and bypasses while delivery is lost', async () => {
    const cache = new CatalogCache({ maxEntries: 10, maxBytes: 1 << 20 });
    cache.invalidate(true);
    const source = counting();
    await cache.get('a', source.load);
    cache.invalidate(true);
    expect(await cache.get('a', source.load)).toBe(2);
    cache.invalidate(false);
    await cache.get('a', source.load);
    await cache.get('a', source.load);
    expect(source.calls()).toBe(4);
  });

  it('does not keep a value loaded across a change', async () => {
    const cache = new CatalogCache({ maxEntries: 10, maxBytes: 1 << 20 });
    cache.invalidate(true);
    let calls = 0;
    await cache.get('a', async () => {
      calls++;
      cache.invalidate(true); // an import committed while this answer was being built
      return 'stale';
    });
    expect(await cache.get('a', async () => (calls++, 'fresh'))).toBe('fresh');
    expect(calls).toBe(2);
  });

  it('evicts the least recently used entry past its size', async () => {
    const cache = new CatalogCache({ maxEntries: 2, maxBytes: 1 << 20 });
    cache.invalidate(true);
    const source = counting();
    await cache.get('a', source.load);
    await cache.get('b', source.load);
    await cache.get('a', source.load); // a is now the most recent
    await cache.get('c', source.load); // evicts b
    expect(cache.size).toBe(2);
    await cache.get('a', source.load);
    expect(source.calls()).toBe(3);
    await cache.get('b', source.load);
    expect(source.calls()).toBe(4);
  });

  it('evicts the least recently used entries past its byte bound, counting strings and Buffers exactly', async () => {
    const cache = new CatalogCache({ maxEntries: 1000, maxBytes: 100_000 });
    cache.invalidate(true);
    const text = 'x'.repeat(20_000); // 40,000 bytes as UTF-16
    for (const key of ['a', 'b', 'c']) await cache.get(key, async () => text);
    expect(cache.size).toBe(2); // a third would pass 100,000
    expect(cache.bytes).toBe(2 * (2 + estimateBytes(text)));
    expect(estimateBytes(text)).toBe(16 + 40_000);
    expect(estimateBytes(Buffer.alloc(50_000))).toBe(32 + 50_000);
    await cache.get('d', async () => Buffer.alloc(50_000)); // evicts b, the least recent
    expect(cache.size).toBe(2);
    expect(cache.bytes).toBe(2 + estimateBytes(text) + 2 + 32 + 50_000);
  });

  it('serves an answer larger than its whole bound without keeping it', async () => {
    const cache = new CatalogCache({ maxEntries: 1000, maxBytes: 10_000 });
    cache.invalidate(true);
    const source = { calls: 0 };
    const big = async () => (source.calls++, 'y'.repeat(10_000));
    expect(await cache.get('big', big)).toHaveLength(10_000);
    await cache.get('big', big);
    expect(source.calls).toBe(2);
    expect(cache.bytes).toBe(0);
  });

  it('caches null and undefined answers like any other', async () => {
    const cache = new CatalogCache({ maxEntries: 10, maxBytes: 10_000 });
    cache.invalidate(true);
    let calls = 0;
    for (let i = 0; i < 2; i++) {
      expect(await cache.get('none', async () => (calls++, undefined))).toBeUndefined();
      expect(await cache.get('null', async () => (calls++, null))).toBeNull();
    }
    expect(calls).toBe(2);
  });

  it('keeps nothing when either bound is 0', async () => {
    for (const limits of [
      { maxEntries: 0, maxBytes: 10_000 },
      { maxEntries: 10, maxBytes: 0 },
    ]) {
      const cache = new CatalogCache(limits);
      cache.invalidate(true);
      const source = counting();
      await cache.get('a', source.load);
      await cache.get('a', source.load);
      expect(source.calls()).toBe(2);
    }
  });
});

describe('estimateBytes', () => {
  it('grows with every part of a value and counts a shared object once', () => {
    const row = { id: 1, name: 'Alice', createdAt: new Date(0), tags: ['a', 'b'], extra: new Map([['k', new Set([1])]]) };
    const bigger = { ...row, name: 'Alice'.repeat(100) };
    expect(estimateBytes(bigger) - estimateBytes(row)).toBe(2 * 5 * 99);
    expect(estimateBytes([row, row])).toBeLessThan(2 * estimateBytes(row));
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    expect(estimateBytes(cyclic)).toBeGreaterThan(0);
    expect(estimateBytes(null)).toBe(8);
  });
});

describe.each(BACKENDS)('catalog cache in the service on %s', (backend) => {
  it('serves a changed catalog right after an import commits', async () => {
    const t = await testApp(backend, smallCatalog());
    try {
      const token = (await t.request({ method: 'POST', url: '/api/v1/rest/auth/login', payload: { username: 'alice', password: OWNER.password } })).json().data.authToken;
      const names = async () => (await t.request({ url: '/api/v1/rest/channels', headers: { authorization: `Bearer ${token}` } })).json().data.map((c: { name: string }) => c.name);
      const legacy = async () => (await t.request({ url: '/WebServices/VastService.asmx/GetVastSettings?channelId=201' })).body;
      expect(await names()).toEqual(['Alice Music', 'Alice News']);
      expect(await legacy()).toContain('https://ads.example/web');
      // A write that bypasses the importer sends no notification: the cached answer stays.
      await t.database.db.execute(sql`update channels set name = 'Changed behind the cache' where id = 201`);
      expect(await names()).toEqual(['Alice Music', 'Alice News']);
      const changed: any = smallCatalog();
      changed.channels[0].name = 'Alice News Renamed';
      changed.channels[0].vast[0].vastUrl = 'https://ads.example/new';
      expect((await importCatalog(t.database.db, changed, { replace: false, now: new Date() })).ok).toBe(true);
      // Delivery is asynchronous on PostgreSQL (another connection): poll briefly, bounded.
      await expect.poll(names, { timeout: 5_000, interval: 50 }).toEqual(['Alice Music', 'Alice News Renamed']);
      await expect.poll(legacy, { timeout: 5_000, interval: 50 }).toContain('https://ads.example/new');
    } finally {
      await t.close();
    }
  });
});

// An app whose TV answer embeds a large image: each cached copy costs hundreds of kilobytes.
function tvCatalog(): CatalogInput {
  const logo = Buffer.concat([Buffer.from(PNG_1X1, 'base64'), Buffer.alloc(100_000, 7)]).toString('base64');
  return {
    format: 'channel-network-catalog',
    version: 1,
    accounts: [{ id: 101, username: 'tv', email: 'tv@example.com', password: 'pw', publicUrl: 'tv' }],
    apps: [{ id: 701, ownerId: 101, platform: 'firetv', appName: 'TV', images: { logo } }],
  };
}

describe.each(BACKENDS)('legacy answers in the catalog cache on %s', (backend) => {
  const MAX_BYTES = 2 * 1024 * 1024;
  let database: TestDatabase;
  let app: FastifyInstance;
  let cache: CatalogCache;
  let stopCache: () => Promise<void>;

  beforeAll(async () => {
    database = await freshDatabase(backend);
    const imported = await importCatalog(database.db, tvCatalog(), { replace: false, now: new Date() });
    expect(imported.ok).toBe(true);
    ({ cache, stop: stopCache } = await CatalogCache.start(database, { maxEntries: 10_000, maxBytes: MAX_BYTES }));
    app = Fastify({ logger: false });
    const config = loadConfig({ RATE_LIMIT_ENABLED: 'false' });
    await app.register(legacyRoutes, { prefix: '/WebServices', database, config, cache, timelines: new ScheduleTimelines() });
  });
  afterAll(async () => {
    await app?.close();
    await stopCache?.();
    await database?.close().catch(() => undefined);
  });

  const tv = (query: string) => app.inject({ url: `/WebServices/TVAppGeneratorService.asmx/GetUserTVApp?${query}` });

  it('keeps one entry for requests that differ only in what the method ignores', async () => {
    cache.invalidate(true);
    const first = await tv('userId=101&platform=fire-tv&skipImages=false');
    expect(first.statusCode).toBe(200);
    expect(first.body.length).toBeGreaterThan(100_000);
    for (let i = 0; i < 200; i++) {
      const variant = ['skipImages=false', 'SKIPIMAGES=FALSE', 'skipimages= false ', 'skipImages=false&skipImages=true'][i % 4];
      const answer = await tv(`userId=101&platform=fire-tv&${variant}&x=${i}&cacheBust${i}=1`);
      expect(answer.body).toBe(first.body);
    }
    expect(cache.size).toBe(1);
  });

  it('stays within its byte bound when every request carries a different declared value', async () => {
    cache.invalidate(true);
    // userId is declared as a string and parsed inside the method: ' 101', '  101'... are
    // distinct arguments with the same large answer, which the byte bound must contain.
    for (let i = 0; i < 40; i++) {
      const answer = await tv(`userId=${'%20'.repeat(i)}101&platform=fire-tv&skipImages=false`);
      expect(answer.body.length).toBeGreaterThan(100_000);
      expect(cache.bytes).toBeLessThanOrEqual(MAX_BYTES);
    }
    expect(cache.size).toBeLessThan(40);
    expect(cache.size).toBeGreaterThan(0);
  });

  it('does not cache a fault that needs no data', async () => {
    cache.invalidate(true);
    for (let i = 0; i < 20; i++) expect((await tv(`userId=101&platform=fire-tv&skipImages=maybe${i}`)).statusCode).toBe(500);
    expect(cache.size).toBe(0);
  });
});
