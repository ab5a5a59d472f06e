// PGlite has no guard against two processes opening one data directory, and two would
// corrupt it. A lock file holding the owner's pid refuses the second process; a lock left
// by a process that no longer exists (kill -9) is taken over at once.
//
// Every step that decides who holds the lock is one atomic file-system call, so two processes
// starting together cannot both win:
// - a free directory is taken by link()ing a complete file into place (fails if one exists, and
//   nobody ever reads a half-written lock);
// - a stale lock is taken over only by the one process that creates its takeover ticket, a file
//   named after that lock file's identity (inode and modification time, read from the same open file
//   as the pid), with O_EXCL; the winner then rename()s its own file over the stale one. The
//   others see the ticket exists, wait for the winner's file, and find its owner alive.
// Tickets and files of interrupted attempts (`channelnet.lock.*`) are removed after a minute.
// Not proper-lockfile: it removes a stale lock and retries, the same race as before, and only
// calls a lock stale after a delay that a busy event loop can also exceed.
import { randomBytes } from 'node:crypto';
import { closeSync, fstatSync, linkSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
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
const TICKET_PREFIX = `${LOCK_NAME}.takeover-`;
const LEFTOVER_PREFIX = `${LOCK_NAME}.`;
/** A takeover winner renames its file into place within microseconds; a loser waits this long at most. */
const WAIT_MS = 2_000;
const WAIT_STEP_MS = 5;
/** Tickets and temporary files older than this belong to attempts long finished (or crashed). */
const TICKET_TTL_MS = 60_000;

/** Lock files this process holds: its own pid in one of them is not a leftover of an earlier run. */
const heldHere = new Set<string>();

/** What a lock file says: its holder (undefined when unreadable) and which file it is. */
interface Seen {
  holder: number | undefined;
  identity: string;
}

export function acquireDataDirLock(dataDir: string): DataDirLock {
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, LOCK_NAME);
  const content = `${process.pid} ${randomBytes(8).toString('hex')}\n`;
  const mine = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(mine, content, { flag: 'wx' });
  try {
    takeLock(dataDir, path, mine);
  } finally {
    rmSync(mine, { force: true });
  }
  removeLeftovers(dataDir);
  heldHere.add(path);
  return lockAt(path, content);
}

function takeLock(dataDir: string, path: string, mine: string): void {
  const deadline = Date.now() + WAIT_MS;
  let lastTicket: string | undefined;
  for (;;) {
    if (Date.now() > deadline) throw new Error(`Could not take the lock ${path}: another process is taking it over; try again`);
    if (tryLink(mine, path)) return;
    const seen = readLock(path);
    if (seen === undefined) continue; // released meanwhile: link again
    const { holder, identity } = seen;
    const live = holder === process.pid ? heldHere.has(path) : holder !== undefined && isAlive(holder);
    if (live) throw new DataDirLockedError(dataDir, holder!);
    // Stale (its process is gone, or it is our own pid left by an earlier run in a container).
    const ticket = join(dataDir, `${TICKET_PREFIX}${identity}`);
    if (ticket !== lastTicket && tryCreate(ticket)) {
      renameSync(mine, path);
      return;
    }
    lastTicket = ticket;
    pause(WAIT_STEP_MS); // another process is taking this stale lock over: its file replaces it shortly
  }
}

function tryLink(from: string, to: string): boolean {
  try {
    linkSync(from, to);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

function tryCreate(path: string): boolean {
  try {
    writeFileSync(path, '', { flag: 'wx' });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

/** The pid and the identity of one and the same file (opened once), or undefined if there is none. */
function readLock(path: string): Seen | undefined {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const stat = fstatSync(fd, { bigint: true });
    const buffer = Buffer.alloc(64);
    const text = buffer.subarray(0, readSync(fd, buffer, 0, buffer.length, 0)).toString('utf8');
    return { holder: parsePid(text), identity: `${stat.ino}-${stat.mtimeNs}` };
  } finally {
    closeSync(fd);
  }
}

function parsePid(text: string): number | undefined {
  const pid = Number.parseInt(text.trim(), 10);
  return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
}

function lockAt(path: string, content: string): DataDirLock {
  let held = true;
  const release = () => {
    if (!held) return;
    held = false;
    heldHere.delete(path);
    if (readText(path) === content) rmSync(path, { force: true });
    process.off('exit', release);
  };
  process.on('exit', release);
  return { path, release };
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

function removeLeftovers(dataDir: string): void {
  const now = Date.now();
  for (const name of readdirSync(dataDir)) {
    if (!name.startsWith(LEFTOVER_PREFIX)) continue;
    const leftover = join(dataDir, name);
    try {
      if (now - statSync(leftover).mtimeMs > TICKET_TTL_MS) rmSync(leftover, { force: true });
    } catch {
      // removed by another process meanwhile
    }
  }
}

/** Blocks the thread briefly: taking the lock happens once, at start, before anything is served. */
function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
