// Bearer tokens shared by the REST and Custom Services APIs: GUIDs handed out once and
// kept only as hashes. REST logins get a sliding lifetime; Custom logins a fixed one
// (expires_in 3600); app tokens from generated TV archives never expire but can be revoked.
// Each token has a scope and each route group declares the scopes it accepts: an app token is
// public (it ships inside every copy of a TV app), so it only reaches what those apps call.
// A token works only while its account is active: the check reads the status in the same query.
import { randomUUID } from 'node:crypto';
import type { Database, Queryable } from '../db/connect.ts';
import { bumpSliceVersions } from '../data/owner-slice.ts';
import { insertAudit } from '../data/studio.ts';
import { findToken, insertToken, revokeToken, touchToken } from '../data/tokens.ts';
import { notifyRevokedTokens } from '../cache/changes.ts';
import { forgetTokensLocally, type BearerCache } from './bearer-cache.ts';
import { hashToken } from './token-hash.ts';

export const REST_TOKEN_SLIDING_SECONDS = 30 * 24 * 3600;
export const CUSTOM_TOKEN_SECONDS = 3600;
/** Refreshing a sliding expiry on every request would write on every read; once a minute is enough. */
const TOUCH_INTERVAL_MS = 60_000;

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `account`: a password login, acting as the account. `app`: a TV archive token (catalog reads, logout). */
export type TokenScope = 'account' | 'app';
const SCOPE_OF_KIND = { session: 'account', app: 'app' } as const satisfies Record<string, TokenScope>;
/** Route groups for password logins only (analytics, account management): the default for a new group. */
export const ACCOUNT_ONLY: readonly TokenScope[] = ['account'];
/** Route groups that shipped TV apps call with their archive token. */
export const ACCOUNT_OR_APP: readonly TokenScope[] = ['account', 'app'];

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

/** The caller a token names, with the scope it was accepted in (an app token is public: see TokenScope). */
export type Authenticated = NonNullable<Awaited<ReturnType<typeof findToken>>>['account'] & { scope: TokenScope };

/**
 * The account a live token of an accepted scope belongs to, or undefined (unknown, revoked,
 * expired, another scope, or the account is locked or not activated).
 */
export async function authenticate(db: Queryable, token: string, now: Date, accepts: readonly TokenScope[], bearers?: BearerCache): Promise<Authenticated | undefined> {
  const hash = hashToken(token);
  const row = await tokenRow(db, hash, bearers);
  const verdict = row && verdictOf(row, now, accepts);
  if (!verdict) return undefined;
  if (verdict.touch) {
    const expiresAt = row.slidingSeconds === null ? row.expiresAt : new Date(now.getTime() + row.slidingSeconds * 1000);
    // The kept row moves with it (the next touch a minute later, the expiry pushed).
    row.lastUsedAt = now;
    row.expiresAt = expiresAt;
    await touchToken(db, row.id, now, expiresAt);
  }
  return verdict.account;
}

/**
 * authenticate's answer from the kept token row alone, with no promise (every signed-in read
 * asks, and most are answered from memory: the per-request floor, issue 35): the account, null
 * when refused, undefined when only authenticate can say (the row is not kept, or its use is due
 * to be recorded).
 */
export function authenticateKept(token: string, now: Date, accepts: readonly TokenScope[], bearers: BearerCache | undefined): Authenticated | null | undefined {
  const kept = bearers?.get(hashToken(token)) as TokenRow | null | undefined;
  if (kept === undefined) return undefined;
  const verdict = kept && verdictOf(kept, now, accepts);
  if (!verdict) return null;
  return verdict.touch ? undefined : verdict.account;
}

/** Whether a token's row lets it in now, as whom, and whether its use is due to be recorded. */
function verdictOf(row: TokenRow, now: Date, accepts: readonly TokenScope[]): { account: Authenticated; touch: boolean } | undefined {
  if (row.revokedAt !== null || row.account.status !== 'active') return undefined;
  if (!accepts.includes(SCOPE_OF_KIND[row.kind])) return undefined;
  if (row.expiresAt !== null && row.expiresAt.getTime() <= now.getTime()) return undefined;
  // A sliding token's use pushes its expiry; an app token's use is recorded (the Studio lists it).
  const touched = row.slidingSeconds !== null || row.kind === 'app';
  return { account: { ...row.account, scope: SCOPE_OF_KIND[row.kind] }, touch: touched && now.getTime() - (row.lastUsedAt?.getTime() ?? 0) >= TOUCH_INTERVAL_MS };
}

type TokenRow = NonNullable<Awaited<ReturnType<typeof findToken>>>;

/** The token's row, kept in `bearers` when given (undefined: no such token). */
async function tokenRow(db: Queryable, hash: string, bearers: BearerCache | undefined): Promise<TokenRow | undefined> {
  const kept = bearers?.get(hash);
  if (kept !== undefined) return (kept as TokenRow | null) ?? undefined;
  const version = bearers?.version ?? 0;
  const row = await findToken(db, hash);
  bearers?.keep(hash, row, version);
  return row;
}

/**
 * Logout: revokes a login or app token (the spec: logout also revokes archive app tokens). An app
 * token ships inside every copy of a TV app, so anyone holding one may revoke it: that is recorded
 * in the owner's audit with the caller's address, and the owner's export (which lists live app
 * tokens) takes a new version, in the same transaction.
 */
export async function revoke(db: Database, token: string, now: Date, address: string | undefined): Promise<boolean> {
  const hash = hashToken(token);
  return db
    .transaction(async (tx) => {
      const revoked = await revokeToken(tx, hash, now, ['session', 'app']);
      if (revoked) await notifyRevokedTokens(tx, [hash]);
      if (revoked?.kind === 'app') {
        const ownerId = revoked.accountId;
        await bumpSliceVersions(tx, [ownerId]);
        await insertAudit(tx, [{ ownerId, actorId: ownerId, at: now, action: 'delete', resource: `app-tokens/${revoked.id}`, fields: ['revokedAt'], address: address ?? null }]);
      }
      return revoked !== undefined;
    })
    .finally(() => forgetTokensLocally([hash]));
}

/** Refresh: revokes a login token only, so an app token cannot be refreshed away. */
export async function revokeForRefresh(db: Queryable, token: string, now: Date): Promise<boolean> {
  const hash = hashToken(token);
  const revoked = await revokeToken(db, hash, now, ['session']);
  if (revoked) await notifyRevokedTokens(db, [hash]);
  forgetTokensLocally([hash]);
  return revoked !== undefined;
}
