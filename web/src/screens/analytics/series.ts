// Figures the Analytics screen draws and says in words: the day's range in a zone, the peak of
// a concurrency curve, and watch time in hours and minutes. Pure, so they are unit-tested.
import { DateTime } from 'luxon';
import type { Concurrency, Curve } from '../../api/types.ts';

/** An interval of a concurrency curve (REST /analytics/concurrency). */
export type Bucket = Concurrency['buckets'][number];

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

/** A minute of a channel-day curve (REST /analytics/channels/{id}/curve). */
export type CurveMinute = Curve['minutes'][number];

/** A stretch of consecutive minutes with one programme on air (or none), and its busiest minute. */
export interface ProgrammeRun {
  start: string;
  end: string;
  videoId: number | null;
  title: string | null;
  isLive: boolean;
  peakViewers: number;
}

/** The curve cut where the programme changes, so a table can say what held viewers when. */
export function programmeRuns(minutes: readonly CurveMinute[]): ProgrammeRun[] {
  const runs: ProgrammeRun[] = [];
  minutes.forEach((m, i) => {
    const end = minutes[i + 1]?.start ?? new Date(Date.parse(m.start) + 60_000).toISOString();
    const last = runs.at(-1);
    if (last && last.videoId === m.videoId && last.isLive === m.isLive && last.title === m.title) {
      last.end = end;
      last.peakViewers = Math.max(last.peakViewers, m.viewers);
    } else {
      runs.push({ start: m.start, end, videoId: m.videoId, title: m.title, isLive: m.isLive, peakViewers: m.viewers });
    }
  });
  return runs;
}

/** uPlot draws times in the browser's zone: the Date whose local fields are the instant's wall time in `zone`. */
export function chartDate(seconds: number, zone: string): Date {
  const at = DateTime.fromSeconds(seconds, { zone });
  return new Date(at.year, at.month - 1, at.day, at.hour, at.minute, at.second);
}

/** Platforms (the activity API's `source` values) as a creator reads them. */
export const PLATFORMS = [
  ['roku_app', 'Roku'],
  ['fire_tv', 'Fire TV'],
  ['android_tv', 'Android TV'],
  ['apple_tv', 'Apple TV'],
  ['mobile_app_on_ios', 'iOS app'],
  ['mobile_app_on_android', 'Android app'],
  ['custom_app_on_ios', 'Custom iOS app'],
  ['custom_app_on_android', 'Custom Android app'],
  ['website_embedded_player', 'Web player'],
  ['broadcast_on_service_dot_com', 'Broadcast'],
] as const;

export const platformName = (source: string): string => PLATFORMS.find(([s]) => s === source)?.[1] ?? source;

/** Pixels a character of an axis label takes (uPlot's 12 px system font, a wide character). */
const LABEL_CHAR_PX = 7.5;
const LABEL_GAP_PX = 10;
const AXIS_PX = 30;

/**
 * How category labels under bars are drawn in `plotWidth` CSS pixels: side by side when each fits
 * its bar's share of the width; else turned 45 degrees (the axis grows to hold the longest), and
 * cut to 18 characters; a turned label needs ~9 px across, so past that every other one is left out.
 */
export function categoryLabels(labels: readonly string[], plotWidth: number): { rotate: number; size: number; shown: string[] } {
  const per = labels.length > 0 ? plotWidth / labels.length : plotWidth;
  const longest = Math.max(0, ...labels.map((l) => l.length));
  if (longest * LABEL_CHAR_PX + LABEL_GAP_PX <= per) return { rotate: 0, size: AXIS_PX, shown: [...labels] };
  const cut = labels.map((l) => (l.length > 18 ? `${l.slice(0, 17)}…` : l));
  const every = Math.max(1, Math.ceil(16 / per));
  const shown = cut.map((l, i) => (i % every === 0 ? l : ''));
  const turned = Math.max(0, ...cut.map((l) => l.length));
  return { rotate: -45, size: Math.ceil(AXIS_PX + turned * LABEL_CHAR_PX * Math.SQRT1_2), shown };
}
