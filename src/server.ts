// `channelnet serve` / `npm start`: migrate, load the demo catalog into an empty database,
// listen, and on SIGTERM or SIGINT drain in-flight requests before closing the database.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { importCatalog, isCatalogEmpty } from './catalog/import.ts';
import { systemClock } from './clock.ts';
import type { Config } from './config.ts';
import { openDatabase, type DatabaseHandle } from './db/connect.ts';
import { isNewDataDir } from './db/pglite-seed.ts';
import { demoCatalog } from './demo/catalog.ts';
import { announcement } from './announcement.ts';
import { buildApp } from './app.ts';
import { observeQuery } from './observability/metrics.ts';
import { newOperatorSecret } from './access/operator.ts';
import { localUrl, removeOperatorLink, writeOperatorLink } from './operator-link.ts';

const run = promisify(execFile);

export interface RunningServer {
  app: FastifyInstance;
  database: DatabaseHandle;
  url: string;
  stop(): Promise<void>;
}

export async function openConfiguredDatabase(config: Config): Promise<DatabaseHandle> {
  return openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR, poolSize: config.DB_POOL_SIZE, onQuery: observeQuery });
}

/** Migrations, then the demo catalog when asked and the database is empty. True when loaded. */
export async function prepareDatabase(config: Config, database: DatabaseHandle): Promise<boolean> {
  await database.migrate();
  return config.DEMO_ON_EMPTY && (await loadDemoIfEmpty(database));
}

/**
 * A new embedded data directory is made, migrated and loaded in a short-lived process
 * (`channelnet prepare`): PGlite's WebAssembly memory only grows, so a first start that did it
 * here would keep the bulk load's peak for the server's life (docs/operations.md: Databases: embedded or PostgreSQL).
 * Answers whether the demo was loaded; undefined when there was nothing to prepare apart.
 */
async function prepareApart(config: Config): Promise<boolean | undefined> {
  if (config.DATABASE_URL || config.DATA_DIR.startsWith('memory://') || !isNewDataDir(config.DATA_DIR)) return undefined;
  const script = process.argv[1];
  if (!script) return undefined;
  const { stdout } = await run(process.execPath, [...process.execArgv, script, 'prepare'], { env: process.env, maxBuffer: 1024 * 1024 });
  const line = stdout.trim().split('\n').at(-1) ?? '';
  return (JSON.parse(line) as { demoLoaded: boolean }).demoLoaded;
}

export async function startServer(config: Config): Promise<RunningServer> {
  const preparedApart = await prepareApart(config);
  const database = await openConfiguredDatabase(config);
  try {
    const demoLoaded = (await prepareDatabase(config, database)) || preparedApart === true;
    // An embedded data directory on disk is this process's alone: the operator's CLI reaches it through us.
    const operatorSecret = database.kind === 'pglite' && !config.DATA_DIR.startsWith('memory://') ? newOperatorSecret() : undefined;
    const app = await buildApp({ database, config, ...(operatorSecret ? { operatorSecret } : {}) });
    // Connections past the cap are closed as they arrive: each open one costs a socket and memory.
    if (config.MAX_CONNECTIONS > 0) app.server.maxConnections = config.MAX_CONNECTIONS;
    const address = await app.listen({ port: config.PORT, host: config.HOST });
    const url = address.replace('0.0.0.0', 'localhost').replace('[::]', 'localhost');
    const bound = app.server.address();
    if (operatorSecret && bound && typeof bound === 'object') writeOperatorLink(config.DATA_DIR, { pid: process.pid, url: localUrl(bound), secret: operatorSecret });
    announce(app, url, config.HOST, database, demoLoaded);
    let stopping: Promise<void> | undefined;
    const stop = () => {
      if (operatorSecret) removeOperatorLink(config.DATA_DIR, operatorSecret);
      return (stopping ??= app.close().finally(() => database.close()));
    };
    return { app, database, url, stop };
  } catch (error) {
    await database.close().catch(() => undefined);
    throw error;
  }
}

async function loadDemoIfEmpty(database: DatabaseHandle): Promise<boolean> {
  if (!(await isCatalogEmpty(database.db))) return false;
  const now = systemClock();
  const result = await importCatalog(database.db, demoCatalog(now), { replace: false, now });
  if (!result.ok) throw new Error(`The bundled demo catalog is invalid:\n${result.errors.join('\n')}`);
  return true;
}

function announce(app: FastifyInstance, url: string, host: string, database: DatabaseHandle, demoLoaded: boolean): void {
  // Plain text on stdout for the person who ran `npm start`; the structured log goes on too.
  process.stdout.write(`${announcement(url, host, database.kind, demoLoaded).join('\n')}\n`);
  app.log.info({ url, database: database.kind, demoLoaded }, 'listening');
}

/** Runs until SIGTERM/SIGINT; a second signal, or the grace period running out, exits at once. */
export async function serveForever(config: Config): Promise<void> {
  const server = await startServer(config);
  const shutdown = (signal: string) => {
    server.app.log.info({ signal }, 'shutting down: draining in-flight requests');
    const timer = setTimeout(() => {
      server.app.log.error('shutdown grace period over; exiting');
      process.exit(1);
    }, config.SHUTDOWN_GRACE_MS);
    timer.unref();
    server.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        server.app.log.error({ err: error }, 'error while shutting down');
        process.exit(1);
      },
    );
    process.once(signal as NodeJS.Signals, () => process.exit(1));
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
}
