// Password login shared by both APIs. Failed attempts are counted per account and per client
// address in the database; past the limit, attempts are refused without checking the password
// until the block ends. An unknown login still costs one scrypt, so timing does not tell.
import type { Queryable } from '../db/connect.ts';
import { findAccountByLogin } from '../data/accounts.ts';
import { blockedUntil, clearFailures, recordFailure, type FailurePolicy } from '../data/login-throttles.ts';
import { dummyPasswordHash, verifyPassword } from './passwords.ts';

export const ACCOUNT_FAILURES: FailurePolicy = { maxFailures: 5, windowMs: 15 * 60_000, blockMs: 15 * 60_000 };
export const ADDRESS_FAILURES: FailurePolicy = { maxFailures: 50, windowMs: 15 * 60_000, blockMs: 15 * 60_000 };

export type LoginResult =
  | { ok: true; account: NonNullable<Awaited<ReturnType<typeof findAccountByLogin>>> }
  | { ok: false; reason: 'invalid_credentials' | 'account_locked' | 'account_not_activated' }
  | { ok: false; reason: 'too_many_attempts'; retryAfterSeconds: number };

export interface LoginAttempt {
  login: string;
  password: string;
  address: string;
  now: Date;
}

export async function login(db: Queryable, attempt: LoginAttempt): Promise<LoginResult> {
  const account = await findAccountByLogin(db, attempt.login);
  const keys = [`address:${attempt.address}`, ...(account ? [`account:${account.id}`] : [])];
  const until = await blockedUntil(db, keys);
  if (until && until.getTime() > attempt.now.getTime()) {
    return { ok: false, reason: 'too_many_attempts', retryAfterSeconds: Math.ceil((until.getTime() - attempt.now.getTime()) / 1000) };
  }
  const valid = await verifyPassword(attempt.password, account?.passwordHash ?? (await dummyPasswordHash()));
  if (!account || !valid) {
    await recordFailure(db, keys[0]!, attempt.now, ADDRESS_FAILURES);
    if (account) await recordFailure(db, keys[1]!, attempt.now, ACCOUNT_FAILURES);
    return { ok: false, reason: 'invalid_credentials' };
  }
  await clearFailures(db, `account:${account.id}`);
  if (account.status === 'locked') return { ok: false, reason: 'account_locked' };
  if (account.status === 'not_activated') return { ok: false, reason: 'account_not_activated' };
  return { ok: true, account };
}
