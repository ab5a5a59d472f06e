// Amazon Appstore Real-time Notifications, delivered by Amazon SNS: the SNS signature and the
// topic are checked before the message is read; a subscription confirmation is confirmed by
// visiting its SubscribeURL. The message names a receipt; the worker confirms it with RVS.
import { asRecord, credential, str } from '../stores/http.ts';
import type { SnsVerifier } from './amazon-sns.ts';
import { eventDate, isRefusal, jsonBody, refuse, type InboundRequest, type NotificationRefusal, type NotifiedApp, type Received } from './types.ts';
import { callStore } from '../stores/http.ts';

export async function receiveAmazon(request: InboundRequest, target: NotifiedApp, sns: SnsVerifier, timeoutMs: number): Promise<Received | NotificationRefusal> {
  const topic = credential(target.credentials, 'snsTopicArn');
  if (!topic) return refuse('not_configured', 'storeCredentials.amazon lacks snsTopicArn');
  const body = jsonBody(request.body);
  if (isRefusal(body)) return body;
  const message = body.json;
  // The topic is checked first, so nobody can make us fetch certificates for other topics.
  if (message.TopicArn !== topic) return refuse('wrong_app', 'the message is not from the configured SNS topic');
  const why = await sns.check(message, request.now);
  if (why) return refuse('invalid_signature', why);
  if (message.Type === 'SubscriptionConfirmation') {
    if (!sns.isSnsUrl(message.SubscribeURL)) return refuse('malformed', 'SubscribeURL is not an SNS URL');
    const answer = await callStore(message.SubscribeURL, {}, timeoutMs);
    if (!answer.ok || answer.status !== 200) return refuse('not_confirmed', 'SNS did not accept the subscription confirmation');
    return { notifications: [] };
  }
  if (message.Type !== 'Notification') return { notifications: [] };
  let rtn: Record<string, unknown> | undefined;
  try {
    rtn = asRecord(JSON.parse(String(message.Message)));
  } catch {
    rtn = undefined;
  }
  const receiptId = str(rtn?.receiptId);
  const userId = str(rtn?.appUserId);
  const messageId = str(message.MessageId);
  if (!rtn || !receiptId || !userId || !messageId) return refuse('malformed', 'Message is not an RTN message with receiptId and appUserId');
  const packageName = credential(target.credentials, 'appPackageName');
  if (packageName && rtn.appPackageName !== packageName) return refuse('wrong_app', `the notification is not for ${packageName}`);
  const type = str(rtn.notificationType) ?? 'OTHER';
  return {
    notifications: [
      {
        notificationId: messageId,
        type,
        eventAt: eventDate(rtn.timestamp) ?? eventDate(message.Timestamp) ?? request.now,
        payload: {
          receiptId,
          userId,
          notificationType: type,
          kind: type.startsWith('SUBSCRIPTION') ? 'subscription' : 'purchase',
          betaProductTransaction: rtn.betaProductTransaction === true,
        },
      },
    ],
  };
}
