// Videos by id and their cached progressive renditions (token_by_video).
import { asc, eq } from 'drizzle-orm';
import type { Queryable } from '../db/connect.ts';
import { videoRenditions, videos } from '../db/schema.ts';

export type Rendition = typeof videoRenditions.$inferSelect;

export async function findVideo(db: Queryable, videoId: number): Promise<{ id: number; ownerId: number } | undefined> {
  const [row] = await db.select({ id: videos.id, ownerId: videos.ownerId }).from(videos).where(eq(videos.id, videoId));
  return row;
}

/** Every cached rendition of the video, expired or not, in stored order. */
export async function renditionsOf(db: Queryable, videoId: number): Promise<Rendition[]> {
  return db.select().from(videoRenditions).where(eq(videoRenditions.videoId, videoId)).orderBy(asc(videoRenditions.position));
}
