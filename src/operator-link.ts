// The operator's link to a running server (docs/operations.md: Databases: embedded or PostgreSQL).
// The embedded database allows one process per data directory, and the server holds it for
// its whole life, so `channelnet owner create` cannot open it while the server runs. Instead the
// server writes, next to its data, a file only the data directory's owner can read (mode 0600):
// where it listens and a fresh 256-bit secret. The CLI, finding the directory locked, sends the
// account to the server's operator route with that secret; the server creates it by the same rule
// (src/catalog/owners.ts). Whoever can read the file can read the database files anyway.
//
// Not a lock the CLI waits on: the server never lets go of the directory while it runs.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { OPERATOR_HEADER } from './access/operator.ts';
import type { OwnerInput } from './catalog/owners.ts';

export const OPERATOR_FILE = 'channelnet.operator.json';
export const OPERATOR_PATH = '/api/v1/studio/operator/owners';

export interface OperatorLink {
  pid: number;
  /** The server's base URL as this machine reaches it (loopback when it listens on every interface). */
  url: string;
  secret: string;
}

/** The URL the CLI on this machine calls: a wildcard bind is reached over loopback. */
export function localUrl(address: { address: string; port: number; family: string }): string {
  const host = address.address === '0.0.0.0' ? '127.0.0.1' : address.address === '::' ? '::1' : address.address;
  return `http://${address.family === 'IPv6' || host.includes(':') ? `[${host}]` : host}:${address.port}`;
}

export function writeOperatorLink(dataDir: string, link: OperatorLink): void {
  const file = join(dataDir, OPERATOR_FILE);
  rmSync(file, { force: true }); // a leftover of a killed server, perhaps with wider permissions
  writeFileSync(file, `${JSON.stringify(link)}\n`, { mode: 0o600, flag: 'wx' });
}

/** Removes the file when it is still this server's (not one a later server wrote). */
export function removeOperatorLink(dataDir: string, secret: string): void {
  if (readOperatorLink(dataDir)?.secret === secret) rmSync(join(dataDir, OPERATOR_FILE), { force: true });
}

export function readOperatorLink(dataDir: string): OperatorLink | undefined {
  try {
    const link = JSON.parse(readFileSync(join(dataDir, OPERATOR_FILE), 'utf8')) as Partial<OperatorLink>;
    return typeof link.url === 'string' && typeof link.secret === 'string' && typeof link.pid === 'number' ? (link as OperatorLink) : undefined;
  } catch {
    return undefined;
  }
}

export type RemoteOwnerResult = { ok: true; id: number } | { ok: false; errors: string[] };

/** Creates the owner through the running server; refusals come back in the import's words. */
export async function createOwnerThroughServer(link: OperatorLink, input: OwnerInput): Promise<RemoteOwnerResult> {
  const response = await fetch(`${link.url}${OPERATOR_PATH}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [OPERATOR_HEADER]: link.secret },
    body: JSON.stringify(input),
    signal: AbortSignal.timeout(60_000),
  });
  const body = (await response.json().catch(() => ({}))) as {
    data?: { id: number };
    error?: { message?: string; details?: { path: string; message: string }[] };
  };
  if (response.ok && body.data) return { ok: true, id: body.data.id };
  const details = body.error?.details ?? [];
  return { ok: false, errors: details.length > 0 ? details.map((d) => `${d.path}: ${d.message}`) : [`(server) ${response.status}: ${body.error?.message ?? 'no answer'}`] };
}
