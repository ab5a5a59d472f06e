// What a catalog write tells every process's caches, sent with NOTIFY inside the writing
// transaction (delivered on commit, never for a rolled-back write). An import changes
// anything ('all'); a Studio write names the owner whose data it changed and, where it only
// touched some channels' schedules or settings, those channels.
//
// What a cached answer depends on is its scope (CacheScope); `touches` is the one rule of which
// changes drop which answers:
//   'all'                      drops every answer;
//   { ownerId }                anything of the owner may have changed: drops every answer of that
//                              owner, whatever its channels;
//   { ownerId, channelIds: T } only the data of channels T changed (schedule blocks, live streams,
//                              channel settings, library and VOD, VAST), and the owner's channel
//                              lists with it: drops the owner's answers scoped to the owner alone
//                              and those scoped to channels of which one is in T.
// An answer without a scope may depend on anything: every change drops it.
import type { Queryable } from '../db/connect.ts';
import { notifyChannel } from '../data/notify.ts';

export const CATALOG_CHANNEL = 'channelnet_catalog';

export type OwnerChange = { ownerId: number; channelIds?: readonly number[] };
export type CatalogChange = 'all' | OwnerChange;

/**
 * The data a cached answer is derived from: the owner's, and when `channelIds` is given, of
 * those channels of the owner only (never the owner's channel list, nor any other channel's data;
 * data of the owner that is not any channel's, such as its videos, may be read: it changes only
 * with an owner-wide change).
 */
export interface CacheScope {
  ownerId: number;
  channelIds?: readonly number[];
}

/** The NOTIFY payload of a change ('' is every change, as imports have always sent). */
export function changePayload(change: CatalogChange): string {
  if (change === 'all') return '';
  return JSON.stringify(change.channelIds ? { owner: change.ownerId, channels: change.channelIds } : { owner: change.ownerId });
}

export async function notifyCatalogChange(tx: Queryable, change: CatalogChange): Promise<void> {
  await notifyChannel(tx, CATALOG_CHANNEL, changePayload(change));
}

/** Sign-in tokens revoked (their hashes): every process drops them from its Bearer cache (src/access/bearer-cache.ts). */
export type TokenRevocation = { revokedTokens: readonly string[] };

/** Sent in the revoking transaction, on the catalog's channel (every process already listens to it). */
export async function notifyRevokedTokens(tx: Queryable, hashes: readonly string[]): Promise<void> {
  if (hashes.length === 0) return;
  await notifyChannel(tx, CATALOG_CHANNEL, JSON.stringify({ revokedTokens: hashes }));
}

const HASH_RE = /^[0-9a-f]{64}$/;

/** A NOTIFY payload: a token revocation, or a catalog change (parseChangePayload). */
export function parseNotice(payload: string | undefined): CatalogChange | TokenRevocation {
  if (payload?.startsWith('{"revokedTokens":')) {
    try {
      const { revokedTokens } = JSON.parse(payload) as { revokedTokens: unknown };
      if (Array.isArray(revokedTokens) && revokedTokens.every((h) => typeof h === 'string' && HASH_RE.test(h))) return { revokedTokens: revokedTokens as string[] };
    } catch {
      // Unreadable: every change, below.
    }
    return 'all';
  }
  return parseChangePayload(payload);
}

const isId = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value);

/**
 * The change a NOTIFY payload names; no payload (a listener that reconnected), '' and anything
 * it cannot read (a newer or broken writer) are every change, which is never wrong.
 */
export function parseChangePayload(payload: string | undefined): CatalogChange {
  if (!payload) return 'all';
  let value: unknown;
  try {
    value = JSON.parse(payload);
  } catch {
    return 'all';
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'all';
  const { owner, channels, ...rest } = value as Record<string, unknown>;
  if (Object.keys(rest).length > 0 || !isId(owner)) return 'all';
  if (channels === undefined) return { ownerId: owner };
  if (!Array.isArray(channels) || !channels.every(isId)) return 'all';
  return { ownerId: owner, channelIds: channels };
}

/** Whether `change` may have changed an answer of `scope` (see the table above). */
export function touches(change: CatalogChange, scope: CacheScope | undefined): boolean {
  if (change === 'all' || scope === undefined) return true;
  if (change.ownerId !== scope.ownerId) return false;
  if (change.channelIds === undefined || scope.channelIds === undefined) return true;
  const changed = change.channelIds;
  return scope.channelIds.some((id) => changed.includes(id));
}
