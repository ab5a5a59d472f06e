// Google Play real-time developer notifications, pushed by Cloud Pub/Sub: the push's OIDC token
// is checked (google-oidc.ts) before the message is read. The message only says that something
// changed; the worker re-reads the purchase from the Play Developer API (Google's own advice).
import { asRecord, credential, str } from '../stores/http.ts';
import type { GoogleOidcKeys } from './google-oidc.ts';
import { eventDate, isRefusal, jsonBody, refuse, type InboundRequest, type NotificationRefusal, type NotifiedApp, type Received } from './types.ts';

/** SubscriptionNotification.notificationType, as Google numbers them. */
export const GOOGLE_SUBSCRIPTION_TYPES: Record<number, string> = {
  1: 'SUBSCRIPTION_RECOVERED',
  2: 'SUBSCRIPTION_RENEWED',
  3: 'SUBSCRIPTION_CANCELED',
  4: 'SUBSCRIPTION_PURCHASED',
  5: 'SUBSCRIPTION_ON_HOLD',
  6: 'SUBSCRIPTION_IN_GRACE_PERIOD',
  7: 'SUBSCRIPTION_RESTARTED',
  8: 'SUBSCRIPTION_PRICE_CHANGE_CONFIRMED',
  9: 'SUBSCRIPTION_DEFERRED',
  10: 'SUBSCRIPTION_PAUSED',
  11: 'SUBSCRIPTION_PAUSE_SCHEDULE_CHANGED',
  12: 'SUBSCRIPTION_REVOKED',
  13: 'SUBSCRIPTION_EXPIRED',
  19: 'SUBSCRIPTION_PRICE_CHANGE_UPDATED',
  20: 'SUBSCRIPTION_PENDING_PURCHASE_CANCELED',
};
/** OneTimeProductNotification.notificationType. */
const ONE_TIME_TYPES: Record<number, string> = { 1: 'ONE_TIME_PRODUCT_PURCHASED', 2: 'ONE_TIME_PRODUCT_CANCELED' };

const bearer = (header: string | undefined) => /^Bearer\s+(\S+)$/i.exec(header ?? '')?.[1];

export async function receiveGoogle(request: InboundRequest, target: NotifiedApp, keys: GoogleOidcKeys): Promise<Received | NotificationRefusal> {
  const audience = credential(target.credentials, 'pushAudience');
  const serviceAccount = credential(target.credentials, 'pushServiceAccount');
  const packageName = credential(target.credentials, 'packageName');
  if (!audience || !serviceAccount || !packageName) return refuse('not_configured', 'storeCredentials.google lacks pushAudience, pushServiceAccount or packageName');
  const why = await keys.check(bearer(request.authorization), { audience, serviceAccount, now: request.now });
  if (why) return refuse(request.authorization ? 'invalid_signature' : 'unauthenticated', why);

  const body = jsonBody(request.body);
  if (isRefusal(body)) return body;
  const message = asRecord(body.json.message);
  const messageId = str(message?.messageId) ?? str(message?.message_id);
  if (!message || !messageId || typeof message.data !== 'string') return refuse('malformed', 'message.data or message.messageId is missing');
  let data: Record<string, unknown> | undefined;
  try {
    data = asRecord(JSON.parse(Buffer.from(message.data, 'base64').toString('utf8')));
  } catch {
    data = undefined;
  }
  if (!data) return refuse('malformed', 'message.data is not base64 JSON');
  if (data.packageName !== packageName) return refuse('wrong_app', `the notification is not for ${packageName}`);
  const eventAt = eventDate(data.eventTimeMillis) ?? eventDate(message.publishTime) ?? request.now;
  return { notifications: [{ notificationId: messageId, type: typeOf(data), eventAt, payload: purchaseOf(data) }] };
}

function typeOf(data: Record<string, unknown>): string {
  const subscription = asRecord(data.subscriptionNotification);
  if (subscription) return GOOGLE_SUBSCRIPTION_TYPES[Number(subscription.notificationType)] ?? 'SUBSCRIPTION_OTHER';
  const oneTime = asRecord(data.oneTimeProductNotification);
  if (oneTime) return ONE_TIME_TYPES[Number(oneTime.notificationType)] ?? 'ONE_TIME_PRODUCT_OTHER';
  if (data.voidedPurchaseNotification) return 'VOIDED_PURCHASE';
  if (data.testNotification) return 'TEST';
  return 'OTHER';
}

/** What the worker needs to re-read: the purchase token, and whether it is a subscription. */
function purchaseOf(data: Record<string, unknown>): Record<string, unknown> {
  const subscription = asRecord(data.subscriptionNotification);
  const oneTime = asRecord(data.oneTimeProductNotification);
  const voided = asRecord(data.voidedPurchaseNotification);
  if (subscription) return { purchaseToken: str(subscription.purchaseToken) ?? null, kind: 'subscription', productId: str(subscription.subscriptionId) ?? null };
  if (oneTime) return { purchaseToken: str(oneTime.purchaseToken) ?? null, kind: 'purchase', productId: str(oneTime.sku) ?? null };
  // productType 1 is a subscription, 2 a one-time product; the worker also looks the token up.
  if (voided) {
    return {
      purchaseToken: str(voided.purchaseToken) ?? null,
      orderId: str(voided.orderId) ?? null,
      kind: Number(voided.productType) === 1 ? 'subscription' : 'purchase',
      voided: true,
    };
  }
  return { kind: 'none' };
}
