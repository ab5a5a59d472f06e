// Loads the benchmark catalog into a fresh database: PostgreSQL (a database created for the run)
// or a PGlite data directory. Rows come from the importer's own catalogToRows and go in through
// the shared batched inserts, skipping the importer's validation and single transaction, which
// at 200,000 videos would only cost time (run.ts validates the small catalog once instead).
import { getTableName, sql } from 'drizzle-orm';
import pg from 'pg';
import type { Catalog } from '../src/catalog/format.ts';
import { catalogToRows } from '../src/catalog/to-rows.ts';
import { insertRows } from '../src/db/bulk.ts';
import { openDatabase, type Database, type DatabaseHandle } from '../src/db/connect.ts';
import * as t from '../src/db/schema.ts';
import type { PgTable } from 'drizzle-orm/pg-core';

/** The bench's own database (dropped and created by each run); BENCH_DATABASE names another, so runs sharing a server do not drop each other's. */
export const BENCH_DATABASE = /^[a-z_][a-z0-9_]*$/.test(process.env['BENCH_DATABASE'] ?? '') ? process.env['BENCH_DATABASE']! : 'channelnet_bench';
/** Parallel inserts per table on PostgreSQL (PGlite has one connection, so this only queues there). */
const WRITERS = 4;

/** The server URL with the database name replaced (the given URL may name any database or none). */
export function databaseUrl(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

async function admin<T>(serverUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl(serverUrl, 'postgres') });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** One statement on the server's maintenance database (create or drop a bench database). */
export async function adminQuery(serverUrl: string, statement: string): Promise<void> {
  await admin(serverUrl, (client) => client.query(statement));
}

/** Drops a leftover bench database (a crashed run) and creates it empty. */
export async function createBenchDatabase(serverUrl: string): Promise<string> {
  await admin(serverUrl, async (client) => {
    await client.query(`drop database if exists ${BENCH_DATABASE} with (force)`);
    await client.query(`create database ${BENCH_DATABASE}`);
  });
  return databaseUrl(serverUrl, BENCH_DATABASE);
}

export async function dropBenchDatabase(serverUrl: string): Promise<void> {
  await admin(serverUrl, (client) => client.query(`drop database if exists ${BENCH_DATABASE} with (force)`));
}

type Part = [PgTable, object[]];

/**
 * Writes a step's tables with at most WRITERS inserts in flight: more would queue for a pool
 * connection past the driver's 5 s connect timeout. Big tables are cut into parts so that all
 * writers share them; each part still goes in 60,000-parameter statements (insertRows).
 */
async function writeStep(db: Database, tables: Part[]): Promise<void> {
  const parts: Part[] = tables.flatMap(([table, rows]) => {
    const size = Math.max(1, Math.ceil(rows.length / WRITERS));
    return Array.from({ length: Math.ceil(rows.length / size) }, (_, i): Part => [table, rows.slice(i * size, (i + 1) * size)]);
  });
  const writer = async () => {
    for (let part = parts.shift(); part; part = parts.shift()) {
      const [table, rows] = part;
      try {
        await insertRows(db, table, rows as never);
      } catch (error) {
        // Drizzle's message carries every bound parameter (megabytes here); the driver's cause is the news.
        const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : String(error).slice(0, 500);
        throw new Error(`loading ${getTableName(table)} failed: ${cause}`);
      }
    }
  };
  await Promise.all(Array.from({ length: WRITERS }, writer));
}

/** Opens the database, migrates, writes every row parent-first, analyses, closes. Returns row counts. */
export async function loadCatalog(
  options: { databaseUrl?: string; dataDir?: string },
  catalog: Catalog,
  now: Date,
  log: (line: string) => void = () => undefined,
): Promise<number> {
  const handle: DatabaseHandle = await openDatabase({ ...options, poolSize: WRITERS });
  try {
    await handle.migrate();
    const converted = performance.now();
    const r = await catalogToRows(catalog, now);
    log(`  catalogToRows: ${((performance.now() - converted) / 1000).toFixed(1)} s`);
    const db = handle.db;
    // Each step's tables only reference tables of earlier steps.
    const steps: Part[][] = [
      [
        [t.blobs, r.blobs],
        [t.categories, r.categories],
        [t.languages, r.languages],
      ],
      [[t.accounts, r.accounts]],
      [
        [t.brandings, r.brandings],
        [t.authTokens, r.appTokens],
        [t.videos, r.videos],
      ],
      [
        [t.channels, r.channels],
        [t.videoRenditions, r.renditions],
      ],
      [
        [t.channelVideos, r.channelVideos],
        [t.channelVodVideos, r.channelVodVideos],
        [t.channelVastSettings, r.vast],
        [t.channelRokuSettings, r.roku],
        [t.scheduleBlocks, r.blocks],
        [t.liveStreams, r.liveStreams],
        [t.apps, r.apps],
        [t.favorites, r.favorites],
      ],
      [
        [t.scheduleBlockVideos, r.blockVideos],
        [t.appMobileSettings, r.appMobile],
        [t.appImages, r.appImages],
        [t.appStoreProducts, r.storeProducts],
        [t.appStoreCredentials, r.storeCredentials],
        [t.appChannels, r.appChannels],
      ],
      [
        [t.subscriptions, r.subscriptions],
        [t.ppvUnlocks, r.ppvUnlocks],
      ],
    ];
    let total = 0;
    for (const step of steps) {
      const started = performance.now();
      await writeStep(db, step);
      const rows = step.reduce((n, [, part]) => n + part.length, 0);
      total += rows;
      const names = step.filter(([, part]) => part.length > 0).map(([table]) => getTableName(table));
      if (names.length > 0) log(`  ${names.join(', ')}: ${rows.toLocaleString('en-US')} rows in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    }
    // Fresh tables have no statistics until autovacuum gets to them; plan as a live system would.
    await db.execute(sql`analyze`);
    return total;
  } finally {
    await handle.close();
  }
}
