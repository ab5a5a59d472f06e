// Overlaps between a channel's schedule blocks, on every day they play. Pure: callers load the
// blocks and their videos' durations.
//
// A block occurrence spans [start, start + the sum of its videos' durations): the start is the
// block's wall time on that day resolved in the channel zone exactly as the expansion resolves it
// (wallTimeToEpoch: the earlier instant of a fall-back hour, shifted forward across a
// spring-forward gap), the videos then chain in elapsed time, so a block crossing a DST change or
// midnight keeps its length in instants. Spans are half-open: a block ending when the next starts
// does not overlap it.
//
// Which days are compared: all of them, exactly.
// - Two one-off blocks play once each: their two spans are compared.
// - A one-off block and a loopDaily block (playing every day from its start date on, never
//   before): the loop's occurrences starting in (start - loop length, end) of the one-off span are
//   the only ones that can overlap it; since occurrence starts only grow day by day, the first
//   occurrence after `start - loop length` decides. A loop started after the one-off's day never
//   meets it.
// - Two loopDaily blocks: from the day both play on, their occurrences stand in the same relation
//   every day except around the zone's offset changes (a 23- or 25-hour day moves one block's end
//   relative to the other's start). So the first days both play and the days around every offset
//   change of the following year are compared (zone rules repeat yearly); that is every distinct
//   day there is.
import { addDays } from './timeline.ts';
import { requireZone } from './labels.ts';
import { wallTimeToEpoch } from './expand.ts';
import { fastLocalDate, fastLocalDateTime, offsetMinutes } from './zone-offsets.ts';

const DAY_MS = 86_400_000;

/** A block as the overlap check needs it. */
export interface SpanBlock {
  id: number;
  /** 'yyyy-MM-ddTHH:mm:ss' wall time in the channel zone. */
  startLocal: string;
  loopDaily: boolean;
  /** Length in ms: spanMs of its videos' durations. */
  lengthMs: number;
}

/** One day's play of a block: [start, end) in epoch ms, `date` the channel-local day it starts on. */
export interface Occurrence {
  blockId: number;
  date: string;
  start: number;
  end: number;
}

/** The first overlap found: an occurrence of the block checked and one of the other block. */
export interface Overlap {
  block: Occurrence;
  other: Occurrence;
}

/**
 * A block's length in ms from its videos' durations in seconds, as the expansion chains them: a
 * negative or non-finite duration counts as 0, the running sum rounded to the microsecond.
 */
export function spanMs(durationsSeconds: readonly number[]): number {
  let total = 0;
  for (const d of durationsSeconds) total += Number.isFinite(d) ? Math.max(0, d) : 0;
  return Math.round(total * 1e6) / 1e3;
}

const dateOf = (block: SpanBlock): string => block.startLocal.slice(0, 10);

/** The block's occurrence on channel-local `date`, or null when it does not play that day. */
export function occurrenceOn(block: SpanBlock, date: string, zone: string): Occurrence | null {
  const blockDate = dateOf(block);
  if (date !== blockDate && !(block.loopDaily && blockDate < date)) return null;
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const [hour, minute, second] = block.startLocal.slice(11, 19).split(':').map(Number) as [number, number, number];
  const start = wallTimeToEpoch({ year, month, day, hour, minute, second, millisecond: 0 }, zone);
  return { blockId: block.id, date, start, end: start + block.lengthMs };
}

/** Whether two half-open spans share an instant. */
export function spansOverlap(a: { start: number; end: number }, b: { start: number; end: number }): boolean {
  return a.start < b.end && b.start < a.end;
}

/** The first occurrence of loopDaily `loop` overlapping the span `span`, if any. */
function loopOverlapping(span: Occurrence, loop: SpanBlock, zone: string): Occurrence | undefined {
  const first = dateOf(loop);
  // Occurrences starting at or before span.start - length end before the span does: start the
  // search the day before that instant's date, or on the loop's first day if that is later.
  const endsBefore = span.start - loop.lengthMs;
  let date = first;
  if (endsBefore > occurrenceOn(loop, first, zone)!.start) {
    const before = addDays(fastLocalDate(endsBefore, zone), -1);
    if (before > first) date = before;
  }
  // Starts grow by about a day each step: the answer is known within a few days.
  for (let step = 0; step < 8; step++, date = addDays(date, 1)) {
    const occurrence = occurrenceOn(loop, date, zone)!;
    if (occurrence.start >= span.end) return undefined;
    if (spansOverlap(occurrence, span)) return occurrence;
  }
  return undefined;
}

/** Local dates in [from, from + days] whose UTC offset differs from the next day's (DST changes). */
function offsetChanges(zone: string, from: string, days: number): string[] {
  const z = requireZone(zone);
  const noon = (date: string) => Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10)), 12);
  const changes: string[] = [];
  let date = from;
  let offset = z.offset(noon(date));
  for (let i = 0; i < days; i++) {
    const next = addDays(date, 1);
    const nextOffset = z.offset(noon(next));
    if (nextOffset !== offset) changes.push(date);
    date = next;
    offset = nextOffset;
  }
  return changes;
}

/** The days on which two loops can stand in a relation they do not stand in on other days. */
function loopDays(a: SpanBlock, b: SpanBlock, zone: string): string[] {
  const both = dateOf(a) > dateOf(b) ? dateOf(a) : dateOf(b);
  // Blocks longer than a day reach further from an offset change (a week at most is looked at).
  const reach = Math.min(7, Math.ceil(Math.max(a.lengthMs, b.lengthMs) / DAY_MS)) + 2;
  const days = new Set<string>();
  for (let k = -1; k <= reach; k++) days.add(addDays(both, k));
  for (const change of offsetChanges(zone, both, 370)) {
    for (let k = -reach; k <= reach; k++) days.add(addDays(change, k));
  }
  return [...days].sort();
}

/** The earliest overlap of `block` with `other` on any day (see the header for which days). */
export function overlapBetween(block: SpanBlock, other: SpanBlock, zone: string): Overlap | undefined {
  if (!block.loopDaily) {
    const mine = occurrenceOn(block, dateOf(block), zone)!;
    if (!other.loopDaily) {
      const theirs = occurrenceOn(other, dateOf(other), zone)!;
      return spansOverlap(mine, theirs) ? { block: mine, other: theirs } : undefined;
    }
    const theirs = loopOverlapping(mine, other, zone);
    return theirs ? { block: mine, other: theirs } : undefined;
  }
  if (!other.loopDaily) {
    const theirs = occurrenceOn(other, dateOf(other), zone)!;
    const mine = loopOverlapping(theirs, block, zone);
    return mine ? { block: mine, other: theirs } : undefined;
  }
  for (const date of loopDays(block, other, zone)) {
    const mine = occurrenceOn(block, date, zone);
    if (!mine) continue;
    const theirs = loopOverlapping(mine, other, zone);
    if (theirs) return { block: mine, other: theirs };
  }
  return undefined;
}

/**
 * The overlap of `block` with any of `others` (the block itself, by id, is skipped) that starts
 * earliest, ties by the other block's id; undefined when it overlaps none on any day.
 */
export function firstOverlap(block: SpanBlock, others: readonly SpanBlock[], zone: string): Overlap | undefined {
  let found: Overlap | undefined;
  for (const other of others) {
    if (other.id === block.id) continue;
    const overlap = overlapBetween(block, other, zone);
    if (!overlap) continue;
    if (!found || overlap.block.start < found.block.start || (overlap.block.start === found.block.start && overlap.other.blockId < found.other.blockId)) {
      found = overlap;
    }
  }
  return found;
}

/** An instant as channel-local 'yyyy-MM-ddTHH:mm:ss±hh:mm' (the offset tells a fall-back hour's two passes apart). */
export function formatZoned(ms: number, zone: string): string {
  const offset = offsetMinutes(Math.floor(ms), zone);
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${fastLocalDateTime(ms, zone)}${sign}${two(Math.floor(abs / 60))}:${two(abs % 60)}`;
}
