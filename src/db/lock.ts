// PGlite has no guard against two processes opening one data directory, and two would
// corrupt it. A lock file holding the owner's pid refuses the second process; a lock left
// by a process that no longer exists (kill -9) is taken over.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface DataDirLock {
  readonly path: string;
  release(): void;
}

export class DataDirLockedError extends Error {
  constructor(dataDir: string, pid: number) {
    super(
      `The data directory ${dataDir} is in use by process ${pid}. The embedded database allows one ` +
        `process at a time: stop that process first, or set DATABASE_URL to use PostgreSQL for several processes.`,
    );
    this.name = 'DataDirLockedError';
  }
}

const LOCK_NAME = 'channelnet.lock';

export function acquireDataDirLock(dataDir: string): DataDirLock {
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, LOCK_NAME);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(path, String(process.pid), { flag: 'wx' });
      return lockAt(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = readHolder(path);
      if (holder !== undefined && holder !== process.pid && isAlive(holder)) {
        throw new DataDirLockedError(dataDir, holder);
      }
      rmSync(path, { force: true }); // stale: its process is gone
    }
  }
  throw new Error(`Could not take the lock ${path}`);
}

function lockAt(path: string): DataDirLock {
  let held = true;
  const release = () => {
    if (!held) return;
    held = false;
    if (readHolder(path) === process.pid) rmSync(path, { force: true });
    process.off('exit', release);
  };
  process.on('exit', release);
  return { path, release };
}

function readHolder(path: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(path, 'utf8').trim(), 10);
    return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
