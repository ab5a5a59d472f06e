// Viewer state (channel unlocks, subscriptions, PPV unlocks) is held by a device id, by a
// viewer account, or by both: a row matches when either is the caller's.
import { eq, or, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';

export interface Holder {
  deviceId: string | null;
  viewerId: number | null;
}

/** The rows held by the device or by the viewer; undefined when the caller is neither. */
export function heldBy(deviceColumn: PgColumn, viewerColumn: PgColumn, holder: Holder): SQL | undefined {
  return or(
    holder.deviceId === null ? undefined : eq(deviceColumn, holder.deviceId),
    holder.viewerId === null ? undefined : eq(viewerColumn, holder.viewerId),
  );
}

/** A holder whose device is known: who claims a purchase (entitlement calls require a device), plus the viewer when signed in. */
export type DeviceHolder = Holder & { deviceId: string };

/**
 * The viewer a purchase row gets in an upsert's DO UPDATE: the claiming holder's; when it
 * is not signed in, the row keeps its viewer only if the same device claims it again (a
 * re-verify without Bearer must not undo the viewer's entitlement), else it has none.
 */
export function claimantViewer(deviceColumn: PgColumn, viewerColumn: PgColumn): SQL {
  return sql`case when ${deviceColumn} = excluded.device_id then coalesce(excluded.viewer_id, ${viewerColumn}) else excluded.viewer_id end`;
}
