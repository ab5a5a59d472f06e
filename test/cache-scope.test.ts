// Catalog changes drop only what they may have touched: an owner's change keeps other owners'
// answers, a change of some channels keeps the owner's answers of other channels, and a load
// under way is not kept when a change touching it arrived meanwhile (and is kept otherwise).
// Through a real database: a NOTIFY sent by notifyCatalogChange reaches the listener as the
// change it names.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CatalogCache, type CacheFollower, type OwnerChange } from '../src/cache/catalog-cache.ts';
import { changePayload, notifyCatalogChange, parseChangePayload, type CacheScope } from '../src/cache/changes.ts';
import type { Database } from '../src/db/connect.ts';
import { ScheduleTimelines, type PublishedWindow, type TimelineChannel } from '../src/schedules/timelines.ts';
import { dayWindow } from './support/reference-schedules.ts';
import { countingQueries, customCatalogDatabase, SCHEDULE_CHANNELS } from './support/batches.ts';
import { BACKENDS, freshDatabase, type TestDatabase } from './support/db.ts';

const A = 1;
const B = 2;

/** A cache listening (trusted), and a get that counts the loads per key. */
function scopedCache(maxEntries = 100) {
  const cache = new CatalogCache({ maxEntries, maxBytes: 1 << 20 });
  cache.invalidate(true);
  const loads = new Map<string, number>();
  const get = (key: string, scope?: CacheScope) =>
    cache.get(
      key,
      async () => {
        loads.set(key, (loads.get(key) ?? 0) + 1);
        return key;
      },
      scope,
    );
  const loadsOf = (key: string) => loads.get(key) ?? 0;
  return { cache, get, loadsOf };
}

/** A promise resolved from outside: a load that finishes when the test says. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe('change payloads', () => {
  it('read back what notifyCatalogChange sends, and every change from anything else', () => {
    for (const change of [{ ownerId: 12 }, { ownerId: 12, channelIds: [3, 4] }, { ownerId: 12, channelIds: [] }] as OwnerChange[]) {
      expect(parseChangePayload(changePayload(change))).toEqual(change);
    }
    expect(changePayload('all')).toBe('');
    for (const payload of [
      undefined,
      '',
      'x',
      '[]',
      'null',
      '12',
      '{}',
      '{"owner":"12"}',
      '{"owner":1.5}',
      '{"owner":1,"channels":3}',
      '{"owner":1,"channels":[1,"2"]}',
      '{"owner":1,"extra":true}',
    ]) {
      expect(parseChangePayload(payload)).toBe('all');
    }
  });
});

describe('catalog cache scopes', () => {
  it("an owner's change drops that owner's entries and unscoped ones, and keeps other owners'", async () => {
    const { cache, get, loadsOf } = scopedCache();
    await get('a', { ownerId: A });
    await get('a:3', { ownerId: A, channelIds: [3] });
    await get('b', { ownerId: B });
    await get('b:5', { ownerId: B, channelIds: [5] });
    await get('u');
    expect(cache.size).toBe(5);
    cache.change({ ownerId: A });
    expect(cache.size).toBe(2);
    for (const key of ['a', 'a:3', 'b', 'b:5', 'u']) await get(key, key.startsWith('a') ? { ownerId: A } : key.startsWith('b') ? { ownerId: B } : undefined);
    expect(['a', 'a:3', 'b', 'b:5', 'u'].map(loadsOf)).toEqual([2, 2, 1, 1, 2]);
  });

  it("a change of some channels drops the owner's own entries and those of the channels, not the owner's other channels'", async () => {
    const { cache, get, loadsOf } = scopedCache();
    const scopes: Record<string, CacheScope | undefined> = {
      list: { ownerId: A },
      ch3: { ownerId: A, channelIds: [3] },
      ch4: { ownerId: A, channelIds: [4] },
      ch45: { ownerId: A, channelIds: [4, 5] },
      other: { ownerId: B, channelIds: [3] }, // another owner's scope naming the same number
      any: undefined,
    };
    const all = async () => {
      for (const [key, scope] of Object.entries(scopes)) await get(key, scope);
    };
    await all();
    cache.change({ ownerId: A, channelIds: [3, 5] });
    expect(cache.size).toBe(2); // ch4 and other
    await all();
    expect(Object.keys(scopes).map(loadsOf)).toEqual([2, 2, 1, 2, 1, 2]);
    cache.change({ ownerId: A, channelIds: [] }); // the owner's lists only
    await all();
    expect(Object.keys(scopes).map(loadsOf)).toEqual([3, 2, 1, 2, 1, 3]);
  });

  it("'all' drops every entry, as does a lost listener", async () => {
    const { cache, get, loadsOf } = scopedCache();
    await get('a', { ownerId: A });
    await get('b', { ownerId: B });
    cache.change('all');
    expect(cache.size).toBe(0);
    await get('a', { ownerId: A });
    await get('b', { ownerId: B });
    expect([loadsOf('a'), loadsOf('b')]).toEqual([2, 2]);
    cache.invalidate(false);
    await get('b', { ownerId: B });
    expect(cache.size).toBe(0);
  });

  it("does not keep a load under way when its owner changes, and keeps another owner's", async () => {
    const { cache } = scopedCache();
    const loadA = deferred<string>();
    const loadB = deferred<string>();
    const gotA = cache.get('a', () => loadA.promise, { ownerId: A });
    const gotB = cache.get('b', () => loadB.promise, { ownerId: B });
    cache.change({ ownerId: A }); // committed while both answers were being built
    loadA.resolve('stale a');
    loadB.resolve('fresh b');
    expect([await gotA, await gotB]).toEqual(['stale a', 'fresh b']);
    expect(await cache.get('a', async () => 'reloaded a', { ownerId: A })).toBe('reloaded a');
    expect(await cache.get('b', async () => 'reloaded b', { ownerId: B })).toBe('fresh b');
  });

  it("does not keep a channel's load under way when that channel changes, and keeps another channel's", async () => {
    const { cache } = scopedCache();
    const loads = [deferred<string>(), deferred<string>(), deferred<string>()];
    const got = [
      cache.get('ch3', () => loads[0]!.promise, { ownerId: A, channelIds: [3] }),
      cache.get('ch4', () => loads[1]!.promise, { ownerId: A, channelIds: [4] }),
      cache.get('list', () => loads[2]!.promise, { ownerId: A }),
    ];
    cache.change({ ownerId: A, channelIds: [3] });
    loads.forEach((load, i) => load.resolve(`first ${i}`));
    await Promise.all(got);
    expect(cache.size).toBe(1);
    expect(await cache.get('ch4', async () => 'second', { ownerId: A, channelIds: [4] })).toBe('first 1');
  });

  it('treats a scope known only from the answer as unknown while loading, and keeps it with that scope after', async () => {
    const { cache } = scopedCache();
    const ownerOf = (answer: { id: number } | undefined) => (answer ? { ownerId: answer.id } : undefined);
    const load = deferred<{ id: number }>();
    const got = cache.get('owner:b', () => load.promise, ownerOf);
    cache.change({ ownerId: A }); // any change: the answer could have been A's
    load.resolve({ id: B });
    await got;
    expect(cache.size).toBe(0);
    await cache.get('owner:b', async () => ({ id: B }), ownerOf);
    await cache.get('owner:none', async () => undefined, ownerOf);
    expect(cache.size).toBe(2);
    cache.change({ ownerId: A }); // keeps B's, drops the unscoped answer of nobody
    expect(cache.size).toBe(1);
    cache.change({ ownerId: B });
    expect(cache.size).toBe(0);
  });

  it('keeps its owner index to the entries it holds through evictions', async () => {
    const { cache, get } = scopedCache(10);
    for (let i = 0; i < 100; i++) await get(`k${i}`, i % 3 === 0 ? undefined : { ownerId: i % 3 });
    expect(cache.size).toBe(10);
    const indexed = (cache['unscoped'] as Set<string>).size + [...(cache['byOwner'] as Map<number, Set<string>>).values()].reduce((n, keys) => n + keys.size, 0);
    expect(indexed).toBe(10);
    cache.change({ ownerId: 1 });
    expect(cache.size).toBe(3); // k92, k95, k98 (owner 2) of the last ten
    expect((cache['byOwner'] as Map<number, Set<string>>).get(1)).toBeUndefined();
  });

  it('tells its followers every change, and the current state when they start following', () => {
    const cache = new CatalogCache({ maxEntries: 10, maxBytes: 1 << 20 });
    const told: unknown[] = [];
    const follower: CacheFollower = { invalidate: (trusted) => told.push(trusted), drop: (change) => told.push(change) };
    cache.follow(follower);
    cache.change('all');
    cache.change({ ownerId: A, channelIds: [3] });
    cache.invalidate(false);
    expect(told).toEqual([false, true, { ownerId: A, channelIds: [3] }, false]);
  });
});

describe.each(BACKENDS)('schedule timelines dropping channels (%s)', (kind) => {
  const ALICE = 11; // the owner of every schedule channel
  const owned = SCHEDULE_CHANNELS.map((c) => ({ ...c, ownerId: ALICE }));
  const window = dayWindow('2026-11-21', 'Europe/Berlin');
  let database: TestDatabase;

  beforeAll(async () => {
    database = await customCatalogDatabase(kind);
  });
  afterAll(() => database.close());

  /** Loads (one query per table) needed to answer every channel's day again. */
  const reload = async (timelines: ScheduleTimelines, channels: readonly TimelineChannel[] = owned) => {
    const { db, queries } = countingQueries(database.db);
    await timelines.window(db, channels, window.from, window.to, false);
    return queries();
  };

  it("drop the named channels' days only, and an owner's change its channels' only", async () => {
    const timelines = new ScheduleTimelines(10_000, true);
    expect(await reload(timelines)).toBe(3);
    const days = timelines.size.days;
    timelines.drop({ ownerId: ALICE, channelIds: [201, 202] });
    expect(timelines.size.days).toBeLessThan(days);
    expect(timelines.size.days).toBeGreaterThan(0);
    expect(await reload(timelines)).toBe(3);
    expect(timelines.size.days).toBe(days);
    timelines.drop({ ownerId: 99 }); // another owner: alice's channels stay
    expect(await reload(timelines)).toBe(0);
    timelines.drop({ ownerId: ALICE });
    expect(timelines.size.days).toBe(0);
  });

  it("drop channels whose owner they were not told on any owner's change", async () => {
    const timelines = new ScheduleTimelines(10_000, true);
    await reload(timelines, SCHEDULE_CHANNELS); // no owner given
    timelines.drop({ ownerId: 99 });
    expect(timelines.size.days).toBe(0);
  });

  it("do not keep a day loading when its channel changes, and keep the other channels' days", async () => {
    const timelines = new ScheduleTimelines(10_000, true);
    // The change arrives while the load's queries run.
    const { db } = changingOnFirstQuery(database.db, () => timelines.drop({ ownerId: ALICE, channelIds: [201] }));
    await timelines.window(db, owned, window.from, window.to, false);
    const { db: counted, queries } = countingQueries(database.db);
    await timelines.window(counted, owned.slice(1), window.from, window.to, false);
    expect(queries()).toBe(0);
    await timelines.window(counted, owned.slice(0, 1), window.from, window.to, false);
    expect(queries()).toBe(3);
  });

  it("do not keep a published window sliced while its channel changed, and keep the others'", async () => {
    const timelines = new ScheduleTimelines(10_000, true);
    const asks = owned.map((channel) => ({ channel, ...window }));
    const { db } = changingOnFirstQuery(database.db, () => timelines.drop({ ownerId: ALICE, channelIds: [202] }));
    const first = await timelines.publishedWindows(db, asks);
    const again = await timelines.publishedWindows(database.db, asks);
    // Kept: the same listings again; not kept: new ones.
    const same = (a: PublishedWindow, b: PublishedWindow) => a.length === b.length && a.listings.every((l, k) => l === b.listings[k]);
    expect(first[owned.findIndex((c) => c.id === 202)]!.length).toBeGreaterThan(0);
    asks.forEach(({ channel }, i) => expect([channel.id, same(again[i]!, first[i]!)]).toEqual([channel.id, channel.id !== 202]));
  });

  it("follow the catalog cache: a channel's change drops that channel's days only", async () => {
    const cache = new CatalogCache({ maxEntries: 10, maxBytes: 1 << 20 });
    const timelines = new ScheduleTimelines(10_000);
    cache.follow({ invalidate: (trusted) => timelines.invalidate(trusted), drop: (change) => timelines.drop(change) });
    cache.change('all');
    expect(await reload(timelines)).toBe(3);
    cache.change({ ownerId: ALICE, channelIds: [204] });
    expect(
      await reload(
        timelines,
        owned.filter((c) => c.id !== 204),
      ),
    ).toBe(0);
    expect(await reload(timelines)).toBeGreaterThan(0); // 204's days
    cache.change({ ownerId: 99 });
    expect(await reload(timelines)).toBe(0);
  });
});

/** A database handle that calls `change` when the first query is built (a change arriving mid-load). */
function changingOnFirstQuery(db: Database, change: () => void): { db: Database } {
  let fired = false;
  return countingQueries(
    new Proxy(db, {
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver);
        if (prop !== 'select' || typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          if (!fired) {
            fired = true;
            change();
          }
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    }),
  );
}

describe.each(BACKENDS)('catalog change notices through the database (%s)', (kind) => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await freshDatabase(kind);
  });
  afterAll(() => database.close());

  it("deliver an owner's change to the listener, which drops only that owner's entries", async () => {
    const { cache, stop } = await CatalogCache.start(database, { maxEntries: 100, maxBytes: 1 << 20 });
    const told: unknown[] = [];
    cache.follow({ invalidate: (trusted) => told.push(trusted), drop: (change) => told.push(change) });
    try {
      let loads = 0;
      const get = (key: string, scope?: CacheScope) => cache.get(key, async () => (loads++, key), scope);
      await get('owner 1', { ownerId: 1 });
      await get('owner 1 channel 7', { ownerId: 1, channelIds: [7] });
      await get('owner 2', { ownerId: 2 });
      await get('unscoped');
      expect([cache.size, loads]).toEqual([4, 4]);
      // Sent as a Studio write sends it: in its transaction, delivered on commit.
      await database.db.transaction((tx) => notifyCatalogChange(tx, { ownerId: 1 }));
      await expect.poll(() => cache.size, { timeout: 5_000, interval: 20 }).toBe(1);
      await get('owner 2', { ownerId: 2 });
      expect(loads).toBe(4);
      expect(told).toEqual([true, { ownerId: 1 }]);

      await get('owner 1', { ownerId: 1 });
      await get('owner 1 channel 7', { ownerId: 1, channelIds: [7] });
      await get('owner 1 channel 8', { ownerId: 1, channelIds: [8] });
      expect(cache.size).toBe(4);
      await database.db.transaction((tx) => notifyCatalogChange(tx, { ownerId: 1, channelIds: [7] }));
      await expect.poll(() => cache.size, { timeout: 5_000, interval: 20 }).toBe(2); // owner 2 and channel 8 stay
      expect(told.at(-1)).toEqual({ ownerId: 1, channelIds: [7] });

      await database.db.transaction((tx) => notifyCatalogChange(tx, 'all'));
      await expect.poll(() => cache.size, { timeout: 5_000, interval: 20 }).toBe(0);
      expect(told.at(-1)).toBe(true);
    } finally {
      await stop();
    }
  });
});
