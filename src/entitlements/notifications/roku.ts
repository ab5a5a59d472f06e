// Roku Pay push notifications: a JSON body of transaction data and a responseKey, sent without
// any signature. Nothing in it is trusted: the transaction is confirmed with Roku Pay's
// validate-transaction (our API key, the app's Roku channel) before the push is acknowledged,
// and the worker reads it again before changing anything.
//
// Roku expects the acknowledgement to echo the responseKey with our API key in an ApiKey header,
// and that key can refund, cancel and credit every customer. Anyone who holds a transaction id
// (every subscriber holds their own) can post a push, so the key goes only to a push that
// - Roku Pay confirms as a transaction of the app's channel (its answer names the channel),
// - is of a type Roku documents (an invented type is kept, never keyed),
// - is fresh: its event date within a day of now (an old body replayed is not),
// - and whose event (transaction id and type, not the body an attacker can vary) was not
//   acknowledged before: the first answer records a mark in the inbox, so every process agrees.
// A push refused the key is still kept for the worker (in the inbox by type, event date and
// transaction: a later event of the same transaction and type is not lost, only unkeyed); Roku,
// not acknowledged, sends it again, and its repeats are no-ops.
import { credential, asRecord, str } from '../stores/http.ts';
import type { StoreVerdict } from '../stores/types.ts';
import { rokuDate } from '../stores/roku.ts';
import { typeLabel } from './labels.ts';
import {
  isRefusal,
  jsonBody,
  refuse,
  type InboundRequest,
  type NotificationRefusal,
  type NotifiedApp,
  type Received,
  type SecretAcknowledgement,
  type VerifiedNotification,
} from './types.ts';

/** Asks Roku Pay about the transaction (the app's verifier, every product of the app). */
export type ConfirmRoku = (transactionId: string) => Promise<StoreVerdict>;

/** A push whose event is further than this from now gets no key (a captured body replayed later). */
export const ROKU_FRESH_MS = 24 * 3_600_000;
/** Roku's transaction ids are up to 1024 ASCII bytes (validate-transaction). */
const MAX_TRANSACTION_ID = 1024;
const PRINTABLE_ASCII = /^[\x21-\x7e]+$/;

/**
 * What the key is sent once for: the type (a type Roku documents, else "other") and the
 * transaction. Not the body's digest, nor its date: an attacker varies those freely.
 */
const markOf = (type: string, transactionId: string) => `acknowledged/${typeLabel('Roku', type)}/${transactionId}`;
/** The inbox id of the push: Roku gives none; its repeats carry the same type, date and transaction. */
const notificationIdOf = (type: string, eventDate: Date | null, transactionId: string) => `${typeLabel('Roku', type)}/${eventDate?.toISOString() ?? 'undated'}/${transactionId}`;

export async function receiveRoku(request: InboundRequest, target: NotifiedApp, confirm: ConfirmRoku): Promise<Received | NotificationRefusal> {
  const apiKey = credential(target.credentials, 'apiKey');
  const channelId = credential(target.credentials, 'channelId');
  if (!apiKey || !channelId) return refuse('not_configured', 'storeCredentials.roku lacks apiKey or channelId');
  const body = jsonBody(request.body);
  if (isRefusal(body)) return body;
  const { responseKey, ...transaction } = body.json;
  const transactionId = str(transaction.transactionId);
  if (!transactionId || transactionId.length > MAX_TRANSACTION_ID || !PRINTABLE_ASCII.test(transactionId) || typeof responseKey !== 'string' || responseKey.length > 128) {
    return refuse('malformed', "transactionId or responseKey is missing or not of Roku's form");
  }
  const verdict = await confirm(transactionId);
  if (verdict.outcome === 'wrong_app') return refuse('wrong_app', 'the transaction is of another Roku channel');
  if (verdict.outcome === 'invalid') return refuse('not_confirmed', 'Roku Pay does not know the transaction');
  // Unconfirmed (Roku Pay did not answer): kept for the worker, but Roku gets no key and retries.
  const confirmed = verdict.outcome !== 'unavailable';
  const type = str(transaction.transactionType) ?? 'OTHER';
  const eventDate = rokuDate(transaction.eventDate) ?? rokuDate(transaction.transactionDate);
  const notification: VerifiedNotification = {
    notificationId: notificationIdOf(type, eventDate, transactionId),
    type,
    eventAt: eventDate ?? request.now,
    payload: {
      transactionId,
      originalTransactionId: str(transaction.originalTransactionId) ?? str(transaction.OriginalTransactionId) ?? null,
      transactionType: type,
      productCode: str(transaction.productCode) ?? null,
      confirmed,
    },
  };
  const keyed = confirmed && namesChannel(verdict, channelId) && typeLabel('Roku', type) !== 'other' && eventDate !== null && isFresh(eventDate, request.now);
  const secret: SecretAcknowledgement | undefined = keyed ? { mark: markOf(type, transactionId), type, eventAt: eventDate, headers: { ApiKey: apiKey }, transactionId } : undefined;
  return { notifications: [notification], reply: { headers: {}, text: responseKey }, ...(secret ? { secret } : {}) };
}

/** Roku Pay's answer names the app's channel (an answer without one does not confirm it). */
function namesChannel(verdict: StoreVerdict, channelId: string): boolean {
  const raw = asRecord('raw' in verdict ? verdict.raw : undefined);
  return str(raw?.channelId) === channelId;
}

export function isFresh(eventAt: Date, now: Date): boolean {
  return Math.abs(now.getTime() - eventAt.getTime()) <= ROKU_FRESH_MS;
}
