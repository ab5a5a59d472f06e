// The XMLTV guides of one process: a cache of rendered channel-days of their own (bounded by
// GUIDE_CACHE_BYTES, so guides never push the catalog's answers out), told every catalog change
// the catalog cache hears (from every instance, through PostgreSQL's NOTIFY; src/cache), the
// background preparer, and the warmer that keeps keyed apps' guides ready.
import { CatalogCache } from '../cache/catalog-cache.ts';
import type { Clock } from '../clock.ts';
import type { Config } from '../config.ts';
import type { Queryable } from '../db/connect.ts';
import type { ScheduleTimelines } from '../schedules/timelines.ts';
import { PreparedGuides } from './prepared-guides.ts';
import { GuideWarmer } from './warmer.ts';

/** Channel-days kept at most, whatever their bytes (a fortnight of 7,000 channels). */
const MAX_KEPT_DAYS = 100_000;

export interface Guides {
  prepared: PreparedGuides;
  warmer: GuideWarmer;
  /** The rendered channel-days kept (bytes, size). */
  cache: CatalogCache;
  stop(): Promise<void>;
}

export function makeGuides(options: {
  db: Queryable;
  timelines: ScheduleTimelines;
  catalogCache: CatalogCache;
  config: Pick<Config, 'GUIDE_CACHE_BYTES' | 'GUIDE_WARM_DAYS'>;
  clock: Clock;
  onError: (error: unknown) => void;
}): Guides {
  const { config } = options;
  const cache = new CatalogCache({ maxEntries: config.GUIDE_CACHE_BYTES > 0 ? MAX_KEPT_DAYS : 0, maxBytes: config.GUIDE_CACHE_BYTES });
  const prepared = new PreparedGuides({ db: options.db, timelines: options.timelines }, cache, config.GUIDE_CACHE_BYTES, options.onError);
  const warmer = new GuideWarmer(prepared, options.db, config.GUIDE_WARM_DAYS, options.clock, options.onError);
  options.catalogCache.follow({
    invalidate: (trusted) => {
      cache.invalidate(trusted);
      if (trusted) warmer.changed('all');
    },
    drop: (change) => {
      cache.change(change);
      warmer.changed(change.ownerId);
    },
  });
  return {
    prepared,
    warmer,
    cache,
    async stop() {
      await warmer.stop();
      await prepared.stop();
    },
  };
}
