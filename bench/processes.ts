// Child processes of the benchmark: the service (`channelnet serve`) and the hello-world
// baseline. Real processes, not in-process apps, so the load generator does not share their
// event loop and RSS is the server's own.
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../bin/channelnet.mjs', import.meta.url));
const BASELINE = fileURLToPath(new URL('./baseline.ts', import.meta.url));
const SAME_BYTES = fileURLToPath(new URL('./same-bytes.ts', import.meta.url));
const START_TIMEOUT_MS = 120_000;

export interface Child {
  name: string;
  process: ChildProcess;
  pid: number;
  url: string;
  /** Stops with SIGTERM (the service drains), SIGKILL if it lingers. */
  stop(): Promise<void>;
}

/** Spawns and waits for the "listening on <url>" line; stderr, then stdout, go to `logFile` for post-mortems. */
function launch(name: string, args: string[], env: NodeJS.ProcessEnv, logFile: string): Promise<Child> {
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const log = createWriteStream(logFile, { flags: 'a' });
  child.stderr!.pipe(log);
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`${name} did not start within ${START_TIMEOUT_MS / 1000} s (log: ${logFile})`)), START_TIMEOUT_MS);
    const onExit = (code: number | null) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited with ${code} before listening (log: ${logFile}):\n${output}`));
    };
    child.once('exit', onExit);
    child.stdout!.on('data', (data: Buffer) => {
      output += data;
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (!match) return;
      clearTimeout(timer);
      child.off('exit', onExit);
      child.stdout!.removeAllListeners('data');
      // From here on stdout goes to the log too (warnings at LOG_LEVEL=warn, and what Node flags
      // such as --trace-gc print: the live heap after each full collection, for memory work).
      child.stdout!.pipe(log);
      resolve({ name, process: child, pid: child.pid!, url: match[1]!, stop: () => stop(child) });
    });
  });
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

export interface ServiceOptions {
  databaseUrl?: string;
  dataDir?: string;
  /** Keep the deployed load shedding (503 under pressure); off measures the routes' capacity. */
  shed: boolean;
  /** Keep the rate limiter on (limits raised so none is reached) to measure what it costs. */
  rateLimits?: boolean;
  logFile: string;
}

export function startService(options: ServiceOptions): Promise<Child> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    DEMO_ON_EMPTY: 'false',
    LOG_LEVEL: 'warn',
    LOG_REQUESTS: 'false',
    // One client address sends everything here: per-address limits would measure 429s.
    RATE_LIMIT_ENABLED: 'false',
  };
  delete env.DATABASE_URL;
  delete env.DATA_DIR;
  if (options.databaseUrl) env.DATABASE_URL = options.databaseUrl;
  if (options.dataDir) env.DATA_DIR = options.dataDir;
  if (!options.shed) Object.assign(env, { MAX_DB_POOL_WAITING: '0', MAX_EVENT_LOOP_DELAY_MS: '0' });
  if (options.rateLimits) {
    const never = '1000000000';
    Object.assign(env, { RATE_LIMIT_ENABLED: 'true', RATE_LIMIT_MAX: never, RATE_LIMIT_LOGIN_MAX: never, RATE_LIMIT_ACTIVITY_MAX: never, RATE_LIMIT_ACTIVITY_ADDRESS_MAX: never });
  }
  // BENCH_SERVICE_NODE_ARGS (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof"): the service's own Node flags, to profile it under a scenario.
  const nodeArgs = (process.env.BENCH_SERVICE_NODE_ARGS ?? '').split(' ').filter(Boolean);
  return launch('service', [...nodeArgs, BIN, 'serve'], env, options.logFile);
}

export function startBaseline(logFile: string): Promise<Child> {
  return launch('baseline', ['--import', 'tsx', BASELINE], { ...process.env, PORT: '0', HOST: '127.0.0.1' }, logFile);
}

/** The network scenario's same-bytes server (see same-bytes.ts). */
export function startSameBytes(logFile: string): Promise<Child> {
  return launch('same-bytes', ['--import', 'tsx', SAME_BYTES], { ...process.env, PORT: '0', HOST: '127.0.0.1' }, logFile);
}

/** Resident set size of a process in MB (Linux), or undefined where /proc is not there. */
export async function rssMb(pid: number): Promise<number | undefined> {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const kb = /^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1];
    return kb === undefined ? undefined : Number(kb) / 1024;
  } catch {
    return undefined;
  }
}

async function cpuTimes(): Promise<{ busy: number; total: number } | undefined> {
  const line = (await readFile('/proc/stat', 'utf8').catch(() => '')).split('\n')[0] ?? '';
  const fields = line.trim().split(/\s+/).slice(1).map(Number);
  if (fields.length < 4) return undefined;
  const total = fields.reduce((a, b) => a + b, 0);
  const idle = fields[3]! + (fields[4] ?? 0); // idle + iowait
  return { busy: total - idle, total };
}

/**
 * Share of the machine's CPU busy while the benchmark itself is idle (Linux), over `ms`:
 * other processes on a shared machine take cycles from the server and the load generator.
 */
export async function foreignCpuShare(ms = 2000): Promise<number | undefined> {
  const before = await cpuTimes();
  await new Promise((resolve) => setTimeout(resolve, ms));
  const after = await cpuTimes();
  if (!before || !after || after.total === before.total) return undefined;
  return (after.busy - before.busy) / (after.total - before.total);
}

const CLOCK_TICKS = 100; // USER_HZ on Linux

/** User + system CPU seconds of a process so far (Linux), or 0 when it is gone. */
async function cpuSecondsOf(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  // The command name may contain spaces; the fields after its closing parenthesis are fixed.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11] ?? 0) + Number(fields[12] ?? 0)) / CLOCK_TICKS;
}

/** PostgreSQL backends serving `database` on this machine: their title is "postgres: user database ...". */
async function backendPids(database: string): Promise<number[]> {
  const pids = (await readdir('/proc').catch(() => [] as string[])).filter((name) => /^\d+$/.test(name)).map(Number);
  const titles = await Promise.all(pids.map((pid) => readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')));
  return pids.filter((_, i) => titles[i]!.startsWith('postgres: ') && titles[i]!.split(' ').includes(database));
}

/**
 * CPU seconds used by the service process and by the database's backends: per request, this is
 * what a route costs, whatever else runs on the machine. Backends that exit between two samples
 * are not counted (the pool keeps its connections while it is busy).
 */
export async function cpuSample(servicePid: number, database: string | undefined): Promise<{ service: number; db: Map<number, number> }> {
  const pids = database ? await backendPids(database) : [];
  const db = new Map(await Promise.all(pids.map(async (pid) => [pid, await cpuSecondsOf(pid)] as const)));
  return { service: await cpuSecondsOf(servicePid), db };
}

export function cpuUsed(before: Awaited<ReturnType<typeof cpuSample>>, after: Awaited<ReturnType<typeof cpuSample>>): { service: number; db: number } {
  let db = 0;
  for (const [pid, seconds] of after.db) db += seconds - (before.db.get(pid) ?? 0);
  return { service: after.service - before.service, db };
}

/**
 * Waits until the process uses under a tenth of a core over half a second (at most `timeout`
 * seconds): a route that overloaded the service leaves a backlog of queued requests behind,
 * and the next route must not pay for it. Returns the seconds waited.
 */
export async function waitIdle(pid: number, timeout = 30): Promise<number> {
  const started = performance.now();
  for (;;) {
    const before = await cpuSecondsOf(pid);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const used = (await cpuSecondsOf(pid)) - before;
    const waited = (performance.now() - started) / 1000;
    if (used < 0.05 || waited > timeout) return waited - 0.5;
  }
}
