// Guide rows: what a TV app lists and plays, one row per published schedule entry or live stream
// of the caller's channels for calendar days in the request zone (else each channel's), channels
// as asked, then day, then time; and the VOD catalog's rows in the same shape. Used by the Custom
// API's guide and VOD routes, its compatibility trees and the Studio's guide preview.
import type { Caller, CatalogReads } from '../access/caller.ts';
import type { ChannelRow } from '../data/channels.ts';
import type { VodVideo } from '../data/vod.ts';
import { publishedDays, type PublishedWindow } from '../schedules/published-days.ts';
import { WindowEntries } from '../schedules/listing.ts';
import { TooManyEntries } from '../schedules/entry-counts.ts';
import { requestedChannels } from './listing.ts';
import { streamableChannels, withheldVideo } from './playback.ts';

/**
 * Schedule entries one guide may compile (days not compiled yet, counted from the schedule first,
 * src/schedules/entry-counts.ts): ~0.1 s of CPU. More is refused, whatever the Custom API's
 * MAX_CHANNEL_DAYS allows: at 144 entries a day that is a date of ~50 channels not compiled yet
 * in their own zone (each date needs the day before too), ~34 in another zone; at 720 (a full
 * day) 18 dates of one channel. Days already compiled (every channel's today, by the channel
 * lists) cost nothing and are not counted.
 */
export const MAX_GUIDE_ENTRIES = 15_000;

const NO_ENTRIES: PublishedWindow = new WindowEntries([]);

/** One row of a guide or a VOD catalog, before a group presents it. */
export interface GuideRow {
  customId: string;
  video: { videoTubeId: number; title: string; providerVideoId: string; providerName: string; thumbnailUrl: string; streamUrl: string | null };
  userId: number;
  channelId: number;
  durationSeconds: number;
  /** Epoch ms of playback start and end, rendered in `zone`. */
  start: number;
  end: number;
  zone: string;
  streamUrl: string | null;
  isVod: boolean;
}

/** The rows of one channel-day, in play order. */
interface ChannelDayRows {
  channel: ChannelRow;
  entries: PublishedWindow;
  zone: string;
  streamable: boolean;
}

/**
 * A guide's rows without building them: `total` counts them, `slice` builds only the rows asked
 * (a page of 100 out of 1,440 costs a page, not the whole guide). Channels as asked, then day,
 * then time.
 */
export interface GuideRows {
  total: number;
  slice(from: number, to: number): GuideRow[];
  /** The first start or end of an entry of the guide after `now` (Infinity: none): the next programme boundary, where an answer that shows what is on air may change. */
  boundaryAfter(now: number): number;
}

/** A guide that would compile more than MAX_GUIDE_ENTRIES entries. */
export interface TooBigGuide {
  refused: 'too_many_entries';
  entries: number;
  max: number;
}

/**
 * The rows of channel-day entries [from, to). customId's last part counts the video's occurrences
 * in that channel-day, so ids are unique and stable: entries before `from` are counted, not built.
 */
function channelDayRows({ channel, entries, zone, streamable }: ChannelDayRows, from: number, to: number): GuideRow[] {
  const seen = new Map<number, number>();
  const rows: GuideRow[] = [];
  let i = 0; // the window index of the entry
  for (const run of entries.runs) {
    for (let at = run.from; at < run.to && i < to; at++, i++) {
      const video = run.listing.video(at);
      const k = (seen.get(video.videoTubeId) ?? 0) + 1;
      seen.set(video.videoTubeId, k);
      if (i < from) continue;
      const entry = run.listing.entry(at);
      rows.push({
        customId: `${channel.id}-${entry.video.videoTubeId}-${k}`,
        // A locked private channel's rows carry nothing that plays: no stream URL, no provider id.
        video: streamable ? entry.video : withheldVideo(entry.video),
        userId: channel.ownerId,
        channelId: channel.id,
        // A live row and a row the on-air timeline cut last what they air; a whole entry its video's duration.
        durationSeconds: entry.isLive || entry.cut ? (entry.end - entry.start) / 1000 : entry.video.durationSeconds,
        start: entry.start,
        end: entry.end,
        zone,
        streamUrl: streamable ? entry.video.streamUrl : null,
        isVod: false,
      });
    }
  }
  return rows;
}

/**
 * The rows of the channels (ids outside the caller's scope ignored) for the dates; locked private
 * channels carry no stream URL. A guide that would compile more than MAX_GUIDE_ENTRIES entries is
 * refused.
 */
export async function guideRows(reads: CatalogReads, caller: Caller, channelIds: readonly number[], dates: readonly string[]): Promise<GuideRows | TooBigGuide> {
  const { db } = reads;
  const channels = await requestedChannels(reads, caller, channelIds);
  const streamable = await streamableChannels(db, caller, channels);
  let days;
  try {
    days = await publishedDays(db, reads.timelines, channels, dates, caller.zone, MAX_GUIDE_ENTRIES);
  } catch (error) {
    if (!(error instanceof TooManyEntries)) throw error;
    return { refused: 'too_many_entries', entries: error.entries, max: error.max };
  }
  const channelDays: ChannelDayRows[] = channels.flatMap((channel) =>
    dates.map((date) => ({ channel, entries: days.get(channel.id)!.get(date) ?? NO_ENTRIES, zone: caller.zone ?? channel.timezone, streamable: streamable(channel.id) })),
  );
  return {
    total: channelDays.reduce((n, s) => n + s.entries.length, 0),
    slice(from, to) {
      const rows: GuideRow[] = [];
      let first = 0; // index of the channel-day's first row in the guide
      for (const day of channelDays) {
        const count = day.entries.length;
        if (first >= to) break;
        if (first + count > from) rows.push(...channelDayRows(day, Math.max(0, from - first), Math.min(count, to - first)));
        first += count;
      }
      return rows;
    },
    boundaryAfter(now) {
      let next = Infinity;
      for (const day of channelDays) next = Math.min(next, day.entries.nextBoundary(now));
      return next;
    },
  };
}

/**
 * A VOD catalog row. VOD rows have no air time: start is the request time and end start + duration
 * (clients show timeDuration). A row that may not play still sells the video; it carries nothing
 * that plays it (see playableVod).
 */
export function vodRow(caller: Caller, channel: ChannelRow, video: VodVideo, playable: boolean): GuideRow {
  const start = caller.now.getTime();
  return {
    customId: `${channel.id}-${video.videoTubeId}-vod`,
    video: playable ? video : withheldVideo(video),
    userId: channel.ownerId,
    channelId: channel.id,
    durationSeconds: video.durationSeconds,
    start,
    end: start + Math.max(0, video.durationSeconds) * 1000,
    zone: caller.zone ?? channel.timezone,
    streamUrl: playable ? video.streamUrl : null,
    isVod: true,
  };
}
