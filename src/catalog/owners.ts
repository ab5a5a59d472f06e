// Owner accounts made without a catalog file (`channelnet owner create`), so a fresh
// installation can be run from the Studio alone. The fields are checked by the catalog's own
// field rules and worded as import errors (`email: bad email "x"`); nothing is created on refusal.
import { z } from 'zod';
import { email, nonEmpty } from './fields.ts';
import { chosenId } from './ids.ts';
import { formatIssues, issueMessage } from './issues.ts';
import type { Database, Queryable } from '../db/connect.ts';
import { accountKeysTaken, insertOwner, type NewOwner } from '../data/owners.ts';
import { hashPassword } from '../access/passwords.ts';

export const MIN_OWNER_PASSWORD = 8;

const ownerSchema = z.strictObject({
  // A legacy system's public id; left out, the accounts sequence assigns one (src/catalog/ids.ts).
  id: chosenId.optional(),
  username: nonEmpty,
  email,
  password: z.string().min(MIN_OWNER_PASSWORD, { error: `must be at least ${MIN_OWNER_PASSWORD} characters` }),
  publicUrl: z
    .string()
    .regex(/^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/, { error: 'must be 1-64 of a-z, 0-9 and -, not starting or ending with -' })
    .optional(),
  fullName: z.string().nullable().default(null),
  publicName: z.string().nullable().default(null),
});
export type OwnerInput = z.input<typeof ownerSchema>;

export type CreateOwnerResult = { ok: true; id: number } | { ok: false; errors: string[] };

/** The account slug of a username: lower-case letters, digits and single dashes. */
export function slugOf(username: string): string {
  const slug = username
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64)
    .replace(/-+$/, '');
  return slug === '' ? 'owner' : slug;
}

export async function createOwner(db: Database, input: OwnerInput, now: Date): Promise<CreateOwnerResult> {
  const checked = await checkNewOwner(db, input, now);
  if (!checked.ok) return checked;
  try {
    const created = await insertOwner(db, checked.owner);
    return { ok: true, id: created };
  } catch (error) {
    if (isUniqueViolation(error)) return { ok: false, errors: [RACED] };
    throw error;
  }
}

/** Lost a race with another create of the same username, email or publicUrl (the unique indexes said so). */
export const RACED = '(root): another account with this username, email or publicUrl was created meanwhile';

export const isUniqueViolation = (error: unknown): boolean => (error as { code?: unknown }).code === '23505' || (error as { cause?: { code?: unknown } }).cause?.code === '23505';

/**
 * The account `createOwner` would insert (its password hashed), or the refusals in the import's
 * words; an invite's redemption and a sign-up insert it their own way, under the same rules.
 */
export async function checkNewOwner(db: Queryable, input: OwnerInput, now: Date): Promise<{ ok: true; owner: NewOwner } | { ok: false; errors: string[] }> {
  const parsed = ownerSchema.safeParse(input, { error: issueMessage });
  if (!parsed.success) return { ok: false, errors: formatIssues(parsed.error.issues) };
  const owner = { ...parsed.data, id: parsed.data.id, publicUrl: parsed.data.publicUrl ?? slugOf(parsed.data.username) };
  const errors = (await accountKeysTaken(db, owner)).flatMap((other) => [
    ...(other.id === owner.id ? [`id: account id ${owner.id} is already in use`] : []),
    ...(other.username.toLowerCase() === owner.username.toLowerCase() ? [`username: username ${JSON.stringify(owner.username)} already used by account ${other.id}`] : []),
    ...(other.email.toLowerCase() === owner.email.toLowerCase() ? [`email: email ${JSON.stringify(owner.email)} already used by account ${other.id}`] : []),
    ...(other.public_url.toLowerCase() === owner.publicUrl.toLowerCase() ? [`publicUrl: publicUrl ${JSON.stringify(owner.publicUrl)} already used by account ${other.id}`] : []),
  ]);
  if (errors.length > 0) return { ok: false, errors };
  const passwordHash = await hashPassword(owner.password);
  const { password: _password, ...rest } = owner;
  return { ok: true, owner: { ...rest, id: owner.id, passwordHash, createdAt: now } };
}
