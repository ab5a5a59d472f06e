// The channel list of a caller: the owner's channels, or the channels assigned to the caller's
// app in the app's order; vodAvailable, scheduleAvailable and liveAvailable from the
// schedule days; the list filters and orderings; a channel's VOD catalog rows. Used by the
// Custom API and its compatibility trees; no HTTP here.
import type { Caller, CatalogReads } from '../access/caller.ts';
import { appChannelAssignments, type App } from '../data/apps.ts';
import { ownerChannels, type ChannelRow } from '../data/channels.ts';
import type { VodVideo } from '../data/vod.ts';
import type { Queryable } from '../db/connect.ts';
import { callerGate } from '../entitlements/gating.ts';
import { channelAvailability, type Availability } from './availability.ts';

export type { Availability } from './availability.ts';

export interface ListedChannel {
  channel: ChannelRow;
  availability: Availability;
}

/** Category id 999 in a category_id filter means "live now or later today". */
export const LIVE_CATEGORY = 999;
/** Category id 0 means every category: the shipped Android TV template's "All" chip sends it. */
export const ALL_CATEGORIES = 0;

/**
 * The owner's channels, or its app's (see `scopedChannels`), cached per owner and app; for a
 * caller with no app, only those the gate opens to it (what an app sells stays sold).
 */
export async function callerChannels(reads: CatalogReads, caller: Caller): Promise<ChannelRow[]> {
  const scope = await reads.cache.get(`channels:scope:${caller.ownerId}:${caller.app?.id ?? 'none'}`, () => scopedChannels(reads.db, caller.ownerId, caller.app), {
    ownerId: caller.ownerId,
  });
  if (caller.app) return scope;
  const gate = await callerGate(reads, caller);
  return scope.filter((c) => gate.channelOpen(c.id));
}

export async function scopedChannels(db: Queryable, ownerId: number, app: App | undefined): Promise<ChannelRow[]> {
  const owned = await ownerChannels(db, ownerId);
  if (!app) return owned;
  const byId = new Map(owned.map((c) => [c.id, c]));
  return (await appChannelAssignments(db, app.id)).flatMap((a) => byId.get(a.channelId) ?? []);
}

/** The caller's channels with these ids, in the order asked; ids outside the caller's scope are ignored. */
export async function requestedChannels(reads: CatalogReads, caller: Caller, ids: readonly number[]): Promise<ChannelRow[]> {
  const byId = indexOf(await callerChannels(reads, caller));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/**
 * The channels by id, made once per list: an app's list is the cached array itself, so a guide
 * of 10 channels no longer indexes the owner's 200 per request (3% of a rotating guide's CPU).
 */
const indexes = new WeakMap<readonly ChannelRow[], Map<number, ChannelRow>>();
function indexOf(channels: readonly ChannelRow[]): Map<number, ChannelRow> {
  let byId = indexes.get(channels);
  if (!byId) indexes.set(channels, (byId = new Map(channels.map((c) => [c.id, c]))));
  return byId;
}

/** The channels with their availability flags (src/channels/availability.ts: no day compiled). */
export async function withAvailability({ db, cache, timelines }: CatalogReads, caller: Caller, channels: readonly ChannelRow[]): Promise<ListedChannel[]> {
  const flags = await channelAvailability(db, timelines, channels, caller.zone, caller.now.getTime(), (key, load, scope) => cache.get(key, load, scope));
  return channels.map((channel) => ({ channel, availability: flags.get(channel.id)! }));
}

/** The caller's channels that have a schedule today or VOD, which is what the lists show. */
export async function listedChannels(reads: CatalogReads, caller: Caller): Promise<ListedChannel[]> {
  const all = await withAvailability(reads, caller, await callerChannels(reads, caller));
  return all.filter(({ availability: a }) => a.scheduleAvailable || a.vodAvailable);
}

export interface ChannelFilters {
  language_id: number[];
  category_id: number[];
  search?: string | undefined;
  skip: number | undefined;
  take: number | undefined;
  newest: boolean;
  oldest: boolean;
  most_subscribed: boolean;
}

function matches(f: ChannelFilters, { channel, availability }: ListedChannel): boolean {
  const categories = f.category_id.filter((id) => id !== LIVE_CATEGORY);
  const byCategory =
    f.category_id.length === 0 ||
    f.category_id.includes(ALL_CATEGORIES) ||
    categories.includes(channel.categoryId) ||
    (f.category_id.includes(LIVE_CATEGORY) && availability.liveAvailable);
  const byLanguage = f.language_id.length === 0 || (channel.languageId !== null && f.language_id.includes(channel.languageId));
  const bySearch = f.search === undefined || channel.name.toLowerCase().includes(f.search.toLowerCase());
  return byCategory && byLanguage && bySearch;
}

/** The first ordering flag given wins (newest, oldest, most_subscribed); ties keep list order. */
function ordering(f: ChannelFilters): ((a: ChannelRow, b: ChannelRow) => number) | undefined {
  if (f.newest) return (a, b) => b.createdAt.getTime() - a.createdAt.getTime();
  if (f.oldest) return (a, b) => a.createdAt.getTime() - b.createdAt.getTime();
  if (f.most_subscribed) return (a, b) => b.subscriberCount - a.subscriberCount;
  return undefined;
}

/** Filters, then ordering, then skip and take. */
export function filterChannels(listed: readonly ListedChannel[], f: ChannelFilters): ListedChannel[] {
  const compare = ordering(f);
  const kept = listed.filter((l) => matches(f, l));
  const sorted = compare ? kept.sort((a, b) => compare(a.channel, b.channel)) : kept;
  const start = f.skip ?? 0;
  return sorted.slice(start, f.take === undefined ? undefined : start + f.take);
}

/** Channels in the order asked, each VOD catalog in its order; a video listed twice in one catalog once. */
export function vodCatalogRows(channels: readonly ChannelRow[], videos: readonly VodVideo[]): { channel: ChannelRow; video: VodVideo }[] {
  return channels.flatMap((channel) => {
    const unique = new Map<number, VodVideo>();
    for (const video of videos) if (video.channelId === channel.id && !unique.has(video.videoTubeId)) unique.set(video.videoTubeId, video);
    return [...unique.values()].map((video) => ({ channel, video }));
  });
}
