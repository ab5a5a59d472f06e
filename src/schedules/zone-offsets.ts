// UTC offsets of a zone, one table per zone and UTC day, and the schedule labels formatted from
// them: the same strings as labels.ts without a luxon DateTime per entry. A table is built once
// (4 offset look-ups, plus a binary search where the offset changes) and kept in a bounded cache.
//
// The arithmetic is luxon's own (DateTime.fromMillis then toFormat): the offset in minutes is
// zone.offset(ms), local fields are the UTC fields of ms + offset, and the instant is floored
// first so every label truncates (10:00:59.999 stays 10:00:59).
import { isComputableDate, localDayWindow, requireZone } from './labels.ts';

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

/**
 * localDayWindow from the offset tables when the zone keeps one offset from 14 hours before the
 * date's midnight to 12 hours after the next (every instant either local midnight can be, offsets
 * lying in [-12 h, +14 h]): both midnights are then unique, and luxon finds the same instants.
 * Near a transition (a midnight skipped or repeated) luxon's own rules decide: undefined.
 */
export function steadyDayWindow(date: string, zone: string): { from: number; to: number } | undefined {
  const local = Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10)));
  const first = Math.floor((local - 14 * 3_600_000) / DAY_MS);
  const last = Math.floor((local + DAY_MS + 12 * 3_600_000) / DAY_MS);
  const offset = tableFor(zone, first).offsets[0]!;
  for (let day = first; day <= last; day++) {
    const table = tableFor(zone, day);
    if (table.offsets.length !== 1 || table.offsets[0] !== offset) return undefined;
  }
  return { from: local - offset * 60_000, to: local + DAY_MS - offset * 60_000 };
}

/**
 * localDayWindow remembered per zone and date: a list asks it for every channel, a rotating guide
 * in a new zone each time. Worked out from the offset tables the labels use (steadyDayWindow);
 * luxon (~0.1 ms, most of a rotating guide's window work) only around a transition.
 */
export function cachedDayWindow(date: string, zone: string): { from: number; to: number } {
  const key = `${zone}|${date}`;
  let window = windows.get(key);
  if (window === undefined) {
    window = (isComputableDate(date) && steadyDayWindow(date, zone)) || localDayWindow(date, zone);
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

/** '00' to '59': a guide formats three labels per row. */
const TWO = Array.from({ length: 60 }, (_, n) => (n < 10 ? `0${n}` : String(n)));
const two = (n: number) => TWO[n] ?? String(n);
/** luxon's `yyyy`: at least four digits. */
const four = (n: number) => String(n).padStart(4, '0');

/**
 * The proleptic Gregorian date of a day number (days since 1970-01-01), by integer arithmetic
 * (H. Hinnant's civil_from_days): no Date object per label.
 */
function civil(days: number): { year: number; month: number; day: number } {
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const month = mp < 10 ? mp + 3 : mp - 9;
  return { year: yoe + era * 400 + (month <= 2 ? 1 : 0), month, day: doy - Math.floor((153 * mp + 2) / 5) + 1 };
}

/** The last day number formatted: a guide's labels fall on one or two local days. */
let lastDays = NaN;
let lastDate = '';
function dateOfDays(days: number): string {
  if (days !== lastDays) {
    const { year, month, day } = civil(days);
    lastDate = `${four(year)}-${two(month)}-${two(day)}`;
    lastDays = days;
  }
  return lastDate;
}

/** The local day number and ms into it of an instant in a zone. */
function localDayAndTime(ms: number, zone: string): [days: number, msOfDay: number] {
  const t = Math.floor(ms);
  const local = t + offsetMinutes(t, zone) * 60_000;
  const days = Math.floor(local / DAY_MS);
  return [days, local - days * DAY_MS];
}

function clockOf(msOfDay: number): string {
  const seconds = Math.floor(msOfDay / 1000);
  return `${two(Math.floor(seconds / 3600))}:${two(Math.floor(seconds / 60) % 60)}:${two(seconds % 60)}`;
}

export function localFields(ms: number, zone: string): LocalFields {
  const [days, msOfDay] = localDayAndTime(ms, zone);
  const seconds = Math.floor(msOfDay / 1000);
  return { ...civil(days), hour: Math.floor(seconds / 3600), minute: Math.floor(seconds / 60) % 60, second: seconds % 60 };
}

/** `yyyy-MM-ddTHH:mm:ss`, as formatLocalDateTime. */
export function fastLocalDateTime(ms: number, zone: string): string {
  const [days, msOfDay] = localDayAndTime(ms, zone);
  return `${dateOfDays(days)}T${clockOf(msOfDay)}`;
}

/** `yyyy-MM-dd HH:mm:ss`, as formatLocalSpaced. */
export function fastLocalSpaced(ms: number, zone: string): string {
  const [days, msOfDay] = localDayAndTime(ms, zone);
  return `${dateOfDays(days)} ${clockOf(msOfDay)}`;
}

/** `yyyy-MM-dd`, as localDateOf. */
export function fastLocalDate(ms: number, zone: string): string {
  return dateOfDays(localDayAndTime(ms, zone)[0]);
}

function clock12(ms: number, zone: string): string {
  return clock12Of(localDayAndTime(ms, zone)[1]);
}

/**
 * A guide row's three labels at once: fastLocalSpaced of start and end and fastPlayTimeLabel,
 * each instant's offset looked up once (five look-ups a row, a hundred rows a page, before).
 */
export function fastRowLabels(startMs: number, endMs: number, zone: string): [startDate: string, endDate: string, playTime: string] {
  const [startDays, startTime] = localDayAndTime(startMs, zone);
  const [endDays, endTime] = localDayAndTime(endMs, zone);
  return [`${dateOfDays(startDays)} ${clockOf(startTime)}`, `${dateOfDays(endDays)} ${clockOf(endTime)}`, `${clock12Of(startTime)} - ${clock12Of(endTime)}`];
}

function clock12Of(msOfDay: number): string {
  const minutes = Math.floor(msOfDay / 60_000);
  const hour = Math.floor(minutes / 60);
  const hour12 = hour % 12 === 0 ? 12 : hour % 12;
  return `${two(hour12)}:${two(minutes % 60)} ${hour < 12 ? 'AM' : 'PM'}`;
}

/** `hh:mm AM - hh:mm PM`, as playTimeLabel. */
export function fastPlayTimeLabel(startMs: number, endMs: number, zone: string): string {
  return `${clock12(startMs, zone)} - ${clock12(endMs, zone)}`;
}

/** Tables currently cached (for tests and metrics). */
export function offsetTableCount(): number {
  return tableCount;
}
