// The guide rows of the Custom API (channels/video, and the compatibility trees built on it):
// published schedule entries and live streams of the client's channels for calendar days in the
// request zone (else each channel's), channels as asked, then day, then time.
import type { ChannelRow } from '../data/channels.ts';
import type { Queryable } from '../db/connect.ts';
import { publishedDays, type PublishedEntry } from '../schedules/published-days.ts';
import type { Caller } from '../access/caller.ts';
import { requestedChannels } from '../channels/listing.ts';
import { streamableChannels, withheldVideo } from '../entitlements/gating.ts';
import { MAX_DAY_ENTRIES } from '../schedules/day-entries.ts';
import { TooManyEntries } from '../schedules/entry-counts.ts';
import { invalidField } from './errors.ts';
import { MAX_GUIDE_ENTRIES, MAX_GUIDE_ROWS } from './params.ts';
import type { VideoRowSource } from './presenter.ts';

/** The rows of one channel-day, in play order. */
interface DaySegment {
  channel: ChannelRow;
  entries: readonly PublishedEntry[];
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
  slice(from: number, to: number): VideoRowSource[];
}

/**
 * The rows of segment entries [from, to). customId's last part counts the video's occurrences in
 * that channel-day, so ids are unique and stable: entries before `from` are counted, not built.
 */
function segmentRows({ channel, entries, zone, streamable }: DaySegment, from: number, to: number): VideoRowSource[] {
  const seen = new Map<number, number>();
  const rows: VideoRowSource[] = [];
  for (let i = 0; i < to; i++) {
    const entry = entries[i]!;
    const k = (seen.get(entry.video.videoTubeId) ?? 0) + 1;
    seen.set(entry.video.videoTubeId, k);
    if (i < from) continue;
    rows.push({
      customId: `${channel.id}-${entry.video.videoTubeId}-${k}`,
      // A locked private channel's rows carry nothing that plays: no stream URL, no provider id.
      video: streamable ? entry.video : withheldVideo(entry.video),
      userId: channel.ownerId,
      channelId: channel.id,
      durationSeconds: entry.isLive ? (entry.end - entry.start) / 1000 : entry.video.durationSeconds,
      start: entry.start,
      end: entry.end,
      zone,
      streamUrl: streamable ? entry.video.streamUrl : null,
      isVod: false,
    });
  }
  return rows;
}

const label = (field: string) => field.replaceAll('_', ' ');

/**
 * The rows of the channels (ids outside the client's scope ignored) for the dates; locked private
 * channels carry no stream URL. A guide that would compile more than MAX_GUIDE_ENTRIES entries is
 * a 422 naming `field` (the channel list's).
 */
export async function guideRows(db: Queryable, client: Caller, channelIds: readonly number[], dates: readonly string[], field = 'channels_ids'): Promise<GuideRows> {
  const channels = await requestedChannels(db, client, channelIds);
  const streamable = await streamableChannels(db, client, channels);
  const days = await publishedDays(db, client.timelines, channels, dates, client.zone, MAX_GUIDE_ENTRIES).catch((error: unknown) => {
    if (!(error instanceof TooManyEntries)) throw error;
    throw invalidField(field, `The ${label(field)} times the dates hold ${error.entries} schedule entries to compute; at most ${error.max}: ask fewer channels or dates.`);
  });
  const segments: DaySegment[] = channels.flatMap((channel) =>
    dates.map((date) => ({ channel, entries: days.get(channel.id)!.get(date) ?? [], zone: client.zone ?? channel.timezone, streamable: streamable(channel.id) })),
  );
  return {
    total: segments.reduce((n, s) => n + s.entries.length, 0),
    slice(from, to) {
      const rows: VideoRowSource[] = [];
      let first = 0; // index of the segment's first row in the guide
      for (const segment of segments) {
        const count = segment.entries.length;
        if (first >= to) break;
        if (first + count > from) rows.push(...segmentRows(segment, Math.max(0, from - first), Math.min(count, to - first)));
        first += count;
      }
      return rows;
    },
  };
}

/**
 * Rows of the Roku tree's guide, which answers every row with its video's description (up to
 * 5,000 characters each): two full channel-days (README: Limits).
 */
export const MAX_ROKU_ROWS = 2 * MAX_DAY_ENTRIES;

/** The guide, when all of it may be one answer (all_videos, the Roku tree); a 422 naming `field` past `max` rows. */
export function wholeGuide(rows: GuideRows, field: string, max = MAX_GUIDE_ROWS): GuideRows {
  if (rows.total <= max) return rows;
  throw invalidField(field, `The guide holds ${rows.total} videos; one answer holds at most ${max}: page through it, or ask fewer channels or dates.`);
}
