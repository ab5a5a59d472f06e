// Roku Pay push notifications: a JSON body of transaction data and a responseKey, sent without
// any signature. Nothing in it is trusted: the transaction is confirmed with Roku Pay's
// validate-transaction (our API key, the app's Roku channel) before the push is acknowledged,
// and the worker reads it again before changing anything. Roku expects the acknowledgement to
// echo the responseKey with our API key in an ApiKey header; the key is sent only for a
// transaction Roku confirmed as the app's, never to a caller who merely posts a body.
import { createHash } from 'node:crypto';
import { credential, str } from '../stores/http.ts';
import type { StoreVerdict } from '../stores/types.ts';
import { rokuDate } from '../stores/roku.ts';
import { isRefusal, jsonBody, refuse, type InboundRequest, type NotificationRefusal, type NotifiedApp, type Received } from './types.ts';

/** Asks Roku Pay about the transaction (the app's verifier, every product of the app). */
export type ConfirmRoku = (transactionId: string) => Promise<StoreVerdict>;

export async function receiveRoku(request: InboundRequest, target: NotifiedApp, confirm: ConfirmRoku): Promise<Received | NotificationRefusal> {
  const apiKey = credential(target.credentials, 'apiKey');
  if (!apiKey || !credential(target.credentials, 'channelId')) return refuse('not_configured', 'storeCredentials.roku lacks apiKey or channelId');
  const body = jsonBody(request.body);
  if (isRefusal(body)) return body;
  const { responseKey, ...transaction } = body.json;
  const transactionId = str(transaction.transactionId);
  if (!transactionId || typeof responseKey !== 'string' || responseKey.length > 128) return refuse('malformed', 'transactionId or responseKey is missing');
  const verdict = await confirm(transactionId);
  if (verdict.outcome === 'wrong_app') return refuse('wrong_app', 'the transaction is of another Roku channel');
  if (verdict.outcome === 'invalid') return refuse('not_confirmed', 'Roku Pay does not know the transaction');
  const type = str(transaction.transactionType) ?? 'OTHER';
  const eventAt = rokuDate(transaction.eventDate) ?? rokuDate(transaction.transactionDate) ?? request.now;
  const notification = {
    // Roku gives a push no id of its own: a repeat carries the same transaction data.
    notificationId: createHash('sha256').update(JSON.stringify(transaction)).digest('hex'),
    type,
    eventAt,
    payload: {
      transactionId,
      originalTransactionId: str(transaction.originalTransactionId) ?? str(transaction.OriginalTransactionId) ?? null,
      transactionType: type,
      productCode: str(transaction.productCode) ?? null,
      confirmed: verdict.outcome !== 'unavailable',
    },
  };
  // Unconfirmed (Roku Pay did not answer): kept for the worker, but Roku gets no key and retries.
  const headers: Record<string, string> = verdict.outcome === 'unavailable' ? {} : { ApiKey: apiKey };
  return { notifications: [notification], reply: { headers, text: responseKey } };
}
