// Queries behind the Studio's account-level resources: the owner's app tokens (kept as hashes),
// the branding row and its logos. Reference data (categories, languages) is written through
// the catalog import's writers and read through the export.
import { and, asc, desc, eq, inArray, isNotNull, isNull } from 'drizzle-orm';
import { blobsAsBase64, insertBlobs, type BlobText } from './blobs.ts';
import type { Queryable } from '../db/connect.ts';
import * as t from '../db/schema.ts';

export type BrandingRowValues = typeof t.brandings.$inferInsert;
export type BlobRowValues = typeof t.blobs.$inferInsert;

const appTokenColumns = { id: t.authTokens.id, label: t.authTokens.label, createdAt: t.authTokens.createdAt, lastUsedAt: t.authTokens.lastUsedAt, revokedAt: t.authTokens.revokedAt };

export type AppTokenRow = { id: number; label: string; createdAt: Date; lastUsedAt: Date | null; revokedAt: Date | null };

/** Revoked app tokens listed beside the live ones, newest revocation first: a list that never grows with history. */
export const LISTED_REVOKED_APP_TOKENS = 50;

/** The account's app tokens that are not revoked, by id (the hash is never read here). */
const liveAppTokens = (accountId: number) =>
  and(eq(t.authTokens.accountId, accountId), eq(t.authTokens.kind, 'app'), isNull(t.authTokens.revokedAt));

/** The account's live app tokens by id, then the LISTED_REVOKED_APP_TOKENS revoked most recently. */
export async function ownerAppTokens(db: Queryable, accountId: number): Promise<AppTokenRow[]> {
  const live = await db.select(appTokenColumns).from(t.authTokens).where(liveAppTokens(accountId)).orderBy(asc(t.authTokens.id));
  const revoked = await db
    .select(appTokenColumns)
    .from(t.authTokens)
    .where(and(eq(t.authTokens.accountId, accountId), eq(t.authTokens.kind, 'app'), isNotNull(t.authTokens.revokedAt)))
    .orderBy(desc(t.authTokens.revokedAt), desc(t.authTokens.id))
    .limit(LISTED_REVOKED_APP_TOKENS);
  return [...live, ...revoked];
}

/** One of the account's app tokens, live or revoked. */
export async function ownerAppToken(db: Queryable, accountId: number, tokenId: number): Promise<AppTokenRow | undefined> {
  const [row] = await db
    .select(appTokenColumns)
    .from(t.authTokens)
    .where(and(eq(t.authTokens.accountId, accountId), eq(t.authTokens.kind, 'app'), eq(t.authTokens.id, tokenId)));
  return row;
}

/** Stores a new app token by its hash; app tokens never expire (until revoked). Answers its id. */
export async function insertAppToken(tx: Queryable, token: { tokenHash: string; accountId: number; label: string; createdAt: Date }): Promise<number> {
  const [row] = await tx
    .insert(t.authTokens)
    .values({ ...token, kind: 'app', expiresAt: null, slidingSeconds: null, lastUsedAt: null })
    .returning({ id: t.authTokens.id });
  return row!.id;
}

export async function revokeAppToken(tx: Queryable, accountId: number, tokenId: number, now: Date): Promise<void> {
  await tx.update(t.authTokens).set({ revokedAt: now }).where(and(liveAppTokens(accountId), eq(t.authTokens.id, tokenId)));
}

/** The logos of the account's branding (each blob once), as base64. */
export async function brandingBlobs(db: Queryable, accountId: number): Promise<BlobText[]> {
  const [row] = await db.select({ header: t.brandings.logoHeaderBlob, android: t.brandings.logoAndroidBlob }).from(t.brandings).where(eq(t.brandings.accountId, accountId));
  const keys = [row?.header, row?.android].filter((k): k is string => typeof k === 'string');
  return blobsAsBase64(db, [...new Set(keys)]);
}

/** Replaces the account's branding (null: none), storing its logos first. */
export async function replaceBranding(tx: Queryable, accountId: number, branding: BrandingRowValues | null, blobs: readonly BlobRowValues[]): Promise<void> {
  await insertBlobs(tx, blobs);
  await tx.delete(t.brandings).where(eq(t.brandings.accountId, accountId));
  if (branding) await tx.insert(t.brandings).values({ ...branding, accountId });
}
