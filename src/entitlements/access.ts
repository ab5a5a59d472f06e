/**
 * Access gating for paid apps and VOD pay-per-view: the one module that says whether a caller
 * (a device id, an authenticated viewer, or both) is entitled. Every gate in the service goes
 * through these functions. For now they read the recorded entitlements only, so a paid app
 * with no recorded subscription is simply not entitled; the entitlement issue will add the
 * store re-checks (renewals, refunds, revocations) here, behind the same signatures.
 */
import type { Queryable } from '../db/connect.ts';
import { hasActiveSubscription, liveVideoUnlocks } from '../data/entitlement-checks.ts';

export interface Caller {
  db: Queryable;
  appId: number;
  deviceId: string | null;
  viewerId: number | null;
  now: Date;
}

/** An `active` subscription to the app, held by the device or the viewer, not expired. */
export async function appSubscriptionActive({ db, appId, deviceId, viewerId, now }: Caller): Promise<boolean> {
  return hasActiveSubscription(db, appId, { deviceId, viewerId }, now);
}

export interface VideoRef {
  videoId: number;
  /** The channel the video is played in; null: any channel (an unlock for any channel counts). */
  channelId: number | null;
}

/** A PPV unlock of the video in the app, held by the device or the viewer, not expired. */
export async function videoUnlocked(caller: Caller & VideoRef): Promise<boolean> {
  return (await unlockedVideos(caller, [caller]))(caller);
}

/**
 * Batch form of videoUnlocked for lists: one query, then a predicate. An unlock recorded
 * without a channel holds in every channel; one recorded for a channel holds only there.
 */
export async function unlockedVideos(caller: Caller, refs: readonly VideoRef[]): Promise<(ref: VideoRef) => boolean> {
  const ids = [...new Set(refs.map((r) => r.videoId))];
  const unlocks = await liveVideoUnlocks(caller.db, caller.appId, ids, { deviceId: caller.deviceId, viewerId: caller.viewerId }, caller.now);
  return (ref) =>
    unlocks.some((u) => u.videoId === ref.videoId && (u.channelId === null || ref.channelId === null || u.channelId === ref.channelId));
}
