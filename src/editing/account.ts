// Account-level Studio resources: the owner's app tokens, the owner's branding, and the
// reference data every owner's channels and videos name (categories, languages).
//
// Decisions:
// - App tokens: a new token is a GUID shown once, in the answer of its create; the service keeps
//   only its hash. A retried create (same Idempotency-Key) answers the first answer without the
//   token, since no copy of it is kept in clear: the client revokes that token and makes another.
//   Reads list live tokens only (revoked ones left out) and never the token or its hash; a
//   revoked, another owner's or a sign-in token's id is 404. Revoking sets revokedAt (the row
//   stays), so the token stops authenticating at once: tokens are checked in the database on
//   every request.
// - Branding: the catalog account's `branding` object (logos as base64 PNG/JPEG), checked by
//   the import's rules on the owner's account entry and written alone: the account's app tokens
//   and favorites, which an import of the entry would replace, are left as they are. No branding
//   reads as null; DELETE clears it (nothing to clear: 204 as well).
// - Categories and languages are shared by every owner: all are listed, an owner may add a few
//   (an id given or assigned; see reference-data.ts for the allowance and the name rule), and
//   none can be changed or deleted through the Studio, since other owners' channels and videos
//   may name them. A new one is named by no channel yet, so no cached answer changes.
import { randomUUID } from 'node:crypto';
import type { Database, Queryable } from '../db/connect.ts';
import { brandingBlobs, insertAppToken, ownerAppToken, ownerAppTokens, replaceBranding, revokeAppToken, type AppTokenRow } from '../data/studio-account.ts';
import { claimNewRows } from '../data/studio-slice.ts';
import type { IdTable } from '../data/ids.ts';
import { hashToken } from '../access/token-hash.ts';
import { BlobReader, exportAccounts, exportCategories, exportLanguages } from '../catalog/export.ts';
import { catalogToRows } from '../catalog/to-rows.ts';
import { assertMatches, etagOf } from './etag.ts';
import { withIds, type Body } from './entities.ts';
import { asAddedBy, assertMayAdd } from './reference-data.ts';
import { notFound } from './refusals.ts';
import { validateSlice } from './validate.ts';
import { changedFields, write, type Editor, type Idempotency, type Written } from './write.ts';

/** A resource as read: what is answered and its entity tag. */
export interface Versioned<T> {
  body: T;
  etag: string;
}

const versioned = <T>(body: T): Versioned<T> => ({ body, etag: etagOf(body) });

// ---------------------------------------------------------------- app tokens

export function appTokenResource(row: AppTokenRow) {
  return {
    id: row.id,
    label: row.label,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt === null ? null : row.lastUsedAt.toISOString(),
    revokedAt: row.revokedAt === null ? null : row.revokedAt.toISOString(),
  };
}

export type AppTokenResource = ReturnType<typeof appTokenResource>;
/** A created token: the resource and, in the first answer only, the token itself. */
export type CreatedAppToken = AppTokenResource & { token?: string };

export async function readAppTokens(db: Queryable, ownerId: number): Promise<Versioned<{ items: AppTokenResource[] }>> {
  return versioned({ items: (await ownerAppTokens(db, ownerId)).map(appTokenResource) });
}

async function existingToken(db: Queryable, ownerId: number, tokenId: number): Promise<AppTokenResource> {
  const row = await ownerAppToken(db, ownerId, tokenId);
  if (!row) throw notFound('App token');
  return appTokenResource(row);
}

export async function readAppToken(db: Queryable, ownerId: number, tokenId: number): Promise<Versioned<AppTokenResource>> {
  return versioned(await existingToken(db, ownerId, tokenId));
}

export async function createAppToken(db: Database, editor: Editor, label: string, idempotency?: Idempotency): Promise<Written<CreatedAppToken>> {
  let token: string | undefined;
  const written = await write<AppTokenResource>(
    db,
    editor,
    async (tx) => {
      token = randomUUID();
      const id = await insertAppToken(tx, { tokenHash: hashToken(token), accountId: editor.ownerId, label, createdAt: editor.now });
      const created = await existingToken(tx, editor.ownerId, id);
      return {
        written: { status: 201, body: created, etag: etagOf(created) },
        changes: [{ action: 'create', resource: `app-tokens/${id}`, fields: ['label'] }],
      };
    },
    idempotency,
  );
  // Only the request that made the token shows it; a replayed answer never had it stored.
  return token === undefined ? written : { ...written, body: { ...written.body, token } };
}

export async function revokeToken(db: Database, editor: Editor, tokenId: number, ifMatch: string | undefined): Promise<Written<null>> {
  return write(db, editor, async (tx) => {
    const token = await existingToken(tx, editor.ownerId, tokenId);
    assertMatches(ifMatch, token);
    // Revoked already (by the owner, or by whoever held it): nothing to do, nothing to audit.
    if (token.revokedAt !== null) return { written: { status: 204, body: null }, changes: [] };
    await revokeAppToken(tx, editor.ownerId, tokenId, editor.now);
    return { written: { status: 204, body: null }, changes: [{ action: 'delete', resource: `app-tokens/${tokenId}`, fields: ['revokedAt'] }] };
  });
}

// ---------------------------------------------------------------- branding

type AccountEntry = Awaited<ReturnType<typeof exportAccounts>>[number];
export type BrandingResource = NonNullable<AccountEntry['branding']> | null;

async function accountEntry(db: Queryable, ownerId: number): Promise<AccountEntry> {
  const blobs = BlobReader.of(await brandingBlobs(db, ownerId));
  const [entry] = await exportAccounts(db, blobs, { ownerId });
  if (!entry) throw notFound('Account');
  return entry;
}

export async function readBranding(db: Queryable, ownerId: number): Promise<Versioned<BrandingResource>> {
  return versioned((await accountEntry(db, ownerId)).branding ?? null);
}

/** Replaces the branding (created: 201, replaced: 200) or clears it (null). */
async function replace(db: Database, editor: Editor, branding: Body | null, ifMatch: string | undefined): Promise<Written<BrandingResource>> {
  return write(db, editor, async (tx) => {
    const account = await accountEntry(tx, editor.ownerId);
    const before = account.branding ?? null;
    assertMatches(ifMatch, before);
    // The entry checked alone: its tokens and favorites are neither checked nor written here.
    const entry = { ...account, branding, appTokens: [], favorites: [] };
    const catalog = await validateSlice(tx, editor.ownerId, { accounts: [entry as never] }, 'accounts[0].branding');
    const rows = await catalogToRows(catalog, editor.now);
    await replaceBranding(tx, editor.ownerId, rows.brandings[0] ?? null, rows.blobs);
    const after = (await accountEntry(tx, editor.ownerId)).branding ?? null;
    const fields = before === null || after === null ? Object.keys(after ?? before ?? {}).sort() : changedFields(before, after);
    const action = before === null ? 'create' : after === null ? 'delete' : 'update';
    return {
      written: branding === null ? { status: 204, body: null } : { status: before === null ? 201 : 200, body: after, etag: etagOf(after) },
      changes: before === null && after === null ? [] : fields.length === 0 ? [] : [{ action, resource: 'branding', fields }],
    };
  });
}

export const putBranding = (db: Database, editor: Editor, branding: Body, ifMatch: string | undefined) => replace(db, editor, branding, ifMatch);
export const clearBranding = (db: Database, editor: Editor, ifMatch: string | undefined) => replace(db, editor, null, ifMatch) as Promise<Written<null>>;

// ---------------------------------------------------------------- categories and languages

export type CategoryResource = Awaited<ReturnType<typeof exportCategories>>[number];
export type LanguageResource = Awaited<ReturnType<typeof exportLanguages>>[number];

export async function readCategories(db: Queryable): Promise<Versioned<{ items: CategoryResource[] }>> {
  return versioned({ items: await exportCategories(db) });
}

export async function readLanguages(db: Queryable): Promise<Versioned<{ items: LanguageResource[] }>> {
  return versioned({ items: await exportLanguages(db) });
}

/** Creates one category or language (the catalog's entry; id assigned when left out). */
async function createReference<K extends ('categories' & IdTable) | ('languages' & IdTable)>(db: Database, editor: Editor, list: K, body: Body, idempotency?: Idempotency) {
  return write(
    db,
    editor,
    async (tx) => {
      const [entry] = await withIds(tx, list, [body]);
      const catalog = await validateSlice(tx, editor.ownerId, { [list]: [entry] }, `${list}[0]`);
      const created = catalog[list][0]!;
      await assertMayAdd(tx, editor.ownerId, list, [created], () => '');
      // Claimed with a plain insert: an id another owner's write took since the check fails (409)
      // rather than being overwritten (reference data is shared, so any owner may race for an id).
      const rows = asAddedBy(await catalogToRows(catalog, editor.now), editor.ownerId);
      await claimNewRows(tx, { categories: rows.categories, languages: rows.languages, videos: [], channels: [], apps: [] });
      return {
        written: { status: 201, body: created, etag: etagOf(created) },
        changes: [
          {
            action: 'create' as const,
            resource: `${list}/${created.id}`,
            fields: Object.keys(created)
              .filter((k) => k !== 'id')
              .sort(),
          },
        ],
      };
    },
    idempotency,
  );
}

export const createCategory = (db: Database, editor: Editor, body: Body, idempotency?: Idempotency) =>
  createReference(db, editor, 'categories', body, idempotency) as Promise<Written<CategoryResource>>;
export const createLanguage = (db: Database, editor: Editor, body: Body, idempotency?: Idempotency) =>
  createReference(db, editor, 'languages', body, idempotency) as Promise<Written<LanguageResource>>;
