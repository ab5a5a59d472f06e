// The Bearer cache's rules (src/access/bearer-cache.ts), on a clock of its own.
import { describe, expect, it } from 'vitest';
import { BearerCache, forgetTokensLocally, type KeptToken } from '../src/access/bearer-cache.ts';

const row = (accountId: number): KeptToken => ({
  id: accountId,
  kind: 'session',
  expiresAt: null,
  slidingSeconds: null,
  lastUsedAt: null,
  revokedAt: null,
  account: { id: accountId, status: 'active' },
});
const hash = (n: number) => n.toString(16).padStart(64, '0');

function cacheAt(keepMs = 60_000) {
  const clock = { now: 0 };
  const cache = new BearerCache(keepMs, () => clock.now);
  cache.invalidate(true);
  return { cache, clock };
}

describe('the Bearer cache', () => {
  it('keeps a token for its bound, an unknown one for 5 s, and nothing while changes are not heard', () => {
    const { cache, clock } = cacheAt();
    cache.keep(hash(1), row(1), cache.version);
    cache.keep(hash(2), undefined, cache.version);
    expect(cache.get(hash(1))).toMatchObject({ id: 1 });
    expect(cache.get(hash(2))).toBeNull();
    clock.now = 5_000;
    expect(cache.get(hash(2))).toBeUndefined();
    clock.now = 60_000;
    expect(cache.get(hash(1))).toBeUndefined();
    cache.invalidate(false);
    cache.keep(hash(3), row(3), cache.version);
    expect(cache.get(hash(3))).toBeUndefined();
    cache.close();
  });

  it("does not keep a row read before a revocation, and drops an account's tokens on its owner change", () => {
    const { cache } = cacheAt();
    const before = cache.version;
    forgetTokensLocally([hash(9)]);
    cache.keep(hash(9), row(9), before);
    expect(cache.get(hash(9))).toBeUndefined();
    cache.keep(hash(1), row(1), cache.version);
    cache.keep(hash(2), row(2), cache.version);
    cache.drop({ ownerId: 1 });
    expect([cache.get(hash(1)), cache.get(hash(2))?.id]).toEqual([undefined, 2]);
    cache.revoked([hash(2)]);
    expect(cache.get(hash(2))).toBeUndefined();
    cache.close();
  });

  it('keeps unknown tokens apart: 5,000 made-up ones evict no known token', () => {
    const { cache } = cacheAt();
    cache.keep(hash(1), row(1), cache.version);
    for (let n = 100; n < 5_100; n++) cache.keep(hash(n), undefined, cache.version);
    expect(cache.size).toEqual({ known: 1, unknown: 1_000 });
    expect(cache.get(hash(1))).toMatchObject({ id: 1 });
    cache.close();
  });

  it('keeps nothing with a bound of 0', () => {
    const { cache } = cacheAt(0);
    cache.keep(hash(1), row(1), cache.version);
    expect(cache.get(hash(1))).toBeUndefined();
    cache.close();
  });
});
