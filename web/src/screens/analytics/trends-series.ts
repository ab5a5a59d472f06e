// Figures the Trends view draws and says in words: the range of a preset, the change against the
// previous range as an arrow and a percent, and the day axis of the chart. Pure, so unit-tested.
import { DateTime } from 'luxon';

export type Change = { absolute: number; percent: number | null };

/** The presets of the range picker, in days ending today. */
export const PRESETS = [7, 28, 90] as const;
export const MAX_DAYS = 366;

/** Today in `zone` (yyyy-MM-dd), or undefined when the zone is not one. */
export function todayIn(zone: string, now: DateTime = DateTime.now()): string | undefined {
  const local = now.setZone(zone);
  return local.isValid ? local.toISODate()! : undefined;
}

/** The `days` dates ending with `today`, both included. */
export function presetRange(days: number, today: string): { from: string; to: string } {
  return {
    from: DateTime.fromISO(today, { zone: 'UTC' })
      .minus({ days: days - 1 })
      .toISODate()!,
    to: today,
  };
}

/** Days from `from` to `to`, both included; undefined when either is not a date or they run backwards. */
export function daysBetween(from: string, to: string): number | undefined {
  const a = DateTime.fromISO(from, { zone: 'UTC' });
  const b = DateTime.fromISO(to, { zone: 'UTC' });
  if (!a.isValid || !b.isValid || !/^\d{4}-\d\d-\d\d$/.test(from) || !/^\d{4}-\d\d-\d\d$/.test(to) || b < a) return undefined;
  return Math.round(b.diff(a, 'days').days) + 1;
}

export interface ChangeWords {
  /** ▲ up, ▼ down, none when equal or nothing to compare with. */
  arrow: '▲' | '▼' | '';
  /** "+200%", "−50%", "no change", "new" (nothing before), "–" (nothing either time). */
  text: string;
  colour: 'teal' | 'red' | 'dimmed';
  /** The change in a sentence, for screen readers. */
  sentence: string;
}

/** How a figure moved against the previous range of `days` days. */
export function changeWords(change: Change, days: number): ChangeWords {
  const period = `the previous ${days} ${days === 1 ? 'day' : 'days'}`;
  if (change.percent === null) {
    return change.absolute > 0
      ? { arrow: '▲', text: 'new', colour: 'teal', sentence: `none in ${period}` }
      : { arrow: '', text: '–', colour: 'dimmed', sentence: `none in ${period} either` };
  }
  if (change.absolute === 0) return { arrow: '', text: 'no change', colour: 'dimmed', sentence: `the same as ${period}` };
  const up = change.absolute > 0;
  const percent = `${Math.abs(change.percent)}%`;
  return { arrow: up ? '▲' : '▼', text: `${up ? '+' : '−'}${percent}`, colour: up ? 'teal' : 'red', sentence: `${up ? 'up' : 'down'} ${percent} on ${period}` };
}

/** The chart's x value of a date: its UTC midnight in seconds (the chart draws dates, not instants). */
export const dayX = (date: string): number => Date.parse(`${date}T00:00:00Z`) / 1000;

/** "Nov 20" for a chart's x value; short, so that ticks `TICK_SPACE` apart never overlap. */
export const shortDay = (seconds: number): string => DateTime.fromSeconds(seconds, { zone: 'UTC' }).toFormat('LLL d');

/** Least pixels between two day ticks: a "Sep 30" label is about 40 px wide at the axis font. */
export const TICK_SPACE = 64;
/** Whole-day steps the axis may tick at (tickStep takes the least that keeps TICK_SPACE). */
export const DAY_STEPS = [1, 2, 3, 7, 14, 28, 56, 91, 182, 364].map((d) => d * 86_400);

/** The tick step in days: the least of DAY_STEPS whose ticks over `days` days stay TICK_SPACE px apart in `widthPx`. */
export function tickStep(days: number, widthPx: number): number {
  const step = DAY_STEPS.find((s) => Math.floor(((days - 1) * 86_400) / s) * TICK_SPACE <= widthPx) ?? DAY_STEPS.at(-1)!;
  return step / 86_400;
}
