// The access rules as a caller meets them, on top of the one gating rule (gate.ts), the
// entitlement checks (access.ts) and channel unlocks: a paid app's lists are refused without an
// active subscription; a locked private channel or VOD pay-per-view withholds stream URLs; a video
// is locked unless one of the channels holding it plays for the caller. No HTTP here: refusals
// are codes each interface maps to its wire answer.
import type { Caller } from '../access/caller.ts';
import { playableChannels } from '../access/channel-unlocks.ts';
import type { App } from '../data/apps.ts';
import { ownerAppOffers, placesOfVideo, type VideoPlace } from '../data/app-offers.ts';
import type { Holder } from '../data/holders.ts';
import type { Queryable } from '../db/connect.ts';
import type { CatalogCache } from '../cache/catalog-cache.ts';
import { appSubscriptionActive, type VideoRef } from './access.ts';
import { accessGate, soldByPayPerView, type Gate } from './gate.ts';

export type AccessRefusal = 'subscription_required';

/** A paid app's lists need an active subscription; a caller with no app is gated item by item (callerGate). */
export async function appAccessRefusal(db: Queryable, { app, holder, now }: Pick<Caller, 'app' | 'holder' | 'now'>): Promise<AccessRefusal | undefined> {
  if (app?.isPaid && !(await appSubscriptionActive(db, { appId: app.id, holder, now }))) return 'subscription_required';
  return undefined;
}

/** The owner's app offers (which app sells which channel and video), kept until the catalog changes. */
function offersOf(db: Queryable, cache: CatalogCache, ownerId: number) {
  return cache.get(`gate:offers:${ownerId}`, () => ownerAppOffers(db, ownerId), { ownerId });
}

/** What the owner's apps open to this caller (its app's rules, or for no app the strictest of all). */
export async function callerGate(db: Queryable, caller: Caller, vodRefs: readonly VideoRef[] = []): Promise<Gate> {
  const offers = await offersOf(db, caller.cache, caller.ownerId);
  return accessGate({ db, offers, appId: caller.app?.id, holder: caller.holder, now: caller.now, vodRefs });
}

/** Which of these channels may hand out stream URLs to the caller (public or unlocked). */
export async function streamableChannels(
  db: Queryable,
  caller: Pick<Caller, 'holder'>,
  channels: readonly { id: number; passwordHash: string | null }[],
): Promise<(channelId: number) => boolean> {
  const playable = await playableChannels(db, channels, caller.holder);
  return (channelId) => playable.has(channelId);
}

/**
 * A video as a caller who may not play it sees it: enough to sell it (title, picture, provider
 * name), nothing that plays it. The provider's id is such a thing (a YouTube id is the video), so
 * it is the empty string: the spec types it a string, never null.
 */
export function withheldVideo<T extends { providerVideoId: string }>(video: T): T {
  return { ...video, providerVideoId: '' };
}

/** Whether each VOD video plays in its channel for the caller (pay-per-view unlocks, sold channels). */
export async function vodPlayable(db: Queryable, caller: Caller, refs: readonly (VideoRef & { channelId: number })[]): Promise<(ref: VideoRef & { channelId: number }) => boolean> {
  const gate = await callerGate(db, caller, refs);
  return (ref) => gate.vodOpen(ref);
}

/**
 * A video plays for the caller when it is in no live channel, or when one channel holds it in a
 * way the caller may play: a public or unlocked channel the gate opens (for the channel's VOD
 * catalog, with its pay-per-view unlock). A video pay-per-view sells in some VOD catalog is not
 * opened by any channel's library (its purchase is the way in); airing it stays the owner's
 * broadcast, as the guide shows it. `app` is the video owner's app for the caller's platform.
 */
export async function videoLocked(
  db: Queryable,
  caller: { app: App | undefined; holder: Holder; now: Date; cache: CatalogCache },
  video: { id: number; ownerId: number },
): Promise<boolean> {
  const places = await placesOfVideo(db, video.id);
  if (places.length === 0) return false;
  const offers = await offersOf(db, caller.cache, video.ownerId);
  const refs = places.filter((p) => p.how === 'vod').map((p) => ({ videoId: video.id, channelId: p.channelId }));
  const sold = refs.some((r) => soldByPayPerView(offers, r.channelId));
  const candidates = sold ? places.filter((p) => p.how !== 'library') : places;
  const [gate, unlocked] = await Promise.all([
    accessGate({ db, offers, appId: caller.app?.id, holder: caller.holder, now: caller.now, vodRefs: refs }),
    playableChannels(db, places.map((p) => ({ id: p.channelId, passwordHash: p.passwordHash })), caller.holder),
  ]);
  const open = (p: VideoPlace) => (p.how === 'vod' ? gate.vodOpen({ videoId: video.id, channelId: p.channelId }) : gate.channelOpen(p.channelId));
  return !candidates.some((p) => unlocked.has(p.channelId) && open(p));
}
