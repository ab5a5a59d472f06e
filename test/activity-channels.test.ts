// A heartbeat batch's channels from memory (src/sessions/activity-channels.ts): read once, then
// answered without the database until a catalog change names the channel or its owner; a missing
// channel is remembered as missing until any owner's change (it may be that owner's new one); a
// read that a change overtook is answered, not kept; nothing is kept while changes cannot be heard.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Queryable } from '../src/db/connect.ts';
import { ActivityChannels } from '../src/sessions/activity-channels.ts';
import { customCatalogDatabase } from './support/batches.ts';
import { BACKENDS, type TestDatabase } from './support/db.ts';

function counting(db: Queryable): { db: Queryable; reads: () => number; onRead: (f: () => void) => void } {
  let reads = 0;
  let hook: (() => void) | undefined;
  const proxy = new Proxy(db, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (prop !== 'execute' || typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        reads++;
        hook?.();
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { db: proxy, reads: () => reads, onRead: (f) => (hook = f) };
}

describe.each(BACKENDS)('the activity channels kept in memory (%s)', (kind) => {
  let database: TestDatabase;
  let owner: number;
  beforeAll(async () => {
    database = await customCatalogDatabase(kind);
    const rows = ((await database.db.execute(sql`select owner_id as "ownerId" from channels where id = 201`)) as unknown as { rows: { ownerId: number }[] }).rows;
    owner = rows[0]!.ownerId;
  });
  afterAll(() => database.close());

  it('reads a channel once, until a change of it or of its owner', async () => {
    const channels = new ActivityChannels();
    channels.invalidate(true);
    const { db, reads } = counting(database.db);
    const first = await channels.find(db, [201, 999_999]);
    expect([...first.keys()]).toEqual([201]);
    expect(first.get(201)!.ownerId).toBe(owner);
    expect((await channels.find(db, [201, 999_999])).get(201)).toEqual(first.get(201));
    expect(reads()).toBe(1); // the missing one is remembered as missing too
    channels.drop({ ownerId: owner + 1000 }); // another owner's change: only what is missing goes
    await channels.find(db, [201]);
    expect(reads()).toBe(1);
    await channels.find(db, [999_999]);
    expect(reads()).toBe(2);
    channels.drop({ ownerId: owner, channelIds: [201] });
    await channels.find(db, [201]);
    expect(reads()).toBe(3);
    channels.drop({ ownerId: owner });
    await channels.find(db, [201]);
    expect(reads()).toBe(4);
    channels.invalidate(true);
    await channels.find(db, [201]);
    expect(reads()).toBe(5);
  });

  it('does not keep a read a change overtook, and keeps nothing while changes cannot be heard', async () => {
    const channels = new ActivityChannels();
    channels.invalidate(true);
    const { db, reads, onRead } = counting(database.db);
    onRead(() => channels.drop({ ownerId: owner, channelIds: [201] }));
    expect((await channels.find(db, [201])).has(201)).toBe(true);
    onRead(() => undefined);
    await channels.find(db, [201]);
    expect(reads()).toBe(2);
    channels.invalidate(false);
    await channels.find(db, [201]);
    await channels.find(db, [201]);
    expect(reads()).toBe(4);
  });
});
