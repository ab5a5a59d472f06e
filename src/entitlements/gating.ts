// The access rules as a caller meets them, on top of the one gating rule (gate.ts) and the
// entitlement checks (access.ts): a paid app's lists are refused without an active subscription,
// and the gate says which channels and VOD videos the owner's apps open to the caller. What may
// play (private channels, withheld streams, locked videos) is src/channels/playback.ts. No HTTP
// here: refusals are codes each interface maps to its wire answer.
import type { Caller, CatalogReads } from '../access/caller.ts';
import { ownerAppOffers } from '../data/app-offers.ts';
import type { Queryable } from '../db/connect.ts';
import { appSubscriptionActive, type VideoRef } from './access.ts';
import { accessGate, type Gate } from './gate.ts';

export type AccessRefusal = 'subscription_required';

/** A paid app's lists need an active subscription; a caller with no app is gated item by item (callerGate). */
export async function appAccessRefusal(db: Queryable, caller: Caller): Promise<AccessRefusal | undefined> {
  const { app } = caller;
  if (app?.isPaid && !(await appSubscriptionActive(db, { ...caller, app }))) return 'subscription_required';
  return undefined;
}

/** The owner's app offers (which app sells which channel and video), kept until the catalog changes. */
export function offersOf({ db, cache }: CatalogReads, ownerId: number) {
  return cache.get(`gate:offers:${ownerId}`, () => ownerAppOffers(db, ownerId), { ownerId });
}

/** What the owner's apps open to this caller (its app's rules, or for no app the strictest of all). */
export async function callerGate(reads: CatalogReads, caller: Caller, vodRefs: readonly VideoRef[] = []): Promise<Gate> {
  return accessGate(reads.db, await offersOf(reads, caller.ownerId), caller, vodRefs);
}

/**
 * Whether an answer of the caller's app (or of no app) about these channels is the same for every
 * device and viewer: true only when nothing of it can hang on a subscription, a purchase or an
 * unlock. That is: the app is free and sells nothing by pay-per-view (no app: no app of the owner
 * is paid or sells by pay-per-view, since the strictest gate reads them all), and, when the answer
 * may carry what plays (`playable`: guide and VOD rows), no channel asked is private (a password
 * unlock opens its streams to one device). Read from catalog data only, so the verdict holds for
 * every caller with the same owner, app and channels until a catalog change; a kept answer is
 * dropped by the same change.
 */
export async function sameForEveryViewer(reads: CatalogReads, caller: Caller, channels: readonly { passwordHash: string | null }[], playable: boolean): Promise<boolean> {
  const offers = await offersOf(reads, caller.ownerId);
  const { app } = caller;
  const judged = app ? offers.filter((o) => o.appId === app.id) : offers;
  if (app?.isPaid || judged.some((o) => o.isPaid || o.vodPpvEnabled)) return false;
  return !playable || channels.every((c) => c.passwordHash === null);
}
