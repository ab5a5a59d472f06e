// One live window's inputs from what the service read (src/linear/live-stream.ts): the on-air
// segments of the span, the ledger rows, the videos' sources. Pure: the ledger rows a request
// must write first, then the window's input (live-playlist.ts) once they are written.
import { plannedProgrammes, rowsToWrite, type LedgerRow, type PlannedProgramme } from './ledger.ts';
import type { WindowInput } from './live-playlist.ts';
import type { PlayableSource } from './programme-segments.ts';
import type { LinearSettings } from './types.ts';

export interface OnAirLike {
  start: number;
  end: number;
  videoId: number;
  offset: number;
  isLive: boolean;
}

export interface WindowAsk {
  settings: Pick<LinearSettings, 'targetDurationSeconds' | 'windowSeconds' | 'ladder' | 'epoch'>;
  /** The channel's rows by start (from the last at or before the window on). */
  rows: readonly LedgerRow[];
  /** The on-air segments overlapping [since, to), whole, by start. */
  onAir: readonly OnAirLike[];
  since: number;
  to: number;
  sources: ReadonlyMap<number, PlayableSource>;
  now: number;
  slateBase: string;
}

/** How far back a window reads before it is cut to windowSeconds (ms). */
export const lookBack = (s: Pick<LinearSettings, 'windowSeconds' | 'targetDurationSeconds'>) => (s.windowSeconds + 2 * s.targetDurationSeconds + 1) * 1000;

/**
 * Where a channel's first row starts when nothing was on air then: a window's length before the
 * linear epoch, whole seconds (every instance computes the same, whenever it is first asked).
 */
const firstGapStartOf = (s: WindowAsk['settings']) => Math.floor(s.epoch / 1000) * 1000 - lookBack(s);

/**
 * How long one read of the timeline serves a channel's windows (ms): a window made at `now` holds
 * every later window until the next programme starts or this passes (stateUntil), so a channel
 * polled by many players reads once in this span, whatever its segments' length. Two minutes: a
 * fleet that pauses (a CDN's cache holding answers, a quiet minute) finds its states still held,
 * rather than a thousand channels read again at once when it resumes. What it delays is only a
 * re-ingest of the video on air (a new ingest matters from its programme's start, which reads anew).
 */
export const READ_AHEAD_MS = 120_000;

/**
 * The span of the timeline a window at `now` reads: its own, and back to the last row's start
 * when that is within a day (its offset counts its segments), or, before the first row, back to
 * where the first row would start (what airs there decides it); ahead, READ_AHEAD_MS past the
 * next target duration (the windows it then serves need to know the programme after them).
 */
export function spanOf(settings: WindowAsk['settings'], rows: readonly LedgerRow[], now: number): { since: number; to: number } {
  const from = now - lookBack(settings);
  const last = rows.findLast((r) => r.programmeStart <= now);
  const back = last ? last.programmeStart : firstGapStartOf(settings);
  const since = back < from && back >= now - 86_400_000 ? back : from;
  return { since, to: now + (settings.targetDurationSeconds + 1) * 1000 + READ_AHEAD_MS };
}

/**
 * Until when a window input made at `madeAt` (its rows written) is every later window's input,
 * with only `now` moved: no programme starts before its nextStart, so no row is due, and the span
 * read reaches READ_AHEAD_MS further (the property test checks each poll against a fresh one).
 */
export const stateUntil = (input: WindowInput, madeAt: number) => Math.min(input.nextStart, madeAt + READ_AHEAD_MS);

function parts(ask: WindowAsk) {
  const planned = plannedProgrammes(ask.onAir, ask.since, ask.to);
  const sourceOf = (videoId: number) => ask.sources.get(videoId);
  const offsetOf = (row: LedgerRow) => planned.find((p) => p.start === row.programmeStart && p.videoId === row.videoId)?.offset ?? 0;
  return { planned, sourceOf, offsetOf };
}

/** The rows to write before the window is made (none: it can be made at once). */
export function rowsDue(ask: WindowAsk): LedgerRow[] {
  const { planned, sourceOf, offsetOf } = parts(ask);
  const airs = (p: PlannedProgramme) => (p.isLive || !p.videoId || !ask.sources.get(p.videoId) ? 0 : p.videoId);
  const started = ask.rows.filter((r) => r.programmeStart <= ask.now);
  // Never before the span read: what aired before it is unknown.
  const firstGapStart = Math.max(firstGapStartOf(ask.settings), Math.ceil(ask.since / 1000) * 1000);
  return rowsToWrite(started, planned, ask.now, ask.now - lookBack(ask.settings), firstGapStart, sourceOf, offsetOf, airs);
}

/** The window's input, the rows written. */
export function windowInput(ask: WindowAsk): WindowInput {
  const { planned, sourceOf, offsetOf } = parts(ask);
  return {
    settings: ask.settings,
    rows: ask.rows.filter((r) => r.programmeStart <= ask.now),
    nextStart: planned.find((p) => p.start !== undefined && p.start > ask.now)?.start ?? Infinity,
    sourceOf,
    offsetOf,
    now: ask.now,
    slateBase: ask.slateBase,
  };
}
