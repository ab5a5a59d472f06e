// The Studio API's bookkeeping rows: the per-owner write lock, the audit trail and the stored
// answers of idempotent POSTs; and the owner's slice of ids that Studio validation resolves
// references against.
import { and, desc, eq, inArray, lt, sql } from 'drizzle-orm';
import type { Queryable } from '../db/connect.ts';
import * as t from '../db/schema.ts';

/** Advisory lock namespace of Studio writes ('ST'); key 0 is id assignment, others owners. */
const LOCK_SPACE = 0x5354;
const ID_ASSIGNMENT = 0;

/** Serializes one owner's Studio writes until the transaction ends (read, check, write). */
export async function lockOwner(tx: Queryable, ownerId: number): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${LOCK_SPACE}::int, ${ownerId}::int)`);
}

/** Serializes writes that choose new ids (max + 1) across owners. */
export async function lockIdAssignment(tx: Queryable): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${LOCK_SPACE}::int, ${ID_ASSIGNMENT}::int)`);
}

export interface AuditRow {
  ownerId: number;
  actorId: number;
  at: Date;
  action: 'create' | 'update' | 'delete';
  resource: string;
  fields: string[];
}

export async function insertAudit(tx: Queryable, rows: AuditRow[]): Promise<void> {
  if (rows.length > 0) await tx.insert(t.studioAudit).values(rows);
}

/** Newest first, `limit` rows before the id `before` (keyset pagination). */
export async function auditPage(db: Queryable, ownerId: number, limit: number, before?: number) {
  const where = before === undefined ? eq(t.studioAudit.ownerId, ownerId) : and(eq(t.studioAudit.ownerId, ownerId), lt(t.studioAudit.id, before));
  return db
    .select({ id: t.studioAudit.id, actorId: t.studioAudit.actorId, at: t.studioAudit.at, action: t.studioAudit.action, resource: t.studioAudit.resource, fields: t.studioAudit.fields })
    .from(t.studioAudit)
    .where(where)
    .orderBy(desc(t.studioAudit.id))
    .limit(limit);
}

export interface StoredAnswer {
  requestHash: string;
  status: number;
  body: unknown;
  etag: string | null;
}

export async function findIdempotent(tx: Queryable, ownerId: number, key: string, notBefore: Date): Promise<StoredAnswer | undefined> {
  const [row] = await tx
    .select({ requestHash: t.studioIdempotency.requestHash, status: t.studioIdempotency.status, body: t.studioIdempotency.body, etag: t.studioIdempotency.etag, createdAt: t.studioIdempotency.createdAt })
    .from(t.studioIdempotency)
    .where(and(eq(t.studioIdempotency.ownerId, ownerId), eq(t.studioIdempotency.key, key)));
  return row && row.createdAt.getTime() >= notBefore.getTime() ? row : undefined;
}

/** Keeps an answer; an expired one under the same key is replaced, a few other expired ones pruned. */
export async function saveIdempotent(tx: Queryable, ownerId: number, key: string, answer: StoredAnswer, now: Date, expiredBefore: Date): Promise<void> {
  await tx.execute(sql`delete from studio_idempotency where ctid in (select ctid from studio_idempotency where created_at < ${expiredBefore} limit 20)`);
  await tx
    .insert(t.studioIdempotency)
    .values({ ownerId, key, ...answer, createdAt: now })
    .onConflictDoUpdate({ target: [t.studioIdempotency.ownerId, t.studioIdempotency.key], set: { ...answer, createdAt: now } });
}

/**
 * The database side of a Studio write's validation: reference data (shared by all owners) and
 * the owner's own accounts, videos, channels, apps and blocks only, so a reference to another
 * owner's row is "unknown", exactly as a missing one.
 */
export async function ownerExisting(tx: Queryable, ownerId: number, blockIds?: readonly number[]) {
  const [accounts, categories, languages, videos, channels, apps, scheduleBlocks] = await Promise.all([
    tx.select({ id: t.accounts.id, username: t.accounts.username, email: t.accounts.email, publicUrl: t.accounts.publicUrl }).from(t.accounts).where(eq(t.accounts.id, ownerId)),
    tx.select({ id: t.categories.id }).from(t.categories),
    tx.select({ id: t.languages.id }).from(t.languages),
    tx.select({ id: t.videos.id }).from(t.videos).where(eq(t.videos.ownerId, ownerId)),
    tx.select({ id: t.channels.id, ownerId: t.channels.ownerId, url: t.channels.url }).from(t.channels).where(eq(t.channels.ownerId, ownerId)),
    tx.select({ id: t.apps.id, ownerId: t.apps.ownerId, platform: t.apps.platform }).from(t.apps).where(eq(t.apps.ownerId, ownerId)),
    tx
      .select({ id: t.scheduleBlocks.id, channelId: t.scheduleBlocks.channelId })
      .from(t.scheduleBlocks)
      .innerJoin(t.channels, eq(t.channels.id, t.scheduleBlocks.channelId))
      .where(blockIds === undefined ? eq(t.channels.ownerId, ownerId) : and(eq(t.channels.ownerId, ownerId), inArray(t.scheduleBlocks.id, blockIds.length > 0 ? [...blockIds] : [-1]))),
  ]);
  const ids = (rows: { id: number }[]) => new Set(rows.map((r) => r.id));
  return { accounts, categoryIds: ids(categories), languageIds: ids(languages), videoIds: ids(videos), channels, apps, scheduleBlocks };
}

const ID_TABLES = { videos: t.videos, channels: t.channels, apps: t.apps, scheduleBlocks: t.scheduleBlocks, categories: t.categories, languages: t.languages } as const;
export type IdTable = keyof typeof ID_TABLES;

/** Which of `ids` are in use in `table`, whoever owns them. */
export async function takenIds(tx: Queryable, table: IdTable, ids: readonly number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const target = ID_TABLES[table];
  const rows = await tx.select({ id: target.id }).from(target).where(inArray(target.id, [...ids]));
  return rows.map((r) => r.id);
}

/** The next free id of `table` (max + 1), under lockIdAssignment. */
export async function nextId(tx: Queryable, table: IdTable): Promise<number> {
  const target = ID_TABLES[table];
  const [row] = await tx.select({ max: sql<number | null>`max(${target.id})` }).from(target);
  return Number(row?.max ?? 0) + 1;
}
