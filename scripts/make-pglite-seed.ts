// npm run make:pglite-seed: assets/pglite-seed.tgz (and .json) from the installed PGlite's own
// initdb (src/db/pglite-seed.ts says why). Run it after upgrading @electric-sql/pglite: a seed of
// another version is not used (test/pglite-seed.unit.test.ts fails until it is made again).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { installedPgliteVersion, SEED_FILE, SEED_INFO } from '../src/db/pglite-seed.ts';

const dir = await mkdtemp(path.join(os.tmpdir(), 'pglite-seed-'));
try {
  const db = await PGlite.create(dir);
  const tarball = await db.dumpDataDir('gzip');
  await db.close();
  await writeFile(SEED_FILE, Buffer.from(await tarball.arrayBuffer()));
  await writeFile(SEED_INFO, `${JSON.stringify({ pgliteVersion: installedPgliteVersion(), madeBy: 'npm run make:pglite-seed' }, null, 2)}\n`);
  process.stdout.write(`wrote ${SEED_FILE} (${(tarball.size / 1e6).toFixed(1)} MB) for PGlite ${installedPgliteVersion()}\n`);
} finally {
  await rm(dir, { recursive: true, force: true });
}
