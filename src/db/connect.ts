// The one place that knows which driver is in use. Everything above it sees a
// `Database` typed against PgDatabase, so queries are the same on PGlite and PostgreSQL.
import { PGlite } from '@electric-sql/pglite';
import { isNewDataDir, seedFor } from './pglite-seed.ts';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { acquireDataDirLock, type DataDirLock } from './lock.ts';
import * as schema from './schema.ts';

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;
export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];
/** A database or an open transaction: what data-layer functions accept. */
export type Queryable = Database | Transaction;

export type DatabaseKind = 'pglite' | 'postgres';

export interface PoolStats {
  size: number;
  total: number;
  idle: number;
  waiting: number;
}

export interface ListenHandlers {
  /** A NOTIFY's payload; none when anything may have changed (listening began or began again). */
  onChange(payload?: string): void;
  onLost(): void;
}

/** Told the duration of every query made outside a transaction (for metrics). */
export type QueryObserver = (seconds: number, ok: boolean) => void;

export interface DatabaseHandle {
  readonly db: Database;
  readonly kind: DatabaseKind;
  /** Applies the committed drizzle-kit migrations; safe to call from several processes. */
  migrate(): Promise<void>;
  /** Throws when the database does not answer. */
  ping(): Promise<void>;
  /** Connection pool use (PostgreSQL); undefined for the single-connection embedded database. */
  poolStats(): PoolStats | undefined;
  /**
   * Calls `onChange` with the payload of every NOTIFY on `channel` (from any process) and
   * `onLost` whenever delivery may have been interrupted (the listening connection dropped), so
   * a cache can stop trusting itself until `onChange` is called again, without a payload, after
   * reconnection.
   */
  listen(channel: string, handlers: ListenHandlers): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

export const MIGRATIONS_FOLDER = fileURLToPath(new URL('../../drizzle', import.meta.url));
const drizzleOptions = { schema, casing: 'snake_case' } as const;
/** Arbitrary constant: serialises migrations of several processes on one PostgreSQL. */
const MIGRATION_LOCK_KEY = 727_274_001;

export interface OpenOptions {
  /** PostgreSQL connection string; when absent the embedded PGlite database is used. */
  databaseUrl?: string | undefined;
  /** PGlite data directory; `memory://` for a throwaway database. */
  dataDir?: string | undefined;
  /** An already open PGlite instance (tests clone a migrated one). */
  pglite?: PGlite | undefined;
  poolSize?: number | undefined;
  onQuery?: QueryObserver | undefined;
}

function timed<A extends unknown[], R>(run: (...args: A) => Promise<R>, observe: QueryObserver | undefined) {
  if (!observe) return run;
  return async (...args: A): Promise<R> => {
    const started = performance.now();
    try {
      const result = await run(...args);
      observe((performance.now() - started) / 1000, true);
      return result;
    } catch (error) {
      observe((performance.now() - started) / 1000, false);
      throw error;
    }
  };
}

export async function openDatabase(options: OpenOptions): Promise<DatabaseHandle> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options.poolSize ?? 10, options.onQuery);
  return openPglite(options);
}

/**
 * No JIT compilation on our connections (pg-pool's onConnect runs before a new client is handed
 * out): our statements are short, and on a large table the planner's estimate passes
 * jit_above_cost, so PostgreSQL compiled for a second what runs in milliseconds (a 366-day trends
 * read of 10,000,000 sessions: 1,020 ms of JIT for a 60 ms execution). A server that refuses the
 * setting keeps its own (docs/operations.md).
 */
const withoutJit = (client: pg.ClientBase) =>
  client.query('set jit = off').then(
    () => undefined,
    () => undefined,
  );

async function openPostgres(url: string, poolSize: number, onQuery?: QueryObserver): Promise<DatabaseHandle> {
  // A server that does not answer must not hang start-up or requests forever.
  // pg-pool awaits onConnect's promise before handing the client out (its types say void).
  // eslint-disable-next-line @typescript-eslint/no-misused-promises
  const pool = new pg.Pool({ connectionString: url, max: poolSize, connectionTimeoutMillis: 5_000, onConnect: withoutJit });
  pool.query = timed(pool.query.bind(pool) as (...args: unknown[]) => Promise<unknown>, onQuery) as typeof pool.query;
  // An idle client that loses its server must not crash the process; the next query reports it.
  pool.on('error', () => undefined);
  // Nor a client checked out for a transaction: Drizzle puts no 'error' listener on it, and pg
  // emits one when the connection drops. Its query fails instead and the pool drops it on release.
  pool.on('connect', (client) => client.on('error', () => undefined));
  const db = drizzlePg({ client: pool, ...drizzleOptions }) as unknown as Database;
  return {
    db,
    kind: 'postgres',
    async migrate() {
      const client = await pool.connect();
      try {
        await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
        await migratePg(drizzlePg({ client, ...drizzleOptions }), { migrationsFolder: MIGRATIONS_FOLDER });
      } finally {
        await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
        client.release();
      }
    },
    ping: () => db.execute(sql`select 1`).then(() => undefined),
    poolStats: () => ({ size: poolSize, total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    listen: (channel, handlers) => listenPostgres(url, channel, handlers),
    close: () => pool.end(),
  };
}

async function openPglite(options: OpenOptions): Promise<DatabaseHandle> {
  const dataDir = options.dataDir ?? './data';
  const inMemory = options.pglite !== undefined || dataDir.startsWith('memory://');
  const lock: DataDirLock | undefined = inMemory ? undefined : acquireDataDirLock(dataDir);
  let client: PGlite;
  try {
    // A new directory starts from the shipped seed where there is one (pglite-seed.ts: initdb's memory).
    const seed = !inMemory && isNewDataDir(dataDir) ? seedFor() : undefined;
    client = options.pglite ?? (await PGlite.create(dataDir, seed ? { loadDataDir: seed } : {}));
  } catch (error) {
    lock?.release();
    throw error;
  }
  client.query = timed(client.query.bind(client), options.onQuery) as typeof client.query;
  const db = drizzlePglite({ client, ...drizzleOptions }) as unknown as Database;
  return {
    db,
    kind: 'pglite',
    migrate: () => migratePglite(drizzlePglite({ client, ...drizzleOptions }), { migrationsFolder: MIGRATIONS_FOLDER }),
    ping: () => db.execute(sql`select 1`).then(() => undefined),
    poolStats: () => undefined,
    async listen(channel, handlers) {
      // One process owns an embedded database, so every NOTIFY comes from this process.
      const unlisten = await client.listen(channel, (payload) => handlers.onChange(payload));
      handlers.onChange(); // listening from now on: the cache may start trusting itself
      return () => (client.closed ? Promise.resolve() : unlisten());
    },
    async close() {
      try {
        if (!client.closed) await client.close();
      } finally {
        lock?.release();
      }
    },
  };
}

/**
 * A dedicated connection (LISTEN does not mix with a pool) that reconnects by itself.
 * While it is down the listener is told `onLost`, and `onChange` once it is back.
 */
async function listenPostgres(url: string, channel: string, handlers: ListenHandlers): Promise<() => Promise<void>> {
  let stopped = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
    next.on('notification', (message) => {
      if (message.channel === channel) handlers.onChange(message.payload ?? '');
    });
    next.on('error', () => lost());
    next.on('end', () => lost());
    try {
      await next.connect();
      await next.query(`listen "${channel.replace(/"/g, '""')}"`);
      client = next;
      handlers.onChange(); // anything may have changed while not listening
    } catch {
      await next.end().catch(() => undefined);
      lost();
    }
  };
  const lost = () => {
    if (stopped) return;
    client = undefined;
    handlers.onLost();
    retry ??= setTimeout(() => {
      retry = undefined;
      void connect();
    }, 1_000);
    retry.unref();
  };
  handlers.onLost();
  await connect();
  return async () => {
    stopped = true;
    if (retry) clearTimeout(retry);
    await client?.end().catch(() => undefined);
  };
}
