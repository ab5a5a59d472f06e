// Who asks, as every rule that depends on it sees it (src/vocabulary.ts defines the words): the
// owner whose network is asked, the app the client runs (the owner's app for its Platform-Id;
// undefined: none), the device and, when signed in, the viewer (together they hold unlocks and
// purchases), the clock and the request zone. One per request: each interface group builds it
// from its own headers (the Custom API and its compatibility trees in src/custom/caller.ts, the
// Studio's guide preview from its owner); rules never see the request.
//
// What a rule reads the catalog through (the database, the catalog cache, the compiled days) is
// the process's, not the request's: it travels apart, as CatalogReads.
import type { CatalogCache } from '../cache/catalog-cache.ts';
import type { App } from '../data/apps.ts';
import type { CallerIds } from '../data/holders.ts';
import type { Queryable } from '../db/connect.ts';
import type { ScheduleTimelines } from '../schedules/timelines.ts';

/** Plus the two ids that hold unlocks and purchases (CallerIds): the device's and the viewer's. */
export interface Caller extends CallerIds {
  ownerId: number;
  app: App | undefined;
  now: Date;
  /** The request zone; undefined: each channel's own. */
  zone: string | undefined;
}

/**
 * A caller known to have some of the optional parts: `CallerWith<'app' | 'deviceId'>` is who buys
 * (entitlement calls need an app and a device), `CallerWith<'viewerId'>` one signed in.
 */
export type CallerWith<K extends 'app' | 'deviceId' | 'viewerId'> = Caller & { [P in K]-?: NonNullable<Caller[P]> };

/** A caller with no app, no device and no viewer: what anyone sees (the Studio's guide preview). */
export function anyone(ownerId: number, now: Date, zone: string | undefined): Caller {
  return { ownerId, app: undefined, deviceId: null, viewerId: null, now, zone };
}

/** Where rules read the catalog: the database, answers kept until the catalog changes, and compiled channel-days. */
export interface CatalogReads {
  db: Queryable;
  cache: CatalogCache;
  timelines: ScheduleTimelines;
}
