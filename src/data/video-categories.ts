// What a guide shows of a programme beyond its schedule row: its video's category name and
// description (the XMLTV export's <category> and <desc>, the Roku tree's guide). Schedule loads
// carry videos without them, since no other answer needs them.
import { eq, sql } from 'drizzle-orm';
import type { Queryable } from '../db/connect.ts';
import { categories, videos } from '../db/schema.ts';

/** A video's category name and description, each null when it has none. */
export interface VideoTexts {
  category: string | null;
  description: string | null;
}

/** Per video id, its texts: one query, the ids as one array parameter (a guide asks hundreds). */
export async function videoTexts(db: Queryable, videoIds: readonly number[]): Promise<Map<number, VideoTexts>> {
  if (videoIds.length === 0) return new Map();
  const rows = await db
    .select({ id: videos.id, category: categories.name, description: videos.description })
    .from(videos)
    .leftJoin(categories, eq(categories.id, videos.categoryId))
    .where(sql`${videos.id} = any(${sql.param([...videoIds])}::integer[])`);
  return new Map(rows.map(({ id, ...texts }) => [id, texts]));
}
