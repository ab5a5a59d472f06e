// Credits closed watch sessions to the programmes on air during them (issue 19): run after each
// sweep in every process. A pass claims closed sessions not credited yet (skipping those another
// process holds), splits each over the schedule as it is now, minutes after the session ended,
// stores the rows and the figures of every airing they touch, and marks the sessions credited,
// all in one transaction: a session is credited once, and a crash credits it on the next pass.
import type { Database, Queryable } from '../db/connect.ts';
import {
  airingWatchRows, claimSessionsToCredit, insertProgrammeWatch, lockAirings, markSessionsCredited, upsertAiringFigures,
  type AiringFiguresRow, type SessionToCredit,
} from '../data/programme-watch.ts';
import { groupBy } from '../group-by.ts';
import { programmesOnAir } from '../schedules/on-air.ts';
import type { ScheduleTimelines } from '../schedules/timelines.ts';
import { airingFigures, attribute, type ProgrammeWatch } from './programme-attribution.ts';

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
      const rows = await programmeRows(tx, timelines, sessions);
      await insertProgrammeWatch(tx, rows);
      await upsertAiringFigures(tx, await figuresOfAirings(tx, rows));
      await markSessionsCredited(tx, sessions.map((s) => s.id));
      return sessions.length;
    });
    total += credited;
    if (credited < chunk) break;
  }
  return total;
}

/** Which rows programmeRows computes: those of airings starting in [from, to) (epoch ms), of the first sessions making at most maxRows. */
export interface RowWindow {
  from: number;
  to: number;
  maxRows?: number;
}

/**
 * The rows of each session, split over its channel's programmes (one schedule read per channel).
 * With `window`, only the rows of airings starting in it, and only those are computed: a session
 * is split from `from` on (an earlier start changes no row of those airings: each credits from the
 * later of the session's and the airing's start, and the first row in the window still has an
 * earlier airing before it, or none) over the programmes starting before `to`, so a long session
 * costs the programmes of the window, not of its whole length; sessions are taken in the order
 * given, whole, while their rows make at most `maxRows`.
 */
export async function programmeRows(db: Queryable, timelines: ScheduleTimelines, sessions: readonly SessionToCredit[], window?: RowWindow): Promise<ProgrammeWatch[]> {
  const from = window?.from ?? -Infinity;
  const to = window?.to ?? Infinity;
  const clipped = sessions.filter((s) => s.lastHeartbeatAt >= from).map((s) => (s.startedAt < from ? { ...s, startedAt: from } : s));
  const groups = [...groupBy(clipped, (s) => s.channelId).values()];
  const asks = groups.map((list) => ({
    channel: { id: list[0]!.channelId, timezone: list[0]!.timezone, ownerId: list[0]!.ownerId },
    from: Math.min(...list.map((s) => s.startedAt)),
    to: Math.min(to, Math.max(...list.map((s) => s.lastHeartbeatAt))),
  }));
  const onAir = await programmesOnAir(db, timelines, asks);
  const programmes = new Map(groups.map((list, i) => [list[0]!.channelId, window ? onAir[i]!.filter((p) => p.start < to) : onAir[i]!]));
  const rows: ProgrammeWatch[] = [];
  for (const session of clipped) {
    const split = attribute(session, programmes.get(session.channelId)!).filter((r) => r.airingStart >= from);
    if (rows.length + split.length > (window?.maxRows ?? Infinity)) break;
    rows.push(...split);
  }
  return rows;
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
