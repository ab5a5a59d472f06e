// The caller (src/access/caller.ts) of a Custom API request, built from its headers: the owner
// named by {id} (resolved before validation, see plugin.ts), the app by Platform-Id, the device
// by Device-Id, the viewer by a valid Bearer, the request zone and the clock.
import type { FastifyRequest } from 'fastify';
import type { Caller, CallerWith, CatalogReads } from '../access/caller.ts';
import type { findAccountByIdOrSlug } from '../data/accounts.ts';
import { findAppByOwnerAndPlatform, type App } from '../data/apps.ts';
import type { CallerIds } from '../data/holders.ts';
import { appAccessRefusal } from '../entitlements/gating.ts';
import type { StorePlatform } from '../entitlements/stores/index.ts';
import { failure, invalidField, subscriptionRequired, userRequired } from './errors.ts';
import { deviceIdOf, optionalPlatform, requestZone, requiredPlatform } from './headers.ts';
import { CLIENT_PLATFORMS, type ClientPlatform } from './platforms.ts';

/** The account named by `{id}` in /users/{id}/... routes. */
export type Owner = NonNullable<Awaited<ReturnType<typeof findAccountByIdOrSlug>>>;

/** The owner of a /users/{id} route: set by the plugin before validation (404 when unknown). */
export function ownerOf(request: FastifyRequest): Owner {
  if (!request.owner) throw userRequired();
  return request.owner;
}

/** The device (Device-Id) and, when a valid Bearer came, the viewer. */
export function callerIdsOf(request: FastifyRequest): CallerIds {
  return { deviceId: deviceIdOf(request), viewerId: request.viewer?.id ?? null };
}

/** The owner's app for a Platform-Id (undefined: none sent, or the owner has none), kept until the catalog changes. */
async function platformApp({ db, cache }: CatalogReads, ownerId: number, platform: ClientPlatform | undefined): Promise<App | undefined> {
  if (!platform) return undefined;
  const app = await cache.get(`custom:app:${ownerId}:${platform}`, () => findAppByOwnerAndPlatform(db, ownerId, CLIENT_PLATFORMS[platform].app));
  return app || undefined;
}

/** The caller of a /users/{id} route. */
export async function callerOf(reads: CatalogReads, request: FastifyRequest): Promise<Caller> {
  const platform = optionalPlatform(request);
  const ids = callerIdsOf(request);
  const zone = requestZone(request);
  const ownerId = ownerOf(request).id;
  return { ownerId, app: await platformApp(reads, ownerId, platform), ...ids, now: request.now, zone };
}

/** The caller of a channel, schedule or VOD list route, once it is entitled to the app (else 403 subscription_required). */
export async function entitledCaller(reads: CatalogReads, request: FastifyRequest): Promise<Caller> {
  const caller = await callerOf(reads, request);
  if (await appAccessRefusal(reads.db, caller)) throw subscriptionRequired();
  return caller;
}

/** The caller of a video route, which names no owner: the video's owner is asked, with its app for the Platform-Id; nothing is dated. */
export async function videoCallerOf(reads: CatalogReads, request: FastifyRequest, video: { ownerId: number }): Promise<Caller> {
  const app = await platformApp(reads, video.ownerId, optionalPlatform(request));
  return { ownerId: video.ownerId, app, ...callerIdsOf(request), now: request.now, zone: undefined };
}

/**
 * The caller of an entitlement route, who buys: the app of its Platform-Id (required; 404 when the
 * owner has none) and a device (the body's device_id, else Device-Id; required).
 */
export async function buyerOf(reads: CatalogReads, request: FastifyRequest, bodyDeviceId?: string): Promise<CallerWith<'app' | 'deviceId'>> {
  const platform = requiredPlatform(request);
  const deviceId = bodyDeviceId ?? deviceIdOf(request);
  if (deviceId === null) throw invalidField('device_id', 'The Device-Id header is required.');
  const ownerId = ownerOf(request).id;
  const app = await platformApp(reads, ownerId, platform);
  if (!app) throw failure(404, 'App not found');
  return { ownerId, app, deviceId, viewerId: request.viewer?.id ?? null, now: request.now, zone: undefined };
}

/** The store of the client's Platform-Id: an entitlement call's store when its body names none. */
export function clientStoreOf(request: FastifyRequest): StorePlatform {
  return CLIENT_PLATFORMS[requiredPlatform(request)].store;
}
