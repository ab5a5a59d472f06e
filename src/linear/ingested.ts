// Ingested videos as the live playlists read them, and the one way a ready ingest is stored.
import type { Queryable } from '../db/connect.ts';
import { readyIngestRows, saveReadyIngest } from '../data/video-hls.ts';
import { decodeIngest, encodeIngest, type StoredLadder } from './segment-codec.ts';
import type { IngestedVideo } from './types.ts';

/** Stores `video` as the ready ingest of `videoId`, read from `sourceUrl`. */
export async function storeReadyIngest(db: Queryable, videoId: number, sourceUrl: string, video: IngestedVideo, at: Date, warning: string | null = null): Promise<void> {
  const { ladder, segments } = encodeIngest(video);
  const durationSeconds = video.durationsMs.reduce((sum, ms) => sum + ms, 0) / 1000;
  await saveReadyIngest(db, { videoId, sourceUrl, ladder, segments, segmentCount: video.durationsMs.length, durationSeconds, warning, at });
}

/** The ready ingests of these videos; a video not ingested (or not ready) is absent. */
export async function readIngestedVideos(db: Queryable, videoIds: readonly number[]): Promise<Map<number, IngestedVideo>> {
  const rows = await readyIngestRows(db, videoIds);
  return new Map(rows.map((row) => [row.videoId, decodeIngest(row.ladder as StoredLadder, row.segments!)]));
}
