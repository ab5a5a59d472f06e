// Real `channelnet` processes for tests of what only several processes can show.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const BIN = fileURLToPath(new URL('../../bin/channelnet.mjs', import.meta.url));

export function childEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const base = { ...process.env };
  delete base.DATABASE_URL;
  return { ...base, LOG_LEVEL: 'warn', ...extra };
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
