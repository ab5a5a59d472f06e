// Queries behind a schedule write that reads only the days it touches (issue 37): the blocks that
// can meet a window of wall times, the entries already on some channel-days, the loops. Block
// figures (video count, seconds played) come from schedule_block_figures, kept by triggers
// (drizzle/0016_h37_writes.sql), so none of this reads the videos of blocks it does not return.
import { and, asc, eq, gte, inArray, lt, notInArray, or, sql, type SQL } from 'drizzle-orm';
import type { Queryable } from '../db/connect.ts';
import * as t from '../db/schema.ts';

/** A block in the catalog's form, wall time 'yyyy-MM-ddTHH:mm:ss'. */
export interface StoredBlock {
  id: number;
  channelId: number;
  startTime: string;
  published: boolean;
  loopDaily: boolean;
  videoIds: number[];
}

/** Blocks whose figures say they play longer than this are looked for before a window's start. */
export const LONG_BLOCK_SECONDS = 86_400;

const b = t.scheduleBlocks;
const f = t.scheduleBlockFigures;
const toWall = (db: string): string => db.replace(' ', 'T').slice(0, 19);
const excluding = (ids: readonly number[]): SQL | undefined => (ids.length > 0 ? notInArray(b.id, [...ids]) : undefined);

/**
 * Ids of the channel's blocks that can meet wall times [from, to) ('yyyy-MM-dd HH:mm:ss'): the
 * one-off blocks starting in it, those starting before it that play longer than a day and reach
 * it (a day of margin for the zone's offset changes), and every loop (a loop plays every day from
 * its start; a channel-day's entry bound keeps them few). `to` undefined: no end.
 */
export async function blockIdsNear(db: Queryable, channelId: number, from: string, to: string | undefined, exclude: readonly number[]): Promise<number[]> {
  const [near, long, loops] = await Promise.all([
    db.select({ id: b.id }).from(b).where(and(eq(b.channelId, channelId), eq(b.loopDaily, false), gte(b.startLocal, from), to === undefined ? undefined : lt(b.startLocal, to), excluding(exclude))),
    db
      .select({ id: b.id })
      .from(f)
      .innerJoin(b, eq(b.id, f.blockId))
      .where(and(
        eq(f.channelId, channelId), sql`${f.spanSeconds} >= ${LONG_BLOCK_SECONDS}`, eq(b.channelId, channelId), eq(b.loopDaily, false), lt(b.startLocal, from),
        sql`${b.startLocal} + (${f.spanSeconds} + 86400) * interval '1 second' > ${from}::timestamp`, excluding(exclude),
      )),
    db.select({ id: b.id }).from(b).where(and(eq(b.channelId, channelId), eq(b.loopDaily, true), excluding(exclude))),
  ]);
  return [...new Set([...near, ...long, ...loops].map((r) => r.id))];
}

/**
 * Ids of the channel's one-off blocks starting from `from` on whose wall times of day can meet a
 * daily loop at `startSecond` (seconds into the day) playing `lengthSeconds`: a block whose start
 * falls in the loop's hours, or whose length reaches the loop's start, with `marginSeconds` each
 * way for the zone's offset changes. Read from the figures alone: a loop is checked against every
 * later day without reading every later block's videos.
 */
export async function oneOffIdsMeetingDaily(
  db: Queryable, channelId: number, from: string, startSecond: number, lengthSeconds: number, marginSeconds: number, exclude: readonly number[],
): Promise<number[]> {
  const tod = sql`extract(epoch from ${b.startLocal}::time)`;
  const span = sql`coalesce(${f.spanSeconds}, ${LONG_BLOCK_SECONDS})`;
  const rows = await db
    .select({ id: b.id })
    .from(b)
    .leftJoin(f, eq(f.blockId, b.id))
    .where(and(
      eq(b.channelId, channelId), eq(b.loopDaily, false), gte(b.startLocal, from), excluding(exclude),
      sql`(${span} + ${lengthSeconds} + ${2 * marginSeconds} >= 86400
        or mod((${tod} - ${startSecond} + 172800)::numeric, 86400) < ${lengthSeconds + marginSeconds}
        or mod((${startSecond} - ${tod} + 172800)::numeric, 86400) < ${span} + ${marginSeconds})`,
    ));
  return rows.map((r) => r.id);
}

/** The blocks of these ids with their videos, by start then id. */
export async function blocksByIds(db: Queryable, ids: readonly number[]): Promise<StoredBlock[]> {
  if (ids.length === 0) return [];
  const [rows, videos] = await Promise.all([
    db.select().from(b).where(inArray(b.id, [...ids])).orderBy(asc(b.startLocal), asc(b.id)),
    db
      .select({ blockId: t.scheduleBlockVideos.blockId, videoId: t.scheduleBlockVideos.videoId })
      .from(t.scheduleBlockVideos)
      .where(inArray(t.scheduleBlockVideos.blockId, [...ids]))
      .orderBy(asc(t.scheduleBlockVideos.blockId), asc(t.scheduleBlockVideos.position)),
  ]);
  const lists = new Map<number, number[]>();
  for (const v of videos) {
    const list = lists.get(v.blockId);
    if (list) list.push(v.videoId);
    else lists.set(v.blockId, [v.videoId]);
  }
  return rows.map((r) => ({ id: r.id, channelId: r.channelId, startTime: toWall(r.startLocal), published: r.published, loopDaily: r.loopDaily, videoIds: lists.get(r.id) ?? [] }));
}

/** Per channel-local date ('yyyy-MM-dd') in [fromDate, toDate) (toDate undefined: no end), the videos of the one-off blocks starting that day. */
export async function oneOffEntriesByDate(db: Queryable, channelId: number, fromDate: string, toDate: string | undefined, exclude: readonly number[]): Promise<Map<string, number>> {
  const day = sql<string>`to_char(${b.startLocal}, 'YYYY-MM-DD')`;
  // A block loaded with the triggers off has no figures: its videos are counted instead.
  const count = sql<string>`sum(coalesce(${f.videoCount}, (select count(*) from ${t.scheduleBlockVideos} v where v.block_id = ${b.id})))`;
  const rows = await db
    .select({ day, count })
    .from(b)
    .leftJoin(f, eq(f.blockId, b.id))
    .where(and(eq(b.channelId, channelId), eq(b.loopDaily, false), gte(b.startLocal, `${fromDate} 00:00:00`), toDate === undefined ? undefined : lt(b.startLocal, `${toDate} 00:00:00`), excluding(exclude)))
    .groupBy(day);
  return new Map(rows.map((r) => [r.day, Number(r.count)]));
}

/** The channel's loops as counted: the date each starts on and its videos. */
export async function loopEntries(db: Queryable, channelId: number, exclude: readonly number[]): Promise<Array<{ date: string; entries: number }>> {
  const count = sql<string>`coalesce(${f.videoCount}, (select count(*) from ${t.scheduleBlockVideos} v where v.block_id = ${b.id}))`;
  const rows = await db
    .select({ start: b.startLocal, count })
    .from(b)
    .leftJoin(f, eq(f.blockId, b.id))
    .where(and(eq(b.channelId, channelId), eq(b.loopDaily, true), excluding(exclude)));
  return rows.map((r) => ({ date: r.start.slice(0, 10), entries: Number(r.count) }));
}

/** Start instants (ms) of the channel's live streams starting in [from, to) (to undefined: no end). */
export async function liveStreamStarts(db: Queryable, channelId: number, from: Date, to: Date | undefined): Promise<number[]> {
  const rows = await db
    .select({ start: t.liveStreams.startAt })
    .from(t.liveStreams)
    .where(and(eq(t.liveStreams.channelId, channelId), gte(t.liveStreams.startAt, from), to === undefined ? undefined : lt(t.liveStreams.startAt, to)));
  return rows.map((r) => r.start.getTime());
}

/** Ids of the channel's one-off blocks starting on any of `dates` ('yyyy-MM-dd', channel-local). */
export async function oneOffIdsOn(db: Queryable, channelId: number, dates: readonly string[]): Promise<number[]> {
  if (dates.length === 0) return [];
  const next = (date: string) => {
    const d = new Date(`${date}T00:00:00Z`);
    d.setUTCDate(d.getUTCDate() + 1);
    return `${d.toISOString().slice(0, 10)} 00:00:00`;
  };
  const days = [...new Set(dates)].map((date) => and(gte(b.startLocal, `${date} 00:00:00`), lt(b.startLocal, next(date))));
  const rows = await db.select({ id: b.id }).from(b).where(and(eq(b.channelId, channelId), eq(b.loopDaily, false), or(...days)));
  return rows.map((r) => r.id);
}
