// Queries behind the Studio's schedule blocks: the owner's channel and its zone, the durations
// a block's span is measured from, and writes of single blocks (a block row and its videos),
// never of the whole channel, so the channel's other rows (live streams included) keep their ids.
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Queryable } from '../db/connect.ts';
import { deleteWhereIn, insertRows } from '../db/bulk.ts';
import * as t from '../db/schema.ts';

/** The owner's channel (soft-deleted ones too: the Studio can still edit them) and its zone. */
export async function ownerChannelZone(db: Queryable, ownerId: number, channelId: number): Promise<{ id: number; timezone: string } | undefined> {
  const [row] = await db
    .select({ id: t.channels.id, timezone: t.channels.timezone })
    .from(t.channels)
    .where(and(eq(t.channels.id, channelId), eq(t.channels.ownerId, ownerId)));
  return row;
}

/** Durations in seconds of the owner's videos among `videoIds`. */
export async function videoDurations(db: Queryable, ownerId: number, videoIds: readonly number[]): Promise<Map<number, number>> {
  if (videoIds.length === 0) return new Map();
  const rows = await db
    .select({ id: t.videos.id, durationSeconds: t.videos.durationSeconds })
    .from(t.videos)
    // One array parameter, not one bind parameter per id: a plan of 20,000-video collections asks for them all (133 ms as a list on PGlite).
    .where(and(eq(t.videos.ownerId, ownerId), sql`${t.videos.id} = any(${sql.param([...new Set(videoIds)])}::integer[])`));
  return new Map(rows.map((r) => [r.id, r.durationSeconds]));
}

/** Titles of the owner's videos among `videoIds` (what a refusal names a block by). */
export async function videoTitles(db: Queryable, ownerId: number, videoIds: readonly number[]): Promise<Map<number, string>> {
  if (videoIds.length === 0) return new Map();
  const rows = await db
    .select({ id: t.videos.id, title: t.videos.title })
    .from(t.videos)
    .where(and(eq(t.videos.ownerId, ownerId), inArray(t.videos.id, [...new Set(videoIds)])));
  return new Map(rows.map((r) => [r.id, r.title]));
}

export interface BlockRow {
  id: number;
  channelId: number;
  /** PostgreSQL wall time 'yyyy-MM-dd HH:mm:ss'. */
  startLocal: string;
  published: boolean;
  loopDaily: boolean;
  videoIds: readonly number[];
}

function videoRows(blocks: readonly BlockRow[]) {
  return blocks.flatMap((b) => b.videoIds.map((videoId, position) => ({ blockId: b.id, position, videoId })));
}

/**
 * Inserts blocks and their videos: each table in one statement of column arrays (unnest), so a
 * week of generated blocks (hundreds of blocks, thousands of videos) is two statements of a few
 * parameters, not thousands of bind parameters to build and parse.
 */
export async function insertBlocks(tx: Queryable, blocks: readonly BlockRow[]): Promise<void> {
  if (blocks.length === 0) return;
  const column = <T>(pick: (b: BlockRow) => T) => sql.param(blocks.map(pick));
  await tx.execute(sql`insert into ${t.scheduleBlocks} (id, channel_id, start_local, published, loop_daily)
    select * from unnest(${column((b) => b.id)}::integer[], ${column((b) => b.channelId)}::integer[], ${column((b) => b.startLocal)}::timestamp[],
      ${column((b) => b.published)}::boolean[], ${column((b) => b.loopDaily)}::boolean[])`);
  const videos = videoRows(blocks);
  if (videos.length === 0) return;
  await tx.execute(sql`insert into ${t.scheduleBlockVideos} (block_id, position, video_id)
    select * from unnest(${sql.param(videos.map((v) => v.blockId))}::integer[], ${sql.param(videos.map((v) => v.position))}::integer[],
      ${sql.param(videos.map((v) => v.videoId))}::integer[])`);
}

/** Rewrites one block's row and its videos (same id, same channel). */
export async function replaceBlock(tx: Queryable, block: BlockRow): Promise<void> {
  await tx
    .update(t.scheduleBlocks)
    .set({ startLocal: block.startLocal, published: block.published, loopDaily: block.loopDaily })
    .where(and(eq(t.scheduleBlocks.id, block.id), eq(t.scheduleBlocks.channelId, block.channelId)));
  await tx.delete(t.scheduleBlockVideos).where(eq(t.scheduleBlockVideos.blockId, block.id));
  await insertRows(tx, t.scheduleBlockVideos, videoRows([block]));
}

/** Deletes blocks (their videos go with them). */
export async function deleteBlocks(tx: Queryable, blockIds: readonly number[]): Promise<void> {
  await deleteWhereIn(tx, t.scheduleBlocks, t.scheduleBlocks.id, blockIds);
}
