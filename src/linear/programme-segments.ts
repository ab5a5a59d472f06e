// How one programme of the stream expands into segments (docs/linear.md: the live playlists). Pure.
//
// A programme airs from its on-air start `start` to the next programme's start `end`:
// - playing as itself, its video plays from the segment holding `offset` (the ms into the video
//   it joins at, after a live preemption), that segment's start placed at `start` (the schedule,
//   not the video, fixes the date-time; the part of the segment before `offset` plays again);
// - its video is cut at the last segment boundary at or before `end`, and whatever is left (the
//   video ended early, or less than a segment remains) airs the slate;
// - the slate is 1-second segments (the last of a stretch may be shorter) in stretches of at most
//   SLATE_RUN, each stretch a discontinuity, since the shipped slate's timeline is SLATE_RUN
//   seconds long and starts again at each stretch.
// Counting is arithmetic (a long gap is a number, not a list), so deriving the next programme's
// sequence numbers costs the same whatever the gap: a binary search over the video's segments.
import type { IngestedVideo } from './types.ts';

export const SLATE_SEGMENT_MS = 1000;
/** Segments per slate stretch: the shipped slate's 0.ts .. 9.ts (bin/make-slate.sh). */
export const SLATE_RUN = 10;

/** What a programme plays: its video mapped to the ladder (variant index per rung), or the slate (undefined). */
export interface PlayableSource {
  video: IngestedVideo;
  variants: number[];
}

export interface ProgrammePlan {
  start: number;
  /** The next programme's start; Infinity while none is known. */
  end: number;
  source: PlayableSource | undefined;
  /** Ms into the video at `start`. */
  offset: number;
}

/** One segment of a programme: the j-th (from 0), a video segment (index into the video) or slate (p-th slate segment). */
export interface PlannedSegment {
  j: number;
  start: number;
  durationMs: number;
  /** A video segment's index, or -1 for slate. */
  videoIndex: number;
  /** The slate segment's file (0 .. SLATE_RUN - 1) when slate. */
  slateFile: number;
  /** A discontinuity before it (the programme's first segment, and each slate stretch's). */
  discontinuity: boolean;
  /** Discontinuities in the programme up to and including this segment's, less the first segment's. */
  innerDiscontinuities: number;
}

const prefixes = new WeakMap<IngestedVideo, Float64Array>();
/** Start of each segment in ms into the video, plus the total at [n] (kept per video). */
function prefixOf(video: IngestedVideo): Float64Array {
  let p = prefixes.get(video);
  if (!p) {
    p = new Float64Array(video.durationsMs.length + 1);
    for (let i = 0; i < video.durationsMs.length; i++) p[i + 1] = p[i]! + video.durationsMs[i]!;
    prefixes.set(video, p);
  }
  return p;
}

/** Last i in [lo, hi) with p[i] <= x (lo - 1 when none). */
function lastAtOrBelow(p: Float64Array, x: number, lo: number, hi: number): number {
  let a = lo;
  let b = hi;
  while (a < b) {
    const mid = (a + b) >> 1;
    if (p[mid]! <= x) a = mid + 1;
    else b = mid;
  }
  return a - 1;
}

/** The video part of a programme: first segment index k, how many segments fit, and where the video part ends. */
function videoPart(plan: ProgrammePlan): { k: number; count: number; videoEnd: number } {
  if (!plan.source) return { k: 0, count: 0, videoEnd: plan.start };
  const p = prefixOf(plan.source.video);
  const n = plan.source.video.durationsMs.length;
  const k = Math.max(0, lastAtOrBelow(p, plan.offset, 0, n));
  if (plan.offset >= p[n]!) return { k, count: 0, videoEnd: plan.start };
  // Segments k .. last whose end (start + p[i+1] - p[k]) <= end: p[i+1] <= end - start + p[k].
  const last = plan.end === Infinity ? n - 1 : lastAtOrBelow(p, plan.end - plan.start + p[k]!, k + 1, n + 1) - 1;
  const count = Math.max(0, last - k + 1);
  return { k, count, videoEnd: plan.start + p[k + count]! - p[k]! };
}

/** Slate segments after the video part, and the discontinuities they add (the first segment's excluded). */
function slatePart(count: number, videoEnd: number, end: number): { slate: number; inner: number } {
  if (end === Infinity) return { slate: Infinity, inner: Infinity };
  const slate = Math.max(0, Math.ceil((end - videoEnd) / SLATE_SEGMENT_MS));
  const stretches = Math.ceil(slate / SLATE_RUN);
  return { slate, inner: count === 0 && slate > 0 ? stretches - 1 : stretches };
}

/** How many segments the programme airs, and its discontinuities after its first segment (end must be finite). */
export function programmeCount(plan: ProgrammePlan): { segments: number; innerDiscontinuities: number } {
  const { count, videoEnd } = videoPart(plan);
  const { slate, inner } = slatePart(count, videoEnd, plan.end);
  return { segments: count + slate, innerDiscontinuities: inner };
}

/** The programme's segments overlapping [lo, hi] (a segment starting at hi included), in order. */
export function programmeSegments(plan: ProgrammePlan, lo: number, hi: number): PlannedSegment[] {
  const out: PlannedSegment[] = [];
  const { k, count, videoEnd } = videoPart(plan);
  if (count > 0) {
    const p = prefixOf(plan.source!.video);
    const base = plan.start - p[k]!;
    // First video segment ending after lo: p[i+1] > lo - base.
    let i = Math.max(k, lastAtOrBelow(p, lo - base, k + 1, k + count + 1));
    for (; i < k + count; i++) {
      const start = base + p[i]!;
      if (start > hi) return out;
      const durationMs = p[i + 1]! - p[i]!;
      if (start + durationMs <= lo) continue;
      out.push({ j: i - k, start, durationMs, videoIndex: i, slateFile: -1, discontinuity: i === k, innerDiscontinuities: 0 });
    }
  }
  const end = plan.end;
  if (videoEnd >= end) return out;
  const first = Math.max(0, Math.floor((lo - videoEnd) / SLATE_SEGMENT_MS));
  for (let s = first; ; s++) {
    const start = videoEnd + s * SLATE_SEGMENT_MS;
    if (start >= end || start > hi) break;
    const durationMs = Math.min(SLATE_SEGMENT_MS, end - start);
    if (start + durationMs <= lo) continue;
    const stretch = Math.floor(s / SLATE_RUN);
    out.push({
      j: count + s,
      start,
      durationMs,
      videoIndex: -1,
      slateFile: s % SLATE_RUN,
      discontinuity: s % SLATE_RUN === 0,
      innerDiscontinuities: count > 0 ? stretch + 1 : stretch,
    });
  }
  return out;
}
