// What may this caller play: the one module the guide, VOD, live and token routes ask. On top of
// the gate (src/entitlements/gating.ts: what the owner's apps sell), a private channel hands out
// stream URLs only once the device or viewer unlocked it (src/access/channel-unlocks.ts), a VOD
// video sold by pay-per-view plays only once bought, and a video is locked unless one of the
// channels holding it plays for the caller. What may not play is still listed, withheld: enough
// to sell it, nothing that plays it. No HTTP here: refusals are codes.
import type { Caller, CatalogReads } from '../access/caller.ts';
import { playableChannels } from '../access/channel-unlocks.ts';
import { placesOfVideo, type VideoPlace } from '../data/app-offers.ts';
import type { ChannelRow } from '../data/channels.ts';
import type { CallerIds } from '../data/holders.ts';
import { renditionsOf, type Rendition } from '../data/renditions.ts';
import { liveStreamsFor, type LiveStreamWithUri } from '../data/schedules.ts';
import type { Queryable } from '../db/connect.ts';
import type { VideoRef } from '../entitlements/access.ts';
import { accessGate, soldByPayPerView } from '../entitlements/gate.ts';
import { callerGate, offersOf, type AccessRefusal } from '../entitlements/gating.ts';

/** Which of these channels may hand out stream URLs to the caller (public or unlocked). */
export async function streamableChannels(
  db: Queryable,
  caller: CallerIds,
  channels: readonly { id: number; passwordHash: string | null }[],
): Promise<(channelId: number) => boolean> {
  const playable = await playableChannels(db, channels, caller);
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

/**
 * Whether each VOD video plays in its channel for the caller: the channel hands out streams (public
 * or unlocked) and the gate opens the video there (its pay-per-view unlock, or the app's entitlement).
 */
export async function playableVod(
  reads: CatalogReads,
  caller: Caller,
  channels: readonly ChannelRow[],
  refs: readonly (VideoRef & { channelId: number })[],
): Promise<(ref: VideoRef & { channelId: number }) => boolean> {
  const [streamable, gate] = await Promise.all([streamableChannels(reads.db, caller, channels), callerGate(reads, caller, refs)]);
  return (ref) => streamable(ref.channelId) && gate.vodOpen(ref);
}

/**
 * The channel's live streams starting in [from, to), or a refusal when the owner's apps keep the
 * channel from the caller; `playable` is false (no URIs) while a private channel is locked.
 */
export async function channelLiveStreams(
  reads: CatalogReads,
  caller: Caller,
  channel: ChannelRow,
  from: Date,
  to: Date,
): Promise<AccessRefusal | { streams: LiveStreamWithUri[]; playable: boolean }> {
  if (!(await callerGate(reads, caller)).channelOpen(channel.id)) return 'subscription_required';
  const [streams, streamable] = await Promise.all([liveStreamsFor(reads.db, channel.id, from, to), streamableChannels(reads.db, caller, [channel])]);
  return { streams, playable: streamable(channel.id) };
}

/**
 * A video plays for the caller when it is in no live channel, or when one channel holds it in a
 * way the caller may play: a public or unlocked channel the gate opens (for the channel's VOD
 * catalog, with its pay-per-view unlock). A video pay-per-view sells in some VOD catalog is not
 * opened by any channel's library (its purchase is the way in); airing it stays the owner's
 * broadcast, as the guide shows it. The caller's owner and app are the video owner's.
 */
export async function videoLocked(reads: CatalogReads, caller: Caller, video: { id: number; ownerId: number }): Promise<boolean> {
  const { db } = reads;
  const places = await placesOfVideo(db, video.id);
  if (places.length === 0) return false;
  const offers = await offersOf(reads, video.ownerId);
  const refs = places.filter((p) => p.how === 'vod').map((p) => ({ videoId: video.id, channelId: p.channelId }));
  const sold = refs.some((r) => soldByPayPerView(offers, r.channelId));
  const candidates = sold ? places.filter((p) => p.how !== 'library') : places;
  const [gate, unlocked] = await Promise.all([
    accessGate(db, offers, caller, refs),
    playableChannels(
      db,
      places.map((p) => ({ id: p.channelId, passwordHash: p.passwordHash })),
      caller,
    ),
  ]);
  const open = (p: VideoPlace) => (p.how === 'vod' ? gate.vodOpen({ videoId: video.id, channelId: p.channelId }) : gate.channelOpen(p.channelId));
  return !candidates.some((p) => unlocked.has(p.channelId) && open(p));
}

/** Renditions not yet expired when there are any, otherwise every cached one. */
export function freshRenditions(all: readonly Rendition[], now: Date): readonly Rendition[] {
  const fresh = all.filter((r) => r.expiresAt.getTime() > now.getTime());
  return fresh.length > 0 ? fresh : all;
}

/** The progressive renditions a player gets for the video, or a refusal when it is locked for the caller. */
export async function videoRenditions(reads: CatalogReads, caller: Caller, video: { id: number; ownerId: number }): Promise<AccessRefusal | readonly Rendition[]> {
  if (await videoLocked(reads, caller, video)) return 'subscription_required';
  return freshRenditions(await renditionsOf(reads.db, video.id), caller.now);
}
