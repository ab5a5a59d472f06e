// A new embedded data directory from the shipped seed (assets/pglite-seed.tgz, made by
// `npm run make:pglite-seed` from the installed PGlite) instead of PGlite's initdb: initdb runs a
// second WebAssembly PostgreSQL beside the first, and a process that ran it keeps ~900 MB resident
// (measured: `PGlite.create` of a new directory peaks at 911 MB; loading the seed at 415 MB;
// opening an existing directory at 160 MB). The seed is the bare cluster initdb makes, before any
// migration; it is used only when it was made by the PGlite installed (else initdb, as before).
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const SEED_FILE = fileURLToPath(new URL('../../assets/pglite-seed.tgz', import.meta.url));
export const SEED_INFO = fileURLToPath(new URL('../../assets/pglite-seed.json', import.meta.url));

/** The installed PGlite's version (its package.json, beside its entry point). */
export function installedPgliteVersion(): string {
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  let dir = path.dirname(entry);
  while (!existsSync(path.join(dir, 'package.json'))) dir = path.dirname(dir);
  return (JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version: string }).version;
}

/** Whether `dataDir` holds no cluster yet (PostgreSQL writes PG_VERSION first). */
export const isNewDataDir = (dataDir: string) => !existsSync(path.join(dataDir, 'PG_VERSION'));

/** The seed as PGlite's `loadDataDir` takes it, or undefined when there is none for this PGlite. */
export function seedFor(version = installedPgliteVersion()): Blob | undefined {
  if (!existsSync(SEED_FILE) || !existsSync(SEED_INFO)) return undefined;
  const info = JSON.parse(readFileSync(SEED_INFO, 'utf8')) as { pgliteVersion?: string };
  return info.pgliteVersion === version ? new Blob([readFileSync(SEED_FILE)]) : undefined;
}
