// Videos of some channels whose title holds a text: the shipped Android TV app's search. One
// query for a page and one for the count; the text is matched literally (% and _ escaped).
import { and, asc, count, eq, ilike, inArray, min, sql } from 'drizzle-orm';
import type { Queryable } from '../db/connect.ts';
import { categories, channelVideos, channelVodVideos, videos } from '../db/schema.ts';

export type FoundVideo = Awaited<ReturnType<typeof searchChannelVideos>>['rows'][number];

const escapeLike = (text: string): string => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * Public videos in the libraries or VOD catalogs of `channelIds` whose title contains `text`
 * (any case), by title then id, `offset`/`limit` of them, with the total and, per video, the
 * first of those channels holding it.
 */
export async function searchChannelVideos(db: Queryable, channelIds: readonly number[], text: string, offset: number, limit: number) {
  if (channelIds.length === 0) return { rows: [], total: 0 };
  const holders = db
    .select({ videoId: channelVideos.videoId, channelId: channelVideos.channelId })
    .from(channelVideos)
    .where(inArray(channelVideos.channelId, [...channelIds]))
    .union(db.select({ videoId: channelVodVideos.videoId, channelId: channelVodVideos.channelId }).from(channelVodVideos).where(inArray(channelVodVideos.channelId, [...channelIds])))
    .as('holders');
  const matches = and(eq(videos.isPrivate, false), ilike(videos.title, `%${escapeLike(text)}%`));
  const rows = await db
    .select({
      id: videos.id,
      channelId: min(holders.channelId).mapWith(Number),
      title: videos.title,
      description: videos.description,
      durationSeconds: videos.durationSeconds,
      thumbnailUrl: videos.thumbnailUrl,
      providerName: videos.providerName,
      providerVideoId: videos.providerVideoId,
      categoryId: videos.categoryId,
      categoryName: categories.name,
      isRRated: videos.isRRated,
      isRemovedByProvider: videos.isRemovedByProvider,
      isRestrictedByProvider: videos.isRestrictedByProvider,
    })
    .from(holders)
    .innerJoin(videos, eq(videos.id, holders.videoId))
    .leftJoin(categories, eq(categories.id, videos.categoryId))
    .where(matches)
    .groupBy(videos.id, categories.name)
    .orderBy(asc(videos.title), asc(videos.id))
    .offset(offset)
    .limit(limit);
  const [total] = await db
    .select({ n: count(sql`distinct ${videos.id}`) })
    .from(holders)
    .innerJoin(videos, eq(videos.id, holders.videoId))
    .where(matches);
  return { rows, total: total?.n ?? 0 };
}
