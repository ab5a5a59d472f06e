// Google service-account auth without Google's client library: an RS256-signed JWT assertion
// exchanged at the token endpoint (RFC 7523) for an access token, cached until shortly before
// it expires so verifications do not each cost a token request.
import { asRecord, callStore, credential, pem } from './http.ts';
import { signJwt } from './jwt.ts';
import { unavailable, type StoreCredentials, type UnavailableVerdict } from './types.ts';

export const GOOGLE_TOKEN_URI = 'https://oauth2.googleapis.com/token';
const SCOPE = 'https://www.googleapis.com/auth/androidpublisher';
/** Renew this long before Google's expiry, so a token never dies mid-request. */
const MARGIN_MS = 60_000;

export class GoogleTokens {
  private readonly cache = new Map<string, { token: string; expiresAt: number }>();

  constructor(
    private readonly defaultTokenUri: string,
    private readonly timeoutMs: number,
  ) {}

  /** The cached token for these credentials, or a fresh one; `fresh` skips the cache. */
  async get(credentials: StoreCredentials, now: Date, fresh = false): Promise<string | UnavailableVerdict> {
    const email = credential(credentials, 'clientEmail');
    const key = credential(credentials, 'privateKey');
    if (!email || !key) return unavailable('storeCredentials.google lacks clientEmail or privateKey');
    const tokenUri = credential(credentials, 'tokenUri') ?? this.defaultTokenUri;
    const cacheKey = `${email}\n${tokenUri}`;
    const cached = this.cache.get(cacheKey);
    if (!fresh && cached && cached.expiresAt - MARGIN_MS > now.getTime()) return cached.token;

    let assertion: string;
    try {
      const iat = Math.floor(now.getTime() / 1000);
      const kid = credential(credentials, 'privateKeyId');
      assertion = signJwt({ alg: 'RS256', ...(kid ? { kid } : {}) }, { iss: email, scope: SCOPE, aud: tokenUri, iat, exp: iat + 3600 }, pem(key));
    } catch {
      return unavailable('storeCredentials.google.privateKey is not a usable PEM RSA key');
    }
    const body = new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion }).toString();
    const answer = await callStore(tokenUri, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body }, this.timeoutMs);
    if (!answer.ok) return unavailable(`Google token endpoint: ${answer.reason}`);
    const json = asRecord(answer.json);
    if (answer.status !== 200 || typeof json?.access_token !== 'string') {
      this.cache.delete(cacheKey);
      return unavailable(`Google token endpoint answered HTTP ${answer.status}${json?.error ? ` (${String(json.error)})` : ''}: check the service account`);
    }
    const lifetime = typeof json.expires_in === 'number' ? json.expires_in : 3600;
    this.cache.set(cacheKey, { token: json.access_token, expiresAt: now.getTime() + lifetime * 1000 });
    return json.access_token;
  }
}
