// Real `channelnet` processes for tests of what only several processes can show.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const BIN = fileURLToPath(new URL('../../bin/channelnet.mjs', import.meta.url));

/**
 * The environment of a `channelnet` process a test starts. Load shedding is off unless a test sets
 * MAX_EVENT_LOOP_DELAY_MS: a process starting beside the rest of the suite lags its event loop
 * past the 1 s default and answers 503 to whatever comes first (a demo server's first /readyz in
 * CI; database-outage's sign-in with a CPU hog beside the suite, session 21), which the test
 * would read as its own subject's answer.
 */
export function childEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const base = { ...process.env };
  delete base.DATABASE_URL;
  return { ...base, LOG_LEVEL: 'warn', MAX_EVENT_LOOP_DELAY_MS: '0', ...extra };
}

export interface CommandRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `channelnet ...args` to its end; `stdin`, when given, is written to it and closed. */
export function runChannelnet(args: string[], extra: Record<string, string>, stdin?: string): Promise<CommandRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: childEnv(extra) });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    if (stdin !== undefined) child.stdin.end(stdin);
  });
}

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  output(): string;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
}

/** Starts `channelnet serve ...args` (or another entry point's) and resolves once it prints its URL. */
export function startServerProcess(extra: Record<string, string>, args: string[] = [], entry = BIN): Promise<ServerProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [entry, 'serve', ...args], { env: childEnv({ PORT: '0', HOST: '127.0.0.1', ...extra }) });
    let output = '';
    const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
    const onData = (d: Buffer) => {
      output += d;
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) {
        child.stdout.off('data', onData);
        child.stdout.on('data', (more) => (output += more));
        resolve({
          child,
          url: match[1]!,
          output: () => output,
          stop: () => {
            child.kill('SIGTERM');
            return exited;
          },
        });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (d) => (output += d));
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}:\n${output}`)));
  });
}
