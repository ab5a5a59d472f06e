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

/** A real calendar date `yyyy-MM-dd` with a year in [minYear, maxYear]. */
/** Proleptic Gregorian calendar arithmetic (what luxon validates), without a DateTime per request date. */
function isDateWithin(text: string, minYear: number, maxYear: number): boolean {
  if (!DATE_RE.test(text)) return false;
  const year = Number(text.slice(0, 4));
  const month = Number(text.slice(5, 7));
  const day = Number(text.slice(8, 10));
  return year >= minYear && year <= maxYear && month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

/** Days of `month` (1-12) of `year` in the proleptic Gregorian calendar. */
export function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/**
 * Strict `yyyy-MM-dd` naming a real calendar date a request may ask for. Schedules live in the
 * present era: far years break instant arithmetic and the database's date range (year 0 failed
 * a query), so they are refused like any other bad date.
 */
export function isValidDate(text: string): boolean {
  return isDateWithin(text, 1900, 9998);
}

/**
 * Dates the service itself may step to around an accepted request date: a request-zone day
 * reaches a channel-day before 1900-01-01 or after 9998-12-31 in zones far from the channel's
 * (1900-01-01 in Etc/GMT+12 needs the New York day 1899-12-31), which used to be a 500.
 */
export function isComputableDate(text: string): boolean {
  return isDateWithin(text, 1899, 9999);
}

/**
 * Instants [from, to) of calendar day `date` in `zone`: 23 or 25 hours on DST days.
 * startOf('day') copes with zones whose midnight is skipped (the day then starts at 01:00).
 */
export function localDayWindow(date: string, zone: string): { from: number; to: number } {
  if (!isComputableDate(date)) throw new RangeError(`invalid date: ${date}`);
  const start = DateTime.fromISO(date, { zone: requireZone(zone) }).startOf('day');
  return { from: start.toMillis(), to: start.plus({ days: 1 }).startOf('day').toMillis() };
}

/** Calendar date `yyyy-MM-dd` in `zone` of an instant (fractional ms floored like the labels). */
export function localDateOf(ms: number, zone: string): string {
  return zoned(ms, zone).toFormat('yyyy-MM-dd');
}
