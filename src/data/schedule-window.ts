// Queries behind a schedule write that reads only the days it touches (issue 37): the blocks that
// can meet a window of wall times, the entries already on some channel-days, the loops. Block
// figures (video count, seconds played) come from schedule_block_figures, kept by triggers
// (drizzle/0016_h37_writes.sql), so none of this reads the videos of blocks it does not return.
import { and, asc, eq, gte, inArray, lt, notInArray, or, sql, type SQL } from 'drizzle-orm';
import type { Queryable } from '../db/connect.ts';
import * as t from '../db/schema.ts';
import { queryRows } from './activity.ts';

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
const excluding = (ids: readonly number[]): SQL | undefined => (ids.length > 0 ? notInArray(b.id, [...ids]) : undefined);

/** A stored block with its videos' durations in seconds (0 for a video not the owner's), by position. */
export interface MeasuredBlock extends StoredBlock {
  durations: number[];
}

const notIn = (ids: readonly number[]): SQL => (ids.length > 0 ? sql`and b.id <> all(${sql.param([...ids])}::int[])` : sql``);

/**
 * The channel's blocks (with their videos and durations) that can meet wall times [from, to)
 * ('yyyy-MM-dd HH:mm:ss'): the one-off blocks starting in it, those starting before it that play
 * longer than a day and reach it (a day of margin for the zone's offset changes), and every loop
 * (a loop plays every day from its start; a channel-day's entry bound keeps them few). One
 * statement: on the embedded database each statement costs the process a few ms.
 */
export async function blocksNear(db: Queryable, ownerId: number, channelId: number, from: string, to: string, exclude: readonly number[]): Promise<MeasuredBlock[]> {
  return measuredBlocks(db, ownerId, sql`
    select b.id from schedule_blocks b where b.channel_id = ${channelId} and not b.loop_daily and b.start_local >= ${from}::timestamp and b.start_local < ${to}::timestamp ${notIn(exclude)}
    union all
    select b.id from schedule_block_figures f join schedule_blocks b on b.id = f.block_id
     where f.channel_id = ${channelId} and f.span_seconds >= ${LONG_BLOCK_SECONDS} and b.channel_id = ${channelId} and not b.loop_daily and b.start_local < ${from}::timestamp
       and b.start_local + (f.span_seconds + 86400) * interval '1 second' > ${from}::timestamp ${notIn(exclude)}
    union all
    select b.id from schedule_blocks b where b.channel_id = ${channelId} and b.loop_daily ${notIn(exclude)}`);
}

/**
 * The channel's one-off blocks starting from `from` on whose wall times of day can meet a daily
 * loop at `startSecond` (seconds into the day) playing `lengthSeconds`: a block whose start falls
 * in the loop's hours, or whose length reaches the loop's start, with `marginSeconds` each way
 * for the zone's offset changes. Their ids, wall starts and figures' seconds only (a block without
 * figures counts as long): a loop is checked against every later day without reading every later
 * block's videos.
 */
export async function oneOffsMeetingDaily(
  db: Queryable, channelId: number, from: string, startSecond: number, lengthSeconds: number, marginSeconds: number, exclude: readonly number[],
): Promise<Array<{ id: number; startTime: string; spanSeconds: number }>> {
  const tod = sql`extract(epoch from b.start_local::time)`;
  const span = sql`coalesce(f.span_seconds, ${LONG_BLOCK_SECONDS * 400})`;
  const rows = await queryRows<{ id: number; start: string; span: number | string }>(db, sql`
    select b.id, to_char(b.start_local, 'YYYY-MM-DD"T"HH24:MI:SS') as start, ${span}::float8 as span
      from schedule_blocks b left join schedule_block_figures f on f.block_id = b.id
     where b.channel_id = ${channelId} and not b.loop_daily and b.start_local >= ${from}::timestamp ${notIn(exclude)}
       and (${span} + ${lengthSeconds + 2 * marginSeconds} >= 86400
         or mod((${tod} - ${startSecond} + 172800)::numeric, 86400) < ${lengthSeconds + marginSeconds}
         or mod((${startSecond} - ${tod} + 172800)::numeric, 86400) < ${span} + ${marginSeconds})`);
  return rows.map((r) => ({ id: r.id, startTime: r.start, spanSeconds: Number(r.span) }));
}

/** The blocks of these ids, with their videos and the owner's durations, by start then id. */
export async function blocksByIds(db: Queryable, ownerId: number, ids: readonly number[]): Promise<MeasuredBlock[]> {
  if (ids.length === 0) return [];
  return measuredBlocks(db, ownerId, sql`select unnest(${sql.param([...ids])}::int[])`);
}

/**
 * The channel's blocks playing on some day of [fromDate, toDate] (either may be undefined: no
 * limit): one-off blocks dated in it, loops dated on or before its end. By start then id.
 */
export async function blocksPlayingWithin(db: Queryable, ownerId: number, channelId: number, fromDate: string | undefined, toDate: string | undefined): Promise<MeasuredBlock[]> {
  const before = toDate === undefined ? sql`true` : sql`b.start_local < (${toDate}::date + 1)::timestamp`;
  const after = fromDate === undefined ? sql`true` : sql`(b.loop_daily or b.start_local >= ${fromDate}::date::timestamp)`;
  return measuredBlocks(db, ownerId, sql`select b.id from schedule_blocks b where b.channel_id = ${channelId} and ${before} and ${after}`);
}

/**
 * The blocks of the ids `ids` selects, with their videos and the owner's durations, by start then
 * id. One flat join, not a subquery per block: right after a bulk write (an import of 20,000
 * videos, a 900-block apply) the statistics are stale until table upkeep runs, and a per-block
 * subquery was then planned as a scan of all the owner's videos for each block (3.8 s of CPU on
 * PGlite to read 886 blocks); a join reads them at most once whatever the plan.
 */
async function measuredBlocks(db: Queryable, ownerId: number, ids: SQL): Promise<MeasuredBlock[]> {
  const rows = await queryRows<{ id: number; channel_id: number; start: string; published: boolean; loop_daily: boolean; video_id: number | null; duration: number | null }>(db, sql`
    select b.id, b.channel_id, to_char(b.start_local, 'YYYY-MM-DD"T"HH24:MI:SS') as start, b.published, b.loop_daily, bv.video_id, v.duration_seconds as duration
    from schedule_blocks b
      left join schedule_block_videos bv on bv.block_id = b.id
      left join videos v on v.id = bv.video_id and v.owner_id = ${ownerId}
    where b.id in (${ids})
    order by b.start_local, b.id, bv.position`);
  const blocks: MeasuredBlock[] = [];
  let last: MeasuredBlock | undefined;
  for (const r of rows) {
    if (last?.id !== r.id) {
      last = { id: r.id, channelId: r.channel_id, startTime: r.start, published: r.published, loopDaily: r.loop_daily, videoIds: [], durations: [] };
      blocks.push(last);
    }
    if (r.video_id !== null) {
      (last.videoIds as number[]).push(r.video_id);
      last.durations.push(r.duration ?? 0);
    }
  }
  return blocks;
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

/** What a channel's days hold, as day-entries.ts counts them, read in one statement. */
export interface DayFigures {
  /** Videos of the one-off blocks starting each channel-local date of the window. */
  oneOff: Map<string, number>;
  /** Every loop (but those excluded): the date it starts on and its videos. */
  loops: Array<{ date: string; entries: number }>;
  /** Start instants (ms) of the live streams starting in the window's instants. */
  streamStarts: number[];
}

/**
 * The figures of the channel's days from `fromDate` to before `toDate` (undefined: no end), the
 * live streams from `streamsFrom` to before `streamsTo`. A block without figures (loaded with the
 * triggers off) has its videos counted instead.
 */
export async function dayFigures(
  db: Queryable, channelId: number, fromDate: string, toDate: string | undefined, streamsFrom: Date, streamsTo: Date | undefined, exclude: readonly number[],
): Promise<DayFigures> {
  const count = sql`coalesce(f.video_count, (select count(*) from schedule_block_videos v where v.block_id = b.id))`;
  const before = (column: SQL, end: string | undefined, cast: string) => (end === undefined ? sql`` : sql`and ${column} < ${end}::${sql.raw(cast)}`);
  const rows = await queryRows<{ kind: 'day' | 'loop' | 'stream'; day: string | null; n: string | number }>(db, sql`
    select 'day' as kind, to_char(b.start_local, 'YYYY-MM-DD') as day, sum(${count})::float8 as n
      from schedule_blocks b left join schedule_block_figures f on f.block_id = b.id
     where b.channel_id = ${channelId} and not b.loop_daily and b.start_local >= ${`${fromDate} 00:00:00`}::timestamp
       ${before(sql`b.start_local`, toDate === undefined ? undefined : `${toDate} 00:00:00`, 'timestamp')} ${notIn(exclude)}
     group by 2
    union all
    select 'loop', to_char(b.start_local, 'YYYY-MM-DD'), ${count}::float8
      from schedule_blocks b left join schedule_block_figures f on f.block_id = b.id
     where b.channel_id = ${channelId} and b.loop_daily ${notIn(exclude)}
    union all
    select 'stream', null, extract(epoch from s.start_at)::float8 * 1000
      from live_streams s where s.channel_id = ${channelId} and s.start_at >= ${streamsFrom.toISOString()}::timestamptz
       ${before(sql`s.start_at`, streamsTo?.toISOString(), 'timestamptz')}`);
  const figures: DayFigures = { oneOff: new Map(), loops: [], streamStarts: [] };
  for (const r of rows) {
    const n = Number(r.n);
    if (r.kind === 'day') figures.oneOff.set(r.day!, n);
    else if (r.kind === 'loop') figures.loops.push({ date: r.day!, entries: n });
    else figures.streamStarts.push(n);
  }
  return figures;
}
