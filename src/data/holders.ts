// Viewer state (channel unlocks, subscriptions, PPV unlocks) is held by a device id, by a
// viewer account, or by both: a row matches when either is the caller's. The queries take the
// caller's two ids (CallerIds); the Caller itself (src/access/caller.ts) is built on them.
import { eq, or, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';

/** The device and viewer ids of a Caller (src/access/caller.ts): who holds viewer state. */
export interface CallerIds {
  /** The device id the client sent; null: none. */
  deviceId: string | null;
  /** The signed-in viewer's account id; null: not signed in. */
  viewerId: number | null;
}

/** The rows held by the device or by the viewer; undefined when the caller is neither. */
export function heldBy(deviceColumn: PgColumn, viewerColumn: PgColumn, caller: CallerIds): SQL | undefined {
  return or(
    caller.deviceId === null ? undefined : eq(deviceColumn, caller.deviceId),
    caller.viewerId === null ? undefined : eq(viewerColumn, caller.viewerId),
  );
}

/**
 * The viewer a purchase row gets in an upsert's DO UPDATE: the claimant's; when it
 * is not signed in, the row keeps its viewer only if the same device claims it again (a
 * re-verify without Bearer must not undo the viewer's entitlement), else it has none.
 */
export function claimantViewer(deviceColumn: PgColumn, viewerColumn: PgColumn): SQL {
  return sql`case when ${deviceColumn} = excluded.device_id then coalesce(excluded.viewer_id, ${viewerColumn}) else excluded.viewer_id end`;
}
