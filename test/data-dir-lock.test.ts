// The embedded database's lock (src/db/lock.ts): one process per data directory, a stale lock
// taken over at once, and never two winners when several processes start together.
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acquireDataDirLock, DataDirLockedError } from '../src/db/lock.ts';

const CONTENDER = fileURLToPath(new URL('./support/lock-contender.ts', import.meta.url));

/** The pid of a process that has exited: what a lock left by kill -9 holds. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

interface Contender {
  child: ChildProcessWithoutNullStreams;
  /** The next line it prints. */
  line(): Promise<string>;
  exited: Promise<number | null>;
}

function contender(dataDir: string): Contender {
  const child = spawn(process.execPath, ['--import', 'tsx', CONTENDER, dataDir]);
  let buffered = '';
  let stderr = '';
  const waiting: ((line: string) => void)[] = [];
  const ready: string[] = [];
  child.stderr.on('data', (d) => (stderr += d));
  child.stdout.on('data', (d) => {
    buffered += d;
    for (let at = buffered.indexOf('\n'); at >= 0; at = buffered.indexOf('\n')) {
      const line = buffered.slice(0, at);
      buffered = buffered.slice(at + 1);
      const next = waiting.shift();
      if (next) next(line);
      else ready.push(line);
    }
  });
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  const line = () =>
    ready.length > 0
      ? Promise.resolve(ready.shift()!)
      : Promise.race([new Promise<string>((resolve) => waiting.push(resolve)), exited.then((code) => `exited ${code}: ${stderr}`)]);
  return { child, line, exited };
}

describe('the embedded database lock', () => {
  let dir: string;
  let run = 0;
  const freshDir = () => join(dir, `data-${run++}`);
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'channelnet-lock-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('lets exactly one of two processes starting together take over a stale lock, every time', async () => {
    const dead = deadPid();
    for (let attempt = 0; attempt < 20; attempt++) {
      const dataDir = freshDir();
      acquireDataDirLock(dataDir).release(); // creates the directory; then a stale lock:
      writeFileSync(join(dataDir, 'channelnet.lock'), attempt % 2 === 0 ? `${dead}\n` : `${dead} 0123456789abcdef\n`);
      const both = [contender(dataDir), contender(dataDir)];
      expect(await Promise.all(both.map((c) => c.line()))).toEqual(['ready', 'ready']);
      for (const c of both) c.child.stdin.write('go\n');
      const results = await Promise.all(both.map((c) => c.line()));
      const winners = results.filter((r) => r === 'won');
      expect(
        results.filter((r) => r !== 'won').every((r) => /^locked .* in use by process \d+/.test(r)),
        results.join('\n'),
      ).toBe(true);
      expect(winners, `attempt ${attempt}: ${results.join(' | ')}`).toHaveLength(1);
      const winner = both[results.indexOf('won')]!;
      expect(readFileSync(join(dataDir, 'channelnet.lock'), 'utf8')).toMatch(new RegExp(`^${winner.child.pid}\\b`));
      for (const c of both) c.child.stdin.end();
      expect(await Promise.all(both.map((c) => c.exited))).toEqual([0, 0]);
      expect(existsSync(join(dataDir, 'channelnet.lock'))).toBe(false); // released on exit
    }
  }, 120_000);

  it('refuses a second taker while the holder lives, naming it', () => {
    const dataDir = freshDir();
    acquireDataDirLock(dataDir).release();
    writeFileSync(join(dataDir, 'channelnet.lock'), `${process.ppid}\n`); // a live process that is not this one
    expect(() => acquireDataDirLock(dataDir)).toThrow(DataDirLockedError);
    expect(() => acquireDataDirLock(dataDir)).toThrow(`in use by process ${process.ppid}`);
  });

  it('refuses a second open in this process, and takes over its own pid left by an earlier run', () => {
    const dataDir = freshDir();
    const lock = acquireDataDirLock(dataDir);
    expect(() => acquireDataDirLock(dataDir)).toThrow(`in use by process ${process.pid}`);
    lock.release();
    // A container restarted with the same pid finds its own pid in the lock it left.
    writeFileSync(join(dataDir, 'channelnet.lock'), `${process.pid}\n`);
    acquireDataDirLock(dataDir).release();
  });

  it('takes over a lock left by a killed process, and releases only its own', () => {
    const dataDir = freshDir();
    const path = join(dataDir, 'channelnet.lock');
    acquireDataDirLock(dataDir).release();
    writeFileSync(path, `${deadPid()}\n`);
    const lock = acquireDataDirLock(dataDir);
    expect(readFileSync(path, 'utf8')).toMatch(new RegExp(`^${process.pid} [0-9a-f]+\n$`));
    lock.release();
    expect(existsSync(path)).toBe(false);
    // Released twice, or after another took it: the other's lock stays.
    const again = acquireDataDirLock(dataDir);
    writeFileSync(path, `${process.ppid}\n`);
    again.release();
    expect(readFileSync(path, 'utf8')).toBe(`${process.ppid}\n`);
  });

  it('removes takeover tickets and temporary files once they are old', () => {
    const dataDir = freshDir();
    acquireDataDirLock(dataDir).release();
    const path = join(dataDir, 'channelnet.lock');
    writeFileSync(path, `${deadPid()}\n`);
    acquireDataDirLock(dataDir).release();
    const leftovers = () => readdirSync(dataDir).filter((name) => name.startsWith('channelnet.lock.'));
    expect(leftovers()).toHaveLength(1); // the ticket of that takeover
    const old = new Date(Date.now() - 120_000);
    writeFileSync(`${path}.1234.abcd.tmp`, '1234\n');
    for (const name of leftovers()) utimesSync(join(dataDir, name), old, old);
    acquireDataDirLock(dataDir).release();
    expect(leftovers()).toEqual([]);
  });
});
