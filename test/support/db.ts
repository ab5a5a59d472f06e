// Fresh, migrated databases for tests, on every backend under test: PGlite always,
// PostgreSQL too when TEST_DATABASE_URL is set (CI sets it).
import { PGlite } from '@electric-sql/pglite';
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import pg from 'pg';
import { openDatabase, type DatabaseHandle, type DatabaseKind } from '../../src/db/connect.ts';
import { observeQuery } from '../../src/observability/metrics.ts';
import { inject } from 'vitest';
import { migratedPgliteDump } from './pglite-template.ts';
import { databaseUrlFor } from './postgres.ts';

export const BACKENDS: DatabaseKind[] = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

let pgliteTemplate: Promise<Blob> | undefined;

/**
 * The migrated data directory every PGlite test database starts from: test/global-setup.ts makes
 * it once per run and names the file; without that set-up (another config) each test file makes
 * its own once, as the migrated template instance did before.
 */
function migratedPgliteData(): Promise<Blob> {
  pgliteTemplate ??= (async () => {
    const file = inject('pgliteTemplate');
    if (file) return new Blob([await readFile(file)]);
    return migratedPgliteDump();
  })();
  return pgliteTemplate;
}

export interface TestDatabase extends DatabaseHandle {
  /** The connection string, for tests that start server processes (PostgreSQL only). */
  readonly url: string | undefined;
}

export async function freshDatabase(kind: DatabaseKind): Promise<TestDatabase> {
  if (kind === 'pglite') {
    // What PGlite's clone() does (dump, then load), with the dump made once.
    const pglite = await PGlite.create({ loadDataDir: await migratedPgliteData() });
    const handle = await openDatabase({ pglite, onQuery: observeQuery });
    return Object.assign(handle, { url: undefined });
  }
  return freshPostgres();
}

async function freshPostgres(): Promise<TestDatabase> {
  const adminUrl = process.env.TEST_DATABASE_URL!;
  const name = `channelnet_test_${randomBytes(6).toString('hex')}`;
  await adminQuery(adminUrl, `create database ${name} template ${inject('templateDatabase')}`);
  const url = databaseUrlFor(adminUrl, name);
  const handle = await openDatabase({ databaseUrl: url, poolSize: 4, onQuery: observeQuery });
  return {
    ...handle,
    url,
    async close() {
      await handle.close();
      await adminQuery(adminUrl, `drop database if exists ${name} with (force)`);
    },
  };
}

async function adminQuery(url: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}
