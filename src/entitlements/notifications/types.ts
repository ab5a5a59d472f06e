// What the stores' inbound notifications share: what a verified one becomes (an inbox entry),
// and how an unverifiable one is refused. Each store's module verifies the way its store
// documents before anything in the body is read or trusted.
import type { App } from '../../data/apps.ts';
import type { StoreCredentials, StorePlatform } from '../stores/types.ts';

/** A notification whose authenticity is established, as the inbox keeps it. */
export interface VerifiedNotification {
  notificationId: string;
  /** The store's type (with subtype after a slash). */
  type: string;
  /** The store's own date of the event (signedDate, eventTimeMillis...). */
  eventAt: Date;
  /** What the store said, decoded, without secrets. */
  payload: Record<string, unknown>;
}

/** The refusal codes of the stores group (docs/entitlements.md: Store notifications). */
export const NOTIFICATION_REFUSALS = {
  malformed: 400,
  wrong_app: 400,
  not_configured: 404,
  unauthenticated: 401,
  invalid_signature: 401,
  not_confirmed: 401,
  forbidden_source: 403,
} as const;
export type NotificationRefusalCode = keyof typeof NOTIFICATION_REFUSALS;

export interface NotificationRefusal {
  refused: NotificationRefusalCode;
  /** Says what failed, never what the body held. */
  reason: string;
}

/** What verifying a request gives: entries for the inbox (none for a store's handshake) and the answer the store expects. */
export interface Received {
  notifications: VerifiedNotification[];
  /** A store-specific acknowledgement (Roku's echoed responseKey); absent: a plain 200. */
  reply?: { headers: Record<string, string>; text: string };
  /** Headers that carry a secret, added to `reply` only by the one answer that first records `mark`. */
  secret?: SecretAcknowledgement;
}

/** Roku's API key in its acknowledgement: sent once per event, whichever process answers. */
export interface SecretAcknowledgement {
  /** The inbox id of the mark that records the sending. */
  mark: string;
  type: string;
  eventAt: Date;
  headers: Record<string, string>;
  /** What the log line names (never the secret). */
  transactionId: string;
}

/** The request as the group hands it over: raw body text and the headers a store authenticates with. */
export interface InboundRequest {
  body: string;
  authorization: string | undefined;
  /** The client address, as TRUST_PROXY resolves it. */
  address: string;
  now: Date;
}

/** The app a notification URL names, and its credentials for that store. */
export interface NotifiedApp {
  app: App;
  store: StorePlatform;
  credentials: StoreCredentials;
}

export const refuse = (refused: NotificationRefusalCode, reason: string): NotificationRefusal => ({ refused, reason });
export const isRefusal = (value: unknown): value is NotificationRefusal => typeof value === 'object' && value !== null && 'refused' in value;

/** The body as a JSON object, or a refusal: notifications are untrusted until verified. */
export function jsonBody(text: string): { json: Record<string, unknown> } | NotificationRefusal {
  try {
    const value = JSON.parse(text) as unknown;
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return { json: value as Record<string, unknown> };
  } catch {
    // falls through to the refusal
  }
  return refuse('malformed', 'the body is not a JSON object');
}

/** A date from epoch milliseconds (number or numeric string) or ISO text; undefined if neither. */
export function eventDate(value: unknown): Date | undefined {
  const ms = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  const date = typeof ms === 'number' ? new Date(ms) : typeof ms === 'string' ? new Date(ms) : undefined;
  return date && !Number.isNaN(date.getTime()) && date.getTime() > 0 ? date : undefined;
}
