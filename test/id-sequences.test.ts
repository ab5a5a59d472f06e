// Issue 26, ids: the sequences behind assigned ids. Migration 0010 repairs a database built by
// max(id)+1 (rows above and below 10,000,000, one at 2,147,483,647 that made every create a
// 500); the operator's catalog import takes any 32-bit id and moves the sequences past the ids it
// wrote; assignment steps over ids rows hold. On PGlite and PostgreSQL.
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOwner } from '../src/catalog/owners.ts';
import { importCatalog } from '../src/catalog/import.ts';
import { MIGRATIONS_FOLDER, openDatabase, type Database, type DatabaseHandle, type DatabaseKind } from '../src/db/connect.ts';
import { lockSequencesShared, nextIds, type IdTable } from '../src/data/ids.ts';
import { smallCatalog } from './fixtures/catalog.ts';
import { BACKENDS, freshDatabase, type TestDatabase } from './support/db.ts';
import { databaseUrlFor } from './support/postgres.ts';

const NOW = new Date('2026-11-21T15:00:00Z');
const MIGRATION = '0010_id_sequences';

const assign = (db: Database, table: IdTable, count = 1) =>
  db.transaction(async (tx) => {
    await lockSequencesShared(tx);
    return nextIds(tx, table, count);
  });

/** The migrations folder as it was before 0010 (the journal's earlier entries and their SQL). */
function previousMigrations(): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'channelnet-migrations-'));
  const journal = JSON.parse(readFileSync(join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8'));
  const upTo = journal.entries.findIndex((e: { tag: string }) => e.tag === MIGRATION);
  expect(upTo).toBeGreaterThan(0);
  const entries = journal.entries.slice(0, upTo);
  mkdirSync(join(dir, 'meta'));
  writeFileSync(join(dir, 'meta', '_journal.json'), JSON.stringify({ ...journal, entries }));
  for (const e of entries) copyFileSync(join(MIGRATIONS_FOLDER, `${e.tag}.sql`), join(dir, `${e.tag}.sql`));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

async function admin(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL! });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/** An empty database migrated up to the migration before 0010, and how to drop it. */
async function databaseBefore0010(kind: DatabaseKind): Promise<{ handle: DatabaseHandle; drop(): Promise<void> }> {
  const previous = previousMigrations();
  try {
    if (kind === 'pglite') {
      const handle = await openDatabase({ pglite: await PGlite.create() });
      await migratePglite(handle.db as never, { migrationsFolder: previous.dir });
      return { handle, drop: () => handle.close() };
    }
    const name = `channelnet_test_ids_${process.pid}_${Date.now().toString(36)}`;
    await admin(`create database ${name}`);
    const handle = await openDatabase({ databaseUrl: databaseUrlFor(process.env.TEST_DATABASE_URL!, name), poolSize: 2 });
    await migratePg(handle.db as never, { migrationsFolder: previous.dir });
    return {
      handle,
      drop: async () => {
        await handle.close();
        await admin(`drop database if exists ${name} with (force)`);
      },
    };
  } finally {
    previous.remove();
  }
}

describe.each(BACKENDS)('id sequences on %s', (backend) => {
  describe('migration 0010 on a database that max(id)+1 built', () => {
    let before: { handle: DatabaseHandle; drop(): Promise<void> };
    beforeAll(async () => {
      before = await databaseBefore0010(backend);
      const { db } = before.handle;
      // What the old code let happen: chosen ids on both sides of 10,000,000, ids max+1 handed
      // out after someone chose 9,999,999, and rows at the very top of the 32-bit range.
      await db.execute(sql`insert into accounts (id, username, email, password_hash, public_url) values
        (5, 'a', 'a@example.com', 'h', 'a'), (10000000, 'b', 'b@example.com', 'h', 'b')`);
      await db.execute(
        sql`insert into categories (id, name) values (1, 'One'), (9999999, 'Two'), (10000000, 'Three'), (10000001, 'Four'), (10000003, 'Five'), (2147483647, 'Top')`,
      );
      await db.execute(sql`insert into videos (id, owner_id, title, duration_seconds, provider_name, provider_video_id) values
        (7, 5, 'v', 60, 'YouTube', 'a'), (2147483647, 5, 'top', 60, 'YouTube', 'b')`);
      await db.execute(sql`insert into channels (id, owner_id, name, url, category_id, created_at) values
        (10000000, 5, 'c', 'c0', 1, now()), (10000001, 5, 'c', 'c1', 1, now()), (10000002, 5, 'c', 'c2', 1, now())`);
      await db.execute(
        sql`insert into schedule_blocks (id, channel_id, start_local) values (10000000, 10000000, '2026-01-01 08:00:00'), (2147483647, 10000000, '2026-01-02 08:00:00')`,
      );
      await db.execute(sql`insert into apps (id, owner_id, platform, app_name, created_at) values (2147483647, 5, 'roku', 'a', now())`);
      // The failure the issue reports: the next id overflows an integer column.
      await expect(db.execute(sql`select (max(id) + 1)::integer from videos`)).rejects.toMatchObject({ cause: { message: expect.stringMatching(/out of range/) } });
      await before.handle.migrate();
    });
    afterAll(() => before.drop());

    it('starts every sequence at the first id from 10,000,000 up that no row holds; creates work again', async () => {
      const { db } = before.handle;
      expect(await assign(db, 'videos')).toEqual([10_000_000]);
      expect(await assign(db, 'channels')).toEqual([10_000_003]);
      expect(await assign(db, 'scheduleBlocks')).toEqual([10_000_001]);
      expect(await assign(db, 'apps')).toEqual([10_000_000]);
      expect(await assign(db, 'languages')).toEqual([10_000_000]);
      // 10,000,003 is held by a row further up: stepped over.
      expect(await assign(db, 'categories', 3)).toEqual([10_000_002, 10_000_004, 10_000_005]);
      expect(await createOwner(db, { username: 'n', email: 'n@example.com', password: 'long enough' }, NOW)).toEqual({ ok: true, id: 10_000_001 });
    });

    it('keeps the rows as they were', async () => {
      const ids = (await before.handle.db.execute(sql`select id from videos order by id`)) as unknown as { rows: { id: number }[] };
      expect(ids.rows.map((r) => r.id)).toEqual([7, 2_147_483_647]);
    });
  });

  describe("the operator's catalog import", () => {
    let database: TestDatabase;
    beforeAll(async () => {
      database = await freshDatabase(backend);
    });
    afterAll(() => database.close());

    const video = (id: number) => ({ id, ownerId: 11, title: 'v', durationSeconds: 60, providerName: 'YouTube', providerVideoId: `p${id}` });

    it('takes any 32-bit id (an export holds assigned ones) and moves the sequence past the ids it wrote', async () => {
      const catalog: any = smallCatalog();
      catalog.videos.push(video(10_000_000), video(10_000_001), video(10_000_002), video(2_147_483_647));
      const result = await importCatalog(database.db, catalog, { replace: false, now: NOW });
      expect(result.ok, JSON.stringify(result)).toBe(true);
      expect(await assign(database.db, 'videos', 2)).toEqual([10_000_003, 10_000_004]);
    });

    it('refuses ids outside 1..2147483647 with an error line at the id, loading nothing', async () => {
      const catalog: any = {
        format: 'channel-network-catalog',
        version: 1,
        categories: [
          { id: 2_147_483_648, name: 'x' },
          { id: 0, name: 'y' },
        ],
      };
      expect(await importCatalog(database.db, catalog, { replace: false, now: NOW })).toEqual({
        ok: false,
        errors: ['categories[0].id: must be at most 2147483647 (ids are 32-bit)', 'categories[1].id: must be an integer > 0'],
      });
    });

    it('never sets a sequence back (a replace with fewer rows keeps it where it was)', async () => {
      const catalog: any = smallCatalog();
      catalog.videos.push(video(10_000_000));
      expect((await importCatalog(database.db, catalog, { replace: true, now: NOW })).ok).toBe(true);
      expect(await assign(database.db, 'videos')).toEqual([10_000_005]);
    });
  });
});
