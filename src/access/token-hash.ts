import { hash } from 'node:crypto';

/**
 * Bearer tokens are GUIDs stored only as the SHA-256 of their lowercase text. One-shot
 * crypto.hash (Node >= 20.12): every authenticated request hashes its token, and it costs a third
 * of createHash().update().digest() for 36 characters (~0.3 against ~0.8 us).
 */
export function hashToken(token: string): string {
  return hash('sha256', token.toLowerCase(), 'hex');
}
