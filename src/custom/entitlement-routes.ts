// The subscription and VOD PPV routes (spec: /users/{id}/apps/subscription/* and
// /users/{id}/apps/vod_ppv/*). Every call names its app with Platform-Id and its device with
// Device-Id (on POSTs the body's device_id wins over the header); a valid Bearer adds the
// viewer. The rules are in src/entitlements/; this file only reads requests and shapes results.
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { activeSkuIds } from '../data/store-products.ts';
import type { CallerWith } from '../access/caller.ts';
import type { Queryable } from '../db/connect.ts';
import { ppvStatus, verifyPpv } from '../entitlements/ppv.ts';
import { isRefusal, type Refusal } from '../entitlements/refusals.ts';
import { storeVerifiersFrom } from '../entitlements/store-options.ts';
import type { StorePlatform } from '../entitlements/stores/index.ts';
import { restoreSubscriptions, subscriptionStatus, verifySubscription, type PurchaseResult } from '../entitlements/subscriptions.ts';
import type { GroupOptions } from '../http/group.ts';
import { ppvStatusQuery, ppvVerifyBody, subscriptionRestoreBody, subscriptionVerifyBody } from './entitlement-params.ts';
import { customData, invalid } from './errors.ts';
import { buyerOf, clientStoreOf } from './caller.ts';
import { refusalError } from './refusals.ts';
import { ppvStatusResponse, ppvVerifyResponse, purchaseResponse, subscriptionStatusResponse } from './schemas.ts';
import type { ProductKind } from '../vocabulary.ts';

const BASE = '/users/:id/apps';

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
async function skusFor(db: Queryable, buyer: CallerWith<'app'>, store: StorePlatform, kind: ProductKind): Promise<string[]> {
  return (await activeSkuIds(db, buyer.app.id, kind))(store);
}

export const entitlementRoutes: FastifyPluginAsync<GroupOptions> = async (plain, { database, config, cache, timelines }) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const { db } = database;
  const reads = { db, cache, timelines };
  const verifiers = storeVerifiersFrom(config);
  const buyer = (request: FastifyRequest, bodyDeviceId?: string) => buyerOf(reads, request, bodyDeviceId);

  app.get(`${BASE}/subscription/status`, { schema: { response: subscriptionStatusResponse } }, async (request) => {
    const b = await buyer(request);
    const [status, skus] = await Promise.all([subscriptionStatus(db, verifiers, b, config.SUBSCRIPTION_RECHECK_SECONDS), skusFor(db, b, clientStoreOf(request), 'subscription')]);
    return customData({
      entitled: status.entitled,
      status: status.status,
      expiresUtc: iso(status.expiresAt),
      isPaidApp: b.app.isPaid,
      storeProductId: skus[0] ?? '',
      storeProductIds: skus,
    });
  });

  app.post(`${BASE}/subscription/verify`, { schema: { body: subscriptionVerifyBody, response: purchaseResponse } }, async (request) => {
    const body = request.body;
    const b = await buyer(request, body.device_id);
    const purchase = {
      store: body.store_platform ?? clientStoreOf(request),
      productId: body.product_id,
      receiptData: body.receipt_data,
      originalTransactionId: body.original_transaction_id,
    };
    return presentPurchase(unlessRefused(await verifySubscription(db, verifiers, b, purchase)));
  });

  app.post(`${BASE}/subscription/restore`, { schema: { body: subscriptionRestoreBody, response: purchaseResponse } }, async (request) => {
    const body = request.body;
    const b = await buyer(request, body.device_id);
    return presentPurchase(unlessRefused(await restoreSubscriptions(db, verifiers, b, body.store_platform ?? clientStoreOf(request), body.original_transaction_ids)));
  });

  app.get(`${BASE}/vod_ppv/status`, { schema: { querystring: ppvStatusQuery, response: ppvStatusResponse } }, async (request) => {
    const b = await buyer(request);
    const ref = { videoId: request.query.video_tube_id, channelId: request.query.channel_tube_id };
    const [status, skus] = await Promise.all([ppvStatus(db, b, ref), skusFor(db, b, clientStoreOf(request), 'ppv')]);
    const { vodPpvEnabled, unlocked, expiresAt } = unlessRefused(status);
    const accessDurationHours = b.app.vodPpvAccessHours;
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
      store: body.store_platform ?? clientStoreOf(request),
      productId: body.product_id,
      receiptData: body.receipt_data,
      originalTransactionId: body.original_transaction_id,
      videoId: body.video_tube_id,
      channelId: body.channel_tube_id,
    };
    const result = unlessRefused(await verifyPpv(db, verifiers, b, purchase), 'vod_ppv');
    return customData({ ok: result.ok, unlocked: result.unlocked, error: result.error, expiresUtc: result.expiresAt.toISOString() });
  });
};
