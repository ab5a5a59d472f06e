// The OIDC token Pub/Sub puts on a push request (Authorization: Bearer): an RS256 JWT signed by
// Google, checked against Google's published keys (JWKS), its issuer, the audience and the service
// account the app configured, and its lifetime. jose verifies the JWT (signature, algorithm,
// issuer, audience, exp/iat with skew): the parts where a hand-written check goes wrong. The keys
// are fetched here, through the stores' HTTP client (its timeout, the test's fake Google) and on
// the service's clock, not jose's remote key set (its own fetch, cooldown on the wall clock).
import { errors, importJWK, jwtVerify, type CryptoKey, type JWK, type JWTVerifyGetKey } from 'jose';
import { asRecord, callStore } from '../stores/http.ts';

export const GOOGLE_OIDC_CERTS_URL = 'https://www.googleapis.com/oauth2/v3/certs';
const ISSUERS = ['https://accounts.google.com', 'accounts.google.com'];
/** Clock skew allowed on exp and iat. */
const SKEW_SECONDS = 300;
/** An unknown kid makes us fetch the keys again, at most this often (Google rotates them daily). */
const REFRESH_MS = 60_000;

export interface Expected {
  audience: string;
  serviceAccount: string;
  now: Date;
}

/** Our reason for each way jose refuses a token (its error codes). */
const REASONS: Record<string, string> = {
  ERR_JWS_INVALID: 'the bearer token is not a JWT',
  ERR_JWT_INVALID: 'the bearer token is not a JWT',
  ERR_JOSE_ALG_NOT_ALLOWED: 'the token is not RS256 with a key id',
  ERR_JWKS_NO_MATCHING_KEY: "the token's key is not one of Google's",
  ERR_JWS_SIGNATURE_VERIFICATION_FAILED: 'the token signature is not valid',
  ERR_JWT_EXPIRED: 'the token has expired',
};
const CLAIM_REASONS: Record<string, string> = {
  iss: 'the token is not issued by Google',
  aud: 'the token is for another audience',
  iat: 'the token is issued in the future',
};

export class GoogleOidcKeys {
  private keys = new Map<string, CryptoKey>();
  private fetchedAt = 0;
  private pending: Promise<void> | undefined;

  constructor(
    private readonly url: string,
    private readonly timeoutMs: number,
  ) {}

  /** The reason the token is not acceptable, or undefined when it is. */
  async check(token: string | undefined, expected: Expected): Promise<string | undefined> {
    if (!token) return 'no bearer token';
    const keyOf: JWTVerifyGetKey = async ({ kid }) => {
      const key = typeof kid === 'string' ? await this.key(kid, expected.now) : undefined;
      if (!key) throw new errors.JWKSNoMatchingKey();
      return key;
    };
    try {
      const { payload } = await jwtVerify(token, keyOf, {
        algorithms: ['RS256'],
        issuer: ISSUERS,
        audience: expected.audience,
        requiredClaims: ['exp'],
        clockTolerance: SKEW_SECONDS,
        currentDate: expected.now,
      });
      if (payload.email !== expected.serviceAccount || payload.email_verified !== true) return 'the token is not of the configured service account';
      if (typeof payload.iat === 'number' && payload.iat - SKEW_SECONDS > expected.now.getTime() / 1000) return 'the token is issued in the future';
      return undefined;
    } catch (error) {
      if (error instanceof errors.JWTClaimValidationFailed) return CLAIM_REASONS[error.claim] ?? `the token's ${error.claim} claim is not acceptable`;
      if (error instanceof errors.JOSEError) return REASONS[error.code] ?? 'the token is not acceptable';
      return 'the bearer token is not a JWT';
    }
  }

  private async key(kid: string, now: Date): Promise<CryptoKey | undefined> {
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
    const next = new Map<string, CryptoKey>();
    for (const jwk of keys.map(asRecord)) {
      if (jwk?.kty !== 'RSA' || typeof jwk.kid !== 'string') continue;
      try {
        const key = await importJWK({ ...(jwk as JWK), alg: 'RS256' }, 'RS256');
        if (!(key instanceof Uint8Array)) next.set(jwk.kid, key);
      } catch {
        // A key we cannot read is a key we do not trust.
      }
    }
    this.keys = next;
  }
}
