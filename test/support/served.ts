// Requests to a listening app from a client in another process, so the CPU this process spends
// is what serving the answer costs (routing, the answer's bytes written to the socket), not the
// client's. Fastify's inject copies every chunk of an answer into this process
// (light-my-request's Buffer.from): for a 58 MB guide that copy was 128 ms of the 140 ms measured.
// The client process is started once (starting one costs this process ~25 ms of CPU).
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const CLIENT = `
import { writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
for await (const line of createInterface({ input: process.stdin })) {
  const { url, headers, file } = JSON.parse(line);
  const response = await fetch(url, { headers });
  writeFileSync(file, Buffer.from(await response.arrayBuffer()));
  process.stdout.write(JSON.stringify({ statusCode: response.status, headers: Object.fromEntries(response.headers) }) + '\\n');
}
`;

export interface Served {
  statusCode: number;
  headers: Record<string, string>;
  /** The body, read from the client's file when asked (outside any CPU measure). */
  text(): string;
  json(): any;
}

export interface OtherProcessClient {
  get(url: string, headers?: Record<string, string>): Promise<Served>;
  close(): void;
}

export function otherProcessClient(): OtherProcessClient {
  const dir = mkdtempSync(join(tmpdir(), 'cn-served-'));
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, ['--input-type=module', '-e', CLIENT], { stdio: ['pipe', 'pipe', 'inherit'] }) as never;
  const waiting: Array<(line: string) => void> = [];
  createInterface({ input: child.stdout }).on('line', (line) => waiting.shift()?.(line));
  let n = 0;
  return {
    async get(url, headers = {}) {
      const file = join(dir, `body-${n++}`);
      const line = await new Promise<string>((resolve) => {
        waiting.push(resolve);
        child.stdin.write(`${JSON.stringify({ url, headers, file })}\n`);
      });
      const { statusCode, headers: answered } = JSON.parse(line) as { statusCode: number; headers: Record<string, string> };
      let body: string | undefined;
      const text = () => {
        if (body === undefined) {
          body = readFileSync(file, 'utf8');
          rmSync(file, { force: true });
        }
        return body;
      };
      return { statusCode, headers: answered, text, json: () => JSON.parse(text()) };
    },
    close() {
      child.kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
