// fast-check generators of HTTP requests: a route of the service (or none) with its path,
// query, headers and body each either plausible (so runs get past validation and reach the
// handlers and the database) or hostile (wrong types, odd characters, percent-encodings that
// are not UTF-8, huge and deeply nested values, invalid UTF-8 bytes).
import fc from 'fast-check';

// ---------------------------------------------------------------- text

const hex = (byte: number) => byte.toString(16).toUpperCase().padStart(2, '0');

/** Values that have broken parsers before: numbers out of range, prototype keys, NUL, lone surrogates. */
export const NASTY_TEXT = [
  '',
  ' ',
  '  ',
  '0',
  '-1',
  '+7',
  ' 7 ',
  '007',
  '1.5',
  '1e3',
  '0x10',
  'NaN',
  'Infinity',
  '-0',
  '2147483647',
  '2147483648',
  '-2147483649',
  '99999999999999999999999999999999',
  'null',
  'undefined',
  'true',
  'false',
  'True',
  '[]',
  '{}',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  '../',
  '..',
  '.',
  '/',
  '\\',
  '%',
  '%00',
  '\u0000',
  'a\u0000b',
  '\uD800',
  '\uDC00x',
  '\uFFFE',
  '\uFFFF',
  '\u2028',
  '\u0085',
  '𝄞',
  'é',
  'ß',
  'İ',
  '٣',
  '１２',
  "'; drop table accounts; --",
  '<script>alert(1)</script>',
  '${7*7}',
  '{{7*7}}',
  '\t',
  '\r\n',
  'a,b',
  ',',
  ',,,',
  '1,2,3',
  '-',
  'x'.repeat(256),
] as const;

const printableUnit = fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code));

/**
 * Ids at and past every boundary: 0 and negatives, the integer column's largest value and the
 * next, past the safe integers, a double's largest, and numeric text a lax parser would take.
 */
export const EXTREME_IDS = ['0', '-1', '2147483647', '2147483648', '9007199254740993', '1e308', '1e3', ' 1'] as const;

/** The same as JSON values in a body (9007199254740993 parses to 2^53). */
const EXTREME_ID_VALUES: readonly unknown[] = [0, -1, 2147483647, 2147483648, 9007199254740993, 1e308, '1e3', ' 1', '2147483648', 1.5, -0];

/** What PostgreSQL text cannot hold (NUL, lone surrogates) and what JSON and XML writers choke on. */
export const POISON_TEXT = ['\u0000', 'a\u0000', '11\u0000', '\uD800', 'a\uDFFF', '\uFFFF', '\uFFFE', '\u0001', '\u001b[0m'] as const;

/** Any text: ASCII, Unicode (lone surrogates too), the nasty list, now and then long. */
export const anyText: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...NASTY_TEXT) },
  { weight: 2, arbitrary: fc.constantFrom(...POISON_TEXT) },
  { weight: 3, arbitrary: fc.string({ maxLength: 30 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
  { weight: 1, arbitrary: fc.string({ unit: fc.constantFrom('\uD800', '\uDFFF', '\u0000', 'a', '\uFFFF'), maxLength: 6 }) },
  { weight: 1, arbitrary: fc.integer({ min: 300, max: 5_000 }).map((n) => 'x'.repeat(n)) },
);

/** Text a header value may hold on the wire (visible ASCII and obs-text; no CR, LF or NUL). */
export const headerText: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.string({ unit: printableUnit, maxLength: 40 }) },
  {
    weight: 1,
    arbitrary: fc.string({
      unit: fc
        .integer({ min: 0x20, max: 0xff })
        .filter((c) => c !== 0x7f)
        .map((c) => String.fromCharCode(c)),
      maxLength: 20,
    }),
  },
  { weight: 1, arbitrary: fc.integer({ min: 256, max: 8_000 }).map((n) => 'h'.repeat(n)) },
);

/** Percent-encodings that are not UTF-8, or not percent-encodings at all. */
export const badPercent = fc.oneof(
  fc.constantFrom('%FF', '%C0%80', '%ED%A0%80', '%E0%A4', '%F8%88%80%80%80', '%80', '%FE%FF', '%C3', '%F4%90%80%80'),
  fc.constantFrom('%', '%z', '%zz', '%G0', '%%', '%2', '%u0041', '%%32%30'),
  fc.uint8Array({ minLength: 1, maxLength: 6 }).map((bytes) => [...bytes].map((b) => `%${hex(b)}`).join('')),
);

/** encodeURIComponent, which throws on a lone surrogate: then the UTF-8 of U+FFFD, as browsers send it. */
export function encodeComponent(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return encodeURIComponent(text.replace(/[\uD800-\uDFFF]/g, '\uFFFD'));
  }
}

/** A value as a URL component: encoded (mostly), raw where the URL allows it, or with bad percent-encodings. */
export function urlComponent(value: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 6, arbitrary: value.map(encodeComponent) },
    // Raw: a browser or client would send these characters percent-encoded as UTF-8 anyway.
    { weight: 2, arbitrary: value.map((v) => v.replace(/[\u0000-\u0020#?%&=+\u007f]/g, (ch) => encodeComponent(ch))) },
    { weight: 1, arbitrary: fc.tuple(value, badPercent).map(([v, bad]) => `${encodeComponent(v)}${bad}`) },
    { weight: 1, arbitrary: badPercent },
  );
}

// ---------------------------------------------------------------- routes

export type Method = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';
const METHODS: Method[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

export type BodyKind = 'json' | 'form' | 'none';

/** A route as the spec lists it, with plausible values for its parameters and fields. */
export interface RouteSpec {
  method: Method;
  /** With `:name` parameters. */
  path: string;
  params?: Record<string, readonly string[]>;
  query?: Record<string, readonly string[]>;
  /** Known body fields and plausible values (JSON values; forms send their text). */
  body?: Record<string, readonly unknown[]>;
  /** How clients send the body (json also means a form is plausible for the Custom API and activity). */
  bodyKind?: BodyKind;
}

// ---------------------------------------------------------------- paths

/** Mutations of a known path: trailing or doubled slashes, extra or fewer segments, case, dot segments. */
const pathMutation: fc.Arbitrary<(path: string) => string> = fc.oneof(
  { weight: 1, arbitrary: fc.constant((p: string) => `${p}/`) },
  { weight: 1, arbitrary: fc.constant((p: string) => p.replace(/\/([^/]*)$/, '//$1')) },
  { weight: 1, arbitrary: fc.constant((p: string) => p.replace(/\/[^/]*$/, '')) },
  { weight: 1, arbitrary: fc.constant((p: string) => p.toUpperCase()) },
  { weight: 1, arbitrary: fc.constant((p: string) => p.replace(/[a-z]/, (c) => `%${hex(c.charCodeAt(0))}`)) },
  { weight: 1, arbitrary: fc.constant((p: string) => `${p}/../${p.split('/').pop() ?? ''}`) },
  { weight: 1, arbitrary: fc.constant((p: string) => `${p};jsessionid=1`) },
  { weight: 1, arbitrary: fc.constant((p: string) => `${p}%2F..%2F`) },
  { weight: 2, arbitrary: urlComponent(anyText).map((segment) => (p: string) => `${p}/${segment}`) },
  { weight: 1, arbitrary: badPercent.map((bad) => (p: string) => `${p}${bad}`) },
  { weight: 1, arbitrary: fc.integer({ min: 2_000, max: 12_000 }).map((n) => (p: string) => `${p}/${'a'.repeat(n)}`) },
);

function fillPath(path: string, params: Record<string, readonly string[]> | undefined, hostile: boolean): fc.Arbitrary<string> {
  const parts = path.split('/').map((part) => {
    if (!part.startsWith(':')) return fc.constant(part);
    // A parameter may end in static text (`:key.xml`): the text stays after whatever value is drawn.
    const [, name, suffix] = /^:(\w+)(.*)$/.exec(part)!;
    return valueOf(params?.[name!] ?? ['1'], hostile).map((value) => `${value}${suffix}`);
  });
  return fc.tuple(...parts).map((segments) => segments.join('/'));
}

/** A parameter's value: a plausible one, or (hostile) one that breaks it while the route still matches. */
function valueOf(good: readonly string[], hostile: boolean): fc.Arbitrary<string> {
  if (!hostile) return fc.constantFrom(...good).map(encodeComponent);
  return fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...good).map(encodeComponent) },
    { weight: 3, arbitrary: urlComponent(anyText) },
    // Appended to a plausible value: NUL (which PostgreSQL text cannot hold) and friends, where a lookup would otherwise succeed.
    { weight: 4, arbitrary: fc.tuple(fc.constantFrom(...good), fc.constantFrom('\u0000', '\u0000x', '\uD800', '\u0001')).map(([v, poison]) => encodeComponent(`${v}${poison}`)) },
    { weight: 2, arbitrary: fc.constantFrom(...EXTREME_IDS).map(encodeComponent) },
    // Past find-my-way's maxParamLength (100): routed to the not-found handler.
    { weight: 1, arbitrary: fc.integer({ min: 90, max: 400 }).map((n) => '9'.repeat(n)) },
  );
}

/** A hostile path: its parameters (the route still matches), or the path itself (mutated), not both at once. */
function hostilePath(path: string, params: Record<string, readonly string[]> | undefined): fc.Arbitrary<string> {
  const hasParams = path.includes('/:');
  return fc.oneof(
    { weight: hasParams ? 2 : 0, arbitrary: fillPath(path, params, true) },
    { weight: 1, arbitrary: fc.tuple(fillPath(path, params, false), pathMutation).map(([p, mutate]) => mutate(p)) },
  );
}

// ---------------------------------------------------------------- query strings

type Pair = [key: string, value: string | undefined];

/** Plausible: each known parameter, most of the time, once, with a plausible value. */
function plausiblePairs(query: Record<string, readonly string[]> | undefined): fc.Arbitrary<Pair[]> {
  const entries = Object.entries(query ?? {});
  if (entries.length === 0) return fc.constant([]);
  return fc
    .tuple(
      ...entries.map(([key, good]) =>
        fc.option(
          fc.constantFrom(...good).map((value): Pair => [key, value]),
          { freq: 8, nil: undefined },
        ),
      ),
    )
    .map((pairs) => pairs.filter((pair): pair is Pair => pair !== undefined));
}

function knownPairs(query: Record<string, readonly string[]> | undefined): fc.Arbitrary<Pair[]> {
  const keys = Object.keys(query ?? {});
  if (keys.length === 0) return fc.constant([]);
  return fc.array(
    fc
      .constantFrom(...keys)
      .chain((key) =>
        fc.tuple(
          fc.constant(key),
          fc.oneof(
            { weight: 6, arbitrary: fc.constantFrom(...query![key]!) },
            { weight: 3, arbitrary: anyText },
            { weight: 1, arbitrary: fc.constantFrom(...EXTREME_IDS) },
            { weight: 1, arbitrary: fc.constant(undefined) },
          ),
        ),
      ),
    { maxLength: keys.length + 2 },
  );
}

const randomPairs: fc.Arbitrary<Pair[]> = fc.array(fc.tuple(anyText, fc.option(anyText, { nil: undefined })), { maxLength: 3 });

function serializeQuery(pairs: Pair[], raw: boolean[]): string {
  return pairs
    .map(([key, value], i) => {
      const encode = raw[i] ? (text: string) => text.replace(/[\u0000-\u0020#&%+=\u007f]/g, encodeComponent) : encodeComponent;
      return value === undefined ? encode(key) : `${encode(key)}=${encode(value)}`;
    })
    .join('&');
}

export function queryString(query: Record<string, readonly string[]> | undefined, hostile = true): fc.Arbitrary<string> {
  if (!hostile) return plausiblePairs(query).map((pairs) => serializeQuery(pairs, []));
  const pairs = fc.tuple(knownPairs(query), randomPairs).map(([known, random]) => [...known, ...random]);
  const built = pairs.chain((list) => fc.tuple(fc.constant(list), fc.array(fc.boolean(), { minLength: list.length, maxLength: list.length })));
  return fc.oneof(
    { weight: 8, arbitrary: built.map(([list, raw]) => serializeQuery(list, raw)) },
    {
      weight: 1,
      arbitrary: fc.constantFrom('', '&', '&&=&', '=', '==', 'a=1&a=2&a=3', '%zz=%zz', 'a=%FF%FE', 'a[]=1&a[b]=2', 'a=1;b=2', '?', '+=+', '__proto__[x]=1', 'a=1&'.repeat(3_000)),
    },
    { weight: 1, arbitrary: fc.tuple(built, badPercent).map(([[list, raw], bad]) => `${serializeQuery(list, raw)}&${bad}=${bad}`) },
    { weight: 1, arbitrary: fc.integer({ min: 2_000, max: 12_000 }).map((n) => `q=${'z'.repeat(n)}`) },
  );
}

// ---------------------------------------------------------------- headers

export type AuthChoice =
  | { kind: 'none' }
  | { kind: 'login'; index: number; form: number }
  | { kind: 'fresh'; accountIndex: number; form: number }
  | { kind: 'revoked'; form: number }
  | { kind: 'garbage'; value: string };

/** How a token is written in the header: the usual way, or ways some clients (and attackers) do. */
export function authorizationHeader(token: string, form: number): string {
  const forms = [
    `Bearer ${token}`,
    `bearer ${token}`,
    `Bearer   ${token}  `,
    `BEARER ${token.toUpperCase()}`,
    `Token ${token}`,
    token,
    `Bearer ${token}, Bearer ${token}`,
    `Bearer ${token}x`,
  ];
  return forms[form % forms.length]!;
}

/** A token that works: a fresh one (mostly alice's, who owns the channels) or one from a login. */
const plausibleAuth: fc.Arbitrary<AuthChoice> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('fresh' as const), accountIndex: fc.constantFrom(0, 0, 0, 1, 5), form: fc.constant(0) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('login' as const), index: fc.nat(2), form: fc.constant(0) }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'none' as const }) },
);

export const authChoice = (hostile = true): fc.Arbitrary<AuthChoice> => (hostile ? hostileAuth : plausibleAuth);

const hostileAuth: fc.Arbitrary<AuthChoice> = fc.oneof(
  { weight: 3, arbitrary: fc.constant({ kind: 'none' as const }) },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('login' as const), index: fc.nat(10), form: fc.oneof({ weight: 6, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.nat(7) }) }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('fresh' as const),
      accountIndex: fc.nat(10),
      form: fc.oneof({ weight: 6, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.nat(7) }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('revoked' as const), form: fc.nat(7) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('garbage' as const),
      value: fc.oneof(
        fc.constantFrom(
          'Bearer',
          'Bearer ',
          'Bearer 00000000-0000-0000-0000-000000000000',
          'Bearer ffffffff-ffff-4fff-bfff-ffffffffffff',
          'Basic YWxpY2U6cGFzcw==',
          'Bearer null',
          'Bearer undefined',
          'Negotiate x',
        ),
        headerText.map((text) => `Bearer ${text}`),
        headerText,
      ),
    }),
  },
);

const PLATFORM_IDS = ['ios', 'android', 'mobile', 'roku', 'fire-tv', 'apple-tv', 'android-tv', 'IOS', 'Fire-TV', ' roku ', 'web', 'tizen'];
const DEVICE_IDS = ['device-1', 'device-2', 'device-3', 'd'.repeat(255), 'd'.repeat(256)];
const ZONES = [
  'America/New_York',
  'UTC',
  'Europe/Paris',
  'Eastern Standard Time',
  'Asia/Kathmandu',
  'Pacific/Kiritimati',
  'Etc/GMT+12',
  '+05:00',
  'EST',
  'Mars/Olympus',
  'america/new_york',
];
const ACCEPTS = ['application/json', 'text/csv', 'text/csv;q=0.9, application/json;q=0.8', 'text/csv;q=0', '*/*', 'text/csv;q=abc', 'application/xml', 'text/html,*/*;q=0.1'];
const TOKEN_CHARS = "abcdefghijklmnopqrstuvwxyz0123456789-_!#$%&'*+.^`|~";
/** Headers the transport sets itself or the test clock reads: never fuzzed by name. */
const RESERVED = new Set(['content-length', 'transfer-encoding', 'host', 'connection', 'expect', 'x-test-now', 'content-type', 'authorization', 'upgrade', 'te', 'trailer']);

const headerName = fc.string({ unit: fc.constantFrom(...TOKEN_CHARS), minLength: 1, maxLength: 20 }).filter((name) => !RESERVED.has(name));

function optionalHeader(name: string, good: readonly string[], hostile: boolean): fc.Arbitrary<[string, string] | undefined> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.constant(undefined) },
    { weight: 3, arbitrary: fc.constantFrom(...good).map((v): [string, string] => [name, v]) },
    { weight: hostile ? 1 : 0, arbitrary: headerText.map((v): [string, string] => [name, v]) },
  );
}

const GOOD_PLATFORM_IDS = PLATFORM_IDS.slice(0, 7);
const GOOD_ZONES = ZONES.slice(0, 7);

export const otherHeaders = (hostile = true): fc.Arbitrary<Record<string, string>> =>
  fc
    .tuple(
      optionalHeader('platform-id', hostile ? PLATFORM_IDS : GOOD_PLATFORM_IDS, hostile),
      optionalHeader('platform', hostile ? PLATFORM_IDS : ['mobile'], hostile),
      optionalHeader('device-id', hostile ? DEVICE_IDS : DEVICE_IDS.slice(0, 3), hostile),
      optionalHeader('accept-platform-device-id', hostile ? DEVICE_IDS : DEVICE_IDS.slice(0, 3), hostile),
      optionalHeader('timezone', hostile ? ZONES : GOOD_ZONES, hostile),
      optionalHeader('accept', hostile ? ACCEPTS : ACCEPTS.slice(0, 3), hostile),
      optionalHeader('x-forwarded-for', ['203.0.113.7', '::1', 'garbage', '1.2.3.4, 5.6.7.8'], hostile),
      optionalHeader('if-none-match', ['"x"', '*'], hostile),
      fc.array(fc.tuple(headerName, headerText), { maxLength: hostile ? 2 : 0 }),
    )
    .map(([platformId, platform, deviceId, legacyDeviceId, zone, accept, forwarded, ifNoneMatch, random]) => {
      const known = [platformId, platform, deviceId, legacyDeviceId, zone, accept, forwarded, ifNoneMatch].filter((e) => e !== undefined);
      return Object.fromEntries([...known, ...random]);
    });

// ---------------------------------------------------------------- bodies

export interface Body {
  payload: string | Buffer | undefined;
  contentType: string | undefined;
}

/** Nested arrays or objects `depth` deep, as JSON text (built as text: no recursion here). */
export const deepJson = fc
  .tuple(fc.integer({ min: 10, max: 20_000 }), fc.boolean())
  .map(([depth, objects]) => (objects ? `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}` : `${'['.repeat(depth)}${']'.repeat(depth)}`));

/** A field value: plausible, another JSON type, nasty text, or huge. */
function fieldValue(good: readonly unknown[], hostile: boolean): fc.Arbitrary<unknown> {
  if (!hostile) return fc.constantFrom(...good);
  return fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(...good) },
    { weight: 2, arbitrary: anyText },
    { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
    { weight: 1, arbitrary: fc.constantFrom(null, true, false, 0, -1, 1.5, 2147483648, 1e308, -0, [], {}, [1, 2], { a: 1 }) },
    { weight: 2, arbitrary: fc.constantFrom(...EXTREME_ID_VALUES) },
    // A plausible value with NUL (or another poison) in it, where it would otherwise be accepted and stored.
    { weight: 2, arbitrary: fc.tuple(fc.constantFrom(...good), fc.constantFrom(...POISON_TEXT)).map(([v, poison]) => (typeof v === 'string' ? `${v}${poison}` : poison)) },
    // Huge: within the Studio's 64 KiB limit (reaches validation), and past it.
    { weight: 1, arbitrary: fc.integer({ min: 2_000, max: 60_000 }).map((n) => 'z'.repeat(n)) },
    { weight: 1, arbitrary: fc.integer({ min: 70_000, max: 80_000 }).map((n) => 'y'.repeat(n)) },
  );
}

/** Known fields (a random subset, some wrong) plus unknown ones, as a JSON object. */
function knownObject(fields: Record<string, readonly unknown[]>, hostile: boolean): fc.Arbitrary<Record<string, unknown>> {
  const known = Object.fromEntries(Object.entries(fields).map(([key, good]) => [key, fieldValue(good, hostile)]));
  const required = Object.keys(fields);
  if (!hostile) return fc.oneof({ weight: 4, arbitrary: fc.record(known, { requiredKeys: required }) }, { weight: 1, arbitrary: fc.record(known, { requiredKeys: [] }) });
  return fc
    .tuple(
      fc.oneof({ weight: 3, arbitrary: fc.record(known, { requiredKeys: required }) }, { weight: 2, arbitrary: fc.record(known, { requiredKeys: [] }) }),
      fc.dictionary(anyText, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 2 }),
    )
    .map(([fieldsPart, extra]) => ({ ...extra, ...fieldsPart }));
}

const formText = (value: unknown) => (typeof value === 'string' ? value : (JSON.stringify(value) ?? ''));

function formOf(object: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(object)) {
    if (Array.isArray(value)) for (const item of value) params.append(key, formText(item));
    else params.append(key, formText(value));
  }
  // URLSearchParams turns lone surrogates into U+FFFD, as a browser's form would.
  return params.toString();
}

/** Bytes that are not UTF-8, alone or spliced into otherwise plausible JSON. */
const INVALID_UTF8 = [[0xff], [0xfe, 0xff], [0xc0, 0x80], [0xed, 0xa0, 0x80], [0xe0, 0xa4], [0x80], [0xf8, 0x88, 0x80, 0x80, 0x80], [0xc3], [0xf4, 0x90, 0x80, 0x80]];

const invalidUtf8 = fc.oneof(
  fc.constantFrom(...INVALID_UTF8).map((bytes) => Buffer.from(bytes)),
  fc.uint8Array({ minLength: 1, maxLength: 64 }).map((bytes) => Buffer.from(bytes)),
);

function splice(json: string, bad: Buffer): Buffer {
  // Inside the first string value when there is one, else at the end.
  const at = json.indexOf('":"');
  if (at < 0) return Buffer.concat([Buffer.from(json), bad]);
  return Buffer.concat([Buffer.from(json.slice(0, at + 3)), bad, Buffer.from(json.slice(at + 3))]);
}

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=UTF-8',
  'application/json; charset=latin1',
  'application/json; charset=utf-16',
  'APPLICATION/JSON',
  'application/json;;',
  'application/x-www-form-urlencoded',
  'application/x-www-form-urlencoded; charset=utf-8',
  'text/plain',
  'text/plain; charset=utf-8',
  'text/xml',
  'application/xml',
  'multipart/form-data; boundary=x',
  'multipart/form-data',
  'application/octet-stream',
  'application/vnd.api+json',
  'application/merge-patch+json',
  '*/*',
  'json',
  '',
  ' ',
  'application/',
  '/json',
  'application/json, text/plain',
];

const contentTypeFor = (kind: 'json' | 'form' | 'raw'): fc.Arbitrary<string | undefined> =>
  fc.oneof(
    { weight: 6, arbitrary: fc.constant(kind === 'form' ? 'application/x-www-form-urlencoded' : kind === 'json' ? 'application/json' : 'application/octet-stream') },
    { weight: 2, arbitrary: fc.constantFrom(...CONTENT_TYPES) },
    { weight: 1, arbitrary: fc.constant(undefined) },
    { weight: 1, arbitrary: headerText },
  );

const withType = (kind: 'json' | 'form' | 'raw') => (payload: fc.Arbitrary<string | Buffer>) =>
  fc.tuple(payload, contentTypeFor(kind)).map(([p, contentType]): Body => ({ payload: p, contentType }));

/** A request body for a route with these fields (or none): JSON, a form, raw bytes, or nothing. */
export function bodyFor(fields: Record<string, readonly unknown[]> | undefined, kind: BodyKind, hostile = true): fc.Arbitrary<Body> {
  if (!hostile) return plausibleBody(fields, kind);
  const object = knownObject(fields ?? {}, true);
  const known = kind === 'none' ? 1 : 8;
  return fc.oneof(
    { weight: kind === 'none' ? 6 : 1, arbitrary: fc.constant<Body>({ payload: undefined, contentType: undefined }) },
    { weight: known, arbitrary: withType('json')(object.map((o) => JSON.stringify(o))) },
    { weight: kind === 'none' ? 1 : 3, arbitrary: withType('form')(object.map(formOf)) },
    { weight: 1, arbitrary: withType('json')(fc.json({ maxDepth: 4 })) },
    { weight: 1, arbitrary: withType('json')(fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v) ?? 'null')) },
    { weight: 1, arbitrary: withType('json')(deepJson) },
    {
      weight: 1,
      arbitrary: withType('json')(
        fc
          .tuple(object, deepJson, fc.constantFrom(...Object.keys(fields ?? { payload: [] })))
          .map(([o, deep, key]) => JSON.stringify({ ...o, [key]: 0 }).replace(`"${key}":0`, `"${key}":${deep}`)),
      ),
    },
    {
      weight: 1,
      arbitrary: withType('json')(
        fc.constantFrom(
          '',
          ' ',
          '{',
          '{"a":',
          'nul',
          '[1,]',
          '{"__proto__":{"x":1}}',
          '{"constructor":{"prototype":{"x":1}}}',
          '{"a":1,"a":2}',
          '\uFEFF{}',
          '"text"',
          '1e999',
          '{"email":"\\ud800"}',
        ),
      ),
    },
    { weight: 1, arbitrary: withType('form')(fc.constantFrom('', '=', '&&', 'a', '%zz=%zz', 'a=%FF', 'a=1&a=2', '__proto__=x', 'constructor[prototype]=1', '+=+')) },
    { weight: 2, arbitrary: withType('raw')(invalidUtf8) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(object, invalidUtf8, fc.constantFrom<'json' | 'form'>('json', 'form'))
        .chain(([o, bad, as]) => withType(as)(fc.constant(splice(as === 'json' ? JSON.stringify(o) : formOf(o), bad)))),
    },
    { weight: 1, arbitrary: withType('json')(fc.integer({ min: 60_000, max: 1_200_000 }).map((n) => JSON.stringify({ big: 'b'.repeat(n) }))) },
  );
}

/** The body a client of the route sends: JSON (or a form where the group reads forms), with the right type. */
function plausibleBody(fields: Record<string, readonly unknown[]> | undefined, kind: BodyKind): fc.Arbitrary<Body> {
  if (kind === 'none' || fields === undefined) return fc.constant({ payload: undefined, contentType: undefined });
  const object = knownObject(fields, false);
  return fc.oneof(
    { weight: 3, arbitrary: object.map((o): Body => ({ payload: JSON.stringify(o), contentType: 'application/json' })) },
    { weight: 1, arbitrary: object.map((o): Body => ({ payload: formOf(o), contentType: 'application/x-www-form-urlencoded' })) },
  );
}

// ---------------------------------------------------------------- requests

export interface FuzzRequest {
  method: Method;
  url: string;
  auth: AuthChoice;
  headers: Record<string, string>;
  body: Body;
}

/** The parts of a request a run may make hostile; the others stay what a real client sends. */
const PARTS = ['method', 'path', 'query', 'auth', 'headers', 'body'] as const;
type Part = (typeof PARTS)[number];

/**
 * Which parts are hostile: none (a plausible request, which reaches the handlers and the
 * database), one (the answer to exactly that mistake), or any mix.
 */
const hostileParts: fc.Arbitrary<ReadonlySet<Part>> = fc
  .oneof(
    { weight: 3, arbitrary: fc.constant<Part[]>([]) },
    { weight: 4, arbitrary: fc.constantFrom(...PARTS).map((part) => [part]) },
    { weight: 3, arbitrary: fc.subarray([...PARTS]) },
  )
  .map((parts) => new Set(parts));

/** A request for one of these routes, under `prefix`. */
export function requestFor(prefix: string, routes: readonly RouteSpec[]): fc.Arbitrary<FuzzRequest> {
  return fc.tuple(fc.constantFrom(...routes), hostileParts).chain(([route, hostile]) =>
    fc.record({
      method: hostile.has('method') ? fc.constantFrom(...METHODS) : fc.constant(route.method),
      url: fc
        .tuple(
          hostile.has('path') ? hostilePath(route.path, route.params) : fillPath(route.path, route.params, false),
          hostile.has('query') ? fc.option(queryString(route.query, true), { freq: 5, nil: undefined }) : queryString(route.query, false),
        )
        .map(([path, query]) => {
          const url = `${prefix}${path}${query === undefined || query === '' ? '' : `?${query}`}`;
          // A request target is never empty (a mutation may have removed the only segment).
          return url.startsWith('/') ? url : `/${url}`;
        }),
      auth: authChoice(hostile.has('auth')),
      headers: otherHeaders(hostile.has('headers')),
      body: bodyFor(route.body, route.bodyKind ?? 'none', hostile.has('body')),
    }),
  );
}

/** Any path at all: random segments, odd characters and encodings, near-misses of the group prefixes. */
export const anyPath: fc.Arbitrary<string> = fc
  .tuple(
    fc.constantFrom(
      '',
      '/api',
      '/api/v1',
      '/api/v2/rest',
      '/api/v1/rest',
      '/api/v1/services',
      '/api/v1/services/custom',
      '/api/v1/activity',
      '/WebServices',
      '/webservices',
      '/docs',
      '/metrics',
      '/assets/apps',
      '/healthz',
      '/readyz',
      '//api/v1/rest',
      '/api/v1/rest/..',
    ),
    fc.array(urlComponent(anyText), { maxLength: 4 }),
    fc.option(queryString({}, true), { freq: 2, nil: undefined }),
  )
  .map(([prefix, segments, query]) => `${prefix}/${segments.join('/')}${query === undefined ? '' : `?${query}`}`);
