// Password login shared by both APIs: a login that succeeds issues the session token (each API's
// lifetime), so a login route calls this one rule. Failed attempts are counted in the database (so every
// instance enforces one limit) under three keys: the login name with the client address, the
// client address, and the login name alone with a much higher ceiling. A victim's account so stays
// usable from their own address while an attacker's address is blocked, and guessing from many
// addresses is still capped. The name is counted whether or not an account has it, and an unknown
// name costs the same scrypt, so no answer (status, body, Retry-After, timing) tells which exist.
// The scrypt queue is bounded (password-slots.ts): a check that would wait too long is refused at
// once as too_many_attempts with a short Retry-After.
import { createHash } from 'node:crypto';
import type { Queryable } from '../db/connect.ts';
import { findAccountByLogin } from '../data/accounts.ts';
import { blockedUntil, clearFailures, pruneThrottles, recordFailure, type FailurePolicy } from '../data/login-throttles.ts';
import { BUSY_RETRY_AFTER_SECONDS, checkPassword, dummyPasswordHash } from './passwords.ts';
import { issueToken, type TokenLifetime } from './tokens.ts';

const WINDOW_MS = 15 * 60_000;
/** One login name from one address. */
export const NAME_AT_ADDRESS_FAILURES: FailurePolicy = { maxFailures: 5, windowMs: WINDOW_MS, blockMs: WINDOW_MS };
/** One address, whatever names it tries. */
export const ADDRESS_FAILURES: FailurePolicy = { maxFailures: 50, windowMs: WINDOW_MS, blockMs: WINDOW_MS };
/** One login name from anywhere: only a spread-out attack (20 addresses or more) reaches it. */
export const NAME_FAILURES: FailurePolicy = { maxFailures: 100, windowMs: WINDOW_MS, blockMs: WINDOW_MS };

/** Each failure adds up to three rows and removes up to this many spent ones (channel-password rows too: their window is also 15 minutes). */
const PRUNE_PER_FAILURE = 10;

export type LoginResult =
  | { ok: true; account: NonNullable<Awaited<ReturnType<typeof findAccountByLogin>>>; token: string }
  | { ok: false; reason: 'invalid_credentials' | 'account_locked' | 'account_not_activated' }
  | { ok: false; reason: 'too_many_attempts'; retryAfterSeconds: number };

export interface LoginAttempt {
  login: string;
  password: string;
  address: string;
  now: Date;
  /** The session token's lifetime: each group's own (REST sliding, Custom fixed). */
  lifetime: TokenLifetime;
}

interface ThrottleKeys {
  nameAtAddress: string;
  address: string;
  name: string;
}

/**
 * The counter keys of an attempt. The name is hashed (it may hold anything, NUL included) after
 * the same case folding as the account lookup; a username and its email count apart, which at
 * most doubles the attempts per window.
 */
export function throttleKeys(login: string, address: string): ThrottleKeys {
  const name = createHash('sha256').update(login.toLowerCase()).digest('hex');
  return { nameAtAddress: `login:${name}:address:${address}`, address: `address:${address}`, name: `login:${name}` };
}

export async function login(db: Queryable, attempt: LoginAttempt): Promise<LoginResult> {
  const keys = throttleKeys(attempt.login, attempt.address);
  const account = await findAccountByLogin(db, attempt.login);
  const until = await blockedUntil(db, [keys.nameAtAddress, keys.address, keys.name]);
  if (until && until.getTime() > attempt.now.getTime()) {
    return { ok: false, reason: 'too_many_attempts', retryAfterSeconds: Math.ceil((until.getTime() - attempt.now.getTime()) / 1000) };
  }
  const check = await checkPassword(attempt.password, account?.passwordHash ?? (await dummyPasswordHash()), attempt.address);
  // Too many checks waiting (or this address's): refused before any scrypt, and not a failure.
  if (check === 'busy') return { ok: false, reason: 'too_many_attempts', retryAfterSeconds: BUSY_RETRY_AFTER_SECONDS };
  if (!account || check === 'mismatch') {
    await recordFailure(db, keys.nameAtAddress, attempt.now, NAME_AT_ADDRESS_FAILURES);
    await recordFailure(db, keys.address, attempt.now, ADDRESS_FAILURES);
    await recordFailure(db, keys.name, attempt.now, NAME_FAILURES);
    await pruneThrottles(db, attempt.now, new Date(attempt.now.getTime() - WINDOW_MS), PRUNE_PER_FAILURE);
    return { ok: false, reason: 'invalid_credentials' };
  }
  // Only this address's count for the name starts over: the name's ceiling counts everyone's
  // failures, and the owner logging in says nothing about the others.
  await clearFailures(db, keys.nameAtAddress);
  if (account.status === 'locked') return { ok: false, reason: 'account_locked' };
  if (account.status === 'not_activated') return { ok: false, reason: 'account_not_activated' };
  return { ok: true, account, token: await issueToken(db, account.id, attempt.lifetime, attempt.now) };
}
