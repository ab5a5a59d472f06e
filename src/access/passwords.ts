// Passwords are stored as scrypt hashes `scrypt:N:r:p:salt:hash` (base64 parts) and
// compared in constant time. The parameters travel with each hash, so they can be
// raised later without invalidating stored ones.
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const DEFAULTS = { N: 16384, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;

function derive(password: string, salt: Buffer, options: ScryptOptions, keyLength: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, keyLength, { ...options, maxmem: 256 * 1024 * 1024 }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, DEFAULTS, KEY_LENGTH);
  return `scrypt:${DEFAULTS.N}:${DEFAULTS.r}:${DEFAULTS.p}:${salt.toString('base64')}:${key.toString('base64')}`;
}

/** A hash nobody's password matches: used when the account does not exist, so that the
 * answer takes as long as for a wrong password. */
let dummyHash: Promise<string> | undefined;
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword(randomBytes(16).toString('hex'));
  return dummyHash;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split(':');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  const salt = Buffer.from(parts[4]!, 'base64');
  const expected = Buffer.from(parts[5]!, 'base64');
  if (!Number.isSafeInteger(N) || expected.length === 0) return false;
  const actual = await derive(password, salt, { N, r, p }, expected.length);
  return timingSafeEqual(actual, expected);
}
