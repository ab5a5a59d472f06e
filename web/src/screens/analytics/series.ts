// Figures the Analytics screen draws and says in words: the day's range in a zone, the peak of
// a concurrency curve, and watch time in hours and minutes. Pure, so they are unit-tested.
import { DateTime } from 'luxon';

export interface Bucket {
  start: string;
  end: string;
  viewers: number;
}

/** The instants bounding `date` (yyyy-MM-dd) in `zone`: 23 or 25 hours on clock-change days. */
export function dayRange(date: string, zone: string): { from: string; to: string } | undefined {
  const start = DateTime.fromISO(date, { zone });
  if (!start.isValid) return undefined;
  return { from: start.toUTC().toISO()!, to: start.plus({ days: 1 }).toUTC().toISO()! };
}

/** The bucket with the most viewers (the first such), or undefined when nobody watched. */
export function peakOf(buckets: readonly Bucket[]): Bucket | undefined {
  let peak: Bucket | undefined;
  for (const b of buckets) if (b.viewers > 0 && (!peak || b.viewers > peak.viewers)) peak = b;
  return peak;
}

/** "Peak 3 viewers at 10:05" in the zone; "Nobody watched" when the curve is flat at zero. */
export function peakSentence(buckets: readonly Bucket[], zone: string): string {
  const peak = peakOf(buckets);
  if (!peak) return 'Nobody watched in this period.';
  const at = DateTime.fromISO(peak.start, { zone }).toFormat('HH:mm');
  return `Peak ${peak.viewers} ${peak.viewers === 1 ? 'viewer' : 'viewers'} at ${at}.`;
}

/** 5400 -> "1 h 30 min", 59 -> "59 s", 600 -> "10 min". */
export function watchTime(seconds: number): string {
  const whole = Math.round(seconds);
  if (whole < 60) return `${whole} s`;
  const hours = Math.floor(whole / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  return hours > 0 ? `${hours} h ${minutes} min` : `${minutes} min`;
}

/** The local wall time of an instant in `zone`, for tables: "2026-11-25 10:05". */
export const wallTime = (instant: string, zone: string): string => DateTime.fromISO(instant, { zone }).toFormat('yyyy-MM-dd HH:mm');
