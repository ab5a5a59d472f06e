// The subscription and VOD PPV routes (spec: /users/{id}/apps/subscription/* and
// /users/{id}/apps/vod_ppv/*). Every call names its app with Platform-Id and its device with
// Device-Id (on POSTs the body's device_id wins over the header); a valid Bearer adds the
// viewer. The rules are in src/entitlements/; this file only reads requests and shapes results.
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { activeSkuIds } from '../data/store-products.ts';
import type { Queryable } from '../db/connect.ts';
import type { Purchaser } from '../entitlements/purchase.ts';
import { ppvStatus, verifyPpv } from '../entitlements/ppv.ts';
import { isRefusal, type Refusal } from '../entitlements/refusals.ts';
import { storeVerifiersFrom } from '../entitlements/store-options.ts';
import type { StorePlatform, StoreVerifiers } from '../entitlements/stores/index.ts';
import { restoreSubscriptions, subscriptionStatus, verifySubscription, type PurchaseResult } from '../entitlements/subscriptions.ts';
import type { GroupOptions } from '../http/group.ts';
import { ppvStatusQuery, ppvVerifyBody, subscriptionRestoreBody, subscriptionVerifyBody } from './entitlement-params.ts';
import { customData, failure, invalid, invalidField } from './errors.ts';
import { ownerOf, platformApp } from './context.ts';
import { deviceIdOf, requiredPlatform } from './headers.ts';
import { CLIENT_PLATFORMS } from './platforms.ts';
import { refusalError } from './refusals.ts';
import { ppvStatusResponse, ppvVerifyResponse, purchaseResponse, subscriptionStatusResponse } from './schemas.ts';
import type { ProductKind } from '../vocabulary.ts';

const BASE = '/users/:id/apps';

/** The Client of an entitlement route: its Purchaser and the store its Platform-Id buys through. */
interface EntitlementClient {
  purchaser: Purchaser;
  /** The store of the client's Platform-Id: used when the body names none. */
  clientStore: StorePlatform;
}

async function entitlementClientOf(db: Queryable, verifiers: StoreVerifiers, request: FastifyRequest, bodyDeviceId?: string): Promise<EntitlementClient> {
  const platform = requiredPlatform(request);
  const deviceId = bodyDeviceId ?? deviceIdOf(request);
  if (deviceId === null) throw invalidField('device_id', 'The Device-Id header is required.');
  const app = await platformApp(db, request, ownerOf(request).id, platform);
  if (!app) throw failure(404, 'App not found');
  const holder = { deviceId, viewerId: request.viewer?.id ?? null };
  return { purchaser: { verifiers, app, ownerId: ownerOf(request).id, holder, now: request.now }, clientStore: CLIENT_PLATFORMS[platform].store };
}

/** `field`: the one field a route reports every refusal under. */
function unlessRefused<T extends object>(result: T | Refusal, field?: string): T {
  if (isRefusal(result)) throw refusalError(result, field);
  return result;
}

const iso = (date: Date | null) => date?.toISOString() ?? null;

function presentPurchase(result: PurchaseResult) {
  return customData({ ok: result.ok, entitled: result.entitled, error: result.error, expiresUtc: iso(result.expiresAt) });
}

/** Active SKUs of one kind for the client's store: the status routes tell clients what to sell. */
async function skusFor(db: Queryable, buyer: EntitlementClient, kind: ProductKind): Promise<string[]> {
  return (await activeSkuIds(db, buyer.purchaser.app.id, kind))(buyer.clientStore);
}

export const entitlementRoutes: FastifyPluginAsync<GroupOptions> = async (plain, { database, config }) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const { db } = database;
  const verifiers = storeVerifiersFrom(config);
  const buyer = (request: FastifyRequest, bodyDeviceId?: string) => entitlementClientOf(db, verifiers, request, bodyDeviceId);

  app.get(`${BASE}/subscription/status`, { schema: { response: subscriptionStatusResponse } }, async (request) => {
    const b = await buyer(request);
    const [status, skus] = await Promise.all([subscriptionStatus(db, b.purchaser, config.SUBSCRIPTION_RECHECK_SECONDS), skusFor(db, b, 'subscription')]);
    return customData({
      entitled: status.entitled,
      status: status.status,
      expiresUtc: iso(status.expiresAt),
      isPaidApp: b.purchaser.app.isPaid,
      storeProductId: skus[0] ?? '',
      storeProductIds: skus,
    });
  });

  app.post(`${BASE}/subscription/verify`, { schema: { body: subscriptionVerifyBody, response: purchaseResponse } }, async (request) => {
    const body = request.body;
    const b = await buyer(request, body.device_id);
    const purchase = { store: body.store_platform ?? b.clientStore, productId: body.product_id, receiptData: body.receipt_data, originalTransactionId: body.original_transaction_id };
    return presentPurchase(unlessRefused(await verifySubscription(db, b.purchaser, purchase)));
  });

  app.post(`${BASE}/subscription/restore`, { schema: { body: subscriptionRestoreBody, response: purchaseResponse } }, async (request) => {
    const body = request.body;
    const b = await buyer(request, body.device_id);
    return presentPurchase(unlessRefused(await restoreSubscriptions(db, b.purchaser, body.store_platform ?? b.clientStore, body.original_transaction_ids)));
  });

  app.get(`${BASE}/vod_ppv/status`, { schema: { querystring: ppvStatusQuery, response: ppvStatusResponse } }, async (request) => {
    const b = await buyer(request);
    const ref = { videoId: request.query.video_tube_id, channelId: request.query.channel_tube_id };
    const [status, skus] = await Promise.all([ppvStatus(db, b.purchaser, ref), skusFor(db, b, 'ppv')]);
    const { vodPpvEnabled, unlocked, expiresAt } = unlessRefused(status);
    const accessDurationHours = b.purchaser.app.vodPpvAccessHours;
    return customData({ vodPpvEnabled, unlocked, expiresUtc: iso(expiresAt), storeProductId: skus[0] ?? '', accessDurationHours });
  });

  // Every validation failure of this route is reported under errors.vod_ppv (spec: Custom API errors).
  app.post(`${BASE}/vod_ppv/verify`, { schema: { body: ppvVerifyBody, response: ppvVerifyResponse }, attachValidation: true }, async (request) => {
    if (request.validationError) {
      throw invalid({ vod_ppv: (request.validationError.validation ?? []).map((v: { message?: string }) => v.message ?? 'is invalid') });
    }
    const body = request.body;
    const b = await buyer(request, body.device_id);
    const purchase = {
      store: body.store_platform ?? b.clientStore,
      productId: body.product_id,
      receiptData: body.receipt_data,
      originalTransactionId: body.original_transaction_id,
      videoId: body.video_tube_id,
      channelId: body.channel_tube_id,
    };
    const result = unlessRefused(await verifyPpv(db, b.purchaser, purchase), 'vod_ppv');
    return customData({ ok: result.ok, unlocked: result.unlocked, error: result.error, expiresUtc: result.expiresAt.toISOString() });
  });
};
