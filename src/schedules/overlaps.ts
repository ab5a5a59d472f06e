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
//   occurrence after `start - loop length` decides. A loop's first day can still meet a one-off
//   block of the day before that runs past midnight.
// - Two loopDaily blocks: from the day both play on, their occurrences stand in the same relation
//   every day except around the zone's offset changes (a 23- or 25-hour day moves one block's end
//   relative to the other's start). So the first days both play and the days around every offset
//   change of the following year are compared; as zone rules repeat yearly, that is every distinct
//   day there is (test/schedule-overlaps.unit.test.ts checks it against playing two years day by day).
// `Overlaps` keeps a channel's blocks for many such questions (a copy of a day to 31 days asks
// thousands): one-off blocks sorted by start, so each question reads only the few near its span.
import { addDays } from './channel-day.ts';
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

/** One day's play of a block: [start, end) in epoch ms, `date` the channel-day it starts on. */
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

/** A block's occurrence by date, remembered: a loop is asked for the same days again and again. */
type Occurs = (date: string) => Occurrence | null;

/**
 * Per block object, its occurrences asked so far: a copy of many blocks compares each with all
 * the others, which would resolve the same wall times again and again. Kept with what they were
 * computed from, so a block object changed since is computed afresh.
 */
const remembered = new WeakMap<SpanBlock, { zone: string; startLocal: string; loopDaily: boolean; lengthMs: number; occurs: Occurs }>();

function occurrencesOf(block: SpanBlock, zone: string): Occurs {
  const kept = remembered.get(block);
  if (kept && kept.zone === zone && kept.startLocal === block.startLocal && kept.loopDaily === block.loopDaily && kept.lengthMs === block.lengthMs) {
    return kept.occurs;
  }
  const known = new Map<string, Occurrence | null>();
  const occurs: Occurs = (date) => {
    let occurrence = known.get(date);
    if (occurrence === undefined) known.set(date, (occurrence = occurrenceOn(block, date, zone)));
    return occurrence;
  };
  remembered.set(block, { zone, startLocal: block.startLocal, loopDaily: block.loopDaily, lengthMs: block.lengthMs, occurs });
  return occurs;
}

/** The first occurrence of loopDaily `loop` overlapping the span `span`, if any. */
function loopOverlapping(span: Occurrence, loop: SpanBlock, occurs: Occurs, zone: string): Occurrence | undefined {
  const first = dateOf(loop);
  // Occurrences starting at or before span.start - length end before the span does: start the
  // search the day before that instant's date, or on the loop's first day if that is later.
  const endsBefore = span.start - loop.lengthMs;
  let date = first;
  if (endsBefore > occurs(first)!.start) {
    const before = addDays(fastLocalDate(endsBefore, zone), -1);
    if (before > first) date = before;
  }
  // Starts grow by about a day each step: the answer is known within a few days.
  for (let step = 0; step < 8; step++, date = addDays(date, 1)) {
    const occurrence = occurs(date)!;
    if (occurrence.start >= span.end) return undefined;
    if (spansOverlap(occurrence, span)) return occurrence;
  }
  return undefined;
}

/** 12:00 UTC of a 'yyyy-MM-dd' date (setUTCFullYear: Date.UTC would read years 0-99 as 19xx). */
function noonUtc(date: string): number {
  const t = new Date(0);
  t.setUTCFullYear(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10)));
  return t.setUTCHours(12);
}

/** Per zone and year, the local dates whose UTC offset differs from the next day's (DST changes). */
const changesByYear = new Map<string, readonly string[]>();
const MAX_YEARS = 2_000;

function offsetChangesIn(zone: string, year: number): readonly string[] {
  const key = `${zone}|${year}`;
  let changes = changesByYear.get(key);
  if (changes === undefined) {
    const z = requireZone(zone);
    const found: string[] = [];
    const yyyy = String(year).padStart(4, '0');
    // Offsets at noon UTC of each day: a change between two noons is on the first day or the next.
    let date = `${yyyy}-01-01`;
    let offset = z.offset(noonUtc(date));
    while (date.startsWith(yyyy)) {
      const next = addDays(date, 1);
      const nextOffset = z.offset(noonUtc(next));
      if (nextOffset !== offset) found.push(date);
      date = next;
      offset = nextOffset;
    }
    if (changesByYear.size >= MAX_YEARS) changesByYear.clear();
    changesByYear.set(key, (changes = found));
  }
  return changes;
}

/** Dates in [from, from + days] after which the zone's offset changes. */
function offsetChanges(zone: string, from: string, days: number): string[] {
  const to = addDays(from, days);
  const changes: string[] = [];
  for (let year = Number(from.slice(0, 4)); year <= Number(to.slice(0, 4)); year++) {
    for (const date of offsetChangesIn(zone, year)) if (date >= from && date <= to) changes.push(date);
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

/**
 * The earliest overlap of `block` with `other` on any day (see the header for which days).
 * `mine` may remember the block's occurrences across many calls (firstOverlap does).
 */
export function overlapBetween(block: SpanBlock, other: SpanBlock, zone: string, mine: Occurs = occurrencesOf(block, zone)): Overlap | undefined {
  if (!block.loopDaily) {
    const once = mine(dateOf(block))!;
    if (!other.loopDaily) {
      const theirs = occurrencesOf(other, zone)(dateOf(other))!;
      return spansOverlap(once, theirs) ? { block: once, other: theirs } : undefined;
    }
    const theirs = loopOverlapping(once, other, occurrencesOf(other, zone), zone);
    return theirs ? { block: once, other: theirs } : undefined;
  }
  if (!other.loopDaily) {
    const theirs = occurrencesOf(other, zone)(dateOf(other))!;
    const occurrence = loopOverlapping(theirs, block, mine, zone);
    return occurrence ? { block: occurrence, other: theirs } : undefined;
  }
  const theirs = occurrencesOf(other, zone);
  for (const date of loopDays(block, other, zone)) {
    const occurrence = mine(date);
    if (!occurrence) continue;
    const met = loopOverlapping(occurrence, other, theirs, zone);
    if (met) return { block: occurrence, other: met };
  }
  return undefined;
}

/** Earlier first: the block's occurrence, then the other's, then the other's id. */
function earlier(a: Overlap, b: Overlap): boolean {
  return (a.block.start - b.block.start || a.other.start - b.other.start || a.other.blockId - b.other.blockId) < 0;
}

/**
 * A channel's blocks, ready to be asked which of them a block overlaps: one-off blocks sorted by
 * start (only those starting within the longest one-off's length before a span can reach it), loops
 * compared one by one. Blocks can be added as they are accepted (a copy of many blocks).
 */
export class Overlaps {
  private readonly loops: SpanBlock[] = [];
  /** One-off occurrences by start. */
  private readonly once: Occurrence[] = [];
  private longestOnce = 0;

  constructor(
    private readonly zone: string,
    blocks: readonly SpanBlock[] = [],
  ) {
    for (const block of blocks) {
      if (block.loopDaily) this.loops.push(block);
      else this.once.push(this.onceOf(block));
    }
    this.once.sort((a, b) => a.start - b.start);
  }

  add(block: SpanBlock): void {
    if (block.loopDaily) {
      this.loops.push(block);
      return;
    }
    const occurrence = this.onceOf(block);
    this.once.splice(this.firstStartingAfter(occurrence.start), 0, occurrence);
  }

  private onceOf(block: SpanBlock): Occurrence {
    const occurrence = occurrenceOn(block, dateOf(block), this.zone)!;
    this.longestOnce = Math.max(this.longestOnce, occurrence.end - occurrence.start);
    return occurrence;
  }

  /**
   * The earliest overlap of `block` with the blocks added (a block of the same id is skipped): by
   * the block's occurrence, then the other's start, then its id; undefined when it overlaps none.
   */
  first(block: SpanBlock): Overlap | undefined {
    const mine = occurrencesOf(block, this.zone);
    let found: Overlap | undefined;
    const consider = (overlap: Overlap | undefined) => {
      if (overlap && (!found || earlier(overlap, found))) found = overlap;
    };
    for (const loop of this.loops) if (loop.id !== block.id) consider(overlapBetween(block, loop, this.zone, mine));
    if (!block.loopDaily) {
      const span = mine(dateOf(block))!;
      // Starts before span.start - longest end before the span does.
      for (let i = this.firstStartingAfter(span.start - this.longestOnce - 1); i < this.once.length && this.once[i]!.start < span.end; i++) {
        const other = this.once[i]!;
        if (other.blockId !== block.id && spansOverlap(span, other)) consider({ block: span, other });
      }
    } else {
      const firstStart = mine(dateOf(block))!.start;
      for (const other of this.once) {
        if (other.blockId === block.id || other.end <= firstStart) continue;
        const occurrence = loopOverlapping(other, block, mine, this.zone);
        if (occurrence) consider({ block: occurrence, other });
      }
    }
    return found;
  }

  /** Index of the first one-off occurrence starting after `at`. */
  private firstStartingAfter(at: number): number {
    let lo = 0;
    let hi = this.once.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.once[mid]!.start <= at) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

/** The earliest overlap of `block` with any of `others` (see Overlaps.first). */
export function firstOverlap(block: SpanBlock, others: readonly SpanBlock[], zone: string): Overlap | undefined {
  return new Overlaps(zone, others).first(block);
}

/** An instant as channel-local 'yyyy-MM-ddTHH:mm:ss±hh:mm' (the offset tells a fall-back hour's two passes apart). */
export function formatZoned(ms: number, zone: string): string {
  const offset = offsetMinutes(Math.floor(ms), zone);
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${fastLocalDateTime(ms, zone)}${sign}${two(Math.floor(abs / 60))}:${two(abs % 60)}`;
}
