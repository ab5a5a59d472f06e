// One process contending for a data directory's lock, for test/data-dir-lock.test.ts. It says
// `ready`, takes the lock when told `go` (so that several start at the same moment), says
// `won` or `locked <message>`, and holds what it won until its standard input closes.
import { createInterface } from 'node:readline';
import { acquireDataDirLock, DataDirLockedError } from '../../src/db/lock.ts';

const dataDir = process.argv[2]!;
const lines = createInterface({ input: process.stdin });
process.stdout.write('ready\n');
lines.once('line', () => {
  try {
    const lock = acquireDataDirLock(dataDir);
    process.stdout.write('won\n');
    lines.once('close', () => lock.release());
  } catch (error) {
    if (!(error instanceof DataDirLockedError)) throw error;
    process.stdout.write(`locked ${error.message}\n`);
    lines.close();
  }
});
