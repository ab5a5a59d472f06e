// Keys of apps' public XMLTV guide URLs: 32 random bytes in base64url (43 characters, 256 bits:
// unguessable, and URL-safe with no escaping), kept only as the SHA-256 of the key. Unlike
// Bearer GUIDs a key is case-sensitive, so it is hashed as it is. Text that cannot be a key is
// refused before any query.
import { createHash, randomBytes } from 'node:crypto';
import type { App } from '../data/apps.ts';
import { findAppByEpgKeyHash } from '../data/epg-keys.ts';
import type { Queryable } from '../db/connect.ts';

const KEY_SHAPE = /^[A-Za-z0-9_-]{43}$/;

export function newEpgKey(): string {
  return randomBytes(32).toString('base64url');
}

export function hashEpgKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** The app a live key opens (its owner's account active); undefined for anything else. */
export async function appOfEpgKey(db: Queryable, key: string): Promise<App | undefined> {
  if (!KEY_SHAPE.test(key)) return undefined;
  return findAppByEpgKeyHash(db, hashEpgKey(key));
}

/**
 * Where a key's guide is served (the REST group's open route, src/rest/epg-routes.ts), under the
 * service's public base URL when one is configured (PUBLIC_URL; otherwise the path alone, since
 * the Host header is the caller's word).
 */
export function epgGuideUrl(key: string, publicUrl: string | undefined): string {
  return `${publicUrl ?? ''}/api/v1/rest/epg/${key}.xml`;
}
