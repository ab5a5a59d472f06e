// The Studio's expanded days (GET /channels/{id}/days/{date}) as bars for the week view, pure.
import type { Day } from '../../api/types.ts';
import { wallToMs } from './geometry.ts';

export type { Day };

export interface Bar {
  key: string;
  blockId: number | null;
  live: boolean;
  published: boolean;
  loopDaily: boolean;
  /** A daily block's occurrence on a later day than its first. */
  repeat: boolean;
  title: string;
  /** How many videos the occurrence plays (a block is named by its times and its videos, never its id). */
  videoCount: number;
  start: number;
  end: number;
  /** The occurrence's wall-clock start in the channel's zone. */
  startTime: string;
  /** What the occurrence plays, each video's length in seconds (what a resize counts with). */
  videos: Array<{ videoId: number; seconds: number }>;
}

/** Bars of the days' entries, each occurrence once (a day may list an entry another day lists too). */
export function barsOf(days: readonly Day[], zone: string, firstDates: ReadonlyMap<number, string>): Bar[] {
  const bars = new Map<string, Bar>();
  for (const day of days) {
    for (const entry of day.entries) {
      const first = entry.videos[0];
      const last = entry.videos[entry.videos.length - 1];
      // A live stream is named by its video: it has no block.
      const key = entry.blockId === null ? `live-${first?.videoId}-${entry.startTime}` : `block-${entry.blockId}-${entry.startTime}`;
      if (bars.has(key)) continue;
      const start = wallToMs(first?.playbackStartTime ?? entry.startTime, zone);
      const end = last ? wallToMs(last.playbackEndTime, zone) : start;
      const origin = entry.blockId === null ? undefined : firstDates.get(entry.blockId);
      bars.set(key, {
        key,
        blockId: entry.blockId,
        live: entry.isLive,
        published: entry.published,
        loopDaily: entry.loopDaily,
        repeat: entry.loopDaily && origin !== undefined && entry.startTime.slice(0, 10) > origin,
        title: first?.title ?? '(no videos)',
        videoCount: entry.videos.length,
        start,
        end: Math.max(end, start),
        startTime: entry.startTime,
        videos: entry.videos.map((v) => ({ videoId: v.videoId, seconds: Math.max(0, (wallToMs(v.playbackEndTime, zone) - wallToMs(v.playbackStartTime, zone)) / 1000) })),
      });
    }
  }
  return [...bars.values()].sort((a, b) => a.start - b.start);
}

/**
 * The accessible name of a bar: "Block 08:00–08:10: Morning news and 2 more, published". Blocks
 * have no name of their own (the catalog has none), so a creator knows one by when it plays and
 * what it plays first; the id is the API's, not theirs.
 */
export function barLabel(bar: Bar, clock: (ms: number) => string): string {
  const times = `${clock(bar.start)}–${clock(bar.end)}`;
  if (bar.live) return `Live stream: ${bar.title}, ${times}`;
  const state = [bar.published ? 'published' : 'unpublished', ...(bar.loopDaily ? [bar.repeat ? 'daily repeat' : 'repeats daily'] : [])];
  const more = bar.videoCount > 1 ? ` and ${bar.videoCount - 1} more` : '';
  return `Block ${times}: ${bar.title}${more}, ${state.join(', ')}`;
}

/** The most videos a resize puts in a block (a day of one-minute videos; the API allows more). */
export const MAX_RESIZED_VIDEOS = 1440;

/**
 * A block's videos for a new length (calendar resize): the block's own list, from its first
 * video, repeated in order while the next video ends within `seconds`; so shorter drops trailing
 * videos and longer plays the list again. The first video always stays; a list of 0-second
 * videos stops at the list itself.
 */
export function resizedVideoIds(videos: ReadonlyArray<{ videoId: number; seconds: number }>, seconds: number): number[] {
  if (videos.length === 0) return [];
  const cycle = videos.reduce((sum, v) => sum + v.seconds, 0);
  const ids: number[] = [];
  let total = 0;
  for (let i = 0; ids.length < MAX_RESIZED_VIDEOS; i++) {
    if (cycle === 0 && i >= videos.length) break;
    const video = videos[i % videos.length]!;
    if (ids.length > 0 && total + video.seconds > seconds) break;
    ids.push(video.videoId);
    total += video.seconds;
  }
  return ids;
}

/**
 * A block as a creator knows it, in announcements and alerts: "the 'Morning news' block (08:00)".
 * Blocks have no name of their own (the catalog format has none): their first programme and
 * their start stand for it, never the id.
 */
export function blockName(bar: Pick<Bar, 'title' | 'start' | 'live'>, clock: (ms: number) => string): string {
  return bar.live ? `the live stream '${bar.title}' (${clock(bar.start)})` : `the '${bar.title}' block (${clock(bar.start)})`;
}

/** A wall time 'yyyy-MM-ddTHH:mm:ss' as said: "Tue 1 Dec 08:15". */
export function wallWords(wall: string): string {
  const day = new Date(`${wall.slice(0, 10)}T12:00:00Z`).toLocaleDateString('en-GB', { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' }).replace(',', '');
  return `${day} ${wall.slice(11, 16)}`;
}
