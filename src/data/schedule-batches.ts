// Schedule data for MANY channels at once, one query per table whatever the channel count: what
// a channel list or a guide needs to compile its channels' days (src/schedules/timelines.ts).
// Same rows as scheduleBlocksFor / liveStreamsFor / liveStreamSpans, grouped by channel.
import { and, asc, eq, gte, inArray, lt, or, sql, type SQL } from 'drizzle-orm';
import { QueryBuilder } from 'drizzle-orm/pg-core';
import type { Queryable } from '../db/connect.ts';
import { liveStreams, scheduleBlocks, scheduleBlockVideos, videos } from '../db/schema.ts';
import { toWall, videoColumns, type ScheduledVideo } from './schedules.ts';

/**
 * A scheduled video as the batched loads carry it: without its description (up to 5,000
 * characters, shown by no guide row; the few answers that show one read it for their videos,
 * see video-categories.ts), so what a compiled day holds per video stays small.
 */
export type BatchVideo = Omit<ScheduledVideo, 'description'>;
export type BatchBlock = { id: number; startLocal: string; published: boolean; loopDaily: boolean; videos: BatchVideo[] };
export type BatchLiveStream = { id: number; video: BatchVideo; start: Date; end: Date; uri: string };

const { description: _description, ...batchVideoColumns } = videoColumns;

/** Channel-local dates [fromDate, toDate) of one channel ('yyyy-MM-dd'). */
export interface ChannelDates {
  channelId: number;
  fromDate: string;
  toDate: string;
}

function push<K, T>(map: Map<K, T[]>, key: K, value: T): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** Channels sharing a date range share one condition: a network has as many ranges as zones, not channels. */
function blockCondition(ranges: readonly ChannelDates[]): SQL | undefined {
  const byRange = new Map<string, number[]>();
  for (const r of ranges) push(byRange, `${r.fromDate}|${r.toDate}`, r.channelId);
  return or(
    ...[...byRange].map(([key, ids]) => {
      const [fromDate, toDate] = key.split('|') as [string, string];
      const dated = and(gte(scheduleBlocks.startLocal, `${fromDate} 00:00:00`), lt(scheduleBlocks.startLocal, `${toDate} 00:00:00`));
      const looping = and(eq(scheduleBlocks.loopDaily, true), lt(scheduleBlocks.startLocal, `${toDate} 00:00:00`));
      return and(inArray(scheduleBlocks.channelId, ids), or(dated, looping));
    }),
  );
}

/**
 * Per channel, its blocks dated in its range plus loopDaily blocks dated before the range's end
 * (scheduleBlocksFor for every channel at once). Two queries: the blocks with their entries' video
 * ids in order (an array per block: a query fewer on every cold read), and the distinct videos (a
 * 144-entry day of a 30-video library loads 30 video rows, not 144).
 */
export async function scheduleBlocksForChannels(
  db: Queryable,
  ranges: readonly ChannelDates[],
  includeUnpublished: boolean,
): Promise<Map<number, BatchBlock[]>> {
  const result = new Map<number, BatchBlock[]>();
  if (ranges.length === 0) return result;
  const blocks = await db
    .select({
      id: scheduleBlocks.id,
      channelId: scheduleBlocks.channelId,
      startLocal: scheduleBlocks.startLocal,
      published: scheduleBlocks.published,
      loopDaily: scheduleBlocks.loopDaily,
      videoIds: sql<number[]>`array(select ${scheduleBlockVideos.videoId} from ${scheduleBlockVideos} where ${scheduleBlockVideos.blockId} = ${scheduleBlocks.id} order by ${scheduleBlockVideos.position})`,
    })
    .from(scheduleBlocks)
    .where(and(blockCondition(ranges), includeUnpublished ? undefined : eq(scheduleBlocks.published, true)))
    .orderBy(asc(scheduleBlocks.channelId), asc(scheduleBlocks.id));
  if (blocks.length === 0) return result;
  const entries = blocks.flatMap((b) => b.videoIds.map((videoId) => ({ blockId: b.id, videoId })));
  const videoIds = [...new Set(entries.map((e) => e.videoId))];
  // The ids as one array parameter: a day may name hundreds of distinct videos.
  const rows = videoIds.length === 0 ? [] : await db.select(batchVideoColumns).from(videos).where(sql`${videos.id} = any(${sql.param(videoIds)}::integer[])`);
  const videoById = new Map(rows.map((v) => [v.videoTubeId, v]));
  const videosOf = new Map<number, BatchVideo[]>();
  // The inner join of scheduleBlocksFor: an entry whose video row is missing is left out.
  for (const e of entries) {
    const video = videoById.get(e.videoId);
    if (video) push(videosOf, e.blockId, video);
  }
  for (const b of blocks) {
    push(result, b.channelId, {
      id: b.id,
      startLocal: toWall(b.startLocal),
      published: b.published,
      loopDaily: b.loopDaily,
      videos: videosOf.get(b.id) ?? [],
    });
  }
  return result;
}

/** Per channel, its live streams starting in [from, to), by start (liveStreamsFor for many channels). */
export async function liveStreamsForChannels(
  db: Queryable,
  channelIds: readonly number[],
  from: Date,
  to: Date,
): Promise<Map<number, BatchLiveStream[]>> {
  const result = new Map<number, BatchLiveStream[]>();
  if (channelIds.length === 0) return result;
  const rows = await db
    .select({ channelId: liveStreams.channelId, id: liveStreams.id, start: liveStreams.startAt, end: liveStreams.endAt, uri: liveStreams.uri, video: batchVideoColumns })
    .from(liveStreams)
    .innerJoin(videos, eq(videos.id, liveStreams.videoId))
    .where(and(inArray(liveStreams.channelId, [...channelIds]), gte(liveStreams.startAt, from), lt(liveStreams.startAt, to)))
    .orderBy(asc(liveStreams.channelId), asc(liveStreams.startAt), asc(liveStreams.id));
  for (const { channelId, ...stream } of rows) push(result, channelId, stream);
  return result;
}

/** Per channel, [start, end] (epoch ms) of its live streams overlapping [from, to) (liveStreamSpans for many). */
export async function liveStreamSpansForChannels(
  db: Queryable,
  channelIds: readonly number[],
  from: Date,
  to: Date,
): Promise<Map<number, Array<[number, number]>>> {
  const result = new Map<number, Array<[number, number]>>();
  if (channelIds.length === 0) return result;
  const rows = await db
    .select({ channelId: liveStreams.channelId, id: liveStreams.id, start: liveStreams.startAt, end: liveStreams.endAt })
    .from(liveStreams)
    .where(and(inArray(liveStreams.channelId, [...channelIds]), lt(liveStreams.startAt, to), sql`${liveStreams.endAt} > ${from}`));
  for (const r of rows) push(result, r.channelId, [r.start.getTime(), r.end.getTime()]);
  return result;
}

/** A block as a count of what compiling its days costs: its wall time, whether it loops, how many videos it holds. */
export interface BlockSize {
  startLocal: string;
  loopDaily: boolean;
  videos: number;
}

/**
 * Per channel, the blocks scheduleBlocksForChannels(ranges, true) loads, each with the number of
 * its videos and none of its entries: one query, one row per block (the count reads the
 * entries' primary key only).
 */
export async function blockSizesForChannels(db: Queryable, ranges: readonly ChannelDates[]): Promise<Map<number, BlockSize[]>> {
  const result = new Map<number, BlockSize[]>();
  if (ranges.length === 0) return result;
  const rows = await db
    .select({
      channelId: scheduleBlocks.channelId,
      startLocal: scheduleBlocks.startLocal,
      loopDaily: scheduleBlocks.loopDaily,
      videos: sql<number>`(select count(*)::integer from ${scheduleBlockVideos} where ${scheduleBlockVideos.blockId} = ${scheduleBlocks.id})`,
    })
    .from(scheduleBlocks)
    .where(blockCondition(ranges));
  for (const { channelId, startLocal, ...size } of rows) push(result, channelId, { startLocal: toWall(startLocal), ...size, videos: Number(size.videos) });
  return result;
}

/**
 * A published block as the span of its entries' starts, without its entries: how many videos it
 * holds, when its last video starts (seconds after the block's start: the durations before it,
 * summed in play order as the expansion sums them) and the longest of those durations (the
 * widest gap between two of its entries' starts).
 */
export interface BlockSpan {
  id: number;
  startLocal: string;
  loopDaily: boolean;
  videos: number;
  lastStartSeconds: number;
  longestGapSeconds: number;
}

/**
 * Per channel, the published blocks scheduleBlocksForChannels(ranges, false) loads, as spans: one
 * query, one row per block, whatever the blocks hold. A duration counts as the expansion counts it
 * (negative or not finite: 0); the sum is float8 addition in position order, the expansion's own.
 */
export async function blockSpansForChannels(db: Queryable, ranges: readonly ChannelDates[]): Promise<Map<number, BlockSpan[]>> {
  const result = new Map<number, BlockSpan[]>();
  if (ranges.length === 0) return result;
  const d = videos.durationSeconds;
  // A subquery built apart from `db`: only the query below runs.
  const entries = new QueryBuilder()
    .select({
      position: scheduleBlockVideos.position,
      seconds: sql<number>`case when ${d} > 0 and ${d} < 'Infinity'::float8 then ${d} else 0::float8 end`.as('seconds'),
      last: sql<number>`max(${scheduleBlockVideos.position}) over ()`.as('last_position'),
    })
    .from(scheduleBlockVideos)
    .innerJoin(videos, eq(videos.id, scheduleBlockVideos.videoId))
    .where(eq(scheduleBlockVideos.blockId, scheduleBlocks.id))
    .as('e');
  const before = sql`${entries.position} < ${entries.last}`;
  const rows = await db
    .select({
      id: scheduleBlocks.id,
      channelId: scheduleBlocks.channelId,
      startLocal: scheduleBlocks.startLocal,
      loopDaily: scheduleBlocks.loopDaily,
      videos: sql<number>`count(*)::integer`,
      lastStartSeconds: sql<number>`coalesce(sum(${entries.seconds} order by ${entries.position}) filter (where ${before}), 0)::float8`,
      longestGapSeconds: sql<number>`coalesce(max(${entries.seconds}) filter (where ${before}), 0)::float8`,
    })
    .from(scheduleBlocks)
    .innerJoinLateral(entries, sql`true`)
    .where(and(blockCondition(ranges), eq(scheduleBlocks.published, true)))
    .groupBy(scheduleBlocks.id);
  for (const { channelId, startLocal, ...span } of rows) {
    push(result, channelId, {
      id: span.id,
      startLocal: toWall(startLocal),
      loopDaily: span.loopDaily,
      videos: Number(span.videos),
      lastStartSeconds: Number(span.lastStartSeconds),
      longestGapSeconds: Number(span.longestGapSeconds),
    });
  }
  return result;
}

/** A published block that plays something: its wall time and whether it loops. */
export type PlayingBlock = Pick<BlockSpan, 'id' | 'startLocal' | 'loopDaily'>;

/**
 * Per channel, the published blocks of scheduleBlocksForChannels(ranges, false) holding at least
 * one video, without reading their videos: one row per block, one index probe each.
 */
export async function playingBlocksForChannels(db: Queryable, ranges: readonly ChannelDates[]): Promise<Map<number, PlayingBlock[]>> {
  const result = new Map<number, PlayingBlock[]>();
  if (ranges.length === 0) return result;
  const rows = await db
    .select({ id: scheduleBlocks.id, channelId: scheduleBlocks.channelId, startLocal: scheduleBlocks.startLocal, loopDaily: scheduleBlocks.loopDaily })
    .from(scheduleBlocks)
    .where(and(
      blockCondition(ranges),
      eq(scheduleBlocks.published, true),
      sql`exists (select 1 from ${scheduleBlockVideos} join ${videos} on ${videos.id} = ${scheduleBlockVideos.videoId} where ${scheduleBlockVideos.blockId} = ${scheduleBlocks.id})`,
    ));
  for (const { channelId, startLocal, ...block } of rows) push(result, channelId, { ...block, startLocal: toWall(startLocal) });
  return result;
}

/** Per channel, the starts (epoch ms) of its live streams starting in [from, to) (those liveStreamsForChannels loads). */
export async function liveStartsForChannels(db: Queryable, channelIds: readonly number[], from: Date, to: Date): Promise<Map<number, number[]>> {
  const result = new Map<number, number[]>();
  if (channelIds.length === 0) return result;
  const rows = await db
    .select({ channelId: liveStreams.channelId, start: liveStreams.startAt })
    .from(liveStreams)
    .innerJoin(videos, eq(videos.id, liveStreams.videoId))
    .where(and(inArray(liveStreams.channelId, [...channelIds]), gte(liveStreams.startAt, from), lt(liveStreams.startAt, to)));
  for (const r of rows) push(result, r.channelId, r.start.getTime());
  return result;
}
