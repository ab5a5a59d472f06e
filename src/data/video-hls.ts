// Rows of video_hls: a video's HLS ingest (src/linear/ingested.ts decodes them).
import { and, eq, inArray } from 'drizzle-orm';
import type { Queryable } from '../db/connect.ts';
import { videoHls } from '../db/schema.ts';

export type VideoHlsRow = typeof videoHls.$inferSelect;

/** A ready ingest, written whole in one statement (never half an ingest). */
export interface ReadyIngestRow {
  videoId: number;
  sourceUrl: string;
  ladder: unknown;
  segments: string;
  segmentCount: number;
  durationSeconds: number;
  warning: string | null;
  at: Date;
}

export async function saveReadyIngest(db: Queryable, row: ReadyIngestRow): Promise<void> {
  const values = {
    status: 'ready' as const,
    sourceUrl: row.sourceUrl,
    requestedAt: row.at,
    ingestedAt: row.at,
    error: null,
    warning: row.warning,
    segmentCount: row.segmentCount,
    durationSeconds: row.durationSeconds,
    ladder: row.ladder,
    segments: row.segments,
  };
  await db
    .insert(videoHls)
    .values({ videoId: row.videoId, ...values })
    .onConflictDoUpdate({ target: videoHls.videoId, set: values });
}

/** The ready ingests of these videos (ladder and segments), by video id. */
export async function readyIngestRows(db: Queryable, videoIds: readonly number[]): Promise<Pick<VideoHlsRow, 'videoId' | 'ladder' | 'segments'>[]> {
  if (videoIds.length === 0) return [];
  return db
    .select({ videoId: videoHls.videoId, ladder: videoHls.ladder, segments: videoHls.segments })
    .from(videoHls)
    .where(and(inArray(videoHls.videoId, [...videoIds]), eq(videoHls.status, 'ready')));
}
