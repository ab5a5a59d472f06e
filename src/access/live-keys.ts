// Viewers' personal live-link keys (docs/linear.md: Who may tune in): `vl.` then 32 random bytes
// in base64url. The dot never occurs in an app's guide key (43 base64url characters,
// src/access/epg-keys.ts), so the two kinds can never be taken for each other. Kept only as the
// SHA-256 of the key, like guide keys and Bearer tokens; text that cannot be a key is refused
// before any query.
import { createHash, randomBytes } from 'node:crypto';

const PREFIX = 'vl.';
const LINK_SHAPE = /^vl\.[A-Za-z0-9_-]{43}$/;

export function newLiveLinkKey(): string {
  return `${PREFIX}${randomBytes(32).toString('base64url')}`;
}

export const isLiveLinkKey = (key: string): boolean => LINK_SHAPE.test(key);

export function hashLiveLinkKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}
