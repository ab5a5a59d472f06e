// An activity event as the service keeps it (spec "Activity event"): what sessions/record.ts
// stores and turns into watch sessions. Reading one from a request body is the activity
// group's business (src/activity/event.ts); the domain only knows the parsed value.

export const SOURCES = [
  'roku_app',
  'fire_tv',
  'android_tv',
  'apple_tv',
  'mobile_app_on_ios',
  'mobile_app_on_android',
  'custom_app_on_ios',
  'custom_app_on_android',
  'website_embedded_player',
  'broadcast_on_service_dot_com',
] as const;
export type Source = (typeof SOURCES)[number];

/** What the service does with an event: heartbeats feed sessions, the rest is only stored. */
export type EventKind = 'heartbeat' | 'login' | 'logout' | 'legacy';

export interface ActivityEvent {
  source: Source;
  action: string;
  kind: EventKind;
  /** Canonical decimal digits (7, "7" and "007" are the same client). */
  clientId: string | null;
  userId: string | null;
  channelId: number | null;
  /** As given (any JSON value); absent and null are both stored as SQL NULL. */
  payload: unknown;
}
