// Field-level schemas shared by the catalog format: each one checks a single value,
// so its error message can name the offending value at that value's own path.
import { DateTime, IANAZone } from 'luxon';
import { z } from 'zod';

const COLOUR_RE = /^[0-9a-fA-F]{6}$/;
const GUID_RE = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
const TOKEN_HASH_RE = /^[0-9a-f]{64}$/;
const SCRYPT_RE = /^scrypt:\d+:\d+:\d+:[A-Za-z0-9+/]+={0,2}:[A-Za-z0-9+/]+={0,2}$/;
const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const BASE64_RE = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const INSTANT_ZONE_RE = /(?:Z|[+-]\d{2}(?::?\d{2})?)$/;
const INSTANT_SHAPE_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;
const WALL_TIME_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/;
const WALL_TIME_FORMAT = "yyyy-MM-dd'T'HH:mm:ss";
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG_SOI = [0xff, 0xd8, 0xff];

const show = (v: string): string => JSON.stringify(v.length > 60 ? `${v.slice(0, 57)}...` : v);

/** A string checked by `test`; the message is built from the rejected value. */
function checkedString(test: (v: string) => string | null) {
  return z.string().superRefine((v, ctx) => {
    const problem = test(v);
    if (problem !== null) ctx.addIssue({ code: 'custom', message: problem });
  });
}

// Not z.int(): its failure aborts the enclosing object's rules, hiding their errors.
export const integer = z.number().superRefine((v, ctx) => {
  if (!Number.isSafeInteger(v)) ctx.addIssue({ code: 'custom', message: `expected integer, got ${v}` });
});
export { id, refId } from './ids.ts';
export const nonEmpty = z.string().min(1, { error: 'must not be empty' });

export const colour = checkedString((v) => (COLOUR_RE.test(v) ? null : `bad colour ${show(v)}`));

export const guid = checkedString((v) => (GUID_RE.test(v) ? null : `bad GUID ${show(v)}`));

export const tokenHash = checkedString((v) =>
  TOKEN_HASH_RE.test(v) ? null : `bad token hash ${show(v)} (want 64 lowercase hex digits)`,
);

export const scryptHash = checkedString((v) =>
  SCRYPT_RE.test(v) ? null : 'bad password hash (want scrypt:N:r:p:salt:hash, base64)',
);

export const email = checkedString((v) => (EMAIL_RE.test(v) ? null : `bad email ${show(v)}`));

function startsWith(bytes: Buffer, prefix: readonly number[]): boolean {
  return prefix.every((b, i) => bytes[i] === b);
}

export const image = checkedString((v) => {
  if (v.length === 0 || !BASE64_RE.test(v)) return 'bad base64';
  const bytes = Buffer.from(v, 'base64');
  return startsWith(bytes, PNG_SIGNATURE) || startsWith(bytes, JPEG_SOI) ? null : 'not a PNG or JPEG image';
});

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

export const wallTime = checkedString((v) => {
  if (!WALL_TIME_RE.test(v)) return `bad wall time ${show(v)} (want yyyy-MM-ddTHH:mm:ss, no offset)`;
  // Round-tripping also rejects values luxon would roll over, such as 24:00:00.
  const parsed = DateTime.fromFormat(v, WALL_TIME_FORMAT, { zone: 'UTC' });
  return parsed.isValid && parsed.toFormat(WALL_TIME_FORMAT) === v ? null : `no such date/time ${show(v)}`;
});

export const timeZone = checkedString((v) => (IANAZone.isValidZone(v) ? null : `unknown time zone ${show(v)}`));

export const hour = integer.min(0, { error: 'must be 0-23' }).max(23, { error: 'must be 0-23' });
export const count = integer.nonnegative({ error: 'must be >= 0' });

export const nullableString = z.string().nullable().default(null);
export const falseDefault = z.boolean().default(false);
