// Query and body fields of the Custom API as zod schemas, with Laravel-style messages (the
// clients show them). Absent and blank values are the same. Caps are documented in docs/custom.md.
import { z } from 'zod';
import { isValidDate } from '../schedules/labels.ts';

export const MAX_PER_PAGE = 100;
/**
 * Rows of one channels/video answer (a page, all_videos): shipped clients ask per_page=10000 for
 * a channel-day and read one page, which holds at most 2 x 720 rows (a day of the request's
 * zone across two of the channel's; docs/security.md: What an owner may build); 2,000 rows cost ~0.04 s of CPU to present.
 */
export const MAX_GUIDE_ROWS = 2000;
export const MAX_GUIDE_PER_PAGE = MAX_GUIDE_ROWS;
/** Schedule entries one channels/video request may compile: a rule of the guide rows (src/channels/guide-rows.ts). */
export { MAX_GUIDE_ENTRIES } from '../channels/guide-rows.ts';
export const DEFAULT_PER_PAGE = 50;
export const MAX_TAKE = 100;
/** More channels or days than a guide screen shows are refused rather than computed. */
export const MAX_LIST_ENTRIES = 100;
export const MAX_DATES = 31;
/** The first and last date of a list lie at most this many days apart (a list is a guide's week or month, not a century). */
export const MAX_DATE_SPAN_DAYS = 30;
/** channels x days of one channels/video request (what it compiles is bounded by MAX_GUIDE_ENTRIES too). */
export const MAX_CHANNEL_DAYS = 500;
const MAX_INT = 2_147_483_647;

const label = (field: string) => field.replaceAll('_', ' ');
const blankIsAbsent = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);

function textOf(field: string, maxLength: number) {
  return z
    .string({ error: (issue) => (issue.input === undefined ? `The ${label(field)} field is required.` : `The ${label(field)} must be a string.`) })
    .max(maxLength, { error: `The ${label(field)} may not be greater than ${maxLength} characters.` });
}

/** A required text field; blank counts as absent. */
export const text = (field: string, maxLength = 255) => z.preprocess(blankIsAbsent, textOf(field, maxLength));
/** An optional text field; blank gives undefined. */
export const optionalText = (field: string, maxLength = 255) => z.preprocess(blankIsAbsent, textOf(field, maxLength).optional());

/** Whole number >= min; values above `cap` are lowered to it (never refused). */
export function wholeNumber(field: string, min: number, cap = MAX_INT) {
  return optionalText(field).transform((value, ctx) => {
    if (value === undefined) return undefined;
    if (!/^[+-]?\d+$/.test(value.trim())) {
      ctx.addIssue({ code: 'custom', message: `The ${label(field)} must be an integer.` });
      return z.NEVER;
    }
    const n = Number(value);
    if (n < min) {
      ctx.addIssue({ code: 'custom', message: `The ${label(field)} must be at least ${min}.` });
      return z.NEVER;
    }
    return Math.min(n, cap);
  });
}

export const pageFields = (defaultPerPage: number, maxPerPage = MAX_PER_PAGE) => ({
  page: wholeNumber('page', 1).transform((n) => n ?? 1),
  per_page: wholeNumber('per_page', 1, maxPerPage).transform((n) => n ?? defaultPerPage),
});

/** Non-blank entries of a comma-separated list (a trailing comma is harmless). */
const entriesOf = (value: string | undefined) =>
  (value ?? '')
    .split(',')
    .map((e) => e.trim())
    .filter((e) => e !== '');

/**
 * Comma-separated ids: duplicates collapsed, order kept. Ids past the integer column range
 * exist nowhere and are dropped.
 */
export function idList(field: string, required: boolean) {
  const parse = (value: string | undefined, ctx: z.RefinementCtx) => {
    const entries = entriesOf(value);
    const problem =
      (entries.length === 0 && required && `The ${label(field)} field is required.`) ||
      (entries.some((e) => !/^\d{1,20}$/.test(e)) && `The ${label(field)} must be a comma-separated list of ids.`) ||
      (entries.length > MAX_LIST_ENTRIES && `The ${label(field)} may not have more than ${MAX_LIST_ENTRIES} items.`);
    if (problem) {
      ctx.addIssue({ code: 'custom', message: problem });
      return z.NEVER;
    }
    return [...new Set(entries.map(Number))].filter((id) => id <= MAX_INT);
  };
  return required ? text(field, 2000).transform(parse) : optionalText(field, 2000).transform(parse);
}

const DATE_FORMS = [/^(\d{4})-(\d{2})-(\d{2})$/, /^(\d{4})(\d{2})(\d{2})$/, /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})$/];

/** yyyy-MM-dd, yyyyMMdd or yyyyMMddHHmmss to 'yyyy-MM-dd'; the time part is checked, then ignored. */
export function requestDate(text: string): string | undefined {
  const parts = DATE_FORMS.map((form) => form.exec(text)).find((m) => m !== null);
  if (!parts) return undefined;
  const [, year, month, day, hour = '00', minute = '00', second = '00'] = parts;
  const date = `${year}-${month}-${day}`;
  const validTime = Number(hour) < 24 && Number(minute) < 60 && Number(second) < 60;
  return isValidDate(date) && validTime ? date : undefined;
}

const DATE_MESSAGE = (field: string) => `The ${label(field)} must be dates in the form yyyy-MM-dd, yyyyMMdd or yyyyMMddHHmmss.`;

/** Comma-separated dates, blank entries skipped, duplicates collapsed, ascending. */
export function dateList(field: string) {
  return text(field, 1000).transform((value, ctx) => {
    const entries = entriesOf(value);
    const dates = entries.map(requestDate);
    const problem =
      (entries.length === 0 && `The ${label(field)} field is required.`) ||
      (dates.includes(undefined) && DATE_MESSAGE(field)) ||
      (new Set(dates).size > MAX_DATES && `The ${label(field)} may not have more than ${MAX_DATES} items.`);
    const sorted = problem ? [] : [...new Set(dates as string[])].sort();
    const tooFarApart = !problem && daysBetween(sorted[0]!, sorted.at(-1)!) > MAX_DATE_SPAN_DAYS;
    if (problem || tooFarApart) {
      ctx.addIssue({ code: 'custom', message: problem || `The ${label(field)} must lie within ${MAX_DATE_SPAN_DAYS + 1} days of each other.` });
      return z.NEVER;
    }
    return sorted;
  });
}

/** Whole days from one 'yyyy-MM-dd' to another (both valid dates). */
function daysBetween(first: string, last: string): number {
  return (Date.parse(`${last}T00:00:00Z`) - Date.parse(`${first}T00:00:00Z`)) / 86_400_000;
}

/** Refuses a request that would expand more than MAX_CHANNEL_DAYS channel-days, naming the channel list field. */
export function boundChannelDays(field: string) {
  return (query: Record<string, unknown> & { dates: readonly string[] }, ctx: z.RefinementCtx): void => {
    const ids = query[field] as readonly number[];
    if (ids.length * query.dates.length <= MAX_CHANNEL_DAYS) return;
    ctx.addIssue({ code: 'custom', path: [field], message: `The ${label(field)} times the dates may not be more than ${MAX_CHANNEL_DAYS} channel-days.` });
  };
}

export function optionalDate(field: string) {
  return optionalText(field).transform((value, ctx) => {
    if (value === undefined) return undefined;
    const date = requestDate(value.trim());
    if (!date) ctx.addIssue({ code: 'custom', message: DATE_MESSAGE(field).replace('must be dates', 'must be a date') });
    return date ?? z.NEVER;
  });
}

/** A flag is on with 1 or true; off when absent, blank, 0 or false; anything else is refused. */
export function flag(field: string) {
  return optionalText(field).transform((value, ctx) => {
    const normal = value?.trim().toLowerCase();
    if (normal === undefined || normal === '0' || normal === 'false') return false;
    if (normal === '1' || normal === 'true') return true;
    ctx.addIssue({ code: 'custom', message: `The ${label(field)} field must be true or false.` });
    return z.NEVER;
  });
}

/** Every query that renders or filters by day takes the optional timezone parameter. */
export const zoneField = { timezone: optionalText('timezone', 100) };

/** A path id; anything else, or one past the column range, is -1, which names nothing (so: 404). */
export function pathId(text: string): number {
  const id = /^\d{1,10}$/.test(text) ? Number(text) : -1;
  return id <= MAX_INT ? id : -1;
}

/** A body read as JSON or as a form: anything but an object counts as an empty one. */
export function bodyObject<T extends z.ZodType>(shape: T) {
  return z.preprocess((body) => (typeof body === 'object' && body !== null && !Array.isArray(body) ? body : {}), shape);
}
