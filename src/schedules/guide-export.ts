// What a guide export (XMLTV, src/presenters/xmltv.ts) lists for each channel-day: the published
// entries and live streams starting that day (calendar days of the channel's own zone, from its
// today), as the Custom guide gets them (compiled days of timelines.ts), made into programmes a
// guide reader can take:
// - whole seconds: XMLTV times have no fraction, so start and stop are floored (entries of less
//   than a second then vanish instead of showing start = stop);
// - no overlaps: blocks may overlap (a Studio write with allowOverlap, a live stream over a
//   block), which a guide cannot show. By start, a programme stops at the latest when the next
//   one starts (the later start takes the air, as a live stream interrupting a block does; on a
//   tie the later in play order, so live over regular); one left with no time is dropped. The
//   last programme of a day is cut by the first of the next day the same way;
// - the video's category name, when it has one.
import type { Queryable } from '../db/connect.ts';
import { videoCategoryNames } from '../data/video-categories.ts';
import { addDays } from './timeline.ts';
import type { PublishedEntry, ScheduleTimelines, TimelineChannel, TimelineVideo } from './timelines.ts';
import { cachedDayWindow, fastLocalDate } from './zone-offsets.ts';

/** The most days one export may ask (README: XMLTV guide export): 14 days of a 200-channel network stay a few MB. */
export const MAX_GUIDE_DAYS = 14;

/**
 * Channels whose days are loaded together: one query per table for all of them, while the
 * answer holds no more than these channels' days at a time (it is streamed per channel-day).
 */
const CHANNELS_PER_LOAD = 25;

export interface GuideProgramme {
  /** Epoch ms, whole seconds; stop > start. */
  start: number;
  stop: number;
  video: TimelineVideo;
  isLive: boolean;
  /** The video's category name; null when it has none. */
  category: string | null;
}

export interface GuideChannelDay<C extends TimelineChannel> {
  channel: C;
  /** 'yyyy-MM-dd' in the channel's zone. */
  date: string;
  programmes: GuideProgramme[];
}

/** `days` calendar dates of `zone` from the one holding `now`. */
export function guideDates(zone: string, now: Date, days: number): string[] {
  const today = fastLocalDate(now.getTime(), zone);
  return Array.from({ length: days }, (_, i) => addDays(today, i));
}

const SECOND = 1000;
const floorSecond = (ms: number) => Math.floor(ms / SECOND) * SECOND;

/** A programme without its category (what onAir makes of an entry). */
export type OnAir = Omit<GuideProgramme, 'category'>;

/**
 * The programmes of consecutive days of one channel (each day's entries as the compiled days
 * give them): floored to whole seconds, sorted by start, each stopped at the latest when the next
 * one (of any later day) starts, empty ones dropped. Pure.
 */
export function onAir(days: readonly (readonly PublishedEntry[])[]): OnAir[][] {
  const sorted = days.map((entries) =>
    entries
      .map((e, order) => ({ start: floorSecond(e.start), stop: floorSecond(e.end), video: e.video, isLive: e.isLive, order }))
      // Blocks come block by block: overlapping blocks interleave by start. Ties keep play order.
      .sort((a, b) => a.start - b.start || a.order - b.order),
  );
  const all = sorted.flat();
  for (let i = 0; i + 1 < all.length; i++) all[i]!.stop = Math.min(all[i]!.stop, all[i + 1]!.start);
  return sorted.map((day) => day.filter((p) => p.stop > p.start).map(({ order: _order, ...programme }) => programme));
}

/**
 * The channel-days of the export, channels in the order given, then days: loaded a group of
 * channels at a time, yielded one channel-day at a time, so an answer can be written while the
 * next group loads and none is held whole.
 */
export async function* guideChannelDays<C extends TimelineChannel>(
  db: Queryable,
  timelines: ScheduleTimelines,
  channels: readonly C[],
  days: number,
  now: Date,
): AsyncGenerator<GuideChannelDay<C>> {
  const categories = new Map<number, string | null>();
  for (let first = 0; first < channels.length; first += CHANNELS_PER_LOAD) {
    const group = channels.slice(first, first + CHANNELS_PER_LOAD);
    const asks = group.flatMap((channel) => guideDates(channel.timezone, now, days).map((date) => ({ channel, date, ...cachedDayWindow(date, channel.timezone) })));
    // Sliced from the compiled days, not through publishedWindows: a fortnight of a network would
    // push the guide pages TV apps poll out of its bounded cache of published windows.
    const entries = (await timelines.slices(db, asks, false)).map((blocks) => blocks.flatMap((b) => b.videos));
    await learnCategories(db, entries, categories);
    for (let c = 0; c < group.length; c++) {
      const channelAsks = asks.slice(c * days, (c + 1) * days);
      const programmes = onAir(entries.slice(c * days, (c + 1) * days));
      for (let d = 0; d < days; d++) {
        const withCategories = programmes[d]!.map((p) => ({ ...p, category: categories.get(p.video.videoTubeId) ?? null }));
        yield { channel: group[c]!, date: channelAsks[d]!.date, programmes: withCategories };
      }
    }
  }
}

/** Adds the category names of videos not seen yet (one query per group of channels). */
async function learnCategories(db: Queryable, entries: readonly (readonly PublishedEntry[])[], known: Map<number, string | null>): Promise<void> {
  const unknown = new Set<number>();
  for (const day of entries) for (const e of day) if (!known.has(e.video.videoTubeId)) unknown.add(e.video.videoTubeId);
  if (unknown.size === 0) return;
  const names = await videoCategoryNames(db, [...unknown]);
  for (const id of unknown) known.set(id, names.get(id) ?? null);
}
