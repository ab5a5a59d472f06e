// The Custom API's Bearer tokens: the REST API's, with a fixed 3600 s lifetime. Issued by login
// and refresh (auth-routes.ts) and by a Bearer-only channel unlock (playback-routes.ts).
import { CUSTOM_TOKEN_SECONDS, issueToken, type TokenLifetime } from '../access/tokens.ts';
import type { Queryable } from '../db/connect.ts';

export const CUSTOM_TOKEN_LIFETIME: TokenLifetime = { kind: 'fixed', seconds: CUSTOM_TOKEN_SECONDS };

export function issueCustomToken(db: Queryable, accountId: number, now: Date): Promise<string> {
  return issueToken(db, accountId, CUSTOM_TOKEN_LIFETIME, now);
}
