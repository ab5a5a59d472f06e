// Compact JWS signing for the stores' server-to-server auth (Apple ES256, Google RS256),
// with node:crypto only. Times come from the caller so tokens follow the injected clock.
import { createPrivateKey, sign, type KeyObject } from 'node:crypto';

export function base64url(data: Buffer | string): string {
  return Buffer.from(data).toString('base64url');
}

export function signJwt(header: { alg: 'ES256' | 'RS256'; kid?: string }, claims: Record<string, unknown>, privateKeyPem: string | KeyObject): string {
  const key = typeof privateKeyPem === 'string' ? createPrivateKey(privateKeyPem) : privateKeyPem;
  const input = `${base64url(JSON.stringify({ ...header, typ: 'JWT' }))}.${base64url(JSON.stringify(claims))}`;
  // JWS wants ECDSA signatures as r||s (IEEE P1363), not DER.
  const signature = sign('sha256', Buffer.from(input), header.alg === 'ES256' ? { key, dsaEncoding: 'ieee-p1363' } : key);
  return `${input}.${base64url(signature)}`;
}

/** Decodes a JWS segment without verifying anything: only to route, never to decide. */
export function decodeSegment(jws: string, index: 0 | 1): Record<string, unknown> | undefined {
  const part = jws.split('.')[index];
  if (!part) return undefined;
  try {
    const value = JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

export function looksLikeJws(value: string): boolean {
  return /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(value);
}
