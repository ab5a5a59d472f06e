// The support record of every verification attempt: who asked, about what, what the store
// said, and whether it granted anything. Never the receipt itself, never a credential.
import type { CallerWith } from '../access/caller.ts';
import type { Queryable } from '../db/connect.ts';
import { createHash } from 'node:crypto';
import { recordVerificationAttempt } from '../data/verification-attempts.ts';
import { factsOf, type StoreQuestion } from './purchase.ts';
import { refusalReason, type Refusal } from './refusals.ts';
import type { StoreVerdict } from './stores/index.ts';
import { priceOf } from './stores/prices.ts';

/** Records a refusal (made before or instead of asking the store) and hands it back. */
export async function refuse<R extends Refusal>(db: Queryable, caller: CallerWith<'app' | 'deviceId'>, q: StoreQuestion, refusal: R): Promise<R> {
  await recordAttempt(db, caller, q, { refusal });
  return refusal;
}

/** What an attempt ended in: the store's verdict, or a refusal before or after asking. */
export type AttemptResult = { verdict: StoreVerdict; granted: boolean; reason?: string } | { refusal: Refusal };

export async function recordAttempt(db: Queryable, caller: CallerWith<'app' | 'deviceId'>, q: StoreQuestion, result: AttemptResult): Promise<void> {
  const verdict = 'verdict' in result ? result.verdict : undefined;
  const facts = verdict && factsOf(verdict);
  // The price the store reported about this transaction (revenue: sales-trends.ts); null when it named none.
  const price = verdict && 'raw' in verdict ? priceOf(q.store, verdict.raw, facts?.productId) : null;
  await recordVerificationAttempt(db, {
    appId: caller.app.id,
    deviceId: caller.deviceId,
    viewerId: caller.viewerId,
    route: q.route,
    storePlatform: q.store,
    productId: q.productId ?? null,
    originalTransactionId: q.originalTransactionId ?? facts?.originalTransactionId ?? null,
    transactionId: facts?.transactionId ?? null,
    receiptSha256: q.receiptData ? createHash('sha256').update(q.receiptData).digest('hex') : null,
    videoId: q.videoId ?? null,
    channelId: q.channelId ?? null,
    outcome: verdict?.outcome ?? 'refused',
    reason: noNul(reasonOf(result)),
    granted: 'granted' in result && result.granted,
    storeAnswer: verdict && 'raw' in verdict ? storeAnswer(verdict.raw) : null,
    at: caller.now,
    priceMicros: price?.micros ?? null,
    priceCurrency: price?.currency ?? null,
    priceProductId: facts?.productId || null,
  });
}

function reasonOf(result: AttemptResult): string | null {
  if ('refusal' in result) return refusalReason(result.refusal);
  return result.reason ?? ('reason' in result.verdict ? result.verdict.reason : null);
}

/** Never stored: what the client sent as the receipt, and anything credential-like. */
const UNSTORED_KEYS = new Set(['receipt-data', 'latest_receipt', 'password', 'sharedSecret', 'privateKey', 'access_token']);
const MAX_ANSWER_CHARS = 64 * 1024;

const noNul = <T extends string | null>(text: T): T => (text === null ? text : (text.replaceAll('\u0000', '') as T));

/**
 * The store's answer as stored: JSON only, without the keys above, and without NUL characters
 * (PostgreSQL refuses them in text and jsonb; an answer may echo what the client sent).
 */
export function storeAnswer(raw: unknown): unknown {
  if (raw === undefined) return null;
  const text = JSON.stringify(raw);
  if (text === undefined) return null;
  if (text.length > MAX_ANSWER_CHARS) return { truncated: true, chars: text.length };
  return clean(JSON.parse(text) as unknown);
}

function clean(value: unknown): unknown {
  if (typeof value === 'string') return noNul(value);
  if (Array.isArray(value)) return value.map(clean);
  if (typeof value !== 'object' || value === null) return value;
  const entries = Object.entries(value).filter(([key]) => !UNSTORED_KEYS.has(key));
  return Object.fromEntries(entries.map(([key, v]) => [noNul(key), clean(v)]));
}
