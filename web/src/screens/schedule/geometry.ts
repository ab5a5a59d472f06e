// The week view's geometry, pure: a day column is as long as the day really is in the channel's
// zone (23 or 25 hours on DST days), and a block's top and height come from the real time elapsed
// since the column's midnight, so a block past midnight continues in the next day's column.
import { DateTime } from 'luxon';

const WALL = "yyyy-MM-dd'T'HH:mm:ss";

/** The instant (ms) of a wall-clock time `yyyy-MM-ddTHH:mm[:ss]` in `zone` (a skipped time moves forward, as luxon does). */
export function wallToMs(wall: string, zone: string): number {
  return DateTime.fromISO(wall, { zone }).toMillis();
}

/** The wall-clock time `yyyy-MM-ddTHH:mm:ss` of an instant in `zone`. */
export function msToWall(ms: number, zone: string): string {
  return DateTime.fromMillis(ms, { zone }).toFormat(WALL);
}

/** A day's start and end instants (local midnights) in `zone`. */
export function dayBounds(date: string, zone: string): { start: number; end: number } {
  const start = DateTime.fromISO(date, { zone }).startOf('day');
  return { start: start.toMillis(), end: start.plus({ days: 1 }).startOf('day').toMillis() };
}

/** The day's real length in minutes (1380, 1440 or 1500 across DST changes). */
export function dayMinutes(date: string, zone: string): number {
  const { start, end } = dayBounds(date, zone);
  return (end - start) / 60_000;
}

/** The Monday of the week that holds `date`. */
export function weekStartOf(date: string): string {
  return DateTime.fromISO(date, { zone: 'UTC' }).startOf('week').toISODate()!;
}

/** Seven dates from `start`. */
export function weekDates(start: string): string[] {
  const first = DateTime.fromISO(start, { zone: 'UTC' });
  return Array.from({ length: 7 }, (_, i) => first.plus({ days: i }).toISODate()!);
}

export function addDays(date: string, days: number): string {
  return DateTime.fromISO(date, { zone: 'UTC' }).plus({ days }).toISODate()!;
}

/** Today's date in `zone`. */
export function todayIn(zone: string, now: number = Date.now()): string {
  return DateTime.fromMillis(now, { zone }).toISODate()!;
}

export interface Segment {
  date: string;
  /** Minutes from the column's midnight (real time) to the segment's start. */
  top: number;
  /** The segment's length in minutes. */
  height: number;
  /** Whether the span started on an earlier day (drawn as a continuation). */
  continued: boolean;
}

/** The pieces of [start, end) in each of the `dates` columns it touches. */
export function segmentsOf(start: number, end: number, dates: readonly string[], zone: string): Segment[] {
  const pieces: Segment[] = [];
  for (const date of dates) {
    const day = dayBounds(date, zone);
    const from = Math.max(start, day.start);
    const to = Math.min(end, day.end);
    if (to <= from && !(start === end && start >= day.start && start < day.end)) continue;
    pieces.push({ date, top: (from - day.start) / 60_000, height: Math.max(0, to - from) / 60_000, continued: start < day.start });
  }
  return pieces;
}

/**
 * The wall-clock start for a click `minutes` (real time) after the column's midnight, rounded down
 * to `step` minutes of wall time (`yyyy-MM-ddTHH:mm:00`).
 */
export function slotStart(date: string, zone: string, minutes: number, step = 15): string {
  const { start } = dayBounds(date, zone);
  const at = DateTime.fromMillis(start + Math.max(0, minutes) * 60_000, { zone });
  const rounded = at.set({ minute: Math.floor(at.minute / step) * step, second: 0, millisecond: 0 });
  return rounded.toFormat(WALL);
}

export interface HourMark {
  /** Minutes from the column's midnight. */
  top: number;
  /** The wall-clock label, e.g. `01:00` (twice on a fall-back day). */
  label: string;
}

/** A mark at each real hour of the day, labelled in wall-clock time. */
export function hourMarks(date: string, zone: string): HourMark[] {
  const { start, end } = dayBounds(date, zone);
  const marks: HourMark[] = [];
  for (let t = start; t < end; t += 3_600_000) marks.push({ top: (t - start) / 60_000, label: DateTime.fromMillis(t, { zone }).toFormat('HH:mm') });
  return marks;
}

/** `08:00` from a wall time or an instant in `zone`. */
export function clockOf(ms: number, zone: string): string {
  return DateTime.fromMillis(ms, { zone }).toFormat('HH:mm');
}

/** An instant (ISO with offset) as the `yyyy-MM-ddTHH:mm` a datetime-local input shows, in `zone`. */
export function instantToLocalInput(iso: string, zone: string): string {
  return DateTime.fromISO(iso, { setZone: true }).setZone(zone).toFormat("yyyy-MM-dd'T'HH:mm");
}

/** A datetime-local input's value in `zone` as an ISO instant with its offset. */
export function localInputToInstant(value: string, zone: string): string {
  return DateTime.fromISO(value, { zone }).toISO({ suppressMilliseconds: true })!;
}
