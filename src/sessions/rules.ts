// Watch-session rules of the spec ("States and transitions", "Limits"), as pure functions.
// The database applies the same rules in SQL (data/activity.ts), which declares their two
// numbers and the session key: src/data imports only src/db, so the rules take them from there.
import { MIN_CREDITED_SECONDS, SESSION_GAP_SECONDS, type Heartbeat, type SessionKey } from '../data/activity.ts';

export { MIN_CREDITED_SECONDS, SESSION_GAP_SECONDS, type Heartbeat, type SessionKey };

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
