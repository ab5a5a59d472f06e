/**
 * The one gating rule of the Custom API, whatever headers the caller chooses (issue 12): what one
 * of the owner's apps sells (a paid app's channels, pay-per-view VOD videos) is open only to a
 * device or viewer that one of those apps entitles, and leaving out or changing Platform-Id never
 * widens that.
 *
 * - A caller with an app (Platform-Id naming one of the owner's apps) is judged by that app alone.
 * - A caller with no app (no Platform-Id, or a platform the owner has no app for) gets the
 *   strictest answer that gives nothing away: an item is open when no app of the owner carries
 *   it (nothing sells it), or when some app carrying it would give it to this caller (a free app;
 *   a paid app the caller subscribes to; for a VOD video of an app with pay-per-view, the caller's
 *   unlock of that video in that app, which is a purchase of its own).
 *
 * Private channels are a separate rule (their password unlock, src/access/channel-unlocks.ts),
 * applied on top by the callers.
 */
import type { AppOffer } from '../data/app-offers.ts';
import { liveVideoUnlocks, subscribedApps } from '../data/entitlement-checks.ts';
import type { CallerIds } from '../data/holders.ts';
import type { Queryable } from '../db/connect.ts';
import type { Caller } from '../access/caller.ts';
import { unlockCounts, type VideoRef } from './access.ts';

export interface Gate {
  /** The channel's schedule, live streams and place in lists are open to the caller. */
  channelOpen(channelId: number): boolean;
  /** The VOD video plays in that channel for the caller. */
  vodOpen(ref: VideoRef & { channelId: number }): boolean;
}

/**
 * What the owner's apps open to the caller. `offers`: every app of the caller's owner (see
 * ownerAppOffers); `vodRefs`: the VOD videos the caller will ask vodOpen about (their unlocks are
 * read in one query per pay-per-view app).
 */
export async function accessGate(db: Queryable, offers: readonly AppOffer[], caller: Caller, vodRefs: readonly VideoRef[] = []): Promise<Gate> {
  const { now } = caller;
  const appId = caller.app?.id;
  const candidates = appId === undefined ? offers : offers.filter((o) => o.appId === appId);
  const carried = new Set(offers.flatMap((o) => o.channelIds));
  const paid = candidates.filter((o) => o.isPaid).map((o) => o.appId);
  const subscribed = await subscribedApps(db, paid, caller, now);
  const entitled = candidates.filter((o) => !o.isPaid || subscribed.has(o.appId));
  const unlocks = await unlocksByApp(
    db,
    candidates.filter((o) => o.vodPpvEnabled),
    vodRefs,
    caller,
    now,
  );
  const carries = (o: AppOffer, channelId: number) => o.channelIds.includes(channelId);

  return {
    channelOpen: (channelId) => !carried.has(channelId) || entitled.some((o) => carries(o, channelId)),
    // With pay-per-view, the video's own purchase opens it (the app's subscription does not);
    // without, the app's entitlement does.
    vodOpen: (ref) =>
      !carried.has(ref.channelId) || candidates.some((o) => carries(o, ref.channelId) && (o.vodPpvEnabled ? (unlocks.get(o.appId)?.(ref) ?? false) : entitled.includes(o))),
  };
}

/**
 * Whether an app of the owner sells the channel's VOD videos by pay-per-view. Judged over every
 * app, not the caller's: a video sold so is bought, and no Platform-Id makes it free elsewhere.
 */
export function soldByPayPerView(offers: readonly AppOffer[], channelId: number): boolean {
  return offers.some((o) => o.vodPpvEnabled && o.channelIds.includes(channelId));
}

/** Per pay-per-view app, which of the refs the caller has unlocked there. */
async function unlocksByApp(
  db: Queryable,
  ppvApps: readonly AppOffer[],
  refs: readonly VideoRef[],
  caller: CallerIds,
  now: Date,
): Promise<Map<number, (ref: VideoRef) => boolean>> {
  const videoIds = [...new Set(refs.map((r) => r.videoId))];
  const entries = await Promise.all(
    ppvApps.map(async (o) => {
      const rows = await liveVideoUnlocks(db, o.appId, videoIds, caller, now);
      const held = (ref: VideoRef) => rows.some((unlock) => unlockCounts(unlock, ref));
      return [o.appId, held] as const;
    }),
  );
  return new Map(entries);
}
