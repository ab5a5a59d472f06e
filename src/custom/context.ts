// Who is asking, for the /users/{id} routes: the owner named by {id} (resolved before
// validation, see plugin.ts), the client's app (by Platform-Id), the holder of viewer state
// (Device-Id and the Bearer viewer), the request's zone and time.
import type { FastifyRequest } from 'fastify';
import type { CatalogCache } from '../cache/catalog-cache.ts';
import type { ScheduleTimelines } from '../schedules/timelines.ts';
import { findAppByOwnerAndPlatform, type App } from '../data/apps.ts';
import type { Holder } from '../data/holders.ts';
import type { Queryable } from '../db/connect.ts';
import { deviceIdOf, optionalPlatform, requestZone } from './headers.ts';
import { CLIENT_PLATFORMS, type ClientPlatform } from './platforms.ts';

export interface Client {
  ownerId: number;
  platform: ClientPlatform | undefined;
  /** The owner's app for the platform; undefined when no Platform-Id is sent or the owner has none. */
  app: App | undefined;
  holder: Holder;
  /** From the timezone query or header; undefined: each channel's own zone. */
  zone: string | undefined;
  now: Date;
  /** Catalog-derived answers (channel scopes, day summaries), dropped on every import. */
  cache: CatalogCache;
  /** Compiled schedule days, dropped with the cache. */
  timelines: ScheduleTimelines;
}

/** The viewer state holder: the device and, when a valid Bearer came, the viewer account. */
export function holderOf(request: FastifyRequest): Holder {
  return { deviceId: deviceIdOf(request), viewerId: request.viewer?.id ?? null };
}

export async function clientOf(db: Queryable, request: FastifyRequest): Promise<Client> {
  const platform = optionalPlatform(request);
  const holder = holderOf(request);
  const zone = requestZone(request);
  const cache = request.catalogCache;
  const ownerId = request.owner.id;
  const app = platform && (await cache.get(`custom:app:${ownerId}:${platform}`, () => findAppByOwnerAndPlatform(db, ownerId, CLIENT_PLATFORMS[platform].app)));
  return { ownerId, platform, app: app || undefined, holder, zone, now: request.now, cache, timelines: request.timelines };
}
