// The channel list of a client: the owner's channels, or the channels assigned to the client's
// app in the app's order; vodAvailable, scheduleAvailable and liveAvailable computed per
// request (never stored); the list filters and orderings of /users/{id}/channels.
import { appChannelAssignments, type App } from '../data/apps.ts';
import { ownerChannels, type ChannelRow } from '../data/channels.ts';
import { hasLiveStream } from '../data/schedules.ts';
import { vodCounts } from '../data/vod.ts';
import type { Queryable } from '../db/connect.ts';
import { localDateOf } from '../schedules/labels.ts';
import type { Client } from './context.ts';
import { dayWindow, loadPublishedDays } from './schedule-days.ts';

export interface Availability {
  /** A published block or live stream today in the request zone (else the channel's). */
  scheduleAvailable: boolean;
  /** A live stream on air now or starting later today. */
  liveAvailable: boolean;
  /** At least one VOD catalog video. */
  vodAvailable: boolean;
}

export interface ListedChannel {
  channel: ChannelRow;
  availability: Availability;
}

/** Category id 999 in a category_id filter means "live now or later today". */
export const LIVE_CATEGORY = 999;

export async function scopedChannels(db: Queryable, ownerId: number, app: App | undefined): Promise<ChannelRow[]> {
  const owned = await ownerChannels(db, ownerId);
  if (!app) return owned;
  const byId = new Map(owned.map((c) => [c.id, c]));
  return (await appChannelAssignments(db, app.id)).flatMap((a) => byId.get(a.channelId) ?? []);
}

/** The client's channels with these ids, in the order asked; ids outside the client's scope are ignored. */
export async function requestedChannels(db: Queryable, client: Client, ids: readonly number[]): Promise<ChannelRow[]> {
  const byId = new Map((await scopedChannels(db, client.ownerId, client.app)).map((c) => [c.id, c]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

export async function withAvailability(db: Queryable, client: Client, channels: readonly ChannelRow[]): Promise<ListedChannel[]> {
  const vod = await vodCounts(db, channels.map((c) => c.id));
  return Promise.all(
    channels.map(async (channel) => {
      const today = dayWindow(localDateOf(client.now.getTime(), client.zone ?? channel.timezone), client.zone ?? channel.timezone);
      const [entriesOf, liveAvailable] = await Promise.all([
        loadPublishedDays(db, channel, [today]),
        hasLiveStream(db, channel.id, client.now, new Date(today.to)),
      ]);
      const availability = { scheduleAvailable: entriesOf(today).length > 0, liveAvailable, vodAvailable: (vod.get(channel.id) ?? 0) > 0 };
      return { channel, availability };
    }),
  );
}

/** The client's channels that have a schedule today or VOD, which is what the lists show. */
export async function listedChannels(db: Queryable, client: Client): Promise<ListedChannel[]> {
  const all = await withAvailability(db, client, await scopedChannels(db, client.ownerId, client.app));
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
