// Bearer token rows. Tokens are looked up by the SHA-256 of the GUID, never by the GUID.
import { and, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { Queryable } from '../db/connect.ts';
import { accounts, authTokens } from '../db/schema.ts';

export interface NewToken {
  tokenHash: string;
  accountId: number;
  /** The schema's token kinds (the vocabulary's). */
  kind: (typeof authTokens.$inferSelect)['kind'];
  createdAt: Date;
  expiresAt: Date | null;
  slidingSeconds: number | null;
}

export async function insertToken(db: Queryable, token: NewToken): Promise<void> {
  await db.insert(authTokens).values({ ...token, label: '', lastUsedAt: token.createdAt });
}

export async function findToken(db: Queryable, tokenHash: string) {
  const rows = await db
    .select({
      id: authTokens.id,
      accountId: authTokens.accountId,
      kind: authTokens.kind,
      expiresAt: authTokens.expiresAt,
      slidingSeconds: authTokens.slidingSeconds,
      lastUsedAt: authTokens.lastUsedAt,
      revokedAt: authTokens.revokedAt,
      account: {
        id: accounts.id,
        username: accounts.username,
        email: accounts.email,
        publicUrl: accounts.publicUrl,
        fullName: accounts.fullName,
        publicName: accounts.publicName,
        status: accounts.status,
      },
    })
    .from(authTokens)
    .innerJoin(accounts, eq(accounts.id, authTokens.accountId))
    .where(eq(authTokens.tokenHash, tokenHash))
    .limit(1);
  return rows[0];
}

/** Records a token's use (a sliding one's expiry pushed forward); the WHERE keeps a concurrent revoke in force. */
export async function touchToken(db: Queryable, id: number, now: Date, expiresAt: Date | null): Promise<void> {
  await db
    .update(authTokens)
    .set({ lastUsedAt: now, expiresAt })
    .where(and(eq(authTokens.id, id), isNull(authTokens.revokedAt)));
}

/** Revokes the token (only if of one of `kinds`); true when it was live (not already revoked or expired). */
/** Revokes the live token with this hash among `kinds`; answers what it revoked (undefined: nothing). */
export async function revokeToken(db: Queryable, tokenHash: string, now: Date, kinds: readonly NewToken['kind'][]): Promise<{ id: number; kind: NewToken['kind']; accountId: number } | undefined> {
  const rows = await db
    .update(authTokens)
    .set({ revokedAt: now })
    .where(
      and(
        eq(authTokens.tokenHash, tokenHash),
        inArray(authTokens.kind, [...kinds]),
        isNull(authTokens.revokedAt),
        or(isNull(authTokens.expiresAt), sql`${authTokens.expiresAt} > ${now}`),
      ),
    )
    .returning({ id: authTokens.id, kind: authTokens.kind, accountId: authTokens.accountId });
  return rows[0];
}

/** Housekeeping: expired and revoked session tokens older than `before`. */
export async function deleteDeadSessionTokens(db: Queryable, before: Date): Promise<void> {
  await db
    .delete(authTokens)
    .where(and(eq(authTokens.kind, 'session'), or(lt(authTokens.expiresAt, before), lt(authTokens.revokedAt, before))));
}
