// The OIDC token Pub/Sub puts on a push request (Authorization: Bearer): an RS256 JWT signed by
// Google, checked here against Google's published keys (JWKS), its issuer, the audience and the
// service account the app configured, and its lifetime, with node:crypto only.
import { createPublicKey, verify, type JsonWebKey, type KeyObject } from 'node:crypto';
import { asRecord, callStore } from '../stores/http.ts';
import { decodeSegment } from '../stores/jwt.ts';

export const GOOGLE_OIDC_CERTS_URL = 'https://www.googleapis.com/oauth2/v3/certs';
const ISSUERS = new Set(['https://accounts.google.com', 'accounts.google.com']);
/** Clock skew allowed on exp and iat. */
const SKEW_SECONDS = 300;
/** An unknown kid makes us fetch the keys again, at most this often (Google rotates them daily). */
const REFRESH_MS = 60_000;

export interface Expected {
  audience: string;
  serviceAccount: string;
  now: Date;
}

export class GoogleOidcKeys {
  private keys = new Map<string, KeyObject>();
  private fetchedAt = 0;
  private pending: Promise<void> | undefined;

  constructor(private readonly url: string, private readonly timeoutMs: number) {}

  /** The reason the token is not acceptable, or undefined when it is. */
  async check(token: string | undefined, expected: Expected): Promise<string | undefined> {
    if (!token) return 'no bearer token';
    const parts = token.split('.');
    const header = decodeSegment(token, 0);
    const claims = decodeSegment(token, 1);
    if (parts.length !== 3 || !header || !claims) return 'the bearer token is not a JWT';
    if (header.alg !== 'RS256' || typeof header.kid !== 'string') return 'the token is not RS256 with a key id';
    const key = await this.key(header.kid, expected.now);
    if (!key) return `key ${header.kid} is not one of Google's`;
    const signed = verify('RSA-SHA256', Buffer.from(`${parts[0]}.${parts[1]}`), key, Buffer.from(parts[2]!, 'base64url'));
    if (!signed) return 'the token signature is not valid';
    const now = expected.now.getTime() / 1000;
    if (!ISSUERS.has(String(claims.iss))) return 'the token is not issued by Google';
    if (claims.aud !== expected.audience) return 'the token is for another audience';
    if (claims.email !== expected.serviceAccount || claims.email_verified !== true) return 'the token is not of the configured service account';
    if (typeof claims.exp !== 'number' || claims.exp + SKEW_SECONDS < now) return 'the token has expired';
    if (typeof claims.iat === 'number' && claims.iat - SKEW_SECONDS > now) return 'the token is issued in the future';
    return undefined;
  }

  private async key(kid: string, now: Date): Promise<KeyObject | undefined> {
    if (!this.keys.has(kid) && now.getTime() - this.fetchedAt >= REFRESH_MS) {
      this.pending ??= this.refresh(now).finally(() => (this.pending = undefined));
      await this.pending;
    }
    return this.keys.get(kid);
  }

  private async refresh(now: Date): Promise<void> {
    const answer = await callStore(this.url, { headers: { accept: 'application/json' } }, this.timeoutMs);
    if (!answer.ok || answer.status !== 200) return;
    this.fetchedAt = now.getTime();
    const keys = asRecord(answer.json)?.keys;
    if (!Array.isArray(keys)) return;
    const next = new Map<string, KeyObject>();
    for (const jwk of keys.map(asRecord)) {
      if (jwk?.kty !== 'RSA' || typeof jwk.kid !== 'string') continue;
      try {
        next.set(jwk.kid, createPublicKey({ key: jwk as JsonWebKey, format: 'jwk' }));
      } catch {
        // A key we cannot read is a key we do not trust.
      }
    }
    this.keys = next;
  }
}
