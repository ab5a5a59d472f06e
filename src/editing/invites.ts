// Onboarding (issue 36, item 8): an owner invites another owner with a one-time link, or, where
// the operator allows it (SIGNUP=open), anyone signs up. Either way the new account is an owner
// of its own with nothing of anyone else's, made under `channelnet owner create`'s rules.
//
// Decisions:
// - A token is 32 random bytes (base64url, 43 characters) shown once, in the create's answer;
//   only its SHA-256 is kept, like sign-in tokens. It lasts `expiresInDays` (default 7, at most
//   INVITE_MAX_DAYS). An owner holds at most MAX_OPEN_INVITES open invites.
// - Redeeming claims the invite in the transaction that creates the account (data/invites.ts), so
//   of two redemptions at once exactly one wins and a refused one changes nothing. An unknown,
//   used, expired or revoked token is refused (410 `invite_unusable`) saying which: whoever holds
//   the token already knows it was handed out, and a guess names nothing.
// - Failed redemptions and every sign-up count against the caller's address in the login
//   throttle's table (every instance shares it); past the limit, 429 with Retry-After, checked
//   before any password is hashed.
// - Audit: the inviter's log records the create (`invites/{id}`), the revoke (delete, revokedAt)
//   and the redemption (update, usedAt and usedBy, by the new account); a sign-up is recorded in
//   the new owner's own log (create, `account`).
// - SIGNUP=closed refuses creating and redeeming invites as well as sign-ups (only the CLI
//   makes owners); `invite` refuses sign-ups only.
import { createHash, randomBytes } from 'node:crypto';
import type { Database, Queryable } from '../db/connect.ts';
import { blockedUntil, recordFailure, type FailurePolicy } from '../data/login-throttles.ts';
import { insertOwnerIn } from '../data/owners.ts';
import { insertInvite, inviteByHash, openInviteCount, ownerInvite, ownerInvites, redeemInviteRow, revokeInviteRow, type InviteRow } from '../data/invites.ts';
import { insertAudit } from '../data/studio.ts';
import { checkNewOwner, isUniqueViolation, RACED, type OwnerInput } from '../catalog/owners.ts';
import { assertMatches, etagOf } from './etag.ts';
import { EditRefusal, invalid, notFound, ThrottledRefusal } from './refusals.ts';
import { write, type Editor, type Idempotency, type Written } from './write.ts';

/** Only the SHA-256 of a token is kept (of its exact text: base64url is case-sensitive, unlike the GUIDs of sign-ins). */
const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export type SignupMode = 'open' | 'invite' | 'closed';

export interface OnboardingPolicy {
  signup: SignupMode;
  /** The longest an invite may last, in days. */
  inviteMaxDays: number;
}

export const DEFAULT_INVITE_DAYS = 7;
export const MAX_OPEN_INVITES = 20;
/** Where the console redeems a token. */
export const invitePath = (token: string) => `/studio/invite/${token}`;

/** Failed redemptions from one address. */
export const INVITE_FAILURES: FailurePolicy = { maxFailures: 10, windowMs: 15 * 60_000, blockMs: 15 * 60_000 };
/** Sign-ups (made or refused) from one address. */
export const SIGNUP_ATTEMPTS: FailurePolicy = { maxFailures: 10, windowMs: 60 * 60_000, blockMs: 60 * 60_000 };

export function inviteResource(row: InviteRow, now: Date) {
  const status = row.usedAt ? 'used' : row.revokedAt ? 'revoked' : row.expiresAt.getTime() <= now.getTime() ? 'expired' : 'open';
  return {
    id: row.id,
    note: row.note,
    status,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    usedAt: row.usedAt?.toISOString() ?? null,
    usedBy: row.usedBy,
    revokedAt: row.revokedAt?.toISOString() ?? null,
  } as const;
}

export type InviteResource = ReturnType<typeof inviteResource>;
/** A created invite: in the first answer only, its token and the console's path that redeems it. */
export type CreatedInvite = InviteResource & { token?: string; path?: string };

const closed = () => new EditRefusal('signup_closed', 'New owners are made only by the operator here (SIGNUP=closed).');

export async function readInvites(db: Queryable, ownerId: number, now: Date) {
  const body = { items: (await ownerInvites(db, ownerId)).map((row) => inviteResource(row, now)) };
  return { body, etag: etagOf(body) };
}

async function existing(db: Queryable, ownerId: number, inviteId: number, now: Date): Promise<InviteResource> {
  const row = await ownerInvite(db, ownerId, inviteId);
  if (!row) throw notFound('Invite');
  return inviteResource(row, now);
}

export async function readInvite(db: Queryable, ownerId: number, inviteId: number, now: Date) {
  const body = await existing(db, ownerId, inviteId, now);
  return { body, etag: etagOf(body) };
}

export async function createInvite(
  db: Database,
  editor: Editor,
  policy: OnboardingPolicy,
  input: { note?: string | undefined; expiresInDays?: number | undefined },
  idempotency?: Idempotency,
): Promise<Written<CreatedInvite>> {
  if (policy.signup === 'closed') throw closed();
  const days = input.expiresInDays ?? Math.min(DEFAULT_INVITE_DAYS, policy.inviteMaxDays);
  if (days > policy.inviteMaxDays) throw invalid([`expiresInDays: must be at most ${policy.inviteMaxDays} (INVITE_MAX_DAYS)`]);
  let token: string | undefined;
  const written = await write<InviteResource>(
    db,
    editor,
    async (tx) => {
      if ((await openInviteCount(tx, editor.ownerId, editor.now)) >= MAX_OPEN_INVITES) {
        throw invalid([`(root): at most ${MAX_OPEN_INVITES} open invites; revoke one, or wait until one is used or expires`]);
      }
      token = randomBytes(32).toString('base64url');
      const expiresAt = new Date(editor.now.getTime() + days * 86_400_000);
      const id = await insertInvite(tx, { ownerId: editor.ownerId, tokenHash: hashToken(token), note: input.note ?? '', createdAt: editor.now, expiresAt });
      const created = await existing(tx, editor.ownerId, id, editor.now);
      return {
        written: { status: 201, body: created, etag: etagOf(created) },
        changes: [{ action: 'create', resource: `invites/${id}`, fields: ['expiresAt', 'note'] }],
        moved: [],
      };
    },
    idempotency,
  );
  // As app tokens: only the request that made the token shows it (a replay has none stored).
  return token === undefined ? written : { ...written, body: { ...written.body, token, path: invitePath(token) } };
}

export async function revokeInvite(db: Database, editor: Editor, inviteId: number, ifMatch: string | undefined): Promise<Written<null>> {
  return write(db, editor, async (tx) => {
    const invite = await existing(tx, editor.ownerId, inviteId, editor.now);
    assertMatches(ifMatch, invite);
    // Used or revoked already: nothing to revoke, nothing to audit.
    if (invite.status === 'used' || invite.status === 'revoked') return { written: { status: 204, body: null }, changes: [] };
    await revokeInviteRow(tx, editor.ownerId, inviteId, editor.now);
    return { written: { status: 204, body: null }, changes: [{ action: 'delete', resource: `invites/${inviteId}`, fields: ['revokedAt'] }], moved: [] };
  });
}

/** Who asks to become an owner, from where and when. */
export interface Newcomer {
  address: string;
  now: Date;
}

async function assertNotThrottled(db: Queryable, key: string, now: Date): Promise<void> {
  const until = await blockedUntil(db, [key]);
  if (until && until.getTime() > now.getTime()) {
    throw new ThrottledRefusal('Too many attempts from this address; try again later.', Math.ceil((until.getTime() - now.getTime()) / 1000));
  }
}

const UNUSABLE = {
  unknown: 'This invite link is not valid. Check that it was copied whole, or ask for a new one.',
  used: 'This invite link was already used. Ask the owner who sent it for a new one.',
  expired: 'This invite link has expired. Ask the owner who sent it for a new one.',
  revoked: 'This invite link was withdrawn by the owner who sent it.',
} as const;

async function unusable(db: Queryable, tokenHash: string, now: Date): Promise<EditRefusal> {
  const row = await inviteByHash(db, tokenHash);
  const status = row ? inviteResource(row, now).status : 'unknown';
  return new EditRefusal('invite_unusable', UNUSABLE[status === 'open' ? 'used' : status]);
}

/**
 * Owner create's refusals, less which account holds a taken name: `owner create` is the
 * operator's, these are anyone's, who learn that a name or email is taken (as any sign-up tells)
 * but not whose.
 */
const ownerRefusal = (errors: readonly string[]) => invalid(errors.map((line) => line.replace(/ already used by account \d+$/, ' is already taken')));

/** Redeems an invite: the new owner's account id, or a refusal (nothing changed). */
export async function redeemInvite(db: Database, policy: OnboardingPolicy, token: string, input: OwnerInput, who: Newcomer): Promise<{ id: number }> {
  if (policy.signup === 'closed') throw closed();
  const key = `invite:address:${who.address}`;
  await assertNotThrottled(db, key, who.now);
  const tokenHash = hashToken(token);
  const invite = await inviteByHash(db, tokenHash);
  if (!invite || inviteResource(invite, who.now).status !== 'open') {
    await recordFailure(db, key, who.now, INVITE_FAILURES);
    throw await unusable(db, tokenHash, who.now);
  }
  // Only then the account's fields (and the password's hash): a bad token costs no scrypt.
  const checked = await checkNewOwner(db, input, who.now);
  if (!checked.ok) throw ownerRefusal(checked.errors);
  let redeemed;
  try {
    redeemed = await redeemInviteRow(db, tokenHash, checked.owner, who.address);
  } catch (error) {
    if (isUniqueViolation(error)) throw ownerRefusal([RACED]);
    throw error;
  }
  // Used or revoked meanwhile (another redemption won).
  if (!redeemed.ok) throw await unusable(db, tokenHash, who.now);
  return { id: redeemed.accountId };
}

/** Signs up a new owner where SIGNUP=open; each attempt counts against the address. */
export async function signUp(db: Database, policy: OnboardingPolicy, input: OwnerInput, who: Newcomer): Promise<{ id: number }> {
  if (policy.signup !== 'open') {
    throw new EditRefusal('signup_closed', policy.signup === 'invite' ? 'Sign-up is by invitation here: ask an owner for an invite link.' : closed().message);
  }
  const key = `signup:address:${who.address}`;
  await assertNotThrottled(db, key, who.now);
  await recordFailure(db, key, who.now, SIGNUP_ATTEMPTS);
  const checked = await checkNewOwner(db, input, who.now);
  if (!checked.ok) throw ownerRefusal(checked.errors);
  try {
    const id = await db.transaction(async (tx) => {
      const created = await insertOwnerIn(tx, checked.owner);
      await insertAudit(tx, [{ ownerId: created, actorId: created, at: who.now, action: 'create', resource: 'account', fields: ['email', 'username'], address: who.address }]);
      return created;
    });
    return { id };
  } catch (error) {
    if (isUniqueViolation(error)) throw ownerRefusal([RACED]);
    throw error;
  }
}
