// Raw bytes on a real socket: what inject cannot send. A request line with unencoded bytes
// (non-ASCII, invalid UTF-8, spaces, control characters) or a header value with obs-text reaches
// Node's HTTP parser as sent; whatever it refuses or lets through must still be answered in the
// envelope of the group the path names, never with a 5xx, and without a write when refused.
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { connect } from 'node:net';
import { TEST_NOW } from '../support/app.ts';
import { answerProblems, groupOf } from './envelopes.ts';
import { changedTables, type FuzzWorld } from './world.ts';

export interface RawAnswer {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
}

/** Sends the bytes and reads the answer until the server closes the connection. */
export function exchange(port: number, bytes: Buffer): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(bytes));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const split = text.indexOf('\r\n\r\n');
      const [statusLine = '', ...lines] = text.slice(0, split < 0 ? text.length : split).split('\r\n');
      const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
      resolve({ statusCode: Number(statusLine.split(' ')[1]), headers, body: split < 0 ? '' : text.slice(split + 4) });
    });
  });
}

const PREFIXES = [
  '/api/v1/rest/channels/',
  '/api/v1/rest/',
  '/api/v1/services/custom/users/',
  '/api/v1/services/custom/users/11/channels?search=',
  '/api/v1/activity/',
  '/api/v1/services/custom/activity?x=',
  '/WebServices/VastService.asmx/GetVastSettings?channelId=',
  '/WebServices/',
  '/elsewhere/',
];

/** Bytes a conforming client would have percent-encoded: UTF-8 and not, spaces, controls, DEL. */
const rawBytes = fc.oneof(
  fc.constantFrom([0xc3, 0xa9], [0xff, 0xfe], [0xed, 0xa0, 0x80], [0x20], [0x09], [0x00], [0x7f], [0x01], [0x22, 0x3c, 0x3e], [0x5c]),
  fc.uint8Array({ minLength: 1, maxLength: 6 }).map((bytes) => [...bytes]),
);

export const rawRequest = fc.record({
  method: fc.constantFrom('GET', 'POST'),
  prefix: fc.constantFrom(...PREFIXES),
  bytes: rawBytes,
  suffix: fc.constantFrom('', '/settings', 'x'),
  headerBytes: fc.option(rawBytes, { nil: undefined }),
});

export type RawRequest = typeof rawRequest extends fc.Arbitrary<infer T> ? T : never;

/** Starts listening (once) and answers the port. */
export async function listening(world: FuzzWorld): Promise<number> {
  if (!world.t.app.server.listening) await world.t.app.listen({ port: 0, host: '127.0.0.1' });
  return (world.t.app.server.address() as { port: number }).port;
}

/** One raw run: throws, describing it, when a property fails. */
export async function checkRawRequest(world: FuzzWorld, port: number, { method, prefix, bytes, suffix, headerBytes }: RawRequest): Promise<void> {
  const target = Buffer.concat([Buffer.from(prefix), Buffer.from(bytes), Buffer.from(suffix)]);
  const header = headerBytes === undefined ? Buffer.alloc(0) : Buffer.concat([Buffer.from('Timezone: '), Buffer.from(headerBytes), Buffer.from('\r\n')]);
  const request = Buffer.concat([
    Buffer.from(`${method} `),
    target,
    Buffer.from(` HTTP/1.1\r\nHost: localhost\r\nX-Test-Now: ${TEST_NOW}\r\nConnection: close\r\n`),
    header,
    Buffer.from('Content-Length: 0\r\n\r\n'),
  ]);
  const before = await world.snapshot();
  const answer = await exchange(port, request);
  const problems = answerProblems(groupOf(prefix.split('?')[0]!), method, target.toString('latin1'), answer as unknown as LightMyRequestResponse);
  if (answer.statusCode >= 400) {
    const changed = changedTables(before, await world.snapshot());
    if (changed.length > 0) problems.push(`rejected request changed ${changed.join(', ')}`);
  }
  if (problems.length > 0) {
    throw new Error(
      `${problems.join('; ')}\n  request: ${JSON.stringify(request.toString('latin1'))}\n  answer: ${answer.statusCode} ${answer.headers['content-type']} ${JSON.stringify(answer.body.slice(0, 300))}`,
    );
  }
}
