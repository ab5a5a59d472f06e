// What every interface group plugin and its route plugins receive.
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import type { CatalogCache } from '../cache/catalog-cache.ts';
import type { DatabaseHandle } from '../db/connect.ts';
import type { StoreNotifications } from '../entitlements/notifications/service.ts';
import type { ScheduleTimelines } from '../schedules/timelines.ts';

export interface GroupOptions {
  database: DatabaseHandle;
  config: Config;
  /** Answers derived from catalog data only; dropped on every import, in every process. */
  cache: CatalogCache;
  /** Compiled channel-days, dropped with the catalog cache. */
  timelines: ScheduleTimelines;
  /** Store server notifications: verification, the inbox and its worker (one per process, made
   *  by the app; only the notification group needs it, so groups tested alone may go without). */
  notifications?: StoreNotifications;
}

/** Applies the group's body limit to every route registered after this call. */
export function limitBodies(app: FastifyInstance, bytes: number): void {
  app.addHook('onRoute', (route) => {
    route.bodyLimit ??= bytes;
  });
}
