// Pure label and calendar helpers for schedule responses (REST and Custom API).
// Every function takes the time zone as an IANA id; nothing reads the host clock or zone.
import { DateTime, IANAZone } from 'luxon';

const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;

/** A luxon zone for an IANA id; throws instead of letting luxon print "Invalid DateTime". */
export function requireZone(zone: string): IANAZone {
  const z = IANAZone.create(zone);
  if (!z.isValid) throw new RangeError(`invalid time zone: ${zone}`);
  return z;
}

/**
 * Epoch ms (possibly fractional) as a luxon DateTime in `zone`.
 * Flooring first makes every label truncate: 10:00:59.999 stays 10:00:59, never 10:01:00.
 */
function zoned(ms: number, zone: string): DateTime {
  return DateTime.fromMillis(Math.floor(ms), { zone: requireZone(zone) });
}

/** `yyyy-MM-ddTHH:mm:ss` in `zone` (REST startTime, playbackStartTime, playbackEndTime). */
export function formatLocalDateTime(ms: number, zone: string): string {
  return zoned(ms, zone).toFormat("yyyy-MM-dd'T'HH:mm:ss");
}

/** `yyyy-MM-dd HH:mm:ss` in `zone` (Custom API startDate, endDate). */
export function formatLocalSpaced(ms: number, zone: string): string {
  return zoned(ms, zone).toFormat('yyyy-MM-dd HH:mm:ss');
}

/** 12-hour clock `hh:mm AM`; the meridiem is built by hand so no locale can change its case or text. */
function clock12(ms: number, zone: string): string {
  const dt = zoned(ms, zone);
  const hour12 = dt.hour % 12 === 0 ? 12 : dt.hour % 12;
  const meridiem = dt.hour < 12 ? 'AM' : 'PM';
  return `${String(hour12).padStart(2, '0')}:${String(dt.minute).padStart(2, '0')} ${meridiem}`;
}

/** `hh:mm AM - hh:mm PM` (REST playTimeLabel; seconds dropped by truncation). */
export function playTimeLabel(startMs: number, endMs: number, zone: string): string {
  return `${clock12(startMs, zone)} - ${clock12(endMs, zone)}`;
}

/** Whole hours and remaining whole minutes; negative or non-finite input counts as 0. */
function hoursMinutes(seconds: number): { h: number; m: number } {
  const s = Number.isFinite(seconds) && seconds > 0 ? seconds : 0;
  return { h: Math.floor(s / 3600), m: Math.floor((s % 3600) / 60) };
}

/** `<h>h <m>m`, minutes truncated, hours unbounded (REST totalDurationLabel). */
export function totalDurationLabel(seconds: number): string {
  const { h, m } = hoursMinutes(seconds);
  return `${h}h ${m}m`;
}

/** `<h>h. <m>min`, minutes truncated (Custom API timeDuration). */
export function timeDurationLabel(seconds: number): string {
  const { h, m } = hoursMinutes(seconds);
  return `${h}h. ${m}min`;
}

/** Strict `yyyy-MM-dd` naming a real calendar date. */
export function isValidDate(text: string): boolean {
  if (!DATE_RE.test(text)) return false;
  const date = DateTime.fromISO(text, { zone: 'utc' });
  // Schedules live in the present era: far years break instant arithmetic and the database's
  // date range (year 0 failed a query), so they are refused like any other bad date.
  return date.isValid && date.year >= 1900 && date.year <= 9998;
}

/**
 * Instants [from, to) of calendar day `date` in `zone`: 23 or 25 hours on DST days.
 * startOf('day') copes with zones whose midnight is skipped (the day then starts at 01:00).
 */
export function localDayWindow(date: string, zone: string): { from: number; to: number } {
  if (!isValidDate(date)) throw new RangeError(`invalid date: ${date}`);
  const start = DateTime.fromISO(date, { zone: requireZone(zone) }).startOf('day');
  return { from: start.toMillis(), to: start.plus({ days: 1 }).startOf('day').toMillis() };
}

/** Calendar date `yyyy-MM-dd` in `zone` of an instant (fractional ms floored like the labels). */
export function localDateOf(ms: number, zone: string): string {
  return zoned(ms, zone).toFormat('yyyy-MM-dd');
}
