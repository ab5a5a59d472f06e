// Pure expansion of stored schedule blocks into timed playback entries.
// Shared by the REST schedules route (one channel-day) and the Custom Services API
// (a calendar day in the request's zone). No I/O: callers load blocks and live streams.
import { DateTime } from 'luxon';
import { localDateOf, localDayWindow, requireZone } from './labels.ts';
import { cachedDayWindow, offsetMinutes, type WallTime } from './zone-offsets.ts';

export interface ScheduleVideo {
  videoTubeId: number;
  title: string;
  thumbnailUrl: string;
  /** May be fractional; kept unrounded when chaining. */
  durationSeconds: number;
  providerVideoId: string;
  providerName: string;
  streamUrl: string | null;
}

export interface ScheduleBlock<V extends ScheduleVideo = ScheduleVideo> {
  id: number;
  /** 'yyyy-MM-ddTHH:mm:ss' wall time in the channel zone. */
  startLocal: string;
  published: boolean;
  loopDaily: boolean;
  /** Play order; the same video may appear more than once. */
  videos: V[];
}

export interface LiveStream<V extends ScheduleVideo = ScheduleVideo> {
  video: V;
  start: Date;
  end: Date;
}

export interface ExpandedVideo<V extends ScheduleVideo = ScheduleVideo> {
  video: V;
  /** 1-based position in the block occurrence (kept when expandWindow trims a block). */
  playbackOrderNumber: number;
  /** Epoch ms, may be fractional. */
  start: number;
  end: number;
  isLive: boolean;
  /** Set on a listing's entry cut by the on-air timeline (on-air-listing.ts): it airs only [start, end). */
  cut?: boolean;
}

export interface ExpandedBlock<V extends ScheduleVideo = ScheduleVideo> {
  /** Block id, or -videoTubeId for a live stream. */
  channelScheduleId: number;
  /** Epoch ms of this occurrence (the block's wall time resolved in the channel zone). */
  start: number;
  published: boolean;
  loopDaily: boolean;
  isLive: boolean;
  videos: ExpandedVideo<V>[];
}

export interface ChannelDayInput<V extends ScheduleVideo> {
  zone: string;
  /** 'yyyy-MM-dd', a day in the channel zone. */
  date: string;
  blocks: readonly ScheduleBlock<V>[];
  liveStreams: readonly LiveStream<V>[];
  includeUnpublished: boolean;
}

export interface WindowInput<V extends ScheduleVideo> {
  /** Channel zone. */
  zone: string;
  /** Window of instants [from, to), epoch ms (e.g. localDayWindow of the request zone). */
  from: number;
  to: number;
  blocks: readonly ScheduleBlock<V>[];
  liveStreams: readonly LiveStream<V>[];
  includeUnpublished: boolean;
}

export type { WallTime } from './zone-offsets.ts';

const DAY_MS = 86_400_000;

/**
 * Instant of a wall time in `zone`.
 * - Wall time that exists twice (fall-back overlap, e.g. 01:30 on 2026-11-01 in New York):
 *   the EARLIER instant (first pass, daylight offset). Luxon alone would pick the later one,
 *   so every offset seen around the date is tried and the smallest instant that maps back
 *   to the same wall time wins.
 * - Wall time that does not exist (spring-forward gap, e.g. 02:30 on 2026-03-08 in New York):
 *   resolved the way luxon does, shifted forward by the gap (02:30 becomes 03:30 EDT).
 */
export function wallTimeToEpoch(wall: WallTime, zone: string): number {
  // Offsets from the per-day tables of zone-offsets.ts: the values luxon's zone.offset answers,
  // without an Intl call each (a 200-channel list compiles hundreds of block starts at once).
  const offset = (ms: number) => offsetMinutes(ms, zone);
  const asUtc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second, wall.millisecond);
  const offsets = [offset(asUtc - DAY_MS), offset(asUtc), offset(asUtc + DAY_MS)];
  const exact = offsets.map((o) => asUtc - o * 60_000).filter((ts) => offset(ts) * 60_000 === asUtc - ts);
  return exact.length > 0 ? Math.min(...exact) : DateTime.fromObject(wall, { zone: requireZone(zone) }).toMillis();
}

/** Wall time of `startLocal` for this block's occurrence on `date`, or null when it does not play that day. */
function occurrenceWallTime(block: Pick<ScheduleBlock, 'id' | 'startLocal' | 'loopDaily'>, date: string): WallTime | null {
  const { blockDate, wall } = startOf(block);
  // A loopDaily block repeats only on days AFTER the one it is dated on, never before.
  if (blockDate !== date && !(block.loopDaily && blockDate < date)) return null;
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const { hour, minute, second, millisecond } = wall;
  return { year, month, day, hour, minute, second, millisecond };
}

/** The instant a block's occurrence on channel-local `date` starts, as expandChannelDay places it; null when it does not play that day. */
export function occurrenceStart(block: Pick<ScheduleBlock, 'id' | 'startLocal' | 'loopDaily'>, date: string, zone: string): number | null {
  const wall = occurrenceWallTime(block, date);
  return wall ? wallTimeToEpoch(wall, zone) : null;
}

/** A block's startLocal parsed once per block object (a compile asks it for every day it covers). */
const starts = new WeakMap<object, { startLocal: string; blockDate: string; wall: { hour: number; minute: number; second: number; millisecond: number } }>();

function startOf(block: Pick<ScheduleBlock, 'id' | 'startLocal'>) {
  let start = starts.get(block);
  if (start === undefined || start.startLocal !== block.startLocal) {
    start = plainWallTime(block.startLocal) ?? isoWallTime(block);
    starts.set(block, start);
  }
  return start;
}

const PLAIN_WALL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})$/;

/**
 * 'yyyy-MM-ddTHH:mm:ss' (what the database's wall times read as, see toWall) without luxon: a
 * list parses hundreds of blocks a request, each fresh from its query. Anything else (or a day
 * that does not exist) is left to isoWallTime, which answers the same for these.
 */
export function plainWallTime(startLocal: string) {
  const m = PLAIN_WALL.exec(startLocal);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = m.slice(1).map(Number) as [number, number, number, number, number, number];
  const t = new Date(0);
  t.setUTCFullYear(year, month - 1, day);
  if (t.getUTCMonth() !== month - 1 || t.getUTCDate() !== day || hour > 23 || minute > 59 || second > 59) return undefined;
  return { startLocal, blockDate: startLocal.slice(0, 10), wall: { hour, minute, second, millisecond: 0 } };
}

export function isoWallTime(block: Pick<ScheduleBlock, 'id' | 'startLocal'>) {
  // Only the written wall fields matter: utc does no zone math, setZone keeps them if an offset slipped in.
  const wall = DateTime.fromISO(block.startLocal, { zone: 'utc', setZone: true });
  if (!wall.isValid) throw new RangeError(`block ${block.id}: invalid startLocal ${block.startLocal}`);
  const { hour, minute, second, millisecond } = wall;
  return { startLocal: block.startLocal, blockDate: wall.toFormat('yyyy-MM-dd'), wall: { hour, minute, second, millisecond } };
}

/**
 * Elapsed seconds as ms, rounded to the microsecond on the running SUM (never per video):
 * removes binary float noise (0.1 + 0.2) that could otherwise make a second label drop by one.
 */
export function elapsedMs(seconds: number): number {
  return Math.round(seconds * 1e6) / 1e3;
}

/** A negative or non-finite duration counts as 0 so it cannot move later videos backwards. */
function safeDuration(seconds: number): number {
  return Number.isFinite(seconds) ? Math.max(0, seconds) : 0;
}

/** Videos chain in elapsed time from the block instant, so a DST shift inside a block is harmless. */
function expandBlock<V extends ScheduleVideo>(block: ScheduleBlock<V>, start: number): ExpandedBlock<V> {
  let elapsed = 0;
  const videos = block.videos.map((video, i): ExpandedVideo<V> => {
    const videoStart = start + elapsedMs(elapsed);
    elapsed += safeDuration(video.durationSeconds);
    return { video, playbackOrderNumber: i + 1, start: videoStart, end: start + elapsedMs(elapsed), isLive: false };
  });
  return { channelScheduleId: block.id, start, published: block.published, loopDaily: block.loopDaily, isLive: false, videos };
}

/** A live stream is a single-video, always-published block keyed by the negative video id. */
function liveBlock<V extends ScheduleVideo>(stream: LiveStream<V>): ExpandedBlock<V> {
  const start = stream.start.getTime();
  const end = Math.max(start, stream.end.getTime());
  return {
    channelScheduleId: -stream.video.videoTubeId,
    start,
    published: true,
    loopDaily: false,
    isLive: true,
    videos: [{ video: stream.video, playbackOrderNumber: 1, start, end, isLive: true }],
  };
}

/** By start; ties put regular blocks before live ones, then by id, so output is deterministic. */
function compareBlocks(a: ExpandedBlock<ScheduleVideo>, b: ExpandedBlock<ScheduleVideo>): number {
  return a.start - b.start || Number(a.isLive) - Number(b.isLive) || a.channelScheduleId - b.channelScheduleId;
}

/** One entry per block occurrence (kind + id + start): callers may pass a block twice, e.g. from a date query and a loopDaily query. */
export function uniqueSorted<V extends ScheduleVideo>(blocks: ExpandedBlock<V>[]): ExpandedBlock<V>[] {
  const seen = new Map<string, ExpandedBlock<V>>();
  for (const b of blocks) {
    const key = `${b.isLive ? 'live' : 'block'}:${b.channelScheduleId}:${b.start}`;
    if (!seen.has(key)) seen.set(key, b);
  }
  return [...seen.values()].sort(compareBlocks);
}

/**
 * Blocks of one channel-day (REST GET /channels/{id}/schedules?date=...): blocks dated that
 * day, loopDaily blocks dated earlier repeated at their wall time, and live streams starting that
 * day. A block running past midnight still belongs to the day it starts on.
 */
export function expandChannelDay<V extends ScheduleVideo>(input: ChannelDayInput<V>): ExpandedBlock<V>[] {
  const { zone, date, includeUnpublished } = input;
  const { from, to } = cachedDayWindow(date, zone); // also validates date and zone (localDayWindow)
  const regular = input.blocks
    .filter((b) => includeUnpublished || b.published)
    .flatMap((b) => {
      const start = occurrenceStart(b, date, zone);
      return start === null ? [] : [expandBlock(b, start)];
    });
  const live = input.liveStreams.filter((s) => s.start.getTime() >= from && s.start.getTime() < to).map(liveBlock);
  return uniqueSorted([...regular, ...live]);
}

/**
 * Channel-local dates whose blocks can have a video starting in [from, to): every day overlapping
 * the window plus the day before the first, because a block that starts late on that day can run
 * past midnight into the window. Callers load blocks dated on these days.
 */
export function channelDatesForWindow(zone: string, from: number, to: number): string[] {
  if (!(to > from)) return [];
  const last = localDateOf(Math.ceil(to) - 1, zone); // `to` is exclusive
  const first = DateTime.fromISO(localDateOf(from, zone), { zone: 'utc' }).minus({ days: 1 }); // utc: pure date stepping
  const end = DateTime.fromISO(last, { zone: 'utc' });
  const dates: string[] = [];
  // Compared as instants, not as text: '10000-01-01' sorts before '9999-12-31', which never ended the loop.
  for (let day = first; day <= end; day = day.plus({ days: 1 })) {
    dates.push(day.toFormat('yyyy-MM-dd'));
  }
  return dates;
}

/**
 * Custom Services API: entries whose playback starts in [from, to), a day in the REQUEST zone that
 * may straddle two or three channel-days. Each such channel-day (see channelDatesForWindow)
 * is expanded, each block keeps only its videos starting in the window (with their original
 * playbackOrderNumber and the occurrence start), blocks left empty are dropped, duplicates removed.
 * The caller passes candidate blocks dated on channelDatesForWindow(...) plus ALL loopDaily blocks
 * dated before the window's last channel-day; blocks dated elsewhere are ignored anyway.
 */
export function expandWindow<V extends ScheduleVideo>(input: WindowInput<V>): ExpandedBlock<V>[] {
  const { zone, from, to, blocks, liveStreams, includeUnpublished } = input;
  const trimmed = channelDatesForWindow(zone, from, to)
    .flatMap((date) => expandChannelDay({ zone, date, blocks, liveStreams, includeUnpublished }))
    .map((b) => ({ ...b, videos: b.videos.filter((v) => v.start >= from && v.start < to) }))
    .filter((b) => b.videos.length > 0);
  return uniqueSorted(trimmed);
}

/**
 * Totals for a list of expanded blocks, regular and live entries alike. Regular entries add their
 * stored duration (exact, no instant round trip); live entries and cut ones add end - start.
 */
export function scheduleTotals(blocks: readonly ExpandedBlock<ScheduleVideo>[]): {
  totalVideos: number;
  totalDurationSeconds: number;
} {
  let totalVideos = 0;
  let totalDurationSeconds = 0;
  for (const v of blocks.flatMap((b) => b.videos)) {
    totalVideos += 1;
    totalDurationSeconds += v.isLive || v.cut ? (v.end - v.start) / 1000 : safeDuration(v.video.durationSeconds);
  }
  return { totalVideos, totalDurationSeconds };
}
