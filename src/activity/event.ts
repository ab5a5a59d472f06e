// The activity event body (spec "Activity event"): parsed and normalised here, with no I/O,
// so every rule about what a client may send is in one place and unit-tested.
// Field errors follow the Custom API's validation shape: { field: [message, ...] }.
import { SOURCES, type ActivityEvent, type EventKind, type Source } from '../sessions/event.ts';

export type FieldErrors = Record<string, string[]>;
export type ParsedEvent = { ok: true; event: ActivityEvent } | { ok: false; errors: FieldErrors };

const KNOWN_ACTIONS: Record<string, EventKind> = { play_channel: 'heartbeat', login: 'login', logout: 'logout' };
/** Other action names that look like an identifier are legacy: accepted, stored, not processed. */
const LEGACY_ACTION = /^[A-Za-z][A-Za-z0-9_.:-]{0,63}$/;
const MAX_USER_ID_LENGTH = 255;
/** channels.id is a PostgreSQL integer. */
const MAX_CHANNEL_ID = 2_147_483_647;
const MAX_CLIENT_ID_DIGITS = 18;

type Field<T> = { ok: true; value: T } | { ok: false; message: string };
const ok = <T>(value: T): Field<T> => ({ ok: true, value });
const fail = <T>(message: string): Field<T> => ({ ok: false, message });

/** Form fields send "" for an empty input: it means absent, as null does in JSON. */
const isAbsent = (value: unknown) => value === undefined || value === null || value === '';

export function parseActivityEvent(body: unknown): ParsedEvent {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { ok: false, errors: { body: ['The body must be a JSON object or a form.'] } };
  }
  const input = body as Record<string, unknown>;
  const errors: FieldErrors = {};
  const take = <T>(field: string, result: Field<T>): T | undefined => {
    if (result.ok) return result.value;
    errors[field] = [result.message];
    return undefined;
  };
  const source = take('source', parseSource(input.source));
  const action = take('action', parseAction(input.action));
  const kind = action === undefined ? undefined : (KNOWN_ACTIONS[action] ?? 'legacy');
  const clientId = take('client_id', parseClientId(input.client_id));
  const userId = take('user_id', parseUserId(input.user_id, kind === 'login' || kind === 'logout'));
  const channelId = take('channel_id', parseChannelId(input.channel_id, kind === 'heartbeat'));
  const payload = take('payload', parsePayload(input.payload));
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, event: { source: source!, action: action!, kind: kind!, clientId: clientId!, userId: userId!, channelId: channelId!, payload } };
}

function parseSource(value: unknown): Field<Source> {
  if (isAbsent(value)) return fail('The source field is required.');
  if (typeof value !== 'string') return fail('The source must be a string.');
  return (SOURCES as readonly string[]).includes(value) ? ok(value as Source) : fail('The selected source is invalid.');
}

function parseAction(value: unknown): Field<string> {
  if (isAbsent(value)) return fail('The action field is required.');
  if (typeof value !== 'string') return fail('The action must be a string.');
  return value in KNOWN_ACTIONS || LEGACY_ACTION.test(value) ? ok(value) : fail('The selected action is invalid.');
}

function parseClientId(value: unknown): Field<string | null> {
  if (isAbsent(value)) return ok(null);
  const digits = integerText(value, MAX_CLIENT_ID_DIGITS);
  return digits === undefined ? fail('The client id must be a non-negative integer.') : ok(digits);
}

function parseUserId(value: unknown, required: boolean): Field<string | null> {
  if (isAbsent(value)) return required ? fail('The user id field is required for login and logout.') : ok(null);
  // Some apps send a numeric viewer id; it is the same identifier as its decimal text.
  const text = typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : value;
  if (typeof text !== 'string') return fail('The user id must be a string.');
  if (!storableText(text)) return fail('The user id may not contain NUL characters or unpaired surrogates.');
  if (text.length > MAX_USER_ID_LENGTH) return fail(`The user id may not be greater than ${MAX_USER_ID_LENGTH} characters.`);
  return ok(text);
}

function parseChannelId(value: unknown, required: boolean): Field<number | null> {
  if (isAbsent(value)) return required ? fail('The channel id field is required for play_channel.') : ok(null);
  const digits = integerText(value, 10);
  const id = digits === undefined ? NaN : Number(digits);
  return id >= 1 && id <= MAX_CHANNEL_ID ? ok(id) : fail('The channel id must be a positive integer.');
}

/** PostgreSQL text and jsonb refuse NUL and unpaired surrogates; one such event would fail its whole batch. */
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const storableText = (text: string) => !UNSTORABLE.test(text);

/** Deeper payloads are refused: walking them (here and in PostgreSQL) would exhaust the stack. */
export const MAX_PAYLOAD_DEPTH = 32;

function storable(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return storableText(value);
  if (typeof value !== 'object' || value === null) return true;
  if (depth >= MAX_PAYLOAD_DEPTH) return false;
  if (Array.isArray(value)) return value.every((item) => storable(item, depth + 1));
  return Object.entries(value).every(([k, v]) => storableText(k) && storable(v, depth + 1));
}

function parsePayload(value: unknown): Field<unknown> {
  if (value === undefined || value === null) return ok(null);
  if (storable(value)) return ok(value);
  return fail(`The payload may not contain NUL characters or unpaired surrogates, nor nest deeper than ${MAX_PAYLOAD_DEPTH} levels.`);
}

/** A non-negative integer given as a JSON number or as decimal digits, in canonical form. */
function integerText(value: unknown, maxDigits: number): string | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? String(value) : undefined;
  if (typeof value !== 'string' || !/^\d+$/.test(value)) return undefined;
  const canonical = value.replace(/^0+(?=\d)/, '');
  return canonical.length <= maxDigits ? canonical : undefined;
}

/**
 * An application/x-www-form-urlencoded body as a flat record. A repeated key keeps its last
 * value, as JSON.parse does with a repeated JSON key, so both encodings read the same way.
 */
export function parseFormBody(text: string): Record<string, string> {
  const record: Record<string, string> = Object.create(null);
  for (const [key, value] of new URLSearchParams(text)) record[key] = value;
  return record;
}
