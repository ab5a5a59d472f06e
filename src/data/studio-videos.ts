// Queries behind the Studio's videos: the owner's page of videos (search by title,
// description or provider id) and where a video is used.
import { and, asc, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { Queryable } from '../db/connect.ts';
import * as t from '../db/schema.ts';

function matching(ownerId: number, q: string | undefined): SQL | undefined {
  const mine = eq(t.videos.ownerId, ownerId);
  if (q === undefined || q.trim() === '') return mine;
  const pattern = `%${q.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return and(mine, or(ilike(t.videos.title, pattern), ilike(t.videos.description, pattern), eq(t.videos.providerVideoId, q.trim())));
}

export async function ownerVideoPage(db: Queryable, ownerId: number, q: string | undefined, offset: number, limit: number) {
  const where = matching(ownerId, q);
  const [ids, [count]] = await Promise.all([
    db.select({ id: t.videos.id }).from(t.videos).where(where).orderBy(asc(t.videos.id)).offset(offset).limit(limit),
    db.select({ total: sql<number>`count(*)::int` }).from(t.videos).where(where),
  ]);
  return { ids: ids.map((r) => r.id), total: Number(count?.total ?? 0) };
}

/** A slot of a channel's programming plan that plays a video: its 1-based place in the plan, weekdays and start. */
export interface SlotUse {
  channelId: number;
  slot: number;
  days: number[];
  start: string;
}

/** Where a video is used: libraries, VOD catalogs, schedule blocks, live streams, and programming plans' slots and filler. */
export async function videoUsage(db: Queryable, videoId: number) {
  const [library, vod, blocks, live, plans] = await Promise.all([
    db.selectDistinct({ channelId: t.channelVideos.channelId }).from(t.channelVideos).where(eq(t.channelVideos.videoId, videoId)).orderBy(asc(t.channelVideos.channelId)),
    db.selectDistinct({ channelId: t.channelVodVideos.channelId }).from(t.channelVodVideos).where(eq(t.channelVodVideos.videoId, videoId)).orderBy(asc(t.channelVodVideos.channelId)),
    db
      .selectDistinct({ channelId: t.scheduleBlocks.channelId, blockId: t.scheduleBlocks.id, startTime: t.scheduleBlocks.startLocal, loopDaily: t.scheduleBlocks.loopDaily })
      .from(t.scheduleBlockVideos)
      .innerJoin(t.scheduleBlocks, eq(t.scheduleBlocks.id, t.scheduleBlockVideos.blockId))
      .where(eq(t.scheduleBlockVideos.videoId, videoId))
      .orderBy(asc(t.scheduleBlocks.id)),
    db.select({ channelId: t.liveStreams.channelId, liveStreamId: t.liveStreams.id }).from(t.liveStreams).where(eq(t.liveStreams.videoId, videoId)).orderBy(asc(t.liveStreams.id)),
    // jsonb containment: a slot whose videoIds hold the video, or the filler list holding it.
    db
      .select({ channelId: t.channelProgramming.channelId, slots: t.channelProgramming.slots, fillerVideoIds: t.channelProgramming.fillerVideoIds })
      .from(t.channelProgramming)
      .where(or(
        sql`${t.channelProgramming.slots} @> ${JSON.stringify([{ videoIds: [videoId] }])}::jsonb`,
        sql`${t.channelProgramming.fillerVideoIds} @> ${JSON.stringify([videoId])}::jsonb`,
      ))
      .orderBy(asc(t.channelProgramming.channelId)),
  ]);
  return {
    libraryChannelIds: library.map((r) => r.channelId),
    vodChannelIds: vod.map((r) => r.channelId),
    // Wall times as the Studio writes them everywhere (2026-11-21T08:00:00), not as the column reads.
    scheduleBlocks: blocks.map((b) => ({ ...b, startTime: b.startTime.replace(' ', 'T').slice(0, 19) })),
    liveStreams: live,
    programmingSlots: plans.flatMap(({ channelId, slots }) => slotUses(channelId, slots, videoId)),
    fillerChannelIds: plans.filter((p) => p.fillerVideoIds.includes(videoId)).map((p) => p.channelId),
  };
}

function slotUses(channelId: number, slots: unknown[], videoId: number): SlotUse[] {
  return slots.flatMap((raw, i) => {
    const slot = raw as { days?: number[]; start?: string; videoIds?: number[] };
    return slot.videoIds?.includes(videoId) ? [{ channelId, slot: i + 1, days: slot.days ?? [], start: slot.start ?? '' }] : [];
  });
}

export async function deleteVideoRow(tx: Queryable, videoId: number): Promise<void> {
  await tx.delete(t.videos).where(eq(t.videos.id, videoId));
}

/** The owner's videos with these provider ids (any provider): id, title, provider and provider id, oldest first. */
export async function ownerVideosByProviderIds(db: Queryable, ownerId: number, providerVideoIds: readonly string[]) {
  if (providerVideoIds.length === 0) return [];
  return db
    .select({ id: t.videos.id, title: t.videos.title, providerName: t.videos.providerName, providerVideoId: t.videos.providerVideoId })
    .from(t.videos)
    .where(and(eq(t.videos.ownerId, ownerId), inArray(t.videos.providerVideoId, [...new Set(providerVideoIds)])))
    .orderBy(asc(t.videos.id));
}
