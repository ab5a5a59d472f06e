// A schedule write checked on the days it touches, not the whole channel (issue 37): the overlap
// rule and the channel-day entry bound read only the stored blocks that can meet the written ones,
// so a block write costs about the same on a channel of 20 blocks and of 20,000.
//
// Which stored blocks can meet a written one-off block: the one-off blocks starting from a day
// and two hours before it to two hours after it ends (two hours: the largest daylight-saving
// change; a day more near a zone's skipped or repeated day, as Pacific/Apia's in 2011),
// the rare blocks playing longer than a day that start earlier and reach it (found by their
// figures, an index of long blocks), and every loop (a day's entry bound keeps them few). A written
// loop meets every later day: the later one-off blocks whose wall time of day can meet its hours
// (three hours of margin for offset changes) are read by their figures alone, then compared exactly.
// The candidates are a superset of what can overlap, and src/schedules/overlaps.ts compares them
// exactly as before: the answer is the one a comparison with every block gives.
//
// Entries: the days written on (for a loop, every later day holding one-off blocks or streams, and
// the day the last loop starts) are counted from the figures, the loops and the live streams.
import type { Queryable } from '../db/connect.ts';
import { exportChannelHead } from '../catalog/export.ts';
import { blocksByIds, blocksNear, dayFigures, oneOffIdsOn, oneOffsMeetingDaily, type MeasuredBlock } from '../data/schedule-window.ts';
import { addDays } from '../schedules/channel-day.ts';
import { DayEntries, MAX_DAY_ENTRIES, firstOverfull, type CountedBlock } from '../schedules/day-entries.ts';
import { occurrenceOn, overlapBetween, spanMs, type SpanBlock } from '../schedules/overlaps.ts';
import { cachedDayWindow, fastLocalDate, fastLocalDateTime, offsetMinutes } from '../schedules/zone-offsets.ts';
import { invalid, notFound } from './refusals.ts';
import type { exportChannels } from '../catalog/export.ts';
import type { CatalogScheduleBlock as Block } from '../catalog/format.ts';

type ChannelEntry = Awaited<ReturnType<typeof exportChannels>>[number];

/** Days of margin before a written loop's first day. */
const MARGIN_DAYS = 2;
/** Hours of margin around a written block's wall times: the largest daylight-saving change. */
const MARGIN_HOURS = 2;
const HOUR_MS = 3_600_000;

/** Wall time 'yyyy-MM-ddTHH:mm:ss' moved by `hours`, as a database wall time. */
function wallPlus(wall: string, hours: number): string {
  const t = new Date(`${wall.slice(0, 19)}Z`);
  t.setTime(t.getTime() + hours * HOUR_MS);
  return t.toISOString().slice(0, 19).replace('T', ' ');
}

/** Whether the zone's offset moves by more than the margin within three days of [from, to] (a skipped or repeated day). */
function skipsDay(zone: string, from: number, to: number): boolean {
  return Math.abs(offsetMinutes(from - 72 * HOUR_MS, zone) - offsetMinutes(to + 72 * HOUR_MS, zone)) > MARGIN_HOURS * 60;
}
/**
 * Seconds of margin for a loop's wall time of day against a later block's: the daylight-saving
 * changes of the zone database move a wall time by at most 2 hours (Antarctica/Troll); a change
 * of a whole day (Pacific/Apia, 2011) moves no time of day.
 */
const DAILY_MARGIN_SECONDS = 2 * 3600;

/** The owner's channel in catalog form without its lists (one row), or 404. */
export async function channelHead(db: Queryable, ownerId: number, channelId: number): Promise<ChannelEntry> {
  const head = await exportChannelHead(db, ownerId, channelId);
  if (!head) throw notFound('Channel');
  return head as ChannelEntry;
}

/** A stored block in catalog form, and its span as the overlap rule measures it. */
export interface Measured {
  block: Block;
  span: SpanBlock;
}

function measured(rows: readonly MeasuredBlock[]): Measured[] {
  return rows.map(({ channelId: _, durations, ...block }) => ({
    block,
    span: { id: block.id, startLocal: block.startTime, loopDaily: block.loopDaily, lengthMs: spanMs(durations) },
  }));
}

/** Stored blocks of these ids in catalog form (by start, then id). */
export async function storedBlocks(db: Queryable, ownerId: number, ids: readonly number[]): Promise<Block[]> {
  return measured(await blocksByIds(db, ownerId, ids)).map((m) => m.block);
}

/** The channel's one-off blocks starting on `dates`, in catalog form (by start, then id). */
export async function oneOffBlocksOn(db: Queryable, ownerId: number, channelId: number, dates: readonly string[]): Promise<Block[]> {
  return storedBlocks(db, ownerId, await oneOffIdsOn(db, channelId, dates));
}

/** The channel's blocks that can meet wall times [from, to) of `dates`, measured (touched-days header). */
export async function blocksAround(db: Queryable, ownerId: number, channelId: number, fromDate: string, toDate: string, exclude: readonly number[]): Promise<Measured[]> {
  return measured(await blocksNear(db, ownerId, channelId, `${fromDate} 00:00:00`, `${toDate} 00:00:00`, exclude));
}

const dateOf = (wall: string) => wall.slice(0, 10);
const secondsIntoDay = (wall: string) => Number(wall.slice(11, 13)) * 3600 + Number(wall.slice(14, 16)) * 60 + Number(wall.slice(17, 19));

/**
 * The stored blocks a write of `written` can overlap, measured, `exclude` left out (the blocks it
 * replaces or removes). `written` are the written blocks' spans, measured.
 */
export async function blocksMeeting(
  db: Queryable,
  ownerId: number,
  channelId: number,
  zone: string,
  written: readonly SpanBlock[],
  exclude: readonly number[],
): Promise<Measured[]> {
  if (written.length === 0) return [];
  const found = new Map<number, Measured>();
  const keep = (rows: readonly MeasuredBlock[]) => measured(rows).forEach((m) => found.set(m.block.id, m));
  const loops = written.filter((w) => w.loopDaily);
  const once = written.filter((w) => !w.loopDaily);
  if (once.length > 0) {
    const first = once.reduce((w, b) => (b.startLocal < w ? b.startLocal : w), once[0]!.startLocal);
    const occurrences = once.map((w) => occurrenceOn(w, dateOf(w.startLocal), zone)!);
    const firstStart = Math.min(...occurrences.map((o) => o.start));
    const lastEnd = Math.max(...occurrences.map((o) => o.end));
    // A block shorter than a day starting more than a day (and an offset change) before can
    // not reach the written ones; a zone that skipped or repeated a day nearby widens it by a day.
    const margin = MARGIN_HOURS + (skipsDay(zone, firstStart, lastEnd) ? 24 : 0);
    keep(await blocksNear(db, ownerId, channelId, wallPlus(first, -24 - margin), wallPlus(fastLocalDateTime(lastEnd, zone), margin), exclude));
  }
  for (const loop of loops) {
    const from = `${addDays(dateOf(loop.startLocal), -MARGIN_DAYS)} 00:00:00`;
    // Long blocks starting earlier and every loop; then the later one-off blocks meeting its hours.
    keep(await blocksNear(db, ownerId, channelId, from, from, exclude));
    const later = await oneOffsMeetingDaily(db, channelId, from, secondsIntoDay(loop.startLocal), loop.lengthMs / 1000, DAILY_MARGIN_SECONDS, exclude);
    // Compared exactly on their figures' lengths (a second longer: the sum's rounding), then read.
    const meeting = later.filter((b) => overlapBetween({ id: b.id, startLocal: b.startTime, loopDaily: false, lengthMs: b.spanSeconds * 1000 + 1000 }, loop, zone));
    keep(
      await blocksByIds(
        db,
        ownerId,
        meeting.map((b) => b.id),
      ),
    );
  }
  return [...found.values()];
}

/**
 * Refuses (422, the catalog's words) a write whose blocks take a channel-day they touch past
 * MAX_DAY_ENTRIES, counting what stays (blocks but `exclude`, loops, live streams) and `written`.
 * `pathOf(i)` names the written block `i` in the request body.
 */
export async function assertDaysFit(
  db: Queryable,
  channel: { id: number; timezone: string },
  written: readonly Block[],
  exclude: readonly number[],
  pathOf: (i: number) => string,
): Promise<void> {
  if (written.length === 0) return;
  const counted: CountedBlock[] = written.map((b) => ({ date: dateOf(b.startTime), loopDaily: b.loopDaily, entries: b.videoIds.length }));
  const firstDate = counted.reduce((d, b) => (b.date < d ? b.date : d), counted[0]!.date);
  const anyLoop = counted.some((b) => b.loopDaily);
  // A loop counts on every day from its start: every later day is touched.
  const lastDate = anyLoop ? undefined : counted.reduce((d, b) => (b.date > d ? b.date : d), counted[0]!.date);
  const zone = channel.timezone;
  const { oneOff, loops, streamStarts } = await dayFigures(
    db,
    channel.id,
    firstDate,
    lastDate && addDays(lastDate, 1),
    new Date(cachedDayWindow(firstDate, zone).from),
    lastDate === undefined ? undefined : new Date(cachedDayWindow(lastDate, zone).to),
    exclude,
  );
  const streamDates = streamStarts.map((ms) => fastLocalDate(ms, zone));
  const dates = new Set(counted.filter((b) => !b.loopDaily).map((b) => b.date));
  if (anyLoop) {
    for (const date of [...oneOff.keys(), ...streamDates]) dates.add(date);
    const lastLoop = [...loops.map((l) => l.date), ...counted.filter((b) => b.loopDaily).map((b) => b.date)].sort().at(-1)!;
    dates.add(lastLoop > firstDate ? lastLoop : firstDate);
  }
  const over = firstOverfull(
    { oneOff, loops: loops.map((l) => ({ ...l, loopDaily: true })), streamDates },
    counted,
    [...dates].filter((d) => d >= firstDate),
  );
  if (!over) return;
  const prefix = over.block >= 0 ? pathOf(over.block) : undefined;
  const at = prefix === undefined ? '(root)' : prefix === '' ? 'videoIds' : `${prefix}.videoIds`;
  throw invalid([
    `${at}: the blocks and live streams starting on ${over.date} (${zone}) hold ${over.entries} videos; ` +
      `a channel-day holds at most ${MAX_DAY_ENTRIES} (a loopDaily block counts on every day from its start)`,
  ]);
}

/**
 * What each of `dates` (consecutive channel-local days, ascending) holds from what stays: one-off
 * blocks (but `exclude`), loops, live streams; what a generation's room is measured against.
 */
export async function entriesOn(db: Queryable, channel: { id: number; timezone: string }, dates: readonly string[], exclude: readonly number[]): Promise<Map<string, number>> {
  if (dates.length === 0) return new Map();
  const first = dates[0]!;
  const last = dates.at(-1)!;
  const { oneOff, loops, streamStarts } = await dayFigures(
    db,
    channel.id,
    first,
    addDays(last, 1),
    new Date(cachedDayWindow(first, channel.timezone).from),
    new Date(cachedDayWindow(last, channel.timezone).to),
    exclude,
  );
  const blocks: CountedBlock[] = [...loops.map((l) => ({ ...l, loopDaily: true })), ...[...oneOff].map(([date, entries]) => ({ date, loopDaily: false, entries }))];
  const days = new DayEntries(
    blocks,
    streamStarts.map((ms) => fastLocalDate(ms, channel.timezone)),
  );
  return new Map(dates.map((d) => [d, days.on(d)]));
}
