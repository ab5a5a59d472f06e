// Rows of video_hls: a video's HLS ingest (src/linear/ingested.ts decodes them, src/linear/ingest.ts
// writes them). A row exists while the video is an HLS video (src/catalog/video-url.ts hlsSourceOf):
// pending (to be read; requestedAt orders the queue and tells a result still wanted from a stale
// one), ready, or failed with its error. A pending row that still holds segments is a re-read of
// the same source: its previous ingest stays on air until the new one is stored.
import { and, asc, eq, inArray, isNotNull, ne, or, sql } from 'drizzle-orm';
import { chunk, deleteWhereIn } from '../db/bulk.ts';
import type { Queryable } from '../db/connect.ts';
import { videoHls, videos } from '../db/schema.ts';
import { queryRows } from './activity.ts';

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

const readyValues = (row: ReadyIngestRow) => ({
  status: 'ready' as const,
  sourceUrl: row.sourceUrl,
  ingestedAt: row.at,
  error: null,
  warning: row.warning,
  segmentCount: row.segmentCount,
  durationSeconds: row.durationSeconds,
  ladder: row.ladder,
  segments: row.segments,
});

export async function saveReadyIngest(db: Queryable, row: ReadyIngestRow): Promise<void> {
  const values = { ...readyValues(row), requestedAt: row.at };
  await db
    .insert(videoHls)
    .values({ videoId: row.videoId, ...values })
    .onConflictDoUpdate({ target: videoHls.videoId, set: values });
}

/** The ingests on air: ready ones, and pending re-reads that still hold their previous ingest. */
const onAir = or(eq(videoHls.status, 'ready'), and(eq(videoHls.status, 'pending'), isNotNull(videoHls.segments)));

/** The ready ingests of these videos (ladder and segments), by video id. */
export async function readyIngestRows(db: Queryable, videoIds: readonly number[]): Promise<Pick<VideoHlsRow, 'videoId' | 'ladder' | 'segments'>[]> {
  if (videoIds.length === 0) return [];
  return db
    .select({ videoId: videoHls.videoId, ladder: videoHls.ladder, segments: videoHls.segments })
    .from(videoHls)
    .where(and(inArray(videoHls.videoId, [...videoIds]), onAir));
}

/** A video's ingest row as the Studio shows it (segments left out: they are the bulk). */
export async function ingestStateRow(db: Queryable, videoId: number) {
  const [row] = await db
    .select({
      status: videoHls.status, sourceUrl: videoHls.sourceUrl, error: videoHls.error, warning: videoHls.warning, ladder: videoHls.ladder,
      segmentCount: videoHls.segmentCount, durationSeconds: videoHls.durationSeconds, requestedAt: videoHls.requestedAt, ingestedAt: videoHls.ingestedAt,
    })
    .from(videoHls)
    .where(eq(videoHls.videoId, videoId));
  return row;
}

export interface HlsSource {
  videoId: number;
  /** The playlist to read, or null: the video is not (or no longer) an HLS video. */
  sourceUrl: string | null;
}

/**
 * Keeps video_hls in step with written videos: a new HLS video, or one whose playlist URL
 * changed, gets a pending row (the previous ingest dropped: it was another video); a row whose
 * video is no longer HLS goes. A video whose URL did not change keeps its row as it is.
 */
export async function syncHlsSources(db: Queryable, sources: readonly HlsSource[], at: Date): Promise<void> {
  await deleteWhereIn(db, videoHls, videoHls.videoId, sources.filter((s) => s.sourceUrl === null).map((s) => s.videoId));
  const hls = sources.filter((s): s is HlsSource & { sourceUrl: string } => s.sourceUrl !== null);
  // Four parameters a row: 10,000 rows stay under PostgreSQL's 65,535.
  for (const part of chunk(hls, 10_000)) await upsertPending(db, part, at);
}

async function upsertPending(db: Queryable, hls: ReadonlyArray<HlsSource & { sourceUrl: string }>, at: Date): Promise<void> {
  await db
    .insert(videoHls)
    .values(hls.map((s) => ({ videoId: s.videoId, sourceUrl: s.sourceUrl, status: 'pending' as const, requestedAt: at })))
    .onConflictDoUpdate({
      target: videoHls.videoId,
      set: {
        sourceUrl: sql`excluded.source_url`, status: 'pending', requestedAt: sql`excluded.requested_at`, ingestedAt: null, error: null, warning: null,
        segmentCount: 0, durationSeconds: null, ladder: null, segments: null,
      },
      setWhere: ne(videoHls.sourceUrl, sql`excluded.source_url`),
    });
}

/** Asks for a re-read of the video's playlist (refresh); its current ingest stays on air meanwhile. Undefined: no row. */
export async function requestIngest(db: Queryable, videoId: number, at: Date): Promise<VideoHlsRow | undefined> {
  // Always later than the request it replaces (even at one test-clock instant), so a read under way for it goes stale.
  const requestedAt = sql`greatest(${at.toISOString()}::timestamptz, ${videoHls.requestedAt} + interval '1 millisecond')`;
  const [row] = await db.update(videoHls).set({ status: 'pending', requestedAt }).where(eq(videoHls.videoId, videoId)).returning();
  return row;
}

export interface PendingIngest {
  videoId: number;
  sourceUrl: string;
  requestedAt: Date;
}

/** Pending ingests, oldest request first. */
export async function pendingIngests(db: Queryable, limit: number, except: readonly number[] = []): Promise<PendingIngest[]> {
  return db
    .select({ videoId: videoHls.videoId, sourceUrl: videoHls.sourceUrl, requestedAt: videoHls.requestedAt })
    .from(videoHls)
    .where(and(eq(videoHls.status, 'pending'), except.length > 0 ? sql`${videoHls.videoId} <> all(${sql.param([...except])}::int[])` : undefined))
    .orderBy(asc(videoHls.requestedAt), asc(videoHls.videoId))
    .limit(limit);
}

/**
 * The pending row of this request, if it is still the one wanted (same source, not asked again
 * since). Compared at whole milliseconds, as a Date read it: a time written with microseconds
 * (by SQL's now()) still matches the request read from it.
 */
const stillWanted = (request: PendingIngest) =>
  and(
    eq(videoHls.videoId, request.videoId), eq(videoHls.status, 'pending'), eq(videoHls.sourceUrl, request.sourceUrl),
    sql`date_trunc('milliseconds', ${videoHls.requestedAt}) = ${request.requestedAt.toISOString()}::timestamptz`,
  );

/** Stores a ready ingest for this request; false when the request is stale (nothing written). */
export async function finishReady(db: Queryable, request: PendingIngest, row: ReadyIngestRow): Promise<boolean> {
  const done = await db.update(videoHls).set(readyValues(row)).where(stillWanted(request)).returning({ videoId: videoHls.videoId });
  return done.length > 0;
}

/** Records a failed ingest for this request (nothing of it kept); false when the request is stale. */
export async function finishFailed(db: Queryable, request: PendingIngest, error: string, at: Date): Promise<boolean> {
  const done = await db
    .update(videoHls)
    .set({ status: 'failed', error, warning: null, ingestedAt: at, segmentCount: 0, durationSeconds: null, ladder: null, segments: null })
    .where(stillWanted(request))
    .returning({ videoId: videoHls.videoId });
  return done.length > 0;
}

/** The video's owner, duration and stream, for an ingest. */
export async function videoForIngest(db: Queryable, videoId: number) {
  const [row] = await db
    .select({ ownerId: videos.ownerId, durationSeconds: videos.durationSeconds, providerName: videos.providerName, streamUrl: videos.streamUrl })
    .from(videos)
    .where(eq(videos.id, videoId));
  return row;
}

/** Segments the owner's other videos hold on air (ready, or re-reads keeping theirs). */
export async function ownerIngestedSegments(db: Queryable, ownerId: number, exceptVideoId: number): Promise<number> {
  const [row] = await queryRows<{ total: string | number }>(db, sql`
    select coalesce(sum(h.segment_count), 0)::bigint as total
    from video_hls h join videos v on v.id = h.video_id
    where v.owner_id = ${ownerId} and h.video_id <> ${exceptVideoId} and h.segments is not null`);
  return Number(row?.total ?? 0);
}
