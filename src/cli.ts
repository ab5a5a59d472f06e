// The `channelnet` command: serve, migrate, import, export, demo, config.
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { createOwner, type OwnerInput } from './catalog/owners.ts';
import { exportCatalog, writeExportFile } from './catalog/export.ts';
import { allowStoredOrigins } from './catalog/fields.ts';
import { importCatalog, importCatalogText, type ImportResult } from './catalog/import.ts';
import { systemClock } from './clock.ts';
import { StoreNotifications } from './entitlements/notifications/service.ts';
import { ConfigError, describeConfig, loadConfig, type Config } from './config.ts';
import type { DatabaseHandle } from './db/connect.ts';
import { DataDirLockedError } from './db/lock.ts';
import { DEMO_LOGINS, demoCatalog } from './demo/catalog.ts';
import { isClusterWorker, servePrimary } from './cluster.ts';
import { openConfiguredDatabase, prepareDatabase, serveForever } from './server.ts';
import { createOwnerThroughServer, readOperatorLink } from './operator-link.ts';

const USAGE = `Usage: channelnet <command>

  serve [--workers N]        run the service (migrates first; loads the demo catalog into an empty database);
                             --workers N runs N processes on one port (PostgreSQL only)
  migrate                    apply database migrations and exit
  prepare                    migrate, and load the demo catalog into an empty database (serve runs it in a
                             short-lived process when the embedded data directory is new); prints {"demoLoaded":...}
  import FILE [--replace]    load a catalog file (merge by id; --replace empties the catalog first)
  export [--out FILE]        write the catalog to FILE or standard output
  demo [--out FILE]          load the demo catalog (dated from today), or write it to FILE
  config                     print the effective configuration, secrets masked
  stores reconcile [--since ISO-INSTANT]
                             read Apple's notification history and Google's voided purchases since
                             the last run (or --since) into the notification inbox, and apply them
  owner create --username U --email E (--password-stdin | --password P)
               [--public-url SLUG] [--full-name NAME] [--id N (1-9999999)]
                             create an owner account that signs in to the Studio API
                             (--password-stdin reads one line: a password on the command line shows in ps)

Configuration comes from environment variables; see docs/operations.md.`;

class UsageError extends Error {}

async function withDatabase<T>(config: Config, work: (database: DatabaseHandle) => Promise<T>): Promise<T> {
  allowStoredOrigins(config.MEDIA_FETCH_ALLOW_ORIGINS); // an import's URLs as the server's
  const database = await openConfiguredDatabase(config);
  try {
    await database.migrate();
    return await work(database);
  } finally {
    await database.close();
  }
}

function report(result: ImportResult, what: string): number {
  if (!result.ok) {
    process.stderr.write(`${what} failed; nothing was loaded:\n${result.errors.map((e) => `  ${e}`).join('\n')}\n`);
    return 1;
  }
  const counts = Object.entries(result.counts)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
  process.stdout.write(`${what} done: ${counts}\n`);
  return 0;
}

async function run(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      replace: { type: 'boolean', default: false },
      out: { type: 'string' },
      workers: { type: 'string' },
      username: { type: 'string' },
      email: { type: 'string' },
      password: { type: 'string' },
      'password-stdin': { type: 'boolean', default: false },
      'public-url': { type: 'string' },
      'full-name': { type: 'string' },
      id: { type: 'string' },
      since: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [command, ...rest] = positionals;
  if (values.help || command === undefined || command === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return command === undefined && !values.help ? 2 : 0;
  }
  const config = loadConfig();
  switch (command) {
    case 'serve': {
      const workers = values.workers === undefined ? 1 : Number(values.workers);
      if (!Number.isInteger(workers) || workers < 1 || workers > 64) throw new UsageError('--workers takes a whole number from 1 to 64');
      if (workers > 1 && !isClusterWorker()) await servePrimary(config, workers);
      else await serveForever(config);
      return -1; // keeps running
    }
    case 'prepare': {
      const demoLoaded = await withDatabase(config, (d) => prepareDatabase(config, d));
      process.stdout.write(`${JSON.stringify({ demoLoaded })}\n`);
      return 0;
    }
    case 'migrate':
      await withDatabase(config, async () => undefined);
      process.stdout.write('migrations applied\n');
      return 0;
    case 'import': {
      const file = rest[0];
      if (!file) throw new UsageError('import needs a FILE');
      const text = await readFile(file, 'utf8');
      const now = systemClock();
      return withDatabase(config, async (d) => report(await importCatalogText(d.db, text, { replace: values.replace, now }), `import of ${file}`));
    }
    case 'export': {
      const catalog = await withDatabase(config, (d) => exportCatalog(d.db));
      const text = `${JSON.stringify(catalog, null, 2)}\n`;
      if (values.out) await writeExportFile(values.out, text);
      else process.stdout.write(text);
      return 0;
    }
    case 'demo': {
      const now = systemClock();
      if (values.out) {
        await writeExportFile(values.out, `${JSON.stringify(demoCatalog(now), null, 2)}\n`);
        return 0;
      }
      const code = await withDatabase(config, async (d) => report(await importCatalog(d.db, demoCatalog(now), { replace: false, now }), 'demo import'));
      if (code === 0) for (const l of DEMO_LOGINS) process.stdout.write(`  ${l.role} ${l.username} / ${l.email} / ${l.password}\n`);
      return code;
    }
    case 'owner': {
      if (rest[0] !== 'create') throw new UsageError('owner takes the subcommand create');
      const input = await ownerInput(values);
      const now = systemClock();
      const result = await createOwnerAnyway(config, input, now);
      if (!result.ok) {
        process.stderr.write(`owner create failed; nothing was created:\n${result.errors.map((e) => `  ${e}`).join('\n')}\n`);
        return 1;
      }
      process.stdout.write(`owner created: id ${result.id}, username ${input.username}\n`);
      return 0;
    }
    case 'stores': {
      if (rest[0] !== 'reconcile') throw new UsageError('stores takes the subcommand reconcile');
      const since = values.since === undefined ? undefined : new Date(values.since);
      if (since && Number.isNaN(since.getTime())) throw new UsageError('--since takes an ISO 8601 instant, e.g. 2026-11-01T00:00:00Z');
      const lines = await withDatabase(config, (d) => reconcileStores(d, config, since));
      for (const l of lines) process.stdout.write(`app ${l.appId} ${l.store}: ${l.read} read, ${l.added} new${l.error ? `; not read: ${l.error}` : ''}\n`);
      return lines.some((l) => l.error) ? 1 : 0;
    }
    case 'config':
      process.stdout.write(`${JSON.stringify(describeConfig(config), null, 2)}\n`);
      return 0;
    default:
      throw new UsageError(`unknown command "${command}"`);
  }
}

/**
 * Creates the owner in the database, or, when a running server holds the embedded data directory,
 * through that server's operator route (src/operator-link.ts; docs/operations.md).
 */
async function createOwnerAnyway(config: Config, input: OwnerInput, now: Date) {
  try {
    return await withDatabase(config, (d) => createOwner(d.db, input, now));
  } catch (error) {
    const link = error instanceof DataDirLockedError ? readOperatorLink(config.DATA_DIR) : undefined;
    if (!link) throw error;
    process.stderr.write(`the server (process ${link.pid}) holds ${config.DATA_DIR}: creating the owner through it\n`);
    return createOwnerThroughServer(link, input);
  }
}

/** The CLI's own notification service: no HTTP, its log to standard error. */
async function reconcileStores(database: DatabaseHandle, config: Config, since: Date | undefined) {
  const log = {
    info: () => undefined,
    warn: (details: object, message: string) => process.stderr.write(`${message} ${JSON.stringify(details)}\n`),
    error: (details: object, message: string) => process.stderr.write(`${message} ${String((details as { err?: unknown }).err ?? '')}\n`),
  };
  const service = new StoreNotifications(database.db, config, systemClock, log);
  return service.reconcile(systemClock(), since);
}

interface OwnerFlags {
  username?: string;
  email?: string;
  password?: string;
  'password-stdin'?: boolean;
  'public-url'?: string;
  'full-name'?: string;
  id?: string;
}

async function ownerInput(flags: OwnerFlags): Promise<OwnerInput> {
  if (!flags.username || !flags.email) throw new UsageError('owner create needs --username and --email');
  if (flags.password !== undefined && flags['password-stdin']) throw new UsageError('give --password or --password-stdin, not both');
  let password = flags.password;
  if (password === undefined) {
    if (!flags['password-stdin']) throw new UsageError('owner create needs --password-stdin (or --password)');
    if (process.stdin.isTTY) throw new UsageError('--password-stdin reads a piped line, e.g. printf %s "$PASSWORD" | channelnet owner create ...');
    password = (await readStdin()).split(/\r?\n/)[0] ?? '';
  }
  const id = flags.id === undefined ? undefined : Number(flags.id);
  if (id !== undefined && !Number.isSafeInteger(id)) throw new UsageError('--id takes a whole number');
  return {
    username: flags.username,
    email: flags.email,
    password,
    ...(flags['public-url'] === undefined ? {} : { publicUrl: flags['public-url'] }),
    ...(flags['full-name'] === undefined ? {} : { fullName: flags['full-name'] }),
    ...(id === undefined ? {} : { id }),
  };
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

try {
  const code = await run(process.argv.slice(2));
  if (code >= 0) process.exitCode = code;
} catch (error) {
  if (error instanceof UsageError) process.stderr.write(`channelnet: ${error.message}\n\n${USAGE}\n`);
  else if (error instanceof ConfigError || error instanceof DataDirLockedError) process.stderr.write(`channelnet: ${error.message}\n`);
  else process.stderr.write(`channelnet: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = error instanceof UsageError ? 2 : 1;
}
