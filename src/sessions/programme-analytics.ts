// Programme analytics for an owner (issue 19): which programmes hold viewers. Figures come from
// the credited rows (programme-crediter.ts) and, for sessions not credited yet (open ones, and
// closed ones the crediter has not reached), from splitting them on the fly over the schedule as
// it is now, so an answer is whole whatever the crediter's lag.
import {
  channelAirings,
  channelNames,
  channelSessionsDuring,
  channelWatchSpans,
  figureRows,
  ownedChannel,
  storedDeadAir,
  uncreditedSessions,
  videoTitles,
  type DeadAirGroup,
  type DeadAirTotals,
  type FigureRow,
  type LiveRows,
  type ProgrammeFilter,
  type ProgrammeKey,
  type ProgrammeMetric,
} from '../data/programme-analytics.ts';
import { airingWatchRows, type SessionToCredit } from '../data/programme-watch.ts';
import type { Queryable } from '../db/connect.ts';
import { programmesOnAir } from '../schedules/on-air.ts';
import type { ScheduleTimelines, TimelineChannel } from '../schedules/timelines.ts';
import { cachedDayWindow } from '../schedules/zone-offsets.ts';
import { figuresByAiring, splitSessions } from './programme-crediter.ts';
import { airingFigures, ALL_SOURCES, peakViewers, viewerOf, type DeadAirPiece } from './programme-attribution.ts';

export type { ProgrammeFilter, ProgrammeMetric };

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;
/**
 * Sessions split on the fly per read: a network's open sessions (its concurrent viewers) and the
 * crediter's backlog, which it clears 20,000 a pass. More than this (a backlog after an outage)
 * reads the most recent ones; docs/activity.md: Programme analytics.
 */
export const MAX_LIVE_SESSIONS = 20_000;
/**
 * Rows those sessions may make (one per programme a session watched in the range): a day of
 * the fullest channel is 720 programmes, so a few dozen sessions open for a day reach it. Past
 * it, the most recent sessions that fit are read; docs/activity.md: Programme analytics.
 */
export const MAX_LIVE_ROWS = 20_000;
/**
 * Channel-days those sessions may read (compile) per request: a full channel-day (720 entries)
 * costs ~3 ms to compile and split over, so this keeps the worst read near a second of CPU. A
 * backlog spread over many channels and days past it reads the most recent sessions' days first;
 * the others are left out, and the answer says how many (`X-Sessions-Left-Out`); docs/activity.md:
 * Programme analytics.
 */
export const MAX_LIVE_CHANNEL_DAYS = 240;
/**
 * Stretches of credited sessions' dead air a programme list reads: a channel with nothing on air
 * for hours makes one per session. Past it the most recent are counted and the answer says
 * `X-Sessions-Left-Out: N+`; docs/activity.md: Programme analytics.
 */
export const MAX_DEAD_AIR_STRETCHES = 100_000;

/** Sessions not credited yet that a read's bounds left out of its figures; `more` when there were more than MAX_LIVE_SESSIONS to read. */
export interface LeftOut {
  sessions: number;
  more: boolean;
}

export const PROGRAMME_GROUPS = ['programme', 'channel', 'source', 'day'] as const;
export type ProgrammeGroup = (typeof PROGRAMME_GROUPS)[number];
export const PROGRAMME_METRICS = ['watchSeconds', 'sessions', 'viewers', 'peakViewers'] as const satisfies readonly ProgrammeMetric[];

const GROUP_KEYS: Record<ProgrammeGroup, ProgrammeKey[]> = {
  programme: ['video'],
  channel: ['video', 'channel'],
  source: ['video', 'source'],
  day: ['video', 'day'],
};

export interface ProgrammeFigures {
  watchSeconds: number;
  sessions: number;
  uniqueViewers: number;
  averageSessionMinutes: number;
  peakConcurrentViewers: number;
}

export interface ProgrammeLine extends ProgrammeFigures {
  /** null on a dead-air row. */
  videoId: number | null;
  title: string | null;
  channelId: number | null;
  channelName: string | null;
  source: string | null;
  day: string | null;
  /** The channel's dead air (`channelId` names it): viewers watching while nothing was on air. */
  deadAir: boolean;
}

export interface ChannelLine extends ProgrammeFigures {
  channelId: number;
  channelName: string | null;
}

/**
 * The rows of sessions not credited yet whose airings started in the filter's range, their
 * airings' figures, and what the bounds left out (the most recent sessions are read first).
 */
async function liveRows(db: Queryable, timelines: ScheduleTimelines, f: ProgrammeFilter): Promise<LiveRows & { leftOut: LeftOut; deadAir: DeadAirPiece[]; sessionIds: number[] }> {
  const read = await uncreditedSessions(db, f, MAX_LIVE_SESSIONS + 1);
  const sessions = read.slice(0, MAX_LIVE_SESSIONS);
  const from = f.from.getTime();
  const to = f.to.getTime();
  const split = await splitSessions(db, timelines, sessions, { from, to, maxRows: MAX_LIVE_ROWS, maxChannelDays: MAX_LIVE_CHANNEL_DAYS });
  const watch = split.rows;
  const leftOut = { sessions: split.leftOut, more: read.length > MAX_LIVE_SESSIONS };
  const deadAir = split.deadAir;
  const sessionIds = read.map((s) => s.id);
  if (watch.length === 0) return { watch, airings: [], leftOut, deadAir, sessionIds };
  // An airing's figures count its credited rows too.
  const live = new Set(watch.map((r) => r.sessionId));
  const keys = new Map(watch.map((r) => [`${r.channelId}|${r.airingStart}`, { channelId: r.channelId, airingStart: r.airingStart }]));
  const stored = (await airingWatchRows(db, [...keys.values()])).filter((r) => !live.has(r.sessionId));
  return { watch, airings: figuresByAiring([...stored, ...watch]), leftOut, deadAir, sessionIds };
}

const round1 = (n: number) => Math.round(n * 10) / 10;

function figures(r: FigureRow): ProgrammeFigures {
  return {
    watchSeconds: r.watchSeconds,
    sessions: r.sessions,
    uniqueViewers: r.viewers,
    averageSessionMinutes: r.sessions === 0 ? 0 : round1(r.watchSeconds / r.sessions / 60),
    peakConcurrentViewers: r.peakViewers,
  };
}

export interface ProgrammePage {
  items: ProgrammeLine[];
  totals: ProgrammeFigures;
  total: number;
  leftOut: LeftOut;
}

/** Programmes (per channel, source or day when grouped so), best first by `orderBy`, a page of them. */
export async function programmeFigures(
  db: Queryable,
  timelines: ScheduleTimelines,
  f: ProgrammeFilter,
  options: { groupBy: ProgrammeGroup; orderBy: ProgrammeMetric; page: number; perPage: number },
): Promise<ProgrammePage> {
  const live = await liveRows(db, timelines, f);
  const keys = GROUP_KEYS[options.groupBy];
  const dead = await deadAirOf(db, f, live);
  const deadAir = deadAirFigures(dead.pieces, options.groupBy);
  const page = await figureRows(db, f, live, { keys, orderBy: options.orderBy, limit: options.perPage, offset: (options.page - 1) * options.perPage, totals: true, deadAir });
  const leftOut = { sessions: live.leftOut.sessions, more: live.leftOut.more || dead.more };
  return { items: await programmeLines(db, page.rows), totals: figures(page.totals!), total: page.groups, leftOut };
}

/**
 * The range's dead air: the stretches of the filter's sessions while nothing was on air on their
 * channel (a credited session's as the crediter stored them, the others' from their split on the
 * fly), cut to [from, to).
 */
async function deadAirOf(db: Queryable, f: ProgrammeFilter, live: { deadAir: DeadAirPiece[]; sessionIds: number[] }): Promise<{ pieces: DeadAirPiece[]; more: boolean }> {
  const read = await storedDeadAir(db, f, live.sessionIds, MAX_DEAD_AIR_STRETCHES + 1);
  const credited = read.slice(0, MAX_DEAD_AIR_STRETCHES);
  const from = f.from.getTime();
  const to = f.to.getTime();
  const pieces = [...credited, ...live.deadAir].flatMap((p) => {
    const cut = cutTo(p, from, to);
    return cut ? [cut] : [];
  });
  return { pieces, more: read.length > MAX_DEAD_AIR_STRETCHES };
}

/** The part of a stretch within [from, to) in whole seconds (a 0-second one if its instant is in it), or none. Pure. */
export function cutTo(p: DeadAirPiece, from: number, to: number): DeadAirPiece | undefined {
  const start = p.watchStart;
  if (p.watchSeconds === 0) return start >= from && start < to ? p : undefined;
  const a = Math.max(start, from);
  const b = Math.min(start + p.watchSeconds * 1000, to);
  if (b <= a) return undefined;
  return { ...p, watchStart: a, watchSeconds: Math.floor(b / 1000) - Math.floor(a / 1000) };
}

/** A stretch cut at UTC midnights, each part with its day number. Pure. */
function byUtcDay(p: DeadAirPiece): { day: number; piece: DeadAirPiece }[] {
  const parts: { day: number; piece: DeadAirPiece }[] = [];
  let start = p.watchStart;
  const end = p.watchStart + p.watchSeconds * 1000;
  do {
    const day = Math.floor(start / DAY_MS);
    const stop = Math.min(end, (day + 1) * DAY_MS);
    parts.push({ day, piece: { ...p, watchStart: start, watchSeconds: Math.floor(stop / 1000) - Math.floor(start / 1000) } });
    start = stop;
  } while (start < end);
  return parts;
}

/**
 * The dead-air rows of a programme list: one per channel (and source, or UTC day, when grouped
 * so) that was watched while nothing was on air, with the figures a programme's row has (its
 * watch time, sessions, devices, the most devices watching its dead air at one instant), and what
 * the totals add. Pure.
 */
export function deadAirFigures(pieces: readonly DeadAirPiece[], groupBy: ProgrammeGroup): { groups: DeadAirGroup[]; totals: DeadAirTotals } {
  const keyed = new Map<string, { channelId: number; source: string | null; day: number | null; pieces: DeadAirPiece[] }>();
  const add = (p: DeadAirPiece, source: string | null, day: number | null) => {
    const key = `${p.channelId}|${source ?? ''}|${day ?? ''}`;
    let group = keyed.get(key);
    if (!group) keyed.set(key, (group = { channelId: p.channelId, source, day, pieces: [] }));
    group.pieces.push(p);
  };
  for (const p of pieces) {
    if (groupBy === 'day') for (const part of byUtcDay(p)) add(part.piece, null, part.day);
    else add(p, groupBy === 'source' ? p.source : null, null);
  }
  const groups = [...keyed.values()].map((g): DeadAirGroup => {
    const f = airingFigures(g.pieces).get(ALL_SOURCES)!;
    return { channelId: g.channelId, source: g.source, day: g.day, watchSeconds: f.watchSeconds, sessions: f.sessions, viewers: f.viewers, peakViewers: f.peakViewers };
  });
  // The totals' peak is a channel's: its groups' when they are the channels, else counted per channel.
  let peak = Math.max(0, ...groups.map((g) => g.peakViewers));
  if (groupBy === 'source' || groupBy === 'day') {
    const perChannel = new Map<number, DeadAirPiece[]>();
    for (const p of pieces) {
      const list = perChannel.get(p.channelId);
      if (list) list.push(p);
      else perChannel.set(p.channelId, [p]);
    }
    peak = Math.max(0, ...[...perChannel.values()].map((list) => peakViewers(list)));
  }
  return {
    groups,
    totals: {
      watchSeconds: pieces.reduce((sum, p) => sum + p.watchSeconds, 0),
      peakViewers: peak,
      sessionIds: [...new Set(pieces.map((p) => p.sessionId))],
      viewers: [...new Set(pieces.map((p) => p.viewer))],
    },
  };
}

/** Rows keyed by programme (and maybe channel, source or day) with their titles and channel names. */
async function programmeLines(db: Queryable, rows: readonly FigureRow[]): Promise<ProgrammeLine[]> {
  const [titles, names] = await Promise.all([
    videoTitles(
      db,
      rows.flatMap((r) => (r.videoId === null ? [] : [r.videoId])),
    ),
    channelNames(
      db,
      rows.flatMap((r) => (r.channelId === null ? [] : [r.channelId])),
    ),
  ]);
  return rows.map((r) => ({
    videoId: r.videoId,
    title: r.videoId === null ? null : (titles.get(r.videoId) ?? null),
    channelId: r.channelId,
    channelName: r.channelId === null ? null : (names.get(r.channelId) ?? null),
    source: r.source,
    day: r.day,
    ...figures(r),
    deadAir: r.deadAir,
  }));
}

export interface TopLists {
  programmes: ProgrammeLine[];
  channels: ChannelLine[];
  leftOut: LeftOut;
}

/** The best `limit` programmes and channels of the range by `metric`. */
export async function topFigures(db: Queryable, timelines: ScheduleTimelines, f: ProgrammeFilter, metric: ProgrammeMetric, limit: number): Promise<TopLists> {
  const live = await liveRows(db, timelines, f);
  const [programmes, channels] = await Promise.all([
    figureRows(db, f, live, { keys: ['video'], orderBy: metric, limit, offset: 0, totals: false }),
    figureRows(db, f, live, { keys: ['channel'], orderBy: metric, limit, offset: 0, totals: false }),
  ]);
  const [lines, names] = await Promise.all([
    programmeLines(db, programmes.rows),
    channelNames(
      db,
      channels.rows.map((r) => r.channelId!),
    ),
  ]);
  return {
    programmes: lines,
    channels: channels.rows.map((r) => ({ channelId: r.channelId!, channelName: names.get(r.channelId!) ?? null, ...figures(r) })),
    leftOut: live.leftOut,
  };
}

export interface CurveMinute {
  start: Date;
  /** Devices watching a programme during the minute. */
  viewers: number;
  videoId: number | null;
  title: string | null;
  isLive: boolean;
  /** Nothing on air at the minute's start: `viewers` are then the devices whose session was open during it (dead air, counted, not a silent gap). */
  deadAir: boolean;
}

interface Airing {
  start: number;
  stop: number;
  videoId: number;
  isLive: boolean;
}

export interface ChannelCurve {
  channelId: number;
  date: string;
  timezone: string;
  minutes: CurveMinute[];
}

/** The curve of one of the owner's channels; another owner's channel, or none, is 'channel_not_found'. */
export async function ownerChannelCurve(
  db: Queryable,
  timelines: ScheduleTimelines,
  ownerId: number,
  channelId: number,
  date: string,
): Promise<ChannelCurve | 'channel_not_found'> {
  const channel = await ownedChannel(db, ownerId, channelId);
  if (!channel) return 'channel_not_found';
  return { channelId: channel.id, date, timezone: channel.timezone, minutes: await channelCurve(db, timelines, channel, date) };
}

/**
 * A channel-day (a date of the channel's own zone: 23 to 25 hours) minute by minute: the devices
 * watching during each minute, and the programme on air at its start: the airing as it was
 * credited, else (nobody watched it yet) as the schedule has it now.
 */
async function channelCurve(db: Queryable, timelines: ScheduleTimelines, channel: Required<TimelineChannel>, date: string): Promise<CurveMinute[]> {
  const { from, to } = cachedDayWindow(date, channel.timezone);
  // Airings that started up to a day before the date can play into it.
  const f = { ownerId: channel.ownerId, channelId: channel.id, from: new Date(from - DAY_MS), to: new Date(to) };
  const live = await liveRows(db, timelines, f);
  const liveIds = [...new Set(live.watch.map((r) => r.sessionId))];
  const [spans, stored, [scheduled = []]] = await Promise.all([
    channelWatchSpans(db, channel.id, from - DAY_MS, to, liveIds),
    channelAirings(db, channel.id, from - DAY_MS, to),
    programmesOnAir(db, timelines, [{ channel, from, to }]),
  ]);
  const count = Math.round((to - from) / MINUTE_MS);
  const viewers = minuteViewers([...spans, ...live.watch], from, count);
  const credited: Airing[] = [
    ...stored.map((a) => ({ start: a.airingStart, stop: a.airingStop, videoId: a.videoId, isLive: a.isLive })),
    ...live.airings.filter((a) => a.source === '').map((a) => ({ start: a.airingStart, stop: a.airingStop, videoId: a.videoId, isLive: a.isLive })),
  ];
  const now = scheduled.map((p) => ({ start: p.start, stop: p.stop, videoId: p.video.videoTubeId, isLive: p.isLive }));
  const onAir = Array.from({ length: count }, (_, i) => airingAt(credited, from + i * MINUTE_MS) ?? airingAt(now, from + i * MINUTE_MS));
  const titles = await videoTitles(db, [...new Set(onAir.flatMap((a) => (a ? [a.videoId] : [])))]);
  // Dead air: watching when nothing is on air credits no programme, so its minutes count the sessions themselves.
  const dark = onAir.some((a) => !a) ? sessionMinuteViewers(await channelSessionsDuring(db, channel.id, from, to), from, count) : [];
  return onAir.map((a, i) => ({
    start: new Date(from + i * MINUTE_MS),
    viewers: a ? viewers[i]! : Math.max(viewers[i]!, dark[i] ?? 0),
    videoId: a?.videoId ?? null,
    title: a ? (titles.get(a.videoId) ?? null) : null,
    isLive: a?.isLive ?? false,
    deadAir: !a,
  }));
}

function airingAt(airings: readonly Airing[], ms: number): Airing | undefined {
  return airings.find((a) => a.start <= ms && ms < a.stop);
}

/** Distinct devices whose session was open (started, not past its last heartbeat) during each of `count` minutes from `from`. Pure. */
export function sessionMinuteViewers(
  sessions: ReadonlyArray<Pick<SessionToCredit, 'id' | 'source' | 'clientId' | 'userId' | 'startedAt' | 'lastHeartbeatAt'>>,
  from: number,
  count: number,
): number[] {
  return minuteViewers(
    sessions.map((s) => ({ viewer: viewerOf(s), watchStart: s.startedAt, watchSeconds: Math.floor(s.lastHeartbeatAt / 1000) - Math.floor(s.startedAt / 1000) })),
    from,
    count,
  );
}

/** Distinct viewers watching during each of `count` minutes from `from` (a 0-second watch counts in its minute). Pure. */
export function minuteViewers(spans: readonly { viewer: bigint; watchStart: number; watchSeconds: number }[], from: number, count: number): number[] {
  const sets = Array.from({ length: count }, () => new Set<bigint>());
  for (const s of spans) {
    const end = s.watchStart + s.watchSeconds * 1000;
    if (end < from || s.watchStart >= from + count * MINUTE_MS) continue;
    const first = Math.max(0, Math.floor((s.watchStart - from) / MINUTE_MS));
    const last = Math.min(count - 1, s.watchSeconds > 0 ? Math.ceil((end - from) / MINUTE_MS) - 1 : first);
    for (let m = first; m <= last; m++) sets[m]!.add(s.viewer);
  }
  return sets.map((s) => s.size);
}
