// The per-channel schedule path the service used before compiled days (src/schedules/timelines.ts):
// load one channel's blocks and live streams, expand with expand.ts. No route uses it any more;
// tests keep it as the reference the compiled path must answer byte for byte.
import { liveStreamsFor, scheduleBlocksFor, type ScheduledVideo } from '../../src/data/schedules.ts';
import type { Queryable } from '../../src/db/connect.ts';
import { channelDatesForWindow, expandChannelDay, expandWindow, type ExpandedBlock, type ExpandedVideo } from '../../src/schedules/expand.ts';
import { DAY_MS, segmentEntry, segmentsStartingIn } from '../../src/schedules/on-air-listing.ts';
import { localDayWindow } from '../../src/schedules/labels.ts';
import { addDays } from '../../src/schedules/channel-day.ts';

const nextDate = (date: string) => addDays(date, 1);

export interface DayWindow {
  /** 'yyyy-MM-dd' in `zone`. */
  date: string;
  zone: string;
  from: number;
  to: number;
}

export function dayWindow(date: string, zone: string): DayWindow {
  return { date, zone, ...localDayWindow(date, zone) };
}

/** For each window, the published entries whose playback starts in it, in play order: the plan (ScheduleTimelines.window), not cut. */
export async function loadScheduledEntries(
  db: Queryable,
  channel: { id: number; timezone: string },
  windows: readonly DayWindow[],
): Promise<(window: DayWindow) => ExpandedVideo<ScheduledVideo>[]> {
  if (windows.length === 0) return () => [];
  const from = Math.min(...windows.map((w) => w.from));
  const to = Math.max(...windows.map((w) => w.to));
  const dates = channelDatesForWindow(channel.timezone, from, to);
  const [blocks, streams] = await Promise.all([
    scheduleBlocksFor(db, channel.id, dates[0]!, nextDate(dates.at(-1)!), false),
    liveStreamsFor(db, channel.id, new Date(from), new Date(to)),
  ]);
  const liveStreams = streams.map((s) => ({ ...s, video: { ...s.video, streamUrl: s.uri || s.video.streamUrl } }));
  return (window) => expandWindow({ zone: channel.timezone, from: window.from, to: window.to, blocks, liveStreams, includeUnpublished: false }).flatMap((block) => block.videos);
}

/**
 * For each window, the on-air segments starting in it as entries (the listing rule of
 * src/schedules/on-air-listing.ts since issue 28: an entry a live stream preempts is cut or split;
 * before, every published entry starting in the window, overlapping or not), by start. The
 * occurrences are expanded channel-day by channel-day from the day before the window to the day
 * after it (a day's last entry may be cut by the next day's first), independently of the
 * compiled days.
 */
export async function loadPublishedDays(
  db: Queryable,
  channel: { id: number; timezone: string },
  windows: readonly DayWindow[],
): Promise<(window: DayWindow) => ExpandedVideo<ScheduledVideo>[]> {
  if (windows.length === 0) return () => [];
  const from = Math.min(...windows.map((w) => w.from));
  const to = Math.max(...windows.map((w) => w.to));
  const dates = channelDatesForWindow(channel.timezone, from, to + DAY_MS);
  const first = localDayWindow(dates[0]!, channel.timezone).from;
  const [blocks, streams] = await Promise.all([
    scheduleBlocksFor(db, channel.id, dates[0]!, nextDate(dates.at(-1)!), false),
    liveStreamsFor(db, channel.id, new Date(first), new Date(to + 2 * DAY_MS)),
  ]);
  // A live entry plays the stream's own URI; the video's URL only when the stream has none.
  const liveStreams = streams.map((s) => ({ ...s, video: { ...s.video, streamUrl: s.uri || s.video.streamUrl } }));
  const occurrences = dates.flatMap((date) => expandChannelDay({ zone: channel.timezone, date, blocks, liveStreams, includeUnpublished: false }));
  return (window) => segmentsStartingIn(occurrences, window.from, window.to).map(segmentEntry);
}

/** One channel-local day, as the REST schedule route answered it. */
export async function channelDaySchedule(
  db: Queryable,
  channel: { id: number; timezone: string },
  date: string,
  includeUnpublished: boolean,
): Promise<ExpandedBlock<ScheduledVideo>[]> {
  const window = localDayWindow(date, channel.timezone);
  const [blocks, liveStreams] = await Promise.all([
    scheduleBlocksFor(db, channel.id, date, nextDate(date), includeUnpublished),
    liveStreamsFor(db, channel.id, new Date(window.from), new Date(window.to)),
  ]);
  return expandChannelDay({ zone: channel.timezone, date, blocks, liveStreams, includeUnpublished });
}
