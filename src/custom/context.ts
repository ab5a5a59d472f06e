// Who is asking, for the /users/{id} routes: the owner named by {id} (resolved before
// validation, see plugin.ts), the client's app (by Platform-Id), the holder of viewer state
// (Device-Id and the Bearer viewer), the request's zone and time.
import type { FastifyRequest } from 'fastify';
import type { Caller } from '../access/caller.ts';
import type { findAccountByIdOrSlug } from '../data/accounts.ts';
import { findAppByOwnerAndPlatform, type App } from '../data/apps.ts';
import type { Holder } from '../data/holders.ts';
import type { Queryable } from '../db/connect.ts';
import { appAccessRefusal } from '../entitlements/gating.ts';
import { subscriptionRequired, userRequired } from './errors.ts';
import { deviceIdOf, optionalPlatform, requestZone } from './headers.ts';
import { CLIENT_PLATFORMS, type ClientPlatform } from './platforms.ts';

/** The caller (src/access/caller.ts) as the Custom API knows it: plus the Platform-Id it sent. */
export interface Client extends Caller {
  platform: ClientPlatform | undefined;
}

/** The viewer state holder: the device and, when a valid Bearer came, the viewer account. */
export function holderOf(request: FastifyRequest): Holder {
  return { deviceId: deviceIdOf(request), viewerId: request.viewer?.id ?? null };
}

/** The account named by `{id}` in /users/{id}/... routes. */
export type Owner = NonNullable<Awaited<ReturnType<typeof findAccountByIdOrSlug>>>;

/** The owner of a /users/{id} route: set by the plugin before validation (404 when unknown). */
export function ownerOf(request: FastifyRequest): Owner {
  if (!request.owner) throw userRequired();
  return request.owner;
}

/** The owner's app for a Platform-Id (undefined: none sent, or the owner has none), kept until the catalog changes. */
export async function platformApp(db: Queryable, request: FastifyRequest, ownerId: number, platform: ClientPlatform | undefined): Promise<App | undefined> {
  if (!platform) return undefined;
  const app = await request.catalogCache.get(`custom:app:${ownerId}:${platform}`, () => findAppByOwnerAndPlatform(db, ownerId, CLIENT_PLATFORMS[platform].app));
  return app || undefined;
}

export async function clientOf(db: Queryable, request: FastifyRequest): Promise<Client> {
  const platform = optionalPlatform(request);
  const holder = holderOf(request);
  const zone = requestZone(request);
  const cache = request.catalogCache;
  const ownerId = ownerOf(request).id;
  const app = await platformApp(db, request, ownerId, platform);
  return { ownerId, platform, app, holder, zone, now: request.now, cache, timelines: request.timelines };
}

/** The client of a channel, schedule or VOD list route, once it is entitled to the app (else 403 subscription_required). */
export async function entitledClient(db: Queryable, request: FastifyRequest): Promise<Client> {
  const client = await clientOf(db, request);
  if (await appAccessRefusal(db, client)) throw subscriptionRequired();
  return client;
}
