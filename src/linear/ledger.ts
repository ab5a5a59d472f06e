// The sequence ledger's rules (docs/linear.md: sequence numbers). Pure: the store is
// src/linear/live-stream.ts over src/data/linear-ledger.ts.
//
// A programme of the stream is an on-air segment (src/schedules/on-air-timeline.ts, the timeline
// the XMLTV guide lists) or a gap between two. When one first starts (its start <= now) while the
// window is asked, its row is written once: its first segment's media and discontinuity sequence
// numbers, what it airs (its video, or 0: the slate, for a gap, a live stream or a video that
// cannot air as itself then) and its count as known then. From then on the row, not the
// schedule, says what aired: an edit of the past changes no byte.
//
// A row follows from the row before it: base + the segments that programme airs up to this start,
// discontinuities + its inner ones + 1. Programmes between two rows that no window ever showed
// (an idle channel) are counted as if the earlier one ran on to the later start, airing the slate
// at its end: a larger jump, never a step back, and arithmetic (programme-segments.ts), so a
// week idle costs what a minute does.
import { programmeCount, type PlayableSource } from './programme-segments.ts';

export interface LedgerRow {
  programmeStart: number;
  mediaSequence: number;
  discontinuitySequence: number;
  videoId: number;
  segmentCount: number;
  discontinuities: number;
}

/** An on-air programme or gap, as the timeline says now (start unknown: a gap that began before the span read). */
export interface PlannedProgramme {
  start: number | undefined;
  end: number;
  /** 0 for a gap. */
  videoId: number;
  offset: number;
  isLive: boolean;
}

/** The on-air segments of [from, to) (by start, whole) with the gaps between them as programmes of video 0. */
export function plannedProgrammes(
  onAir: ReadonlyArray<{ start: number; end: number; videoId: number; offset: number; isLive: boolean }>,
  from: number,
  to: number,
): PlannedProgramme[] {
  const out: PlannedProgramme[] = [];
  let at: number | undefined;
  let reached = from;
  for (const s of onAir) {
    if (s.start > reached) out.push({ start: at, end: s.start, videoId: 0, offset: 0, isLive: false });
    out.push({ start: s.start, end: s.end, videoId: s.videoId, offset: s.offset, isLive: s.isLive });
    at = s.end;
    reached = s.end;
  }
  if (reached < to) out.push({ start: at, end: Infinity, videoId: 0, offset: 0, isLive: false });
  return out;
}

/** What a row's programme plays, for counting: the source of its video (undefined: slate) and its offset. */
export type SourceOf = (videoId: number) => PlayableSource | undefined;

/** The row of a programme starting at `start` airing `videoId`, following `prev` (undefined: the first row). */
export function nextRow(prev: LedgerRow | undefined, prevOffset: number, sourceOf: SourceOf, start: number, videoId: number, known: { end: number; offset: number }): LedgerRow {
  let mediaSequence = 0;
  let discontinuitySequence = 0;
  if (prev) {
    const count = programmeCount({ start: prev.programmeStart, end: start, source: prev.videoId ? sourceOf(prev.videoId) : undefined, offset: prevOffset });
    mediaSequence = prev.mediaSequence + count.segments;
    discontinuitySequence = prev.discontinuitySequence + count.innerDiscontinuities + 1;
  }
  const own =
    known.end === Infinity
      ? { segments: 0, innerDiscontinuities: 0 }
      : programmeCount({ start, end: known.end, source: videoId ? sourceOf(videoId) : undefined, offset: known.offset });
  return { programmeStart: start, mediaSequence, discontinuitySequence, videoId, segmentCount: own.segments, discontinuities: own.innerDiscontinuities + 1 };
}

/**
 * The rows to write now: one for each planned programme that has started (start <= now) after
 * the last row and reaches into the window (its end after `windowFrom`), in order, each following
 * the one before. With no row yet, the first programme
 * is the earliest planned one (a gap whose start was not read starts at `firstGapStart`: a
 * convention every instance shares, see live-stream.ts). A gap of unknown start after a row
 * is the last row running on (no row). `airs(videoId, isLive)` is the video a programme airs
 * as itself, 0 when it airs the slate.
 */
export function rowsToWrite(
  rows: readonly LedgerRow[],
  planned: readonly PlannedProgramme[],
  now: number,
  windowFrom: number,
  firstGapStart: number,
  sourceOf: SourceOf,
  offsetOf: (row: LedgerRow) => number,
  airs: (p: PlannedProgramme) => number,
): LedgerRow[] {
  const out: LedgerRow[] = [];
  let prev = rows.at(-1);
  let prevOffset = prev ? offsetOf(prev) : 0;
  for (const p of planned) {
    let start = p.start;
    if (start === undefined) {
      if (prev) continue;
      start = Math.min(firstGapStart, p.end - 1000);
    }
    // Not yet started, already written, or over before the window: no window ever showed it (it
    // would have its row), so it gets none: the row before runs on over it (an idle channel's
    // catch-up costs one row, whatever it missed).
    if (start > now || (prev && start <= prev.programmeStart) || p.end <= windowFrom) continue;
    const videoId = airs(p);
    const row = nextRow(prev, prevOffset, sourceOf, start, videoId, { end: p.end, offset: p.offset });
    out.push(row);
    prev = row;
    prevOffset = videoId ? p.offset : 0;
  }
  return out;
}
