// Watch-session rules of the spec ("States and transitions", "Limits"), as pure functions.
// The database applies the same rules in SQL (data/activity.ts) with these constants.

/** A heartbeat more than this after the previous one closes the session. Exactly this extends it. */
export const SESSION_GAP_SECONDS = 180;
/** A closed session is credited at least this long. */
export const MIN_CREDITED_SECONDS = 60;

/** The spec's session key; absent client_id and user_id are '' so that the key is never null. */
export interface SessionKey {
  source: string;
  clientId: string;
  userId: string;
  channelId: number;
}

export interface Heartbeat extends SessionKey {
  ownerId: number;
  at: Date;
}

/** Credited duration of a closed session: its length in whole seconds, at least 60. */
export function creditedSeconds(startedAt: Date, lastHeartbeatAt: Date): number {
  return Math.max(MIN_CREDITED_SECONDS, Math.floor((lastHeartbeatAt.getTime() - startedAt.getTime()) / 1000));
}

/** Open means: last heartbeat at most 3 minutes before `now`, whatever the row's flag says. */
export function isOpenAt(lastHeartbeatAt: Date, now: Date): boolean {
  return now.getTime() - lastHeartbeatAt.getTime() <= SESSION_GAP_SECONDS * 1000;
}

export function keyText(key: SessionKey): string {
  return JSON.stringify([key.source, key.clientId, key.userId, key.channelId]);
}

/**
 * Splits heartbeats into rounds that each hold at most one heartbeat per key: one SQL upsert
 * cannot touch a row twice. Round i holds the i-th heartbeat of every key in time order, and
 * every round lists its keys in one fixed order, so concurrent writers lock rows in the same
 * order and do not deadlock.
 */
export function heartbeatRounds(heartbeats: readonly Heartbeat[]): Heartbeat[][] {
  const byKey = new Map<string, Heartbeat[]>();
  for (const heartbeat of heartbeats) {
    const text = keyText(heartbeat);
    const list = byKey.get(text);
    if (list) list.push(heartbeat);
    else byKey.set(text, [heartbeat]);
  }
  // Any fixed total order will do; the key text is one.
  const keys = [...byKey.keys()].sort();
  const rounds: Heartbeat[][] = [];
  for (const key of keys) {
    const list = byKey.get(key)!;
    list.sort((a, b) => a.at.getTime() - b.at.getTime());
    list.forEach((heartbeat, i) => (rounds[i] ??= []).push(heartbeat));
  }
  return rounds;
}
