// UTC offsets of a zone, one table per zone and UTC day, and the schedule labels formatted from
// them: the same strings as labels.ts without a luxon DateTime per entry. A table is built once
// (4 offset look-ups, plus a binary search where the offset changes) and kept in a bounded cache.
//
// The arithmetic is luxon's own (DateTime.fromMillis then toFormat): the offset in minutes is
// zone.offset(ms), local fields are the UTC fields of ms + offset, and the instant is floored
// first so every label truncates (10:00:59.999 stays 10:00:59).
import { localDayWindow, requireZone } from './labels.ts';

const DAY_MS = 86_400_000;
const SAMPLE_MS = 8 * 3_600_000;
/**
 * Zone-days kept (~200 bytes each, 4 MB at most): every zone Intl knows (~600) for a fortnight of
 * days. A smaller bound made guides asked in many zones rebuild tables all the time (an offset
 * look-up is ~10 µs of Intl).
 */
const MAX_TABLES = 20_000;

/** A local date and time of day, as written (no zone). */
export interface WallTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
}

/** Offsets of one zone over one UTC day: `offsets[i]` holds from `starts[i]` (inclusive). */
interface OffsetTable {
  starts: number[];
  offsets: number[];
}

/** Per zone, per UTC day number. */
const tables = new Map<string, Map<number, OffsetTable>>();
let tableCount = 0;

/** First ms in (lo, hi] whose offset differs from lo's, given that hi's differs. */
function transition(offset: (ms: number) => number, lo: number, hi: number): number {
  const before = offset(lo);
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (offset(mid) === before) lo = mid;
    else hi = mid;
  }
  return hi;
}

/**
 * Samples the day every SAMPLE_MS (no zone changes its offset and back within 8 hours; the
 * property test of test/schedules-channel-day.unit.test.ts compares with luxon from 1900 to 2100) and bisects the changes: 4 offset look-ups for a day
 * without one, where sampling every hour took 25 (a guide asked in 400 zones builds a table per
 * zone and day).
 */
function buildTable(zone: string, dayStart: number): OffsetTable {
  const z = requireZone(zone);
  const offset = (ms: number) => z.offset(ms);
  const starts = [dayStart];
  const offsets = [offset(dayStart)];
  for (let at = dayStart + SAMPLE_MS; at <= dayStart + DAY_MS; at += SAMPLE_MS) {
    const prev = at - SAMPLE_MS;
    if (offset(at) === offsets.at(-1)) continue;
    const change = transition(offset, Math.max(prev, starts.at(-1)!), at);
    if (change >= dayStart + DAY_MS) break;
    starts.push(change);
    offsets.push(offset(change));
  }
  return { starts, offsets };
}

function tableFor(zone: string, day: number): OffsetTable {
  let days = tables.get(zone);
  if (days === undefined) tables.set(zone, (days = new Map()));
  let table = days.get(day);
  if (table === undefined) {
    // Tables are cheap to rebuild: past the bound, start over rather than track ages.
    if (tableCount >= MAX_TABLES) {
      tables.clear();
      tables.set(zone, (days = new Map()));
      tableCount = 0;
    }
    table = buildTable(zone, day * DAY_MS);
    days.set(day, table);
    tableCount++;
  }
  return table;
}

const windows = new Map<string, { from: number; to: number }>();
const MAX_WINDOWS = 10_000;

/** Bytes the offset tables and day windows hold (estimated: ~200 a table, ~100 a window), for /metrics. */
export function zoneOffsetBytes(): number {
  return tableCount * 200 + windows.size * 100;
}

/** localDayWindow (luxon, ~0.1 ms) remembered per zone and date: a list asks it for every channel. */
export function cachedDayWindow(date: string, zone: string): { from: number; to: number } {
  const key = `${zone}|${date}`;
  let window = windows.get(key);
  if (window === undefined) {
    window = localDayWindow(date, zone);
    if (windows.size >= MAX_WINDOWS) windows.clear();
    windows.set(key, window);
  }
  return window;
}

/** The zone's UTC offset in minutes at instant `ms` (what luxon's IANAZone.offset answers). */
export function offsetMinutes(ms: number, zone: string): number {
  const t = Math.floor(ms);
  const table = tableFor(zone, Math.floor(t / DAY_MS));
  let i = table.starts.length - 1;
  while (i > 0 && table.starts[i]! > t) i--;
  return table.offsets[i]!;
}

/** Local wall-clock fields of an instant in a zone (floored to the ms like the labels). */
export type LocalFields = Omit<WallTime, 'millisecond'>;

export function localFields(ms: number, zone: string): LocalFields {
  const t = Math.floor(ms);
  const d = new Date(t + offsetMinutes(t, zone) * 60_000);
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
  };
}

const two = (n: number) => (n < 10 ? `0${n}` : String(n));
/** luxon's `yyyy`: at least four digits. */
const four = (n: number) => String(n).padStart(4, '0');

function date(f: LocalFields): string {
  return `${four(f.year)}-${two(f.month)}-${two(f.day)}`;
}

function time(f: LocalFields): string {
  return `${two(f.hour)}:${two(f.minute)}:${two(f.second)}`;
}

/** `yyyy-MM-ddTHH:mm:ss`, as formatLocalDateTime. */
export function fastLocalDateTime(ms: number, zone: string): string {
  const f = localFields(ms, zone);
  return `${date(f)}T${time(f)}`;
}

/** `yyyy-MM-dd HH:mm:ss`, as formatLocalSpaced. */
export function fastLocalSpaced(ms: number, zone: string): string {
  const f = localFields(ms, zone);
  return `${date(f)} ${time(f)}`;
}

/** `yyyy-MM-dd`, as localDateOf. */
export function fastLocalDate(ms: number, zone: string): string {
  return date(localFields(ms, zone));
}

function clock12(ms: number, zone: string): string {
  const { hour, minute } = localFields(ms, zone);
  const hour12 = hour % 12 === 0 ? 12 : hour % 12;
  return `${two(hour12)}:${two(minute)} ${hour < 12 ? 'AM' : 'PM'}`;
}

/** `hh:mm AM - hh:mm PM`, as playTimeLabel. */
export function fastPlayTimeLabel(startMs: number, endMs: number, zone: string): string {
  return `${clock12(startMs, zone)} - ${clock12(endMs, zone)}`;
}

/** Tables currently cached (for tests and metrics). */
export function offsetTableCount(): number {
  return tableCount;
}
