// HLS ingest of a creator's video (docs/studio.md: HLS ingest): its playlists fetched through the guarded
// fetcher (src/media/safe-fetch.ts), read (src/linear/hls-ingest.ts) and stored whole, or its row
// marked failed with the reason in the creator's words; never half. A result is stored only if
// it answers the request still pending (same source, not asked again since), so a refresh or a
// URL change during a fetch wins, and two instances reading the same video store it once.
import type { Database, Queryable } from '../db/connect.ts';
import { hlsSegmentsProblem } from '../catalog/owner-bounds.ts';
import { lockOwner } from '../data/studio.ts';
import { finishFailed, finishReady, ingestStateRow, ownerIngestedSegments, videoForIngest, type PendingIngest } from '../data/video-hls.ts';
import type { TextFetcher } from '../media/safe-fetch.ts';
import { MAX_INGEST_BYTES, readTopPlaylist, readVariants, type HlsRefusal, type PlaylistText } from './hls-ingest.ts';
import { encodeIngest } from './segment-codec.ts';
import type { IngestedVideo } from './types.ts';

/** A stored duration this far (s) from the playlists' summed segments is worth a warning. */
export const DURATION_WARNING_SECONDS = 1;

export type IngestOutcome =
  | { status: 'ready'; warning: string | null }
  | { status: 'failed'; error: string }
  /** Nothing to do or nothing stored: no pending row, or the request went stale meanwhile. */
  | { status: 'skipped' };

/** Fetches and reads the video's playlists: the whole video, or the first reason it cannot be. */
export async function fetchIngest(fetcher: TextFetcher, sourceUrl: string): Promise<IngestedVideo | HlsRefusal> {
  const first = await fetchText(fetcher, sourceUrl);
  if ('ok' in first) return first;
  const top = readTopPlaylist(first);
  if (!top.ok) return top;
  const variants = top.kind === 'media' ? [top.variant] : top.variants;
  if (top.kind === 'media') return readVariants(variants, [first]);
  // The variants' playlists together; each fetch is bounded in bytes and time on its own.
  const media = await Promise.all(variants.map((v) => fetchText(fetcher, v.playlistUri)));
  const failed = media.find((m): m is HlsRefusal => 'ok' in m);
  if (failed) return failed;
  const texts = media as PlaylistText[];
  if (texts.reduce((sum, m) => sum + m.text.length, first.text.length) > MAX_INGEST_BYTES) {
    return { ok: false, code: 'too_many_bytes', message: `The playlists add up to more than ${MAX_INGEST_BYTES / 1024 / 1024} MiB.` };
  }
  return readVariants(variants, texts);
}

async function fetchText(fetcher: TextFetcher, url: string): Promise<PlaylistText | HlsRefusal> {
  const fetched = await fetcher(url);
  if (fetched.ok) return { url: fetched.url, text: fetched.body };
  return { ok: false, code: 'not_hls', message: `${url} could not be read: ${fetched.message}` };
}

/** The pending ingest of `videoId`, read and stored (or failed); `skipped` when there is none. */
export async function ingestVideo(db: Database, fetcher: TextFetcher, videoId: number, now: Date): Promise<IngestOutcome> {
  const row = await ingestStateRow(db, videoId);
  if (row?.status !== 'pending') return { status: 'skipped' };
  return ingestRequest(db, fetcher, { videoId, sourceUrl: row.sourceUrl, requestedAt: row.requestedAt }, now);
}

/** One pending request read and its result stored, unless it went stale meanwhile. */
export async function ingestRequest(db: Database, fetcher: TextFetcher, request: PendingIngest, now: Date): Promise<IngestOutcome> {
  let result: IngestedVideo | HlsRefusal;
  try {
    result = await fetchIngest(fetcher, request.sourceUrl);
  } catch (error) {
    // A fault of ours, not the creator's: said plainly, and the video can be refreshed.
    result = { ok: false, code: 'not_hls', message: `The playlist could not be read (${error instanceof Error ? error.message : 'unexpected error'}).` };
  }
  return store(db, request, result, now);
}

function store(db: Database, request: PendingIngest, result: IngestedVideo | HlsRefusal, now: Date): Promise<IngestOutcome> {
  return db.transaction(async (tx): Promise<IngestOutcome> => {
    const video = await videoForIngest(tx, request.videoId);
    if (!video) return { status: 'skipped' };
    // The owner's lock: two ingests of one owner cannot both pass the segment bound.
    await lockOwner(tx, video.ownerId);
    if ('ok' in result) return failed(tx, request, result.message, now);
    const problem = hlsSegmentsProblem(await ownerIngestedSegments(tx, video.ownerId, request.videoId), result.durationsMs.length);
    if (problem) return failed(tx, request, problem, now);
    const { ladder, segments } = encodeIngest(result);
    const durationSeconds = result.durationsMs.reduce((sum, ms) => sum + ms, 0) / 1000;
    const warning = durationWarning(durationSeconds, video.durationSeconds);
    const row = { videoId: request.videoId, sourceUrl: request.sourceUrl, ladder, segments, segmentCount: result.durationsMs.length, durationSeconds, warning, at: now };
    return (await finishReady(tx, request, row)) ? { status: 'ready', warning } : { status: 'skipped' };
  });
}

async function failed(tx: Queryable, request: PendingIngest, error: string, now: Date): Promise<IngestOutcome> {
  return (await finishFailed(tx, request, error, now)) ? { status: 'failed', error } : { status: 'skipped' };
}

/** The summed segments are the authority for a stitched video's duration; a video that says otherwise is told. */
export function durationWarning(segmentsSeconds: number, storedSeconds: number): string | null {
  if (Math.abs(segmentsSeconds - storedSeconds) <= DURATION_WARNING_SECONDS) return null;
  return `The playlist lasts ${segmentsSeconds.toFixed(3)} s but the video's duration says ${storedSeconds} s; linear output plays the playlist's ${segmentsSeconds.toFixed(3)} s (correct the duration so the guide matches).`;
}
