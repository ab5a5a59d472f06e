// Owners: accounts that own a channel or an app, or were made owners from the CLI.
import { sql } from 'drizzle-orm';
import type { Database, Queryable, Transaction } from '../db/connect.ts';
import { lockSequencesShared, nextIds } from './ids.ts';

export async function isOwner(db: Queryable, accountId: number): Promise<boolean> {
  const result = await db.execute<{ owner: boolean }>(sql`select (
      exists (select 1 from studio_owners where account_id = ${accountId})
      or exists (select 1 from channels where owner_id = ${accountId})
      or exists (select 1 from apps where owner_id = ${accountId})) as owner`);
  const rows = (result as unknown as { rows: { owner: boolean }[] }).rows;
  return rows[0]?.owner === true;
}

export interface NewOwner {
  id: number | undefined;
  username: string;
  email: string;
  passwordHash: string;
  publicUrl: string;
  fullName: string | null;
  publicName: string | null;
  createdAt: Date;
}

/** Which of username, email and publicUrl another account holds already (case-insensitively). */
export async function accountKeysTaken(db: Queryable, owner: Pick<NewOwner, 'id' | 'username' | 'email' | 'publicUrl'>) {
  const result = await db.execute<{ id: number; username: string; email: string; public_url: string }>(sql`
    select id, username, email, public_url from accounts
    where lower(username) = lower(${owner.username}) or lower(email) = lower(${owner.email})
       or lower(public_url) = lower(${owner.publicUrl}) or id = ${owner.id ?? -1}`);
  return (result as unknown as { rows: { id: number; username: string; email: string; public_url: string }[] }).rows;
}

/**
 * Inserts the account and marks it an owner, in one transaction; the id is the accounts
 * sequence's next unless given. The unique indexes settle a race with another create (the
 * caller reports it).
 */
export async function insertOwner(db: Database, owner: NewOwner): Promise<number> {
  return db.transaction((tx) => insertOwnerIn(tx, owner));
}

/** insertOwner inside the caller's transaction (an invite's redemption claims the invite in the same one). */
export async function insertOwnerIn(tx: Transaction, owner: NewOwner): Promise<number> {
  if (owner.id === undefined) await lockSequencesShared(tx);
  const id = owner.id ?? (await nextIds(tx, 'accounts', 1))[0]!;
  await tx.execute(sql`insert into accounts (id, username, email, password_hash, public_url, full_name, public_name)
    values (${id}, ${owner.username}, ${owner.email}, ${owner.passwordHash}, ${owner.publicUrl}, ${owner.fullName}, ${owner.publicName})`);
  await tx.execute(sql`insert into studio_owners (account_id, created_at) values (${id}, ${owner.createdAt})`);
  return id;
}
