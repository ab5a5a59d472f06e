// Who asks, as every rule that depends on it sees it: the owner whose network is asked, the app
// the client runs (the owner's app for its Platform-Id; undefined: none), the device and, when
// signed in, the viewer (the holder of unlocks and purchases), the clock, and the request zone.
// Interface groups build it from a request (src/custom/context.ts); rules never see the request.
import type { CatalogCache } from '../cache/catalog-cache.ts';
import type { App } from '../data/apps.ts';
import type { Holder } from '../data/holders.ts';
import type { ScheduleTimelines } from '../schedules/timelines.ts';

export interface Caller {
  ownerId: number;
  app: App | undefined;
  holder: Holder;
  now: Date;
  /** The request zone; undefined: each channel's own. */
  zone: string | undefined;
  /** Catalog-derived values (channel scopes, day summaries), dropped on every catalog change. */
  cache: CatalogCache;
  /** Compiled schedule days, dropped with the cache. */
  timelines: ScheduleTimelines;
}
