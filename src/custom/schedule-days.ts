// Published schedule entries of a channel for calendar days of any zone (the request's or the
// channel's): one load of blocks and live streams covering every day asked, then the shared
// pure expansion per day. Only published blocks and live streams count in the Custom API.
import { liveStreamsFor, scheduleBlocksFor, type ScheduledVideo } from '../data/schedules.ts';
import type { Queryable } from '../db/connect.ts';
import { nextDate } from '../schedules/channel-day.ts';
import { channelDatesForWindow, expandWindow, type ExpandedVideo } from '../schedules/expand.ts';
import { localDayWindow } from '../schedules/labels.ts';

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

/** For each window, the entries whose playback starts in it, in play order. */
export async function loadPublishedDays(
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
  // A live entry plays the stream's own URI; the video's URL only when the stream has none.
  const liveStreams = streams.map((s) => ({ ...s, video: { ...s.video, streamUrl: s.uri || s.video.streamUrl } }));
  return (window) =>
    expandWindow({ zone: channel.timezone, from: window.from, to: window.to, blocks, liveStreams, includeUnpublished: false }).flatMap(
      (block) => block.videos,
    );
}
