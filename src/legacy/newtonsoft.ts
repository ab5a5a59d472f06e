// Byte-for-byte copy of what the legacy ASMX service wrote with Newtonsoft.Json's
// JsonConvert.SerializeObject(obj) and default settings (Formatting.None, IsoDateFormat,
// RoundtripKind, FloatFormatHandling.String, StringEscapeHandling.Default), running on
// .NET Framework. Each rule cites the source file it was checked against.

/** A C# double; plain JS numbers are written as integers (Int32/Int64). */
export class NDouble {
  constructor(readonly value: number) {}
}

/** A System.Guid; written in format "D", lowercase. */
export class NGuid {
  readonly text: string;
  constructor(text: string) {
    if (!GUID_RE.test(text)) throw new TypeError(`not a GUID: ${text}`);
    this.text = text.toLowerCase();
  }
}

/** A DateTime of kind Unspecified, given as its wall-clock text. */
export class NDateTime {
  readonly text: string;
  constructor(wall: string) {
    this.text = isoWall(wall);
  }
}

export type NValue = null | boolean | number | bigint | string | Uint8Array | NDouble | NGuid | NDateTime | readonly NValue[] | { readonly [key: string]: NValue };

export const nDouble = (value: number): NDouble => new NDouble(value);
export const nGuid = (text: string): NGuid => new NGuid(text);
export const nDateTime = (wall: string): NDateTime => new NDateTime(wall);

const GUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function serializeNewtonsoft(value: NValue): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      return integerText(value);
    case 'bigint':
      return value.toString();
    case 'string':
      return quoteNewtonsoft(value);
    default: // an object: one of the kinds below
  }
  if (value instanceof Uint8Array) return `"${Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64')}"`;
  if (value instanceof NDouble) return doubleText(value.value);
  if (value instanceof NGuid || value instanceof NDateTime) return `"${value.text}"`;
  if (Array.isArray(value)) return `[${value.map(serializeNewtonsoft).join(',')}]`;
  if (isPlainObject(value)) return objectText(value);
  throw new TypeError(`cannot serialize ${Object.prototype.toString.call(value)}`);
}

function isPlainObject(v: object): v is { readonly [key: string]: NValue } {
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

function objectText(obj: { readonly [key: string]: NValue }): string {
  // Property names go through the same escaping as values (JsonTextWriter.WritePropertyName).
  const members = Object.keys(obj).map((k) => `${quoteNewtonsoft(k)}:${serializeNewtonsoft(obj[k] as NValue)}`);
  return `{${members.join(',')}}`;
}

// C# Int32/Int64 ToString(null, InvariantCulture): plain decimal, never an exponent.
// Unsafe integers are refused because they cannot stand for an exact Int64 value.
function integerText(n: number): string {
  if (!Number.isSafeInteger(n)) throw new TypeError(`not an exact integer: ${n}; use nDouble() or a bigint`);
  return String(n);
}

// --- strings ---------------------------------------------------------------------------

// JavaScriptUtils.cs (DoubleQuoteCharEscapeFlags + WriteEscapedJavaScriptString): \t \n \r \f \b
// and \\ get short forms, '"' becomes \", every other char below 0x20 and also U+0085, U+2028,
// U+2029 become \u00XX; ', <, >, &, DEL and all other non-ASCII chars are written as is.
export function quoteNewtonsoft(s: string): string {
  let out = '"';
  let from = 0;
  for (let i = 0; i < s.length; i++) {
    const escaped = escapeChar(s.charCodeAt(i));
    if (escaped === undefined) continue;
    out += s.slice(from, i) + escaped;
    from = i + 1;
  }
  return `${out}${s.slice(from)}"`;
}

const SHORT_ESCAPES: Record<number, string> = {
  0x09: '\\t',
  0x0a: '\\n',
  0x0d: '\\r',
  0x0c: '\\f',
  0x08: '\\b',
  0x5c: '\\\\',
  0x22: '\\"',
};

function escapeChar(c: number): string | undefined {
  const short = SHORT_ESCAPES[c];
  if (short !== undefined) return short;
  if (c < 0x20 || c === 0x85 || c === 0x2028 || c === 0x2029) return unicodeEscape(c);
  return undefined;
}

// StringUtils.ToCharAsUnicode with MathUtils.IntToHex: four hex digits, lowercase a-f.
function unicodeEscape(c: number): string {
  return `\\u${c.toString(16).padStart(4, '0')}`;
}

// --- dates -----------------------------------------------------------------------------

const WALL_RE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,7}))?$/;

// DateTimeUtils.cs WriteDefaultIsoDate: yyyy-MM-ddTHH:mm:ss, then '.' and the tick fraction
// (7 digits) with trailing zeros removed, only when it is not zero. Kind Unspecified adds no
// zone suffix (WriteDateTimeString writes 'Z' only for Utc and an offset only for Local).
function isoWall(wall: string): string {
  const m = WALL_RE.exec(wall);
  if (!m) throw new TypeError(`not a wall time yyyy-MM-ddTHH:mm:ss[.fffffff]: ${wall}`);
  const [y = 0, mo = 0, d = 0, h = 0, mi = 0, s = 0] = m.slice(1, 7).map(Number);
  if (y < 1 || mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo) || h > 23 || mi > 59 || s > 59) {
    throw new TypeError(`wall time out of range: ${wall}`);
  }
  const fraction = (m[7] ?? '').replace(/0+$/, '');
  return `${wall.slice(0, 19)}${fraction ? `.${fraction}` : ''}`;
}

const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function daysInMonth(y: number, mo: number): number {
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  return mo === 2 && leap ? 29 : (MONTH_DAYS[mo - 1] ?? 0);
}

// --- doubles ---------------------------------------------------------------------------

// JsonConvert.cs ToString(double, FloatFormatHandling, quoteChar, nullable):
// EnsureFloatFormat(EnsureDecimalPlace(value.ToString("R", InvariantCulture))). With the default
// FloatFormatHandling.String, NaN and the infinities are written as quoted strings.
function doubleText(x: number): string {
  if (Number.isNaN(x)) return '"NaN"';
  if (!Number.isFinite(x)) return x > 0 ? '"Infinity"' : '"-Infinity"';
  const text = formatRoundTrip(x);
  // EnsureDecimalPlace: add ".0" unless the text already has '.' or an exponent.
  return /[.E]/.test(text) ? text : `${text}.0`;
}

type Digits = { digits: string; scale: number }; // value = 0.digits × 10^scale

// .NET Framework "R" (classlibnative/bcltype/number.cpp, COMNumber::FormatDouble case 'R'):
// take 15 significant digits; if they parse back to the same double use them with 'G' and
// precision 15, otherwise 17 digits with precision 17.
function formatRoundTrip(x: number): string {
  if (x === 0) return '0'; // RoundNumber clears the sign of zero, so -0 prints "0"
  const abs = Math.abs(x);
  let precision = 15;
  let d = toDigits(abs, precision);
  if (Number(`0.${d.digits}e${d.scale}`) !== abs) {
    precision = 17;
    d = toDigits(abs, precision);
  }
  return (x < 0 ? '-' : '') + formatGeneral(d, precision);
}

// number.cpp FormatGeneral: fixed notation unless scale > precision or scale < -3; then one
// digit, the rest after '.', and "E+dd"/"E-dd" with at least two exponent digits.
function formatGeneral({ digits, scale }: Digits, precision: number): string {
  if (scale > precision || scale < -3) {
    const exp = scale - 1;
    const mantissa = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    return `${mantissa}E${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  }
  if (scale <= 0) return `0.${'0'.repeat(-scale)}${digits}`;
  const int = digits.slice(0, scale).padEnd(scale, '0');
  const frac = digits.slice(scale);
  return frac ? `${int}.${frac}` : int;
}

// number.cpp ecvt: the exact decimal expansion rounded to `count` significant digits, ties to
// even; RoundNumber then drops trailing zeros.
function toDigits(abs: number, count: number): Digits {
  const { digits: exact, scale } = exactDecimal(abs);
  let head = exact.slice(0, count);
  let sc = scale;
  if (exact.length > count && roundsUp(exact, count)) {
    const bumped = (BigInt(head) + 1n).toString();
    if (bumped.length > head.length) sc += 1;
    head = bumped.slice(0, count);
  }
  return { digits: head.replace(/0+$/, ''), scale: sc };
}

function roundsUp(exact: string, count: number): boolean {
  const next = exact.charCodeAt(count) - 48;
  if (next !== 5) return next > 5;
  if (/[1-9]/.test(exact.slice(count + 1))) return true;
  return (exact.charCodeAt(count - 1) - 48) % 2 === 1; // exact tie: round half to even
}

// A finite positive double is m × 2^e exactly; as a decimal that is m·2^e (e ≥ 0) or
// m·5^-e / 10^-e (e < 0), both integers BigInt can print.
function exactDecimal(abs: number): Digits {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, abs);
  const bits = view.getBigUint64(0);
  const biased = Number(bits >> 52n);
  const fraction = bits & ((1n << 52n) - 1n);
  const mantissa = biased === 0 ? fraction : fraction | (1n << 52n);
  const exp = (biased === 0 ? 1 : biased) - 1075;
  if (exp >= 0) {
    const digits = (mantissa << BigInt(exp)).toString();
    return { digits, scale: digits.length };
  }
  const digits = (mantissa * 5n ** BigInt(-exp)).toString();
  return { digits, scale: digits.length + exp };
}
