// Whether each programme plays as itself in the stream, and the Studio's coverage of a channel:
// over the next 7 days of its on-air timeline (the one the guide lists), the share of airtime
// that plays as itself, the seconds of each reason the rest airs the slate, and the first
// programmes that do not play as themselves (docs/linear.md: what airs the slate).
import type { Queryable } from '../db/connect.ts';
import { ingestStatuses } from '../data/channel-linear.ts';
import type { ScheduleTimelines, TimelineChannel } from '../schedules/timelines.ts';
import { readIngestedVideos } from './ingested.ts';
import { mapToLadder } from './ladder.ts';
import type { PlayableSource } from './programme-segments.ts';
import type { IngestedVideo, LinearSettings, SlateReason } from './types.ts';

export const COVERAGE_DAYS = 7;
export const MAX_COVERAGE_PROGRAMMES = 200;

type Ladderish = Pick<LinearSettings, 'container' | 'targetDurationSeconds' | 'ladder'>;

/** What a video plays: its source on the ladder, or why the slate airs instead. */
export function verdictOf(
  settings: Ladderish,
  status: 'pending' | 'ready' | 'failed' | undefined,
  video: IngestedVideo | undefined,
  isLive: boolean,
): PlayableSource | SlateReason {
  if (isLive) return 'live-not-hls';
  if (status === undefined) return 'not-hls';
  if (status === 'pending') return 'ingest-pending';
  if (status === 'failed' || !video) return 'ingest-failed';
  if (settings.ladder.length === 0) return 'ladder-mismatch';
  const mapping = mapToLadder(video, settings);
  return 'reason' in mapping ? mapping.reason : { video, variants: mapping.variants };
}

export interface CoverageProgramme {
  start: string;
  end: string;
  videoId: number;
  title: string;
  reason: SlateReason;
}

export interface Coverage {
  share: number;
  airtimeSeconds: number;
  itselfSeconds: number;
  reasons: Partial<Record<SlateReason, number>>;
  programmes: CoverageProgramme[];
}

/** Coverage of [from, to) from its on-air segments (by start) and each one's verdict. Pure. */
export function coverageOf(
  segments: ReadonlyArray<{ start: number; end: number; videoId: number; title: string; isLive: boolean }>,
  from: number,
  to: number,
  reasonOf: (videoId: number, isLive: boolean) => SlateReason | undefined,
): Coverage {
  const reasons: Partial<Record<SlateReason, number>> = {};
  const add = (reason: SlateReason, ms: number) => (reasons[reason] = (reasons[reason] ?? 0) + ms / 1000);
  const programmes: CoverageProgramme[] = [];
  let airtime = 0;
  let itself = 0;
  let reached = from;
  for (const s of segments) {
    const start = Math.max(s.start, from);
    const end = Math.min(s.end, to);
    if (end <= start) continue;
    if (start > reached) add('gap', start - reached);
    reached = Math.max(reached, end);
    airtime += end - start;
    const reason = reasonOf(s.videoId, s.isLive);
    if (!reason) itself += end - start;
    else {
      add(reason, end - start);
      if (programmes.length < MAX_COVERAGE_PROGRAMMES) programmes.push({ start: iso(s.start), end: iso(s.end), videoId: s.videoId, title: s.title, reason });
    }
  }
  if (to > reached) add('gap', to - reached);
  return { share: airtime > 0 ? itself / airtime : 0, airtimeSeconds: airtime / 1000, itselfSeconds: itself / 1000, reasons, programmes };
}

const iso = (ms: number) => new Date(ms).toISOString();

/** The channel's coverage over the next COVERAGE_DAYS days from `now` under `settings`. */
export async function channelCoverage(db: Queryable, timelines: ScheduleTimelines, channel: TimelineChannel, settings: Ladderish, now: number): Promise<Coverage> {
  const from = Math.floor(now / 1000) * 1000;
  const to = from + COVERAGE_DAYS * 86_400_000;
  const [segments] = await timelines.segmentsOverlapping(db, [{ channel, from, to }]);
  const ids = [...new Set(segments!.filter((s) => !s.isLive).map((s) => s.video.videoTubeId))];
  const [statuses, videos] = await Promise.all([ingestStatuses(db, ids), readIngestedVideos(db, ids)]);
  const reasons = new Map<number, SlateReason | undefined>();
  const reasonOf = (videoId: number, isLive: boolean) => {
    if (isLive) return 'live-not-hls' as const;
    if (!reasons.has(videoId)) {
      const verdict = verdictOf(settings, statuses.get(videoId), videos.get(videoId), false);
      reasons.set(videoId, typeof verdict === 'string' ? verdict : undefined);
    }
    return reasons.get(videoId);
  };
  const rows = segments!.map((s) => ({ start: s.start, end: s.end, videoId: s.video.videoTubeId, title: s.video.title, isLive: s.isLive }));
  return coverageOf(rows, from, to, reasonOf);
}
