// Credits closed watch sessions to the programmes on air during them (issue 19): run after each
// sweep in every process. A pass claims closed sessions not credited yet (skipping those another
// process holds), splits each over the schedule as it is now, minutes after the session ended,
// stores the rows, the dead air (watching while nothing was on air) and the figures of every
// airing they touch, and marks the sessions credited, all in one transaction: a session is
// credited once, and a crash credits it on the next pass.
import type { Database, Queryable } from '../db/connect.ts';
import {
  airingWatchRows,
  claimSessionsToCredit,
  insertDeadAir,
  insertProgrammeWatch,
  lockAirings,
  markSessionsCredited,
  upsertAiringFigures,
  type AiringFiguresRow,
  type SessionToCredit,
} from '../data/programme-watch.ts';
import { groupBy } from '../group-by.ts';
import { programmesOnAir } from '../schedules/on-air.ts';
import type { ScheduleTimelines } from '../schedules/timelines.ts';
import { airingFigures, attribute, deadAirPieces, type DeadAirPiece, type ProgrammeWatch } from './programme-attribution.ts';

/** Sessions per transaction: a few hundred rows written, locks held briefly. */
export const CREDIT_CHUNK = 500;
/** Chunks per pass, so one pass (e.g. the first after an upgrade, crediting history) stays bounded. */
const MAX_CHUNKS_PER_PASS = 40;

/** Credits closed sessions until none is left or the pass's bound; returns how many. */
export async function creditClosedSessions(db: Database, timelines: ScheduleTimelines, chunk = CREDIT_CHUNK): Promise<number> {
  let total = 0;
  for (let i = 0; i < MAX_CHUNKS_PER_PASS; i++) {
    const credited = await db.transaction(async (tx) => {
      const sessions = await claimSessionsToCredit(tx, chunk);
      const { rows, deadAir } = await splitSessions(tx, timelines, sessions);
      await insertProgrammeWatch(tx, rows);
      await insertDeadAir(tx, deadAir);
      await upsertAiringFigures(tx, await figuresOfAirings(tx, rows));
      await markSessionsCredited(
        tx,
        sessions.map((s) => s.id),
      );
      return sessions.length;
    });
    total += credited;
    if (credited < chunk) break;
  }
  return total;
}

/**
 * Which rows programmeRows computes: those of airings starting in [from, to) (epoch ms), of the
 * first sessions making at most maxRows and reading at most maxChannelDays channel-days.
 */
export interface RowWindow {
  from: number;
  to: number;
  maxRows?: number;
  maxChannelDays?: number;
}

const DAY_MS = 86_400_000;

/**
 * Rows, the dead air of the sessions they come from (their pieces from the window's `from` on, the
 * session clipped there; a piece past `to` may be cut short or missing: a read clips them to its
 * range), and how many of the sessions given a bound left out (none without one).
 */
export interface SplitSessions {
  rows: ProgrammeWatch[];
  deadAir: DeadAirPiece[];
  leftOut: number;
}

/** The rows of programmeRows, and how many sessions its bounds left out. */
export async function programmeRows(db: Queryable, timelines: ScheduleTimelines, sessions: readonly SessionToCredit[], window?: RowWindow): Promise<ProgrammeWatch[]> {
  return (await splitSessions(db, timelines, sessions, window)).rows;
}

/**
 * The rows of each session, split over its channel's programmes. With `window`, only the rows of
 * airings starting in it, and only those are computed: a session is split from `from` on (an
 * earlier start changes no row of those airings: each credits from the later of the session's and
 * the airing's start, and the first row in the window still has an earlier airing before it, or
 * none) over the programmes starting before `to`, so a long session costs the programmes of the
 * window, not of its whole length. The schedule is read only where sessions were: per channel, the
 * spans their times cover (two sessions days apart read two spans, never the days between). Sessions
 * are taken in the order given (most recent first for a read), whole, while their rows make at most
 * `maxRows` and the channel-days their spans read (UTC days, a day either side) at most
 * `maxChannelDays`; a session past a bound is left out and counted.
 */
export async function splitSessions(db: Queryable, timelines: ScheduleTimelines, sessions: readonly SessionToCredit[], window?: RowWindow): Promise<SplitSessions> {
  const from = window?.from ?? -Infinity;
  const to = window?.to ?? Infinity;
  const clipped = sessions.filter((s) => s.lastHeartbeatAt >= from).map((s) => (s.startedAt < from ? { ...s, startedAt: from } : s));
  const days = new Set<string>();
  const kept: SessionToCredit[] = [];
  let leftOut = 0;
  for (const s of clipped) {
    const read = channelDaysOf(s.channelId, s.startedAt, Math.min(to, s.lastHeartbeatAt)).filter((d) => !days.has(d));
    if (days.size + read.length > (window?.maxChannelDays ?? Infinity)) {
      leftOut++;
      continue;
    }
    for (const d of read) days.add(d);
    kept.push(s);
  }
  const spans = sessionSpans(kept, to);
  const onAir = await programmesOnAir(
    db,
    timelines,
    spans.map(({ channel, from: f, to: t }) => ({ channel, from: f, to: t })),
  );
  const programmes = onAir.map((list) => (window ? list.filter((p) => p.start < to) : list));
  const spanOf = new Map<SessionToCredit, number>();
  spans.forEach((span, i) => span.sessions.forEach((s) => spanOf.set(s, i)));
  const rows: ProgrammeWatch[] = [];
  const deadAir: DeadAirPiece[] = [];
  for (const [k, session] of kept.entries()) {
    const whole = attribute(session, programmes[spanOf.get(session)!]!);
    const split = whole.filter((r) => r.airingStart >= from);
    if (rows.length + split.length > (window?.maxRows ?? Infinity)) {
      leftOut += kept.length - k;
      break;
    }
    rows.push(...split);
    deadAir.push(...deadAirPieces(session, whole));
  }
  return { rows, deadAir, leftOut };
}

/** The UTC days [start - 1 day, end + 1 day] touches, keyed by channel: what reading a session's programmes compiles, about. */
function channelDaysOf(channelId: number, start: number, end: number): string[] {
  const first = Math.floor((start - DAY_MS) / DAY_MS);
  const last = Math.floor((Math.max(start, end) + DAY_MS) / DAY_MS);
  return Array.from({ length: last - first + 1 }, (_, i) => `${channelId}|${first + i}`);
}

/**
 * Per channel, the sessions' times merged into spans (sessions whose read days meet share one), each
 * with its sessions: one schedule read per span.
 */
function sessionSpans(sessions: readonly SessionToCredit[], to: number) {
  const spans: Array<{ channel: { id: number; timezone: string; ownerId: number }; from: number; to: number; sessions: SessionToCredit[] }> = [];
  for (const list of groupBy(sessions, (s) => s.channelId).values()) {
    const byStart = [...list].sort((a, b) => a.startedAt - b.startedAt);
    let span: (typeof spans)[number] | undefined;
    for (const s of byStart) {
      const end = Math.min(to, s.lastHeartbeatAt);
      if (span && s.startedAt <= span.to + 2 * DAY_MS) {
        span.to = Math.max(span.to, end);
        span.sessions.push(s);
      } else {
        span = { channel: { id: s.channelId, timezone: s.timezone, ownerId: s.ownerId }, from: s.startedAt, to: end, sessions: [s] };
        spans.push(span);
      }
    }
  }
  return spans;
}

/** The figures of every airing the new rows touch, from all of its stored rows. */
async function figuresOfAirings(db: Queryable, rows: readonly ProgrammeWatch[]): Promise<AiringFiguresRow[]> {
  const airings = new Map<string, { channelId: number; airingStart: number }>();
  for (const r of rows) airings.set(`${r.channelId}|${r.airingStart}`, { channelId: r.channelId, airingStart: r.airingStart });
  await lockAirings(db, [...airings.values()]);
  return figuresByAiring(await airingWatchRows(db, [...airings.values()]));
}

/** Rows grouped by airing, then each airing's figures per source and for all sources (''). */
export function figuresByAiring(rows: readonly ProgrammeWatch[]): AiringFiguresRow[] {
  const result: AiringFiguresRow[] = [];
  for (const list of groupBy(rows, (r) => `${r.channelId}|${r.airingStart}`).values()) {
    const { channelId, airingStart, airingStop, ownerId, videoId, isLive } = list[0]!;
    for (const [source, figures] of airingFigures(list)) {
      result.push({ channelId, airingStart, source, airingStop, ownerId, videoId, isLive, ...figures });
    }
  }
  return result;
}
