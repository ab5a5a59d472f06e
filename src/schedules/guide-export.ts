// What a guide export (XMLTV, src/presenters/xmltv.ts) lists for each channel-day: the on-air
// timeline (on-air-timeline.ts) as segments starting that day (calendar days of the channel's own
// zone, from its today), one programme per segment, so a guide shows what airs:
// - whole seconds (the timeline's grid: XMLTV times have no fraction);
// - no overlaps: a live stream over a block is on air for its whole duration and the block
//   resumes on its own clock after it (a programme joined in progress starts at the stream's end);
//   a programme crossing midnight is listed once, on the day it starts, whole; a day's last
//   programme may be cut by an occurrence of the next day, so a day's programmes depend on the
//   day before, that day and the next only (each channel-day can be kept and served as it is);
// - the video's category name and description, when it has them (read for the videos listed:
//   schedule loads carry neither).
// What a guide costs is bounded before any of it is compiled (guideWork, docs/security.md: What an owner may build).
import type { Queryable } from '../db/connect.ts';
import { videoTexts } from '../data/video-categories.ts';
import { groupBy } from '../group-by.ts';
import { countEntries } from './entry-counts.ts';
import { addDays } from './channel-day.ts';
import type { ScheduleTimelines, TimelineChannel, TimelineVideo } from './timelines.ts';
import { cachedDayWindow, fastLocalDate } from './zone-offsets.ts';

/** The most days one export may ask (docs/xmltv.md: XMLTV guide export). */
export const MAX_GUIDE_DAYS = 14;

/**
 * What one export may compile, in entries (guideWork): ~0.05 s of CPU cold (docs/security.md: What an owner may build). A
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

/** A programme without its video's category and description (what a segment of the timeline is to a guide). */
export type OnAir = Omit<GuideProgramme, 'category' | 'description'>;

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
 * The programmes of each channel-day asked, in the asks' order: its on-air segments (starting that
 * day, whole), with the category names of their videos. All the asks' days are loaded together
 * (one query per table).
 */
export async function guideDays<C extends TimelineChannel>(db: Queryable, timelines: ScheduleTimelines, asks: readonly GuideAsk<C>[]): Promise<GuideChannelDay<C>[]> {
  // Computed from the compiled days, not through publishedWindows: a fortnight of a network would
  // push the guide pages TV apps poll out of its bounded cache of published windows.
  const segments = await timelines.segmentsStartingIn(
    db,
    asks.map(({ channel, date }) => ({ channel, ...cachedDayWindow(date, channel.timezone) })),
  );
  const texts = await textsOf(db, segments);
  return asks.map(({ channel, date }, i) => {
    const programmes = segments[i]!.map((s): GuideProgramme => {
      const text = texts.get(s.video.videoTubeId);
      return { start: s.start, stop: s.end, video: s.video, isLive: s.isLive, category: text?.category ?? null, description: text?.description ?? null };
    });
    return { channel, date, programmes };
  });
}

/** The category names and descriptions of the entries' videos (one query). */
function textsOf(db: Queryable, entries: readonly (readonly { video: TimelineVideo }[])[]) {
  const ids = new Set<number>();
  for (const day of entries) for (const e of day) ids.add(e.video.videoTubeId);
  return videoTexts(db, [...ids]);
}
