// Linear output (docs/linear.md): a channel's settings and coverage (GET/PUT
// /channels/{id}/linear, with the ETag a save sends back) and a video's HLS ingest (the `hls`
// field of GET /videos/{id}, POST /videos/{id}/hls/refresh). A save makes stale the channel's
// linear read; a refresh makes stale the video (its ingest state) and every coverage (the video
// may air on any channel).
import { useQuery } from '@tanstack/react-query';
import { studio } from './client.ts';
import { keys, useWrite } from './query.ts';
import type { Answer, Video } from './types.ts';
import type * as studioContract from '../../../src/studio/contract.ts';

export type HlsStatus = HlsState['status'];

/** A video's HLS ingest as the Studio answers it (null: not an HLS video, never ingested): the server's schema. */
export type HlsState = Answer<typeof studioContract.hlsStateSchema>;

export type VideoWithHls = Video & { hls?: HlsState | null };

export type Container = 'ts' | 'fmp4';

export interface Rung {
  bandwidth: number;
  resolution?: { width: number; height: number };
  codecs?: string;
}

export type SlateReason = 'not-hls' | 'ingest-pending' | 'ingest-failed' | 'ladder-mismatch' | 'segment-too-long' | 'live-not-hls' | 'gap';

export interface SlateProgramme {
  start: string;
  end: string;
  videoId: number | null;
  title: string;
  reason: string;
}

export interface Coverage {
  /** 0..1: the share of the next 7 days' airtime that plays as itself. */
  share: number;
  airtimeSeconds: number;
  itselfSeconds: number;
  reasons: Partial<Record<SlateReason, number>>;
  programmes: SlateProgramme[];
}

export interface LinearOutput {
  enabled: boolean;
  container: Container;
  targetDurationSeconds: number;
  windowSeconds: number;
  ladder: Rung[];
  epoch: string | null;
  coverage: Coverage;
}

export interface LinearBody {
  enabled: boolean;
  targetDurationSeconds: number;
  windowSeconds?: number;
  ladder?: Rung[];
}

export const linearKey = (channelId: number) => [...keys.channel(channelId), 'linear'] as const;
const ALL_LINEAR = ['channels'] as const;

/** The channel's linear output with the ETag its save sends back. */
export const useLinear = (channelId: number) => useQuery({ queryKey: linearKey(channelId), queryFn: () => studio<LinearOutput>(`/channels/${channelId}/linear`) });

/** Saves the settings whole with If-Match; the answer is the new version (coverage included). */
export const usePutLinear = (channelId: number) =>
  useWrite(
    (v: { body: LinearBody; etag: string | undefined }) => studio<LinearOutput>(`/channels/${channelId}/linear`, { method: 'PUT', body: v.body, ifMatch: v.etag }),
    () => [linearKey(channelId)],
  );

/** Reads the video's HLS playlist again (a background job: the answer is the state now, usually pending). */
export const useRefreshHls = () =>
  useWrite(
    async (videoId: number) => (await studio<{ hls: HlsState | null }>(`/videos/${videoId}/hls/refresh`, { method: 'POST' })).data.hls,
    (videoId) => [keys.video(videoId), ALL_LINEAR],
  );

/** How often a pending ingest is asked again (ingest takes seconds; a background job). */
export const PENDING_POLL_MS = 3_000;

/** The video with its ingest state, asked again while the ingest is pending. */
export const useVideoHls = (videoId: number) =>
  useQuery({
    queryKey: keys.video(videoId),
    queryFn: () => studio<VideoWithHls>(`/videos/${videoId}`),
    refetchInterval: (query) => (query.state.data?.data.hls?.status === 'pending' ? PENDING_POLL_MS : false),
  });
