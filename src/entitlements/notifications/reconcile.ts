// `channelnet stores reconcile`: what a missed push would have said, read back from the stores
// that keep a history — Apple's notification history (the same signed payloads, verified the
// same way) and Google's voided purchases — from where the last run stopped, into the inbox.
// A repeat is a no-op there, so overlapping runs and runs that overlap pushes are harmless.
// Amazon and Roku keep no such history: their devices' status calls re-check instead.
import { appsWithCredentials, enqueueNotification, findApp, markReconciled, reconciledTo } from '../../data/store-notifications.ts';
import type { Queryable } from '../../db/connect.ts';
import { API_KEYS, APPLE_URLS, appleApiToken } from '../stores/apple.ts';
import { GOOGLE_API_URL } from '../stores/google.ts';
import { GOOGLE_TOKEN_URI, GoogleTokens } from '../stores/google-auth.ts';
import { asRecord, callStore, credential, missingCredential, str, trimSlash } from '../stores/http.ts';
import { sandboxAllowed, type StoreCredentials, type StorePlatform, type StoreVerifierOptions } from '../stores/index.ts';
import { receiveApple } from './apple.ts';
import { eventDate, type VerifiedNotification } from './types.ts';

/** Apple keeps 180 days of history, Google 30 days of voided purchases. */
const FIRST_RUN_DAYS = 30;
/** Each run re-reads a little before where the last one stopped: late entries are not missed. */
const OVERLAP_MS = 3_600_000;
const MAX_PAGES = 100;
const DAY_MS = 86_400_000;

export interface ReconcileContext {
  db: Queryable;
  options: StoreVerifierOptions;
  roots: readonly Buffer[];
  timeoutMs: number;
  now: Date;
  /** Start here instead of where the last run stopped. */
  since?: Date | undefined;
}

export interface ReconcileLine {
  appId: number;
  store: StorePlatform;
  /** Entries the store listed, and how many of them the inbox did not have. */
  read: number;
  added: number;
  /** Why the store could not be read (the mark is then left where it was). */
  error?: string;
}

type Page = { entries: VerifiedNotification[]; next?: string | undefined } | { error: string };

export async function reconcile(ctx: ReconcileContext): Promise<ReconcileLine[]> {
  const lines: ReconcileLine[] = [];
  for (const { appId, credentials } of await appsWithCredentials(ctx.db, 'apple')) {
    if (missingCredential(credentials, [...API_KEYS, 'bundleId'])) continue;
    lines.push(await readHistory(ctx, appId, 'Apple', (from, next) => applePage(ctx, appId, credentials, from, next)));
  }
  const tokens = new GoogleTokens(ctx.options.google?.tokenUri ?? GOOGLE_TOKEN_URI, ctx.timeoutMs);
  for (const { appId, credentials } of await appsWithCredentials(ctx.db, 'google')) {
    if (missingCredential(credentials, ['packageName', 'clientEmail', 'privateKey'])) continue;
    lines.push(await readHistory(ctx, appId, 'Google', (from, next) => googlePage(ctx, tokens, credentials, from, next)));
  }
  return lines;
}

async function readHistory(ctx: ReconcileContext, appId: number, store: StorePlatform, page: (from: Date, next?: string) => Promise<Page>): Promise<ReconcileLine> {
  const last = ctx.since ?? (await reconciledTo(ctx.db, appId, store));
  const from = last ? new Date(last.getTime() - (ctx.since ? 0 : OVERLAP_MS)) : new Date(ctx.now.getTime() - FIRST_RUN_DAYS * DAY_MS);
  const line: ReconcileLine = { appId, store, read: 0, added: 0 };
  let next: string | undefined;
  for (let pages = 0; pages < MAX_PAGES; pages += 1) {
    const result = await page(from, next);
    if ('error' in result) return { ...line, error: result.error };
    for (const entry of result.entries) {
      line.read += 1;
      if (await enqueueNotification(ctx.db, { storePlatform: store, appId, ...entry }, ctx.now)) line.added += 1;
    }
    next = result.next;
    if (!next) break;
  }
  await markReconciled(ctx.db, appId, store, ctx.now);
  return line;
}

/** Get Notification History: the signed payloads Apple sent (or tried to), verified like a push. */
async function applePage(ctx: ReconcileContext, appId: number, credentials: StoreCredentials, from: Date, next?: string): Promise<Page> {
  const bundleId = credential(credentials, 'bundleId')!;
  const app = await findApp(ctx.db, appId);
  if (!app) return { error: 'the app no longer exists' };
  const urls = ctx.options.apple?.apiUrls ?? APPLE_URLS.api;
  let token: string;
  try {
    token = appleApiToken(credentials, bundleId, ctx.now);
  } catch {
    return { error: 'storeCredentials.apple.privateKey is not a usable PEM EC key' };
  }
  const entries: VerifiedNotification[] = [];
  let more: string | undefined;
  // One environment per run keeps paging simple: production, and the sandbox for apps that sell there.
  for (const environment of sandboxAllowed(credentials) ? (['production', 'sandbox'] as const) : (['production'] as const)) {
    const query = next ? `?paginationToken=${encodeURIComponent(next)}` : '';
    const answer = await callStore(
      `${trimSlash(urls[environment])}/inApps/v1/notifications/history${query}`,
      {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ startDate: from.getTime(), endDate: ctx.now.getTime() }),
      },
      ctx.timeoutMs,
    );
    if (!answer.ok) return { error: `App Store Server API: ${answer.reason}` };
    const json = asRecord(answer.json);
    if (answer.status !== 200 || !json) return { error: `App Store Server API answered HTTP ${answer.status}` };
    for (const item of Array.isArray(json.notificationHistory) ? json.notificationHistory : []) {
      const signedPayload = asRecord(item)?.signedPayload;
      if (typeof signedPayload !== 'string') continue;
      const verified = await receiveApple(
        { body: JSON.stringify({ signedPayload }), authorization: undefined, address: 'reconciliation', now: ctx.now },
        { app, store: 'Apple', credentials },
        ctx.roots,
      );
      // What does not verify is not Apple's, whichever way it came.
      if ('notifications' in verified) entries.push(...verified.notifications);
    }
    if (environment === 'production' && json.hasMore === true) more = str(json.paginationToken);
    if (next) break;
  }
  return { entries, next: more };
}

/** Voided Purchases: refunds, chargebacks and revocations of the app's purchases, one-time and subscriptions. */
async function googlePage(ctx: ReconcileContext, tokens: GoogleTokens, credentials: StoreCredentials, from: Date, next?: string): Promise<Page> {
  const token = await tokens.get(credentials, ctx.now);
  if (typeof token !== 'string') return { error: token.reason };
  const base = trimSlash(ctx.options.google?.apiBaseUrl ?? GOOGLE_API_URL);
  const packageName = credential(credentials, 'packageName')!;
  const query = new URLSearchParams({ startTime: String(from.getTime()), endTime: String(ctx.now.getTime()), type: '1', maxResults: '1000', ...(next ? { token: next } : {}) });
  const answer = await callStore(
    `${base}/androidpublisher/v3/applications/${encodeURIComponent(packageName)}/purchases/voidedpurchases?${query}`,
    {
      headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
    },
    ctx.timeoutMs,
  );
  if (!answer.ok) return { error: `Play Developer API: ${answer.reason}` };
  const json = asRecord(answer.json);
  if (answer.status !== 200 || !json) return { error: `Play Developer API answered HTTP ${answer.status}` };
  const entries = (Array.isArray(json.voidedPurchases) ? json.voidedPurchases : []).map(asRecord).flatMap((v): VerifiedNotification[] => {
    const purchaseToken = str(v?.purchaseToken);
    if (!v || !purchaseToken) return [];
    const orderId = str(v.orderId) ?? null;
    return [
      {
        // The same purchase voided by push and by this read is one entry: keyed by what was voided.
        notificationId: `voided:${orderId ?? purchaseToken}`,
        type: 'VOIDED_PURCHASE',
        eventAt: eventDate(v.voidedTimeMillis) ?? ctx.now,
        payload: { purchaseToken, orderId, kind: 'voided', voided: true, source: 'reconcile' },
      },
    ];
  });
  return { entries, next: str(asRecord(json.tokenPagination)?.nextPageToken) };
}
