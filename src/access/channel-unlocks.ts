// Private channels: a channel with a password is private, and its streams are withheld until
// the device or the viewer unlocks it with the password (getChannelToken). Unlocks do not
// expire. Wrong passwords are counted per channel and client address in the login throttle
// table, so guessing a channel password is as slow as guessing an account's.
import type { Queryable } from '../db/connect.ts';
import { findChannel } from '../data/channel-settings.ts';
import { ownedChannel } from '../data/channels.ts';
import { insertChannelUnlocks, unlockedChannelIds } from '../data/channel-unlocks.ts';
import type { CallerIds } from '../data/holders.ts';
import { blockedUntil, clearFailures, recordFailure, type FailurePolicy } from '../data/login-throttles.ts';
import { BUSY_RETRY_AFTER_SECONDS, checkPassword } from './passwords.ts';

export const CHANNEL_PASSWORD_FAILURES: FailurePolicy = { maxFailures: 10, windowMs: 15 * 60_000, blockMs: 15 * 60_000 };

export interface UnlockAttempt {
  channelId: number;
  password: string;
  /** Client address, the throttle key. */
  address: string;
  /** Who unlocks: the device, the viewer, or both. */
  caller: CallerIds;
  now: Date;
}

export type UnlockResult =
  { ok: true } | { ok: false; reason: 'channel_not_found' | 'not_private' | 'wrong_password' } | { ok: false; reason: 'too_many_attempts'; retryAfterSeconds: number };

export async function unlockChannel(db: Queryable, attempt: UnlockAttempt): Promise<UnlockResult> {
  const ref = await findChannel(db, attempt.channelId);
  const channel = ref && (await ownedChannel(db, ref.ownerId, ref.id));
  if (!channel) return { ok: false, reason: 'channel_not_found' };
  if (channel.passwordHash === null) return { ok: false, reason: 'not_private' };
  const key = `channel:${channel.id}:address:${attempt.address}`;
  const until = await blockedUntil(db, [key]);
  if (until && until.getTime() > attempt.now.getTime()) {
    return { ok: false, reason: 'too_many_attempts', retryAfterSeconds: Math.ceil((until.getTime() - attempt.now.getTime()) / 1000) };
  }
  const check = await checkPassword(attempt.password, channel.passwordHash, attempt.address);
  // The scrypt queue is bounded as for logins: refused at once, not counted as a wrong password.
  if (check === 'busy') return { ok: false, reason: 'too_many_attempts', retryAfterSeconds: BUSY_RETRY_AFTER_SECONDS };
  if (check === 'mismatch') {
    await recordFailure(db, key, attempt.now, CHANNEL_PASSWORD_FAILURES);
    return { ok: false, reason: 'wrong_password' };
  }
  await clearFailures(db, key);
  await insertChannelUnlocks(db, channel.id, attempt.caller, attempt.now);
  return { ok: true };
}

/** The channels among these whose streams the caller may get: public ones and unlocked private ones. */
export async function playableChannels(db: Queryable, channels: readonly { id: number; passwordHash: string | null }[], caller: CallerIds): Promise<Set<number>> {
  const locked = channels.filter((c) => c.passwordHash !== null).map((c) => c.id);
  const unlocked = await unlockedChannelIds(db, locked, caller);
  return new Set(channels.filter((c) => c.passwordHash === null || unlocked.has(c.id)).map((c) => c.id));
}
