// The category names and descriptions of videos, for answers that show a programme's genre or
// text (the XMLTV export's <category> and <desc>, the Roku tree's guide): schedule loads carry
// videos without them, since no other answer needs them.
import { eq, inArray } from 'drizzle-orm';
import type { Queryable } from '../db/connect.ts';
import { categories, videos } from '../db/schema.ts';

/** Video id -> its category's name, for the videos that have a category. */
export async function videoCategoryNames(db: Queryable, videoIds: readonly number[]): Promise<Map<number, string>> {
  if (videoIds.length === 0) return new Map();
  const rows = await db
    .select({ id: videos.id, name: categories.name })
    .from(videos)
    .innerJoin(categories, eq(categories.id, videos.categoryId))
    .where(inArray(videos.id, [...videoIds]));
  return new Map(rows.map((r) => [r.id, r.name]));
}

/** Video id -> its description, for the videos that have one. */
export async function videoDescriptions(db: Queryable, videoIds: readonly number[]): Promise<Map<number, string>> {
  if (videoIds.length === 0) return new Map();
  const rows = await db.select({ id: videos.id, description: videos.description }).from(videos).where(inArray(videos.id, [...videoIds]));
  return new Map(rows.flatMap((r) => (r.description === null ? [] : [[r.id, r.description] as const])));
}
