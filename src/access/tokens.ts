// Bearer tokens shared by the REST and Custom Services APIs: GUIDs handed out once and
// kept only as hashes. REST logins get a sliding lifetime; Custom logins a fixed one
// (expires_in 3600); app tokens from generated TV archives never expire but can be revoked.
import { randomUUID } from 'node:crypto';
import type { Queryable } from '../db/connect.ts';
import { findToken, insertToken, revokeToken, touchToken } from '../data/tokens.ts';
import { hashToken } from './token-hash.ts';

export const REST_TOKEN_SLIDING_SECONDS = 30 * 24 * 3600;
export const CUSTOM_TOKEN_SECONDS = 3600;
/** Refreshing a sliding expiry on every request would write on every read; once a minute is enough. */
const TOUCH_INTERVAL_MS = 60_000;

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type TokenLifetime = { kind: 'sliding'; seconds: number } | { kind: 'fixed'; seconds: number };

export async function issueToken(db: Queryable, accountId: number, lifetime: TokenLifetime, now: Date): Promise<string> {
  const token = randomUUID();
  await insertToken(db, {
    tokenHash: hashToken(token),
    accountId,
    kind: 'session',
    createdAt: now,
    expiresAt: new Date(now.getTime() + lifetime.seconds * 1000),
    slidingSeconds: lifetime.kind === 'sliding' ? lifetime.seconds : null,
  });
  return token;
}

/** The token out of an `Authorization: Bearer <token>` header, when it is one. */
export function bearerToken(header: string | undefined): string | undefined {
  const match = header === undefined ? null : /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match && GUID.test(match[1]!) ? match[1] : undefined;
}

export type Authenticated = NonNullable<Awaited<ReturnType<typeof findToken>>>['account'];

/** The account a live token belongs to, or undefined (unknown, revoked or expired). */
export async function authenticate(db: Queryable, token: string, now: Date): Promise<Authenticated | undefined> {
  const row = await findToken(db, hashToken(token));
  if (!row || row.revokedAt !== null) return undefined;
  if (row.expiresAt !== null && row.expiresAt.getTime() <= now.getTime()) return undefined;
  if (row.slidingSeconds !== null && now.getTime() - (row.lastUsedAt?.getTime() ?? 0) >= TOUCH_INTERVAL_MS) {
    await touchToken(db, row.id, now, new Date(now.getTime() + row.slidingSeconds * 1000));
  }
  return row.account;
}

export async function revoke(db: Queryable, token: string, now: Date): Promise<boolean> {
  return revokeToken(db, hashToken(token), now);
}
