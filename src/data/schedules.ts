// Loads what the pure schedule expansion needs for one channel and a range of local days:
// blocks dated in the range, every loopDaily block dated before its end, and live streams
// starting in a window of instants.
import { and, asc, eq, gte, inArray, lt, or, sql } from 'drizzle-orm';
import type { Queryable } from '../db/connect.ts';
import { liveStreams, scheduleBlocks, scheduleBlockVideos, videos } from '../db/schema.ts';

export const videoColumns = {
  videoTubeId: videos.id,
  ownerId: videos.ownerId,
  title: videos.title,
  description: videos.description,
  thumbnailUrl: videos.thumbnailUrl,
  durationSeconds: videos.durationSeconds,
  providerVideoId: videos.providerVideoId,
  providerName: videos.providerName,
  streamUrl: videos.streamUrl,
  isPrivate: videos.isPrivate,
  isRRated: videos.isRRated,
  isRemovedByProvider: videos.isRemovedByProvider,
  isRestrictedByProvider: videos.isRestrictedByProvider,
};

/** A video as schedules carry it (the expansion's ScheduleVideo, plus what presenters show). */
export interface ScheduledVideo {
  videoTubeId: number;
  ownerId: number;
  title: string;
  description: string | null;
  thumbnailUrl: string;
  /** May be fractional; kept unrounded when chaining. */
  durationSeconds: number;
  providerVideoId: string;
  providerName: string;
  streamUrl: string | null;
  isPrivate: boolean;
  isRRated: boolean;
  isRemovedByProvider: boolean;
  isRestrictedByProvider: boolean;
}

/** A schedule block row with its videos in play order (the expansion's ScheduleBlock). */
export interface ScheduledBlock {
  id: number;
  /** 'yyyy-MM-ddTHH:mm:ss' wall time in the channel zone. */
  startLocal: string;
  published: boolean;
  loopDaily: boolean;
  videos: ScheduledVideo[];
}

/** A live stream row (the expansion's LiveStream) and its stream URI. */
export interface LiveStreamWithUri {
  video: ScheduledVideo;
  start: Date;
  end: Date;
  uri: string;
}

/** PostgreSQL wall time 'yyyy-MM-dd HH:mm:ss' to the expansion's 'yyyy-MM-ddTHH:mm:ss'. */
export const toWall = (db: string): string => db.replace(' ', 'T').slice(0, 19);

/**
 * Blocks of `channelId` dated on [fromDate, toDate) (local 'yyyy-MM-dd'), plus loopDaily
 * blocks dated before toDate. Unpublished ones only when asked.
 */
export async function scheduleBlocksFor(
  db: Queryable,
  channelId: number,
  fromDate: string,
  toDate: string,
  includeUnpublished: boolean,
): Promise<ScheduledBlock[]> {
  const dated = and(gte(scheduleBlocks.startLocal, `${fromDate} 00:00:00`), lt(scheduleBlocks.startLocal, `${toDate} 00:00:00`));
  const looping = and(eq(scheduleBlocks.loopDaily, true), lt(scheduleBlocks.startLocal, `${toDate} 00:00:00`));
  const blocks = await db
    .select()
    .from(scheduleBlocks)
    .where(
      and(
        eq(scheduleBlocks.channelId, channelId),
        or(dated, looping),
        includeUnpublished ? undefined : eq(scheduleBlocks.published, true),
      ),
    );
  if (blocks.length === 0) return [];
  const entries = await db
    .select({ blockId: scheduleBlockVideos.blockId, ...videoColumns })
    .from(scheduleBlockVideos)
    .innerJoin(videos, eq(videos.id, scheduleBlockVideos.videoId))
    .where(inArray(scheduleBlockVideos.blockId, blocks.map((b) => b.id)))
    .orderBy(asc(scheduleBlockVideos.blockId), asc(scheduleBlockVideos.position));
  const videosOf = new Map<number, ScheduledVideo[]>();
  for (const { blockId, ...video } of entries) {
    const list = videosOf.get(blockId) ?? [];
    list.push(video);
    videosOf.set(blockId, list);
  }
  return blocks.map((b) => ({
    id: b.id,
    startLocal: toWall(b.startLocal),
    published: b.published,
    loopDaily: b.loopDaily,
    videos: videosOf.get(b.id) ?? [],
  }));
}

/** Live streams of the channel starting in [from, to). */
export async function liveStreamsFor(db: Queryable, channelId: number, from: Date, to: Date): Promise<LiveStreamWithUri[]> {
  const rows = await db
    .select({ id: liveStreams.id, start: liveStreams.startAt, end: liveStreams.endAt, uri: liveStreams.uri, video: videoColumns })
    .from(liveStreams)
    .innerJoin(videos, eq(videos.id, liveStreams.videoId))
    .where(and(eq(liveStreams.channelId, channelId), gte(liveStreams.startAt, from), lt(liveStreams.startAt, to)))
    .orderBy(asc(liveStreams.startAt));
  return rows;
}

/** [start, end] (epoch ms) of the channel's live streams overlapping [from, to). */
export async function liveStreamSpans(db: Queryable, channelId: number, from: Date, to: Date): Promise<Array<[number, number]>> {
  const rows = await db
    .select({ start: liveStreams.startAt, end: liveStreams.endAt })
    .from(liveStreams)
    .where(and(eq(liveStreams.channelId, channelId), lt(liveStreams.startAt, to), sql`${liveStreams.endAt} > ${from}`));
  return rows.map((r) => [r.start.getTime(), r.end.getTime()]);
}
