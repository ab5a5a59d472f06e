// Rows of channel_unlocks: a private channel unlocked for a device or for a viewer account.
import { and, inArray } from 'drizzle-orm';
import type { Queryable } from '../db/connect.ts';
import { channelUnlocks } from '../db/schema.ts';
import { heldBy, type CallerIds } from './holders.ts';

/** One row per caller (device row, viewer row); unlocking twice keeps the first time. */
export async function insertChannelUnlocks(db: Queryable, channelId: number, caller: CallerIds, now: Date): Promise<void> {
  const rows = [
    ...(caller.deviceId === null ? [] : [{ channelId, deviceId: caller.deviceId, viewerId: null, unlockedAt: now }]),
    ...(caller.viewerId === null ? [] : [{ channelId, deviceId: null, viewerId: caller.viewerId, unlockedAt: now }]),
  ];
  if (rows.length > 0) await db.insert(channelUnlocks).values(rows).onConflictDoNothing();
}

/** The channels among `channelIds` that the device or the viewer has unlocked. */
export async function unlockedChannelIds(db: Queryable, channelIds: readonly number[], caller: CallerIds): Promise<Set<number>> {
  const byHolder = heldBy(channelUnlocks.deviceId, channelUnlocks.viewerId, caller);
  if (channelIds.length === 0 || byHolder === undefined) return new Set();
  const rows = await db
    .selectDistinct({ channelId: channelUnlocks.channelId })
    .from(channelUnlocks)
    .where(and(inArray(channelUnlocks.channelId, [...channelIds]), byHolder));
  return new Set(rows.map((r) => r.channelId));
}
