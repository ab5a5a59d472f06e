// How every Studio write runs: one transaction holding the owner's write lock, so reading the
// current state, checking If-Match and the rules, and writing cannot interleave with another
// write of the same owner (on any instance). A refusal thrown by the work rolls everything back.
// On success the audit rows, the stored answer of an idempotent POST and the cache NOTIFY
// (delivered to every process on commit) are written in the same transaction.
import { createHash } from 'node:crypto';
import { notifyCatalogChange, type CatalogChange } from '../cache/changes.ts';
import type { Database, Queryable } from '../db/connect.ts';
import { findIdempotent, insertAudit, lockOwner, saveIdempotent } from '../data/studio.ts';
import { bumpSliceVersions, ownerHoldings, type OwnerHoldings } from '../data/owner-slice.ts';
import { boundsMovedByAll, holdingsProblems } from '../catalog/owner-bounds.ts';
import { EditRefusal, invalid } from './refusals.ts';
import { SLICE, yieldToOthers } from './heavy-writes.ts';

/** Who writes: the owner whose data it is, the signed-in account, and the clock. */
export interface Editor {
  ownerId: number;
  actorId: number;
  now: Date;
  /** The caller's address, recorded in the audit. */
  address?: string;
  /**
   * Told what changed once the write has committed: the writing process drops its own cached
   * answers at once, so its next read has the change (others learn it by the NOTIFY).
   */
  committed?: (change: CatalogChange) => void;
}

/** A retried POST returns the first answer for this long. */
export const IDEMPOTENCY_HOURS = 24;

export interface Idempotency {
  key: string;
  /** Digest of what makes two requests the same request (method, path, body). */
  requestHash: string;
}

/** What a write changed: one audit row each; channel ids narrow the cache invalidation. */
export interface Change {
  action: 'create' | 'update' | 'delete';
  resource: string;
  fields: readonly string[];
  /** The channels whose data alone changed; absent: anything of the owner may have. */
  channelIds?: readonly number[];
}

export interface Written<T> {
  status: number;
  body: T;
  etag?: string;
}

export interface WorkResult<T> {
  written: Written<T>;
  changes: readonly Change[];
  /** Where a refusal for the owner's holdings names each bound (default: the body's root). */
  boundsAt?: (bound: keyof OwnerHoldings) => string;
  /** The bounds the write may have moved (default: those its changes name, boundsMovedByAll). */
  moved?: ReadonlyArray<keyof OwnerHoldings>;
}

export function requestHash(...parts: unknown[]): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex');
}

export async function write<T>(db: Database, editor: Editor, work: (tx: Queryable) => Promise<WorkResult<T>>, idempotency?: Idempotency): Promise<Written<T>> {
  let change: CatalogChange | undefined;
  const written = await db.transaction(async (tx): Promise<Written<T>> => {
    await lockOwner(tx, editor.ownerId);
    const expiredBefore = new Date(editor.now.getTime() - IDEMPOTENCY_HOURS * 3600_000);
    if (idempotency) {
      const stored = await findIdempotent(tx, editor.ownerId, idempotency.key, expiredBefore);
      if (stored) {
        if (stored.requestHash !== idempotency.requestHash) {
          throw new EditRefusal('idempotency_key_reused', 'This Idempotency-Key was used for a different request.');
        }
        return { status: stored.status, body: storedBody(stored.body) as T, ...(stored.etag ? { etag: stored.etag } : {}) };
      }
    }
    const { written, changes, boundsAt, moved = boundsMovedByAll(changes) } = await work(tx);
    // What the owner holds after the write, within OWNER_BOUNDS, or the write is rolled back;
    // only what it can have grown is counted (at full size a count of everything costs ~1 s).
    if (moved.length > 0 && changes.length > 0) {
      const problems = holdingsProblems(await ownerHoldings(tx, editor.ownerId, moved), boundsAt ?? (() => '(root)'));
      if (problems.length > 0) throw invalid(problems);
    }
    change = await record(tx, editor, changes);
    if (idempotency) {
      // Kept as JSON text (a jsonb string): a jsonb object would reorder the keys of the answer.
      const answer = { requestHash: idempotency.requestHash, status: written.status, body: JSON.stringify(written.body ?? null), etag: written.etag ?? null };
      await saveIdempotent(tx, editor.ownerId, idempotency.key, answer, editor.now, expiredBefore);
    }
    return written;
  });
  if (change) editor.committed?.(change);
  return written;
}

/**
 * The first answer of a retried POST, key order and all. Drizzle parses the jsonb string's text
 * itself on some drivers (so the object comes back in the text's key order); others hand the string.
 */
const storedBody = (body: unknown): unknown => (typeof body === 'string' ? JSON.parse(body) : body);

/** Audits the changes and tells every process (NOTIFY, sent on commit) what they touched. */
async function record(tx: Queryable, editor: Editor, changes: readonly Change[]): Promise<CatalogChange | undefined> {
  if (changes.length === 0) return undefined;
  // The owner's export changed: its ETag with it (an import's If-Match compares this version).
  await bumpSliceVersions(tx, [editor.ownerId]);
  const rows = changes.map((c) => ({
    ownerId: editor.ownerId,
    actorId: editor.actorId,
    at: editor.now,
    action: c.action,
    resource: c.resource,
    fields: [...c.fields],
    address: editor.address ?? null,
  }));
  // In slices: on the embedded database a statement runs on the event loop (2,000 rows: ~250 ms).
  for (let at = 0; at < rows.length; at += SLICE) {
    if (at > 0) await yieldToOthers();
    await insertAudit(tx, rows.slice(at, at + SLICE));
  }
  const narrowed = changes.every((c) => c.channelIds !== undefined);
  const channelIds = [...new Set(changes.flatMap((c) => c.channelIds ?? []))];
  const change: CatalogChange = narrowed ? { ownerId: editor.ownerId, channelIds } : { ownerId: editor.ownerId };
  await notifyCatalogChange(tx, change);
  return change;
}

/** The top-level fields that differ between two versions of a resource (for the audit). */
export function changedFields(before: object | undefined, after: object | undefined): string[] {
  const a = (before ?? {}) as Record<string, unknown>;
  const b = (after ?? {}) as Record<string, unknown>;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].filter((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k])).sort();
}
