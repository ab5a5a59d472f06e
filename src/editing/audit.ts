// The Studio's audit trail of an owner: every change made through the API, newest first, a
// page at a time (keyset: the next page is the entries before the last id of this one).
import type { Queryable } from '../db/connect.ts';
import { auditPage } from '../data/studio.ts';

export const MAX_AUDIT_PAGE = 500;

export async function auditEntries(db: Queryable, ownerId: number, limit: number, before: number | undefined) {
  const rows = await auditPage(db, ownerId, limit + 1, before);
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  return { items, next: rows.length > limit && last ? last.id : null };
}
