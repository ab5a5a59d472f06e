// Passwords are stored as scrypt hashes `scrypt:N:r:p:salt:hash` (base64 parts) and
// compared in constant time. The parameters travel with each hash, so they can be
// raised without invalidating stored ones: a hash verifies with its own N, r and p, and
// `needsRehash` tells a caller that a successful login may store a stronger one.
//
// New hashes use N=2^17, r=8, p=1 (OWASP's scrypt minimum): 128 MiB and most of a second of
// one core each. How many run and wait at once is password-slots.ts's: a caller's check is
// refused at once ('busy') rather than queued without bound. Tests lower the cost of new hashes
// with CHANNELNET_TEST_SCRYPT_COST (log2 N).
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { releaseSlot, takeSlot } from './password-slots.ts';

export { passwordChecksInProgress } from './password-slots.ts';

export interface ScryptParams {
  N: number;
  r: number;
  p: number;
}

export const DEFAULT_PARAMS: Readonly<ScryptParams> = { N: 2 ** 17, r: 8, p: 1 };
const KEY_LENGTH = 32;
/** A stored hash asking for more than this is refused, not computed (it may come from a catalog file). */
const MAX_MEMORY = 256 * 1024 * 1024;
const MAX_WORK = 2 * DEFAULT_PARAMS.N * DEFAULT_PARAMS.r * DEFAULT_PARAMS.p;

/** What new hashes use: the default, or the lower cost a test run sets. */
export const HASH_PARAMS: Readonly<ScryptParams> = paramsFromEnv(process.env.CHANNELNET_TEST_SCRYPT_COST);

function paramsFromEnv(cost: string | undefined): ScryptParams {
  if (cost === undefined || cost === '') return { ...DEFAULT_PARAMS };
  const log2N = Number(cost);
  if (!Number.isInteger(log2N) || log2N < 4 || log2N > 17) {
    throw new Error(`CHANNELNET_TEST_SCRYPT_COST must be an integer from 4 to 17 (log2 of scrypt's N), not ${JSON.stringify(cost)}`);
  }
  return { ...DEFAULT_PARAMS, N: 2 ** log2N };
}

/** Memory scrypt needs (OpenSSL's check: 128·r·(N + p + 2) bytes), so maxmem fits each call. */
function memoryOf({ N, r, p }: ScryptParams): number {
  return 128 * r * (N + p + 2);
}

function withinLimits(params: ScryptParams): boolean {
  const { N, r, p } = params;
  const integers = [N, r, p].every((n) => Number.isSafeInteger(n) && n >= 1);
  return integers && N >= 2 && (N & (N - 1)) === 0 && memoryOf(params) <= MAX_MEMORY && N * r * p <= MAX_WORK;
}

/** The computation itself; tests replace it to hold checks in flight and see their order. */
export type Hasher = (password: string, salt: Buffer, keyLength: number, params: ScryptParams) => Promise<Buffer>;

const scryptHasher: Hasher = (password, salt, keyLength, params) =>
  new Promise((resolve, reject) => {
    scrypt(password, salt, keyLength, { ...params, maxmem: memoryOf(params) + 1024 * 1024 }, (error, key) => (error ? reject(error) : resolve(key)));
  });
let hasher: Hasher = scryptHasher;

/** Tests only: computes with `replacement` (undefined: scrypt again). */
export function replaceHasherForTests(replacement: Hasher | undefined): void {
  hasher = replacement ?? scryptHasher;
}

/** The key, once a slot is free; undefined when `from`'s check is refused (password-slots.ts). */
async function derive(password: string, salt: Buffer, params: ScryptParams, keyLength: number, from?: string): Promise<Buffer | undefined> {
  if (!(await takeSlot(from))) return undefined;
  try {
    return await hasher(password.normalize('NFC'), salt, keyLength, params);
  } finally {
    releaseSlot(from);
  }
}

export async function hashPassword(password: string, params: ScryptParams = HASH_PARAMS): Promise<string> {
  const salt = randomBytes(16);
  const key = (await derive(password, salt, params, KEY_LENGTH))!;
  return `scrypt:${params.N}:${params.r}:${params.p}:${salt.toString('base64')}:${key.toString('base64')}`;
}

/** A hash nobody's password matches: used when the account does not exist, so that the
 * answer takes as long as for a wrong password. */
let dummyHash: Promise<string> | undefined;
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword(randomBytes(16).toString('hex'));
  return dummyHash;
}

function parseHash(stored: string): { params: ScryptParams; salt: Buffer; expected: Buffer } | undefined {
  const parts = stored.split(':');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return undefined;
  const [N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  const expected = Buffer.from(parts[5]!, 'base64');
  if (!withinLimits({ N, r, p }) || expected.length === 0) return undefined;
  return { params: { N, r, p }, salt: Buffer.from(parts[4]!, 'base64'), expected };
}

/** False for a wrong password, and for a malformed hash or one whose cost is beyond bounds. Waits for its turn however long. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  return (await checkPassword(password, stored)) === 'match';
}

export type PasswordCheck = 'match' | 'mismatch' | 'busy';

/**
 * A caller's password check: 'busy' (nothing computed) when too many checks wait, or too many
 * of `from`'s network; the caller answers 429 with a short Retry-After. No `from`: waits its turn.
 */
export async function checkPassword(password: string, stored: string, from?: string): Promise<PasswordCheck> {
  const parsed = parseHash(stored);
  if (!parsed) return 'mismatch';
  const actual = await derive(password, parsed.salt, parsed.params, parsed.expected.length, from);
  if (!actual) return 'busy';
  return timingSafeEqual(actual, parsed.expected) ? 'match' : 'mismatch';
}

/** Seconds a caller refused as 'busy' is told to wait: the queue drains in about that. */
export const BUSY_RETRY_AFTER_SECONDS = 2;

/** True when `stored` is weaker than what new hashes use: rehash the password after a successful login. */
export function needsRehash(stored: string): boolean {
  const parsed = parseHash(stored);
  if (!parsed) return true;
  const { N, r, p } = parsed.params;
  return N < HASH_PARAMS.N || r < HASH_PARAMS.r || p < HASH_PARAMS.p || parsed.expected.length < KEY_LENGTH;
}
