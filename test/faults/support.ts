// Shared by the fault tests (test/faults/*.test.ts): polling, hard kills, one-shot SQL, and a
// TCP proxy that can cut the service off from PostgreSQL without touching the real server
// (other test files share it).
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import pg from 'pg';

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Thrown by a poll's check to stop polling at once (other errors count as "not yet"). */
export class PollAbort extends Error {
  override name = 'PollAbort';
}

/**
 * Polls `check` every `intervalMs` until it returns something other than undefined/false, at
 * most `attempts` times; the failure names `what` and the last value or error seen.
 */
export async function poll<T>(
  what: string,
  check: () => Promise<T | undefined | false>,
  { attempts = 100, intervalMs = 100 }: { attempts?: number; intervalMs?: number } = {},
): Promise<{ value: T; attempts: number }> {
  let last: unknown;
  for (let attempt = 1; attempt <= attempts; attempt++) {
    try {
      const value = await check();
      if (value !== undefined && value !== false) return { value, attempts: attempt };
      last = value;
    } catch (error) {
      if (error instanceof PollAbort) throw error;
      last = error;
    }
    await sleep(intervalMs);
  }
  throw new Error(`${what}: not reached after ${attempts} attempts every ${intervalMs} ms (last: ${String(last)})`);
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** Resolves when the child has exited (at once if it already has). */
export function exited(child: ChildProcess): Promise<Exit> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
}

/** kill -9, then the exit. Safe on a child that has already exited. */
export async function killHard(child: ChildProcess | undefined): Promise<Exit | undefined> {
  if (!child) return undefined;
  const done = exited(child);
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  return done;
}

/** Runs one statement on its own connection. */
export async function sqlOnce<R extends pg.QueryResultRow = Record<string, unknown>>(url: string, text: string, params: unknown[] = []): Promise<R[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<R>(text, params)).rows;
  } finally {
    await client.end();
  }
}

/** Row counts of every table of the public schema, by name. */
export async function tableCounts(client: pg.Client): Promise<Record<string, number>> {
  const tables = await client.query<{ name: string }>(
    `select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`,
  );
  const counts: Record<string, number> = {};
  for (const { name } of tables.rows) {
    counts[name] = Number((await client.query<{ n: string }>(`select count(*) as n from "${name}"`)).rows[0]!.n);
  }
  return counts;
}

export const databaseName = (url: string) => decodeURIComponent(new URL(url).pathname.slice(1));

/** The same connection string, reaching the server through 127.0.0.1:port. */
export function viaPort(url: string, port: number): string {
  const u = new URL(url);
  u.hostname = '127.0.0.1';
  u.port = String(port);
  return u.toString();
}

// ---------------------------------------------------------------- the proxy

export interface TcpProxy {
  readonly port: number;
  /** Connections accepted so far. */
  readonly accepted: number;
  /** Like a stopped PostgreSQL: open connections are closed, new ones refused (ECONNREFUSED). */
  cut(): Promise<void>;
  /** Accepts and forwards again, on the same port. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A port below the kernel's ephemeral range: no outgoing connection is ever given it, so the
 * proxy can stop listening during a cut and take the same port back afterwards.
 */
function candidatePort(): number {
  let low = 32768;
  try {
    low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]) || low;
  } catch {
    // not Linux: keep the usual default
  }
  const from = Math.max(1025, low - 12_000);
  return from + Math.floor(Math.random() * (low - from - 1));
}

function listen(server: net.Server, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error) => reject(error);
    server.once('error', onError);
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => {
      server.off('error', onError);
      resolve();
    });
  });
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const open = new Set<net.Socket>();
  let accepted = 0;
  const handle = (client: net.Socket) => {
    accepted++;
    const upstream = net.connect(target);
    open.add(client).add(upstream);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      open.delete(client);
      open.delete(upstream);
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    client.pipe(upstream);
    upstream.pipe(client);
  };
  let server = net.createServer(handle);
  let port = 0;
  for (let attempt = 0; ; attempt++) {
    try {
      port = candidatePort();
      await listen(server, port);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || attempt >= 20) throw error;
      server = net.createServer(handle);
    }
  }
  let listening = true;
  const stopListening = () =>
    new Promise<void>((resolve) => {
      if (!listening) return resolve();
      listening = false;
      server.close(() => resolve());
      for (const socket of open) socket.destroy();
      open.clear();
    });
  return {
    port,
    get accepted() {
      return accepted;
    },
    cut: stopListening,
    async restore() {
      if (listening) return;
      server = net.createServer(handle);
      await listen(server, port);
      listening = true;
    },
    close: stopListening,
  };
}
