// Which of many channels have something to show (the Custom lists' scheduleAvailable,
// liveAvailable, vodAvailable), for all of them at once: the blocks' spans for the schedule (no day
// compiled, see entry-spans.ts), one live-stream query, one VOD count query, whatever the number of
// channels.
import type { CacheScope } from '../cache/changes.ts';
import { liveStreamSpansForChannels } from '../data/schedule-batches.ts';
import { vodCounts } from '../data/vod.ts';
import type { Queryable } from '../db/connect.ts';
import { windowsHavePublishedEntries } from '../schedules/entry-spans.ts';
import type { ScheduleTimelines, TimelineChannel } from '../schedules/timelines.ts';
import { cachedDayWindow, fastLocalDate } from '../schedules/zone-offsets.ts';

export interface Availability {
  /** A published block or live stream starting today in the request zone (else the channel's). */
  scheduleAvailable: boolean;
  /** A live stream on air now or starting later today. */
  liveAvailable: boolean;
  /** At least one VOD catalog video. */
  vodAvailable: boolean;
}

/** Keeps a catalog-derived value of `scope` under a key until a change touches it (the catalog cache's get). */
export type Memo = <T>(key: string, load: () => Promise<T>, scope: CacheScope | undefined) => Promise<T>;
const noMemo: Memo = (_key, load) => load();

/**
 * Availability per channel id at instant `now`; `zone` is the request zone, undefined for each
 * channel's own. The live-stream spans and VOD counts are catalog data, kept through `memo`.
 */
export async function channelAvailability(
  db: Queryable,
  timelines: ScheduleTimelines,
  channels: readonly TimelineChannel[],
  zone: string | undefined,
  now: number,
  memo: Memo = noMemo,
): Promise<Map<number, Availability>> {
  if (channels.length === 0) return new Map();
  const { todays, asks, ids, from, to, key, scope } = plan(channels, zone, now);
  // Whether a channel has entries in a day window is catalog data: kept per set of windows (not per
  // zone name, so the hundreds of zones sharing a day's offset share one entry), an array lookup after.
  const windows = [...todays].map(([z, w]) => `${z === zone ? '' : z}${w.from}-${w.to}`).join(';');
  const [scheduled, spans, vod] = await Promise.all([
    memo(`availability:schedule:${windows}:${key}`, () => windowsHavePublishedEntries(db, timelines, asks), scope),
    memo(`availability:live:${from}:${to}:${key}`, () => liveStreamSpansForChannels(db, ids, new Date(from), new Date(to)), scope),
    memo(`availability:vod:${key}`, () => vodCounts(db, ids), scope),
  ]);
  return new Map(
    asks.map(({ channel, from: dayFrom, to: dayTo }, i) => {
      // The spans overlapping this channel's today, then: on air now or starting later today.
      const live = (spans.get(channel.id) ?? []).filter(([start, end]) => start < dayTo && end > dayFrom);
      return [
        channel.id,
        {
          scheduleAvailable: scheduled[i]!,
          liveAvailable: live.some(([start, end]) => end > now && start < dayTo),
          vodAvailable: (vod.get(channel.id) ?? 0) > 0,
        },
      ];
    }),
  );
}

/** The day windows, channel ids, the span of instants and the cache key and scope of an availability ask. */
function plan(channels: readonly TimelineChannel[], zone: string | undefined, now: number) {
  const todays = new Map<string, { from: number; to: number }>();
  const today = (z: string) => {
    let window = todays.get(z);
    if (!window) todays.set(z, (window = cachedDayWindow(fastLocalDate(now, z), z)));
    return window;
  };
  const asks = channels.map((channel) => ({ channel, ...today(zone ?? channel.timezone) }));
  const ids = channels.map((c) => c.id);
  const from = Math.min(...asks.map((a) => a.from));
  const to = Math.max(...asks.map((a) => a.to));
  const key = ids.join(',');
  // Each value is these channels' data only (blocks, streams, VOD lists; the owner's videos):
  // kept through other channels' changes when every channel names the same owner.
  const owner = channels[0]!.ownerId;
  const scope = owner !== undefined && channels.every((c) => c.ownerId === owner) ? { ownerId: owner, channelIds: ids } : undefined;
  return { todays, asks, ids, from, to, key, scope };
}

/**
 * The first instant after `now` at which channelAvailability may answer otherwise, catalog
 * unchanged: the end of a channel's today (scheduleAvailable and the day's live streams are the
 * next day's), or the end of one of today's live streams (liveAvailable). Infinity: none (no channels).
 */
export async function availabilityChangesAt(db: Queryable, channels: readonly TimelineChannel[], zone: string | undefined, now: number, memo: Memo = noMemo): Promise<number> {
  if (channels.length === 0) return Infinity;
  const { asks, ids, from, to, key, scope } = plan(channels, zone, now);
  const spans = await memo(`availability:live:${from}:${to}:${key}`, () => liveStreamSpansForChannels(db, ids, new Date(from), new Date(to)), scope);
  let until = Infinity;
  for (const { channel, from: dayFrom, to: dayTo } of asks) {
    until = Math.min(until, dayTo);
    for (const [start, end] of spans.get(channel.id) ?? []) if (start < dayTo && end > dayFrom && end > now) until = Math.min(until, end);
  }
  return until;
}
