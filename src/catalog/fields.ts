// Field-level schemas shared by the catalog format: each one checks a single value,
// so its error message can name the offending value at that value's own path.
//
// Every string has a length bound (docs/security.md: What an owner may build), checked before any pattern: a pattern then
// only ever sees a short string, and none of them can backtrack for long or overflow the stack
// (the old base64 pattern, `(?:[A-Za-z0-9+/]{4})*`, overflowed it on a ~5 MB image).
import { DateTime, IANAZone } from 'luxon';
import { z } from 'zod';
import { storedUrlProblem } from '../media/url-rule.ts';
import { daysInMonth } from '../schedules/labels.ts';

const COLOUR_RE = /^[0-9a-fA-F]{6}$/;
const GUID_RE = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
const TOKEN_HASH_RE = /^[0-9a-f]{64}$/;
const SCRYPT_RE = /^scrypt:\d+:\d+:\d+:[A-Za-z0-9+/]+={0,2}:[A-Za-z0-9+/]+={0,2}$/;
const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
// One character class and a tail: no nested repetition, so it runs in one pass whatever the length.
const BASE64_RE = /^[A-Za-z0-9+/]*={0,2}$/;
const INSTANT_ZONE_RE = /(?:Z|[+-]\d{2}(?::?\d{2})?)$/;
const INSTANT_SHAPE_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;
const WALL_TIME_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/;
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG_SOI = [0xff, 0xd8, 0xff];
/** ASCII controls, space and DEL: never inside a URL as written (a parser would drop or encode them). */
const HANDLE_RE = /^@?[\w.-]+$/;

/** String lengths (UTF-16 code units), docs/security.md: What an owner may build. */
export const MAX_TITLE = 200;
export const MAX_TEXT = 5000;
/** Names, slugs, ids of other systems: what the Custom API takes for a text field. */
export const MAX_SHORT = 255;
export const MAX_URL = 2048;
export const MAX_EMAIL = 320;
/** A plain password (hashed on import; as the sign-in routes take it). */
export const MAX_PASSWORD = 1024;
/** A store's transaction id (Google purchase tokens, Amazon receipt ids are a few hundred characters). */
export const MAX_STORE_ID = 4096;
/** A store credential (a service-account JSON key or a PEM key is a few KB). */
export const MAX_SECRET = 20_000;
/** An image's bytes (app artwork, branding logos); base64 text is 4/3 of it. */
export const MAX_IMAGE_BYTES = 2 * 1024 * 1024;
const MAX_IMAGE_TEXT = 4 * Math.ceil(MAX_IMAGE_BYTES / 3);

const show = (v: string): string => JSON.stringify(v.length > 60 ? `${v.slice(0, 57)}...` : v);

const tooLong = (max: number) => `must be at most ${max} characters`;

/** A string of at most `max` characters. */
export const text = (max: number) => z.string().max(max, { error: tooLong(max) });

/** A string checked by `test` once it is known to be at most `max` characters long; the message is built from the rejected value. */
function checkedString(test: (v: string) => string | null, max = MAX_SHORT) {
  return z.string().superRefine((v, ctx) => {
    const problem = v.length > max ? tooLong(max) : test(v);
    if (problem !== null) ctx.addIssue({ code: 'custom', message: problem });
  });
}

// Not z.int(): its failure aborts the enclosing object's rules, hiding their errors.
export const integer = z.number().superRefine((v, ctx) => {
  if (!Number.isSafeInteger(v)) ctx.addIssue({ code: 'custom', message: `expected integer, got ${v}` });
});
export { id, refId } from './ids.ts';
export const nonEmpty = text(MAX_SHORT).min(1, { error: 'must not be empty' });
export const password = text(MAX_PASSWORD).min(1, { error: 'must not be empty' });

/** A channel password is typed with a TV remote, so short, but not guessable in a few tries. */
export const MIN_CHANNEL_PASSWORD = 4;
export const channelPassword = checkedString((v) => {
  if (v === '') return 'must not be empty';
  return v.length < MIN_CHANNEL_PASSWORD ? `must be at least ${MIN_CHANNEL_PASSWORD} characters` : null;
}, MAX_PASSWORD);

/** Slugs (a channel's url, an app's slug): the last part of a web address, as typed in a browser. */
export const MAX_SLUG = 64;
const SLUG_RE = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;
export const slug = checkedString(
  (v) => (v === '' ? 'must not be empty' : SLUG_RE.test(v) ? null : `bad slug ${show(v)} (want lowercase letters, digits and hyphens, not starting or ending with a hyphen)`),
  MAX_SLUG,
);

export const colour = checkedString((v) => (COLOUR_RE.test(v) ? null : `bad colour ${show(v)}`));

export const guid = checkedString((v) => (GUID_RE.test(v) ? null : `bad GUID ${show(v)}`));

export const tokenHash = checkedString((v) => (TOKEN_HASH_RE.test(v) ? null : `bad token hash ${show(v)} (want 64 lowercase hex digits)`));

export const scryptHash = checkedString((v) => (SCRYPT_RE.test(v) ? null : 'bad password hash (want scrypt:N:r:p:salt:hash, base64)'));

// The bound first: on a long string of dots the pattern takes quadratic time (20 KB: 3 s).
export const email = checkedString((v) => (EMAIL_RE.test(v) ? null : `bad email ${show(v)}`), MAX_EMAIL);

/**
 * Origins the operator allowed in stored URLs whatever their host (MEDIA_FETCH_ALLOW_ORIGINS, set
 * once at start by buildApp: the schemas are module constants, the setting is the process's).
 */
let allowedOrigins: ReadonlySet<string> = new Set();

/** Adds the operator's allowed origins (the process's apps share one setting in production). */
export function allowStoredOrigins(origins: readonly string[]): void {
  if (origins.length > 0) allowedOrigins = new Set([...allowedOrigins, ...origins]);
}

/** Tests only: test files share processes (vitest.config.ts), and one file's origins are not the next's. */
export function forgetStoredOriginsForTests(): void {
  allowedOrigins = new Set();
}

/** Why `v` may not be stored as a URL (src/media/url-rule.ts: one rule for every stored URL), or null. */
const urlProblem = (v: string) => storedUrlProblem(v, { allowed: allowedOrigins });

/** An http or https URL. */
export const url = checkedString(urlProblem, MAX_URL);
/** An http or https URL, or '' for none (fields whose default is ''). */
export const urlOrEmpty = checkedString((v) => (v === '' ? null : urlProblem(v)), MAX_URL);
/** A thumbnail: an https URL (apps load it inside https pages), or '' for none. */
export const thumbnailUrl = checkedString((v) => (v === '' ? null : storedUrlProblem(v, { httpsOnly: true, allowed: allowedOrigins })), MAX_URL);
/** A social profile: its http or https URL, or a handle (letters, digits, `_`, `.`, `-`, an optional leading `@`). */
export const profile = checkedString((v) => (HANDLE_RE.test(v) ? null : urlProblem(v)), MAX_URL);

function startsWith(bytes: Buffer, prefix: readonly number[]): boolean {
  return prefix.every((b, i) => bytes[i] === b);
}

export const image = z.string().superRefine((v, ctx) => {
  const problem = imageProblem(v);
  if (problem !== null) ctx.addIssue({ code: 'custom', message: problem });
});

function imageProblem(v: string): string | null {
  if (v.length > MAX_IMAGE_TEXT) return `image too large: at most ${MAX_IMAGE_BYTES} bytes (${MAX_IMAGE_TEXT} base64 characters)`;
  if (v.length === 0 || v.length % 4 !== 0 || !BASE64_RE.test(v)) return 'bad base64';
  // Only the signature is looked at: decoding the whole image would copy it for nothing.
  const bytes = Buffer.from(v.slice(0, 12), 'base64');
  return startsWith(bytes, PNG_SIGNATURE) || startsWith(bytes, JPEG_SOI) ? null : 'not a PNG or JPEG image';
}

function instantProblem(v: string): string | null {
  if (!INSTANT_SHAPE_RE.test(v)) return `bad instant ${show(v)}`;
  if (!INSTANT_ZONE_RE.test(v)) return `instant needs Z or an offset: ${show(v)}`;
  return DateTime.fromISO(v, { setZone: true }).isValid ? null : `bad instant ${show(v)}`;
}

export const instant = checkedString(instantProblem);

/** Epoch milliseconds of a valid instant, else null (for rules comparing two instants). */
export function instantMillis(v: unknown): number | null {
  if (typeof v !== 'string' || instantProblem(v) !== null) return null;
  return DateTime.fromISO(v, { setZone: true }).toMillis();
}

/**
 * Whether a `yyyy-MM-ddTHH:mm:ss` text names a real date and time (no 24:00:00, no February 30th):
 * what parsing it with luxon and formatting it back checks, by arithmetic (a programming write
 * validates 1,500 blocks, and luxon's parser cost ~0.2 ms each; the unit test compares the two).
 */
export function isRealWallTime(v: string): boolean {
  const year = Number(v.slice(0, 4));
  const month = Number(v.slice(5, 7));
  const day = Number(v.slice(8, 10));
  return (
    month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month) && Number(v.slice(11, 13)) <= 23 && Number(v.slice(14, 16)) <= 59 && Number(v.slice(17, 19)) <= 59
  );
}

export const wallTime = checkedString((v) => {
  if (!WALL_TIME_RE.test(v)) return `bad wall time ${show(v)} (want yyyy-MM-ddTHH:mm:ss, no offset)`;
  return isRealWallTime(v) ? null : `no such date/time ${show(v)}`;
});

export const timeZone = checkedString((v) => (IANAZone.isValidZone(v) ? null : `unknown time zone ${show(v)}`));

export const hour = integer.min(0, { error: 'must be 0-23' }).max(23, { error: 'must be 0-23' });
export const count = integer.nonnegative({ error: 'must be >= 0' });

/** A nullable text of at most `max` characters, null by default. */
export const nullableText = (max: number) => text(max).nullable().default(null);
export const nullableString = nullableText(MAX_SHORT);
export const falseDefault = z.boolean().default(false);
