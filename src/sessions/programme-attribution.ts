// Programme attribution (issue 19): a watch session's time split over the programmes on air on
// its channel, and the figures of one airing. Pure: the crediter (programme-crediter.ts) and the
// reads of open sessions (programme-analytics.ts) feed it what the schedule and the database hold.
import { createHash } from 'node:crypto';
import type { DeadAirRow, ProgrammeWatchRow, SessionToCredit } from '../data/programme-watch.ts';
import { groupBy } from '../group-by.ts';
import type { OnAir } from '../schedules/guide-export.ts';

/** What attribution needs of a session (instants in epoch ms; lastHeartbeatAt ends the real watching). */
export type AttributedSession = Omit<SessionToCredit, 'timezone'>;

/** One session's watching of one airing (a programme_watch row). */
export type ProgrammeWatch = ProgrammeWatchRow;

/**
 * The device behind a session, as 64 bits of a hash: its client id on its platform, else its
 * user id, else the session itself (an anonymous session without a client id cannot be told
 * apart from others, so it counts as a viewer of its own).
 */
export function viewerOf(session: Pick<AttributedSession, 'id' | 'source' | 'clientId' | 'userId'>): bigint {
  const key = session.clientId !== '' ? `c|${session.source}|${session.clientId}` : session.userId !== '' ? `u|${session.userId}` : `s|${session.id}`;
  return createHash('sha256').update(key).digest().readBigInt64BE(0);
}

const wholeSeconds = (ms: number) => Math.floor(ms / 1000);

/** The first programme that stops after `ms` (programmes sorted by start, not overlapping). */
function firstStoppingAfter(programmes: readonly OnAir[], ms: number): number {
  let lo = 0;
  let hi = programmes.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (programmes[mid]!.stop > ms) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/**
 * The session's rows: one per programme its real watching [startedAt, lastHeartbeatAt]
 * overlaps, credited the overlap in whole seconds (boundaries floored, so a session's pieces
 * add up to its length). A session of one heartbeat has no length: the programme on air at
 * that instant gets a row of 0 seconds, so the session still counts as a session and a viewer
 * of it. Time when nothing was on air is credited to no programme (deadAirPieces says it). The
 * 60-second minimum of the spec is the session's, not a programme's.
 */
export function attribute(session: AttributedSession, programmes: readonly OnAir[]): ProgrammeWatch[] {
  const viewer = viewerOf(session);
  const { startedAt: from, lastHeartbeatAt: to } = session;
  const rows: ProgrammeWatch[] = [];
  for (let i = firstStoppingAfter(programmes, from); i < programmes.length; i++) {
    const p = programmes[i]!;
    if (p.start > to || (p.start === to && to > from)) break;
    const watchStart = Math.max(from, p.start);
    const watchEnd = Math.min(to, p.stop);
    rows.push({
      sessionId: session.id,
      airingStart: p.start,
      airingStop: p.stop,
      ownerId: session.ownerId,
      channelId: session.channelId,
      videoId: p.video.videoTubeId,
      isLive: p.isLive,
      source: session.source,
      viewer,
      watchStart,
      watchSeconds: wholeSeconds(watchEnd) - wholeSeconds(watchStart),
      prevAiringStart: rows.at(-1)?.airingStart ?? null,
    });
  }
  return rows;
}

/**
 * A stretch of one session's watching while nothing was on air (dead air), in whole seconds: what
 * the programme list's dead-air row of the channel counts (docs/activity.md: Programme analytics).
 */
export type DeadAirPiece = DeadAirRow;

/**
 * The session's dead air: its watching [startedAt, lastHeartbeatAt] outside the rows `attribute`
 * gave it, with the same whole-second boundaries, so a session's rows and pieces add up to its
 * length. A session with no row watched only dead air: one piece, of 0 seconds for one heartbeat
 * (it still counts as a session and a viewer of the dead air, as a programme's 0-second row does).
 */
export function deadAirPieces(session: AttributedSession, rows: readonly Pick<ProgrammeWatch, 'watchStart' | 'watchSeconds'>[]): DeadAirPiece[] {
  const viewer = viewerOf(session);
  const first = wholeSeconds(session.startedAt);
  const last = Math.max(first, wholeSeconds(session.lastHeartbeatAt));
  const piece = (from: number, to: number): DeadAirPiece => ({
    sessionId: session.id,
    ownerId: session.ownerId,
    channelId: session.channelId,
    source: session.source,
    viewer,
    watchStart: from * 1000,
    watchSeconds: to - from,
  });
  if (rows.length === 0) return [piece(first, last)];
  const pieces: DeadAirPiece[] = [];
  let at = first;
  for (const r of [...rows].sort((a, b) => a.watchStart - b.watchStart)) {
    const start = wholeSeconds(r.watchStart);
    if (start > at) pieces.push(piece(at, start));
    at = Math.max(at, start + r.watchSeconds);
  }
  if (last > at) pieces.push(piece(at, last));
  return pieces;
}

/** Figures of an airing, for one source or for all. */
export interface AiringFigures {
  watchSeconds: number;
  sessions: number;
  viewers: number;
  /** The most viewers (devices) watching at one instant. */
  peakViewers: number;
}

/** All sources together are keyed ''. */
export const ALL_SOURCES = '';

type WatchSpan = Pick<ProgrammeWatch, 'sessionId' | 'source' | 'viewer' | 'watchStart' | 'watchSeconds'>;

/** The figures of one airing's rows, for all sources ('') and for each source. */
export function airingFigures(rows: readonly WatchSpan[]): Map<string, AiringFigures> {
  const bySource = new Map<string, readonly WatchSpan[]>([[ALL_SOURCES, rows], ...groupBy(rows, (r) => r.source)]);
  const figures = new Map<string, AiringFigures>();
  for (const [source, list] of bySource) {
    figures.set(source, {
      watchSeconds: list.reduce((sum, r) => sum + r.watchSeconds, 0),
      sessions: new Set(list.map((r) => r.sessionId)).size,
      viewers: new Set(list.map((r) => r.viewer)).size,
      peakViewers: peakViewers(list),
    });
  }
  return figures;
}

/**
 * The most distinct viewers watching at one instant: a sweep over starts and ends, ends first
 * at equal instants (back-to-back watching is not concurrent). A row of 0 seconds watched for
 * an instant; it counts as one second.
 */
export function peakViewers(rows: readonly Pick<WatchSpan, 'viewer' | 'watchStart' | 'watchSeconds'>[]): number {
  const events: [number, number, bigint][] = [];
  for (const r of rows) {
    events.push([r.watchStart, 1, r.viewer]);
    events.push([r.watchStart + Math.max(1, r.watchSeconds) * 1000, -1, r.viewer]);
  }
  events.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const watching = new Map<bigint, number>();
  let peak = 0;
  for (const [, step, viewer] of events) {
    const n = (watching.get(viewer) ?? 0) + step;
    if (n === 0) watching.delete(viewer);
    else watching.set(viewer, n);
    peak = Math.max(peak, watching.size);
  }
  return peak;
}
