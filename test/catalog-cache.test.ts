import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { CatalogCache } from '../src/cache/catalog-cache.ts';
import { importCatalog } from '../src/catalog/import.ts';
import { OWNER, smallCatalog } from './fixtures/catalog.ts';
import { testApp } from './support/app.ts';
import { BACKENDS } from './support/db.ts';

const counting = () => {
  let calls = 0;
  return { load: async () => ++calls, calls: () => calls };
};

describe('catalog cache', () => {
  it('bypasses itself until told the catalog is being watched', async () => {
    const cache = new CatalogCache(10);
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
    const cache = new CatalogCache(10);
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
    const cache = new CatalogCache(10);
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
    const cache = new CatalogCache(2);
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
});

describe.each(BACKENDS)('catalog cache in the service on %s', (backend) => {
  it('serves a changed catalog right after an import commits', async () => {
    const t = await testApp(backend, smallCatalog());
    try {
      const token = (await t.request({ method: 'POST', url: '/api/v1/rest/auth/login', payload: { username: 'alice', password: OWNER.password } })).json().data.authToken;
      const names = async () =>
        (await t.request({ url: '/api/v1/rest/channels', headers: { authorization: `Bearer ${token}` } })).json().data.map((c: { name: string }) => c.name);
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
