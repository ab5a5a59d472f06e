// One fuzz run: send the request, then check the three properties of issue 9 item 4 —
// (a) no 5xx (legacy: a 500 only as the plain-text ASMX page), (b) the group's envelope,
// (c) a rejected request (status >= 400) changed nothing in the database.
import type { LightMyRequestResponse } from 'fastify';
import { authorizationHeader, type AuthChoice, type FuzzRequest } from './arbitraries.ts';
import { answerProblems, groupOf, type Group } from './envelopes.ts';
import { changedTables, TOKEN_ACCOUNTS, type FuzzWorld, type Snapshot } from './world.ts';
import { scaledBound } from '../support/cpu-bounds.ts';

async function authorization(world: FuzzWorld, auth: AuthChoice): Promise<string | undefined> {
  switch (auth.kind) {
    case 'none':
      return undefined;
    case 'login':
      return authorizationHeader(world.loginTokens[auth.index % world.loginTokens.length]!, auth.form);
    case 'fresh':
      return authorizationHeader(await world.freshToken(TOKEN_ACCOUNTS[auth.accountIndex % TOKEN_ACCOUNTS.length]!), auth.form);
    case 'revoked':
      return authorizationHeader(world.revokedToken, auth.form);
    case 'garbage':
      return auth.value;
  }
}

const preview = (text: string, max = 300) => (text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text);

function describeRun(request: FuzzRequest, headers: Record<string, string>, response: LightMyRequestResponse | undefined, group: Group, problems: string[]): string {
  const payload = request.body.payload;
  const body =
    payload === undefined
      ? '(none)'
      : Buffer.isBuffer(payload)
        ? `<Buffer ${payload.subarray(0, 80).toString('hex')}> (${payload.length} bytes)`
        : JSON.stringify(preview(payload));
  return [
    `${problems.length} problem(s) in group ${group}: ${problems.join('; ')}`,
    `request: ${request.method} ${preview(request.url)}`,
    `headers: ${preview(JSON.stringify(headers), 600)}`,
    `body: ${body}`,
    response ? `answer: ${response.statusCode} ${String(response.headers['content-type'])} ${JSON.stringify(preview(response.body))}` : 'answer: (none)',
  ].join('\n  ');
}

/** What a request sent, as text: answers may echo it (e.g. a 404 naming the path), which is no leak. */
function sentText(request: FuzzRequest, headers: Record<string, string>): string {
  const payload = request.body.payload;
  const body = payload === undefined ? '' : Buffer.isBuffer(payload) ? payload.toString('utf8') : payload;
  let decoded = request.url;
  try {
    decoded = decodeURIComponent(request.url.replace(/\+/g, ' '));
  } catch {
    // Not decodable as a whole; the raw URL is still part of what was sent.
  }
  return [request.url, decoded, body, ...Object.values(headers)].join('\n');
}

/** BODY_LIMIT_LEGACY's default: a larger body is a client fault that ASMX answered with its catch-all page. */
const LEGACY_BODY_LIMIT = 64 * 1024;

/**
 * The legacy catch-all 500 page ("Server was unable to process request.") is by design for a
 * body over the limit; for anything else it is an unexpected error hidden behind ASMX's text.
 */
function hidesServerError(request: FuzzRequest, response: LightMyRequestResponse): boolean {
  const size = request.body.payload === undefined ? 0 : Buffer.byteLength(request.body.payload);
  return response.statusCode === 500 && response.body.startsWith('Server was unable to process request.') && size <= LEGACY_BODY_LIMIT;
}

/** The path as the server saw it (light-my-request normalises the URL like a client would). */
function servedPath(response: LightMyRequestResponse, url: string): string {
  const seen = (response.raw.req as { url?: string }).url ?? url;
  return seen.split('?')[0]!;
}

/**
 * No single request may take more than this much of the process's CPU (issue 12): the channels/video
 * freeze took 117 s. A bound on work (CPU time, not wall time, so a busy machine does not move it);
 * PGlite runs in this process, so its share of the work counts too.
 */
export const REQUEST_CPU_BUDGET_MS = 1000;

/** CPU milliseconds (user + system) the process spends in `work`. */
export async function cpuOf<T>(work: () => Promise<T>): Promise<{ result: T; cpuMs: number }> {
  const before = process.cpuUsage();
  const result = await work();
  const used = process.cpuUsage(before);
  return { result, cpuMs: (used.user + used.system) / 1000 };
}

/** FUZZ_STATS=1: counts of answers per group and status, printed after each property (is the fuzzer getting past validation?). */
export const answerStats = new Map<string, number>();
const COUNT_STATS = process.env.FUZZ_STATS === '1';

const timing = { snapshotMs: 0, requestMs: 0, snapshots: 0 };
async function timed<T>(key: 'snapshotMs' | 'requestMs', work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await work();
  } finally {
    timing[key] += performance.now() - started;
    if (key === 'snapshotMs') timing.snapshots++;
  }
}

export function printStats(title: string): void {
  if (!COUNT_STATS) return;
  console.log(`${title}: ${timing.snapshots} snapshots ${Math.round(timing.snapshotMs)} ms, requests ${Math.round(timing.requestMs)} ms`);
  Object.assign(timing, { snapshotMs: 0, requestMs: 0, snapshots: 0 });
  const lines = [...answerStats.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([key, n]) => `  ${key}: ${n}`);
  console.log(`${title}\n${lines.join('\n')}`);
  answerStats.clear();
}

/**
 * The database as it was after the last rejected request of each world: still current when
 * nothing has been accepted since (accepted requests and fresh tokens may write), which saves a
 * snapshot per run in a row of rejected ones.
 */
const lastSnapshot = new WeakMap<FuzzWorld, Snapshot>();

/** Runs one request against the world and throws, describing the run, when a property fails. */
export async function checkRequest(world: FuzzWorld, request: FuzzRequest): Promise<void> {
  const headers: Record<string, string> = { ...request.headers };
  if (request.auth.kind === 'fresh') lastSnapshot.delete(world);
  const auth = await authorization(world, request.auth);
  if (auth !== undefined) headers['authorization'] = auth;
  if (request.body.contentType !== undefined) headers['content-type'] = request.body.contentType;

  const before = lastSnapshot.get(world) ?? (await timed('snapshotMs', () => world.snapshot()));
  lastSnapshot.delete(world);
  let response: LightMyRequestResponse;
  let cpuMs: number;
  try {
    ({ result: response, cpuMs } = await cpuOf(() =>
      timed('requestMs', () =>
        world.t.request({
          method: request.method,
          url: request.url,
          headers,
          ...(request.body.payload === undefined ? {} : { payload: request.body.payload }),
        }),
      ),
    ));
  } catch (error) {
    throw new Error(describeRun(request, headers, undefined, groupOf(request.url.split('?')[0]!), [`inject threw ${String(error)}`]));
  }
  const group = groupOf(servedPath(response, request.url));
  if (COUNT_STATS) {
    const route = servedPath(response, request.url).replace(/\/\d+/g, '/:n').slice(0, 70);
    const key = `${group} ${response.statusCode} ${request.method} ${route}`;
    answerStats.set(key, (answerStats.get(key) ?? 0) + 1);
  }
  const problems = answerProblems(group, request.method, sentText(request, headers), response, headers['if-none-match']);
  const budget = scaledBound(REQUEST_CPU_BUDGET_MS);
  if (cpuMs > budget) problems.push(`took ${Math.round(cpuMs)} ms of CPU (budget ${REQUEST_CPU_BUDGET_MS} ms scaled to this machine: ${Math.round(budget)} ms)`);
  if (group === 'legacy' && hidesServerError(request, response))
    problems.push('legacy answered its catch-all "Server was unable to process request." page to a body within the limit');
  if (response.statusCode >= 400) {
    const after = await timed('snapshotMs', () => world.snapshot());
    const changed = changedTables(before, after);
    if (changed.length > 0) problems.push(`rejected request (${response.statusCode}) changed ${changed.join(', ')}`);
    else lastSnapshot.set(world, after);
  }
  if (problems.length > 0) throw new Error(describeRun(request, headers, response, group, problems));
}
