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
//   last programme of a day is cut by the first of the next day the same way, and none runs
//   past the end of the next day (so a day's programmes depend on that day and the next only,
//   whatever days a guide asks: each channel-day can be kept and served as it is);
// - the video's category name and description, when it has them (read for the videos listed:
//   schedule loads carry neither).
// What a guide costs is bounded before any of it is compiled (guideWork, docs/security.md: Limits).
import type { Queryable } from '../db/connect.ts';
import { videoTexts } from '../data/video-categories.ts';
import { groupBy } from '../group-by.ts';
import { countEntries } from './entry-counts.ts';
import { addDays } from './channel-day.ts';
import type { PublishedEntry, ScheduleTimelines, TimelineChannel, TimelineVideo } from './timelines.ts';
import { cachedDayWindow, fastLocalDate } from './zone-offsets.ts';

/** The most days one export may ask (docs/xmltv.md: XMLTV guide export). */
export const MAX_GUIDE_DAYS = 14;

/**
 * What one export may compile, in entries (guideWork): ~0.05 s of CPU cold (docs/security.md: Limits). A
 * guide asking more is refused before any of it is compiled; at 144 entries a channel-day that is
 * 14 days of 4 channels, 7 days of 7, 1 day of 23; at 720 (the most a day holds) 12 days of 1.
 */
export const MAX_GUIDE_WORK = 10_000;

/** One channel-day of a guide. */
export interface GuideAsk<C extends TimelineChannel> {
  channel: C;
  /** 'yyyy-MM-dd' in the channel's zone. */
  date: string;
}

export interface GuideProgramme {
  /** Epoch ms, whole seconds; stop > start. */
  start: number;
  stop: number;
  video: TimelineVideo;
  isLive: boolean;
  /** The video's category name and description; null when it has none. */
  category: string | null;
  description: string | null;
}

export interface GuideChannelDay<C extends TimelineChannel> extends GuideAsk<C> {
  programmes: GuideProgramme[];
}

/** `days` calendar dates of `zone` from the one holding `now`. */
export function guideDates(zone: string, now: Date, days: number): string[] {
  const today = fastLocalDate(now.getTime(), zone);
  return Array.from({ length: days }, (_, i) => addDays(today, i));
}

/** The channel-days of an export: channels in the order given, then `days` days from each one's today. */
export function guideAsks<C extends TimelineChannel>(channels: readonly C[], days: number, now: Date): GuideAsk<C>[] {
  return channels.flatMap((channel) => guideDates(channel.timezone, now, days).map((date) => ({ channel, date })));
}

const SECOND = 1000;
const floorSecond = (ms: number) => Math.floor(ms / SECOND) * SECOND;

/** A programme without its video's category and description (what onAir makes of an entry). */
export type OnAir = Omit<GuideProgramme, 'category' | 'description'>;

/** A day's programmes by start; ties keep play order (the sort is stable). Usually sorted already. */
function byStart(entries: readonly PublishedEntry[]): GuideProgramme[] {
  const day = entries.map((e) => ({ start: floorSecond(e.start), stop: floorSecond(e.end), video: e.video, isLive: e.isLive, category: null, description: null }));
  for (let i = 1; i < day.length; i++) {
    // Blocks come block by block: overlapping blocks interleave by start.
    if (day[i]!.start < day[i - 1]!.start) return day.sort((a, b) => a.start - b.start);
  }
  return day;
}

/**
 * The programmes of consecutive days of one channel (each day's entries as the compiled days
 * give them): floored to whole seconds, sorted by start, each stopped at the latest when the next
 * one (of any later day) starts, empty ones dropped. Pure; the programmes it makes are its
 * caller's (their category and description are null, to be set).
 */
export function onAir(days: readonly (readonly PublishedEntry[])[]): GuideProgramme[][] {
  const sorted = days.map(byStart);
  let previous: GuideProgramme | undefined;
  for (const day of sorted) {
    for (const p of day) {
      if (previous && p.start < previous.stop) previous.stop = p.start;
      previous = p;
    }
  }
  return sorted.map((day) => day.filter((p) => p.stop > p.start));
}

/**
 * What compiling these channel-days costs, in entries: each channel's days with the day before
 * (its blocks can run past midnight into the first) and the day after (its first programme cuts
 * a day's last), counted from the schedule without expanding it (day-entries.ts), unpublished
 * blocks included (compiling reads them), plus one a channel-day asked (an empty one costs too).
 * Two queries, one row per block and per live stream.
 */
export async function guideWork(db: Queryable, asks: readonly GuideAsk<TimelineChannel>[]): Promise<number> {
  const wants = [...groupBy(asks, (a) => a.channel.id).values()].map((list) => ({ channel: list[0]!.channel, dates: daysAround(list.map((a) => a.date)) }));
  return asks.length + (await countEntries(db, wants));
}

/** The dates, the day before each and the day after each (distinct). */
function daysAround(dates: readonly string[]): string[] {
  const all = new Set<string>();
  for (const date of dates) all.add(addDays(date, -1)).add(date).add(addDays(date, 1));
  return [...all];
}

/**
 * The programmes of each channel-day asked, in the asks' order: its published entries and live
 * streams as the Custom guide gets them (compiled days of timelines.ts), with the next day's
 * first programme cutting its last, none running past the next day's end, and the category
 * names of their videos. All the asks' days are loaded together (one query per table).
 */
export async function guideDays<C extends TimelineChannel>(db: Queryable, timelines: ScheduleTimelines, asks: readonly GuideAsk<C>[]): Promise<GuideChannelDay<C>[]> {
  // Each ask's day and the next, each window once (the next day of one ask is often another's day).
  const windowKeys = new Map<string, number>();
  const windows: Array<{ channel: C; from: number; to: number }> = [];
  const windowOf = (channel: C, date: string) => {
    const key = `${channel.id}|${date}`;
    if (!windowKeys.has(key)) windowKeys.set(key, windows.push({ channel, ...cachedDayWindow(date, channel.timezone) }) - 1);
    return windowKeys.get(key)!;
  };
  const pairs = asks.map(({ channel, date }) => [windowOf(channel, date), windowOf(channel, addDays(date, 1))] as const);
  // Sliced from the compiled days, not through publishedWindows: a fortnight of a network would
  // push the guide pages TV apps poll out of its bounded cache of published windows.
  const entries = (await timelines.slices(db, windows, false)).map((blocks) => blocks.flatMap((b) => b.videos));
  const texts = await textsOf(db, entries);
  return asks.map(({ channel, date }, i) => {
    const [day, next] = pairs[i]!;
    const end = windows[next]!.to;
    const programmes = onAir([entries[day]!, entries[next]!])[0]!;
    for (const p of programmes) {
      p.stop = Math.min(p.stop, end);
      const text = texts.get(p.video.videoTubeId);
      p.category = text?.category ?? null;
      p.description = text?.description ?? null;
    }
    return { channel, date, programmes };
  });
}

/** The category names and descriptions of the entries' videos (one query). */
function textsOf(db: Queryable, entries: readonly (readonly PublishedEntry[])[]) {
  const ids = new Set<number>();
  for (const day of entries) for (const e of day) ids.add(e.video.videoTubeId);
  return videoTexts(db, [...ids]);
}
