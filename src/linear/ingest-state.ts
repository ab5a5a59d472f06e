// A video's HLS ingest as the Studio shows it (GET /videos/{id} `hls`): its state, its ladder and
// figures when read, and the reason in the creator's words when refused. null for a video that is
// not HLS (src/catalog/video-url.ts hlsSourceOf).
import type { Queryable } from '../db/connect.ts';
import { ingestStateRow } from '../data/video-hls.ts';
import type { StoredLadder } from './segment-codec.ts';
import type { Container, Resolution } from './types.ts';

export interface HlsVariantState {
  bandwidth: number;
  averageBandwidth?: number;
  resolution?: Resolution;
  codecs?: string;
  frameRate?: number;
  audioGroup?: string;
}

export interface HlsState {
  status: 'pending' | 'ready' | 'failed';
  sourceUrl: string;
  container: Container | null;
  /** The rungs read (kept while a re-read is pending); empty before the first read and after a failure. */
  variants: HlsVariantState[];
  /** Segments per variant. */
  segments: number | null;
  /** The summed segment durations: the stitched video's duration. */
  durationSeconds: number | null;
  targetDurationSeconds: number | null;
  error: string | null;
  warning: string | null;
  ingestedAt: string | null;
}

/** The rung's fields in the Studio contract's order (the serializer writes them in that order). */
function variantState(v: StoredLadder['variants'][number]): HlsVariantState {
  return {
    bandwidth: v.bandwidth,
    ...(v.averageBandwidth !== undefined ? { averageBandwidth: v.averageBandwidth } : {}),
    ...(v.resolution ? { resolution: { width: v.resolution.width, height: v.resolution.height } } : {}),
    ...(v.codecs !== undefined ? { codecs: v.codecs } : {}),
    ...(v.frameRate !== undefined ? { frameRate: v.frameRate } : {}),
    ...(v.audioGroup !== undefined ? { audioGroup: v.audioGroup } : {}),
  };
}

export async function hlsStateOf(db: Queryable, videoId: number): Promise<HlsState | null> {
  const row = await ingestStateRow(db, videoId);
  if (!row) return null;
  const ladder = row.ladder as StoredLadder | null;
  return {
    status: row.status,
    sourceUrl: row.sourceUrl,
    container: ladder?.container ?? null,
    variants: ladder ? ladder.variants.map(variantState) : [],
    segments: ladder ? row.segmentCount : null,
    durationSeconds: ladder ? row.durationSeconds : null,
    targetDurationSeconds: ladder?.targetDurationSeconds ?? null,
    error: row.error,
    warning: row.warning,
    ingestedAt: row.ingestedAt ? row.ingestedAt.toISOString() : null,
  };
}
