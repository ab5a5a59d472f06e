// A migrated PGlite data directory. Creating PGlite from nothing runs initdb and then the
// migrations, about 5 s of CPU; loading a data directory made once takes about 0.7 s.
// Imported by test/global-setup.ts (main process) and test/support/db.ts (test workers).
import { PGlite } from '@electric-sql/pglite';
import { openDatabase } from '../../src/db/connect.ts';

/** Creates PGlite, migrates it and returns its data directory (PGlite's dumpDataDir, a tarball). */
export async function migratedPgliteDump(): Promise<Blob> {
  const template = await PGlite.create();
  const handle = await openDatabase({ pglite: template });
  await handle.migrate();
  const data = await template.dumpDataDir('none');
  await template.close();
  return data;
}
