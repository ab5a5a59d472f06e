// Owner invites (src/editing/invites.ts): one owner's one-time links, kept by the token's hash.
// Redemption claims the invite with one conditional UPDATE inside the transaction that creates
// the account: two redemptions of one token at once meet on the row's lock, and the second finds
// it used (or free again, if the first rolled back).
import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Database, Queryable } from '../db/connect.ts';
import * as t from '../db/schema.ts';
import { insertOwnerIn, type NewOwner } from './owners.ts';
import { insertAudit } from './studio.ts';

export interface InviteRow {
  id: number;
  note: string;
  createdAt: Date;
  expiresAt: Date;
  usedAt: Date | null;
  usedBy: number | null;
  revokedAt: Date | null;
}

const columns = {
  id: t.ownerInvites.id,
  note: t.ownerInvites.note,
  createdAt: t.ownerInvites.createdAt,
  expiresAt: t.ownerInvites.expiresAt,
  usedAt: t.ownerInvites.usedAt,
  usedBy: t.ownerInvites.usedBy,
  revokedAt: t.ownerInvites.revokedAt,
};

/** Listed at most: the newest invites of the owner (older ones are spent history). */
export const LISTED_INVITES = 100;

export async function ownerInvites(db: Queryable, ownerId: number): Promise<InviteRow[]> {
  return db.select(columns).from(t.ownerInvites).where(eq(t.ownerInvites.ownerId, ownerId)).orderBy(desc(t.ownerInvites.id)).limit(LISTED_INVITES);
}

export async function ownerInvite(db: Queryable, ownerId: number, inviteId: number): Promise<InviteRow | undefined> {
  const [row] = await db.select(columns).from(t.ownerInvites).where(and(eq(t.ownerInvites.ownerId, ownerId), eq(t.ownerInvites.id, inviteId)));
  return row;
}

/** Invites of the owner still open at `now` (neither used, revoked nor expired). */
export async function openInviteCount(db: Queryable, ownerId: number, now: Date): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(t.ownerInvites)
    .where(and(eq(t.ownerInvites.ownerId, ownerId), isNull(t.ownerInvites.usedAt), isNull(t.ownerInvites.revokedAt), gt(t.ownerInvites.expiresAt, now)));
  return row?.count ?? 0;
}

export async function insertInvite(tx: Queryable, invite: { ownerId: number; tokenHash: string; note: string; createdAt: Date; expiresAt: Date }): Promise<number> {
  const [row] = await tx.insert(t.ownerInvites).values(invite).returning({ id: t.ownerInvites.id });
  return row!.id;
}

export async function revokeInviteRow(tx: Queryable, ownerId: number, inviteId: number, now: Date): Promise<void> {
  await tx
    .update(t.ownerInvites)
    .set({ revokedAt: now })
    .where(and(eq(t.ownerInvites.ownerId, ownerId), eq(t.ownerInvites.id, inviteId), isNull(t.ownerInvites.usedAt), isNull(t.ownerInvites.revokedAt)));
}

/** The invite a token's hash names, whatever its state (to say why it cannot be used). */
export async function inviteByHash(db: Queryable, tokenHash: string): Promise<(InviteRow & { ownerId: number }) | undefined> {
  const [row] = await db.select({ ...columns, ownerId: t.ownerInvites.ownerId }).from(t.ownerInvites).where(eq(t.ownerInvites.tokenHash, tokenHash));
  return row;
}

export type Redemption = { ok: true; accountId: number; inviteId: number; ownerId: number } | { ok: false };

/**
 * In one transaction: claims the invite (open at `now`), creates the owner, records who it made,
 * and audits it in the inviter's log. `{ ok: false }` when the invite is not open (nothing changed).
 */
export async function redeemInviteRow(db: Database, tokenHash: string, owner: NewOwner, address: string | null): Promise<Redemption> {
  return db.transaction(async (tx) => {
    const [claimed] = await tx
      .update(t.ownerInvites)
      .set({ usedAt: owner.createdAt })
      .where(and(eq(t.ownerInvites.tokenHash, tokenHash), isNull(t.ownerInvites.usedAt), isNull(t.ownerInvites.revokedAt), gt(t.ownerInvites.expiresAt, owner.createdAt)))
      .returning({ id: t.ownerInvites.id, ownerId: t.ownerInvites.ownerId });
    if (!claimed) return { ok: false } as const;
    const accountId = await insertOwnerIn(tx, owner);
    await tx.update(t.ownerInvites).set({ usedBy: accountId }).where(eq(t.ownerInvites.id, claimed.id));
    await insertAudit(tx, [
      { ownerId: claimed.ownerId, actorId: accountId, at: owner.createdAt, action: 'update', resource: `invites/${claimed.id}`, fields: ['usedAt', 'usedBy'], address },
    ]);
    return { ok: true, accountId, inviteId: claimed.id, ownerId: claimed.ownerId } as const;
  });
}
