// Viewer state (channel unlocks, subscriptions, PPV unlocks) is held by a device id, by a
// viewer account, or by both: a row matches when either is the caller's.
import { eq, or, type SQL } from 'drizzle-orm';
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
