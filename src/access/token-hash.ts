import { createHash } from 'node:crypto';

/** Bearer tokens are GUIDs stored only as the SHA-256 of their lowercase text. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token.toLowerCase()).digest('hex');
}
