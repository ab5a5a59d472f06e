// Shared by the tests of the batched schedule path: a database holding the Custom test catalog,
// its schedule channels with their zones, and a handle that counts queries (the batched loaders
// must not cost more queries with more channels).
import { expect } from 'vitest';
import { importCatalog } from '../../src/catalog/import.ts';
import type { Database, DatabaseKind } from '../../src/db/connect.ts';
import { customCatalog } from './custom.ts';
import { freshDatabase, type TestDatabase } from './db.ts';

/** The catalog's channels of alice that matter to schedules (see customCatalog). */
export const SCHEDULE_CHANNELS = [
  { id: 201, timezone: 'America/New_York' },
  { id: 202, timezone: 'UTC' },
  { id: 204, timezone: 'UTC' },
  { id: 205, timezone: 'UTC' },
  { id: 206, timezone: 'UTC' },
];

export async function customCatalogDatabase(kind: DatabaseKind, catalog: unknown = customCatalog()): Promise<TestDatabase> {
  const database = await freshDatabase(kind);
  const result = await importCatalog(database.db, catalog, { replace: false, now: new Date('2026-11-21T15:00:00Z') });
  expect(result.ok).toBe(true);
  return database;
}

export function countingQueries(db: Database): { db: Database; queries: () => number } {
  let queries = 0;
  const proxy = new Proxy(db, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (prop !== 'select' || typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        queries++;
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { db: proxy, queries: () => queries };
}
