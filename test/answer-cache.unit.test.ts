import { describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { AnswerCache, etagOf, matchesIfNoneMatch } from '../src/cache/answer-cache.ts';

const answer = (bytes: number, scope = { ownerId: 1 }, until = 2_000) => ({ body: Buffer.alloc(bytes, 7), contentType: 'application/json', scope, from: 1_000, until });

function trusted(maxBytes: number): AnswerCache {
  const cache = new AnswerCache(maxBytes);
  cache.invalidate(true);
  return cache;
}

describe('AnswerCache', () => {
  it('stays within its byte bound, least recently used out first, and counts evictions', () => {
    const cache = trusted(10_000);
    // Each key asked twice: past the bound a key earns its place on its second ask (admission).
    for (let i = 0; i < 20; i++) for (const _ of [1, 2]) cache.keep(`k${i}`, cache.version, answer(1_000));
    const { bytes, entries, evictions } = cache.stats();
    expect(bytes).toBeLessThanOrEqual(10_000);
    expect(entries).toBeGreaterThan(0);
    expect(evictions).toBe(20 - entries);
    expect(cache.get('k19', 1_500)).toBeDefined();
    expect(cache.get('k0', 1_500)).toBeUndefined();
    // An answer larger than the whole bound is served (returned) but not kept.
    expect(cache.keep('huge', cache.version, answer(20_000))?.body.length).toBe(20_000);
    expect(cache.get('huge', 1_500)).toBeUndefined();
  });

  it('admits a key asked once only while there is room: a flood of one-off keys evicts nothing (issue 35)', () => {
    const cache = trusted(10_000);
    for (let i = 0; i < 8; i++) cache.keep(`real${i}`, cache.version, answer(1_000));
    for (let i = 0; i < 60; i++) expect(cache.keep(`junk${i}`, cache.version, answer(1_000))?.etag).toBeDefined();
    for (let i = 0; i < 8; i++) expect(cache.get(`real${i}`, 1_500), `real${i}`).toBeDefined();
    expect(cache.stats()).toMatchObject({ evictions: 0, refused: expect.any(Number) });
    expect(cache.stats().refused).toBeGreaterThanOrEqual(59);
    // Asked again, a key is kept (pushing the least recently used out).
    cache.keep('junk59', cache.version, answer(1_000));
    expect(cache.get('junk59', 1_500)).toBeDefined();
  });

  it('admits once per answer, before its bytes are made: the admission passed to keep is not asked again (issue 35)', () => {
    const cache = trusted(10_000);
    for (let i = 0; i < 10; i++) cache.keep(`real${i}`, cache.version, answer(1_000));
    // Full: a first ask is refused, and a one-off answer is then sent as written, never kept.
    expect(cache.admit('one-off', cache.version, 1_000, 1_000, 2_000)).toBe(false);
    expect(cache.get('real0', 1_500)).toBeDefined();
    // Its second ask is admitted once, and keep takes that word for it (asking the doorkeeper
    // again would have found the key gone from it and refused the answer).
    expect(cache.admit('one-off', cache.version, 1_000, 1_000, 2_000)).toBe(true);
    cache.keep('one-off', cache.version, answer(1_000), false, true);
    expect(cache.get('one-off', 1_500)).toBeDefined();
    // Nothing is admitted that keep would not keep: computed across a change, or already stale.
    const before = cache.version;
    cache.drop({ ownerId: 3 });
    expect(cache.admit('late', before, 10, 1_000, 2_000)).toBe(false);
    expect(cache.admit('stale', cache.version, 10, 2_000, 2_000)).toBe(false);
  });

  it('names a body written as text with the ETag of its UTF-8 bytes (a one-off answer is hashed as written)', () => {
    for (const text of ['{"a":1}', '{"title":"Café \u2028 \u{1F3AC} 東京 \ud800"}', '']) expect(etagOf(text)).toBe(etagOf(Buffer.from(text)));
  });

  it('serves an answer only within [from, until), and counts hits and misses', () => {
    const cache = trusted(1 << 20);
    cache.keep('k', cache.version, answer(10));
    expect([cache.get('k', 999), cache.get('k', 1_000)?.body.length, cache.get('k', 1_999)?.body.length, cache.get('k', 2_000)]).toEqual([undefined, 10, 10, undefined]);
    expect(cache.stats()).toMatchObject({ hits: 2, misses: 2 });
  });

  it('keeps nothing computed across a change, nothing while changes are not heard, nothing at size 0', () => {
    const cache = trusted(1 << 20);
    const version = cache.version;
    cache.drop({ ownerId: 2 });
    expect(cache.keep('k', version, answer(10))).toBeUndefined();
    cache.invalidate(false);
    expect(cache.keep('k', cache.version, answer(10))).toBeUndefined();
    expect(cache.active).toBe(false);
    const none = trusted(0);
    expect([none.active, none.keep('k', none.version, answer(10))]).toEqual([false, undefined]);
  });

  it('drops the answers a change touches: the owner, or its channels and its owner-wide answers', () => {
    const cache = trusted(1 << 20);
    cache.keep('list', cache.version, answer(10, { ownerId: 1 }));
    cache.keep('guide-5', cache.version, answer(10, { ownerId: 1, channelIds: [5] } as never));
    cache.keep('guide-6', cache.version, answer(10, { ownerId: 1, channelIds: [6] } as never));
    cache.keep('other', cache.version, answer(10, { ownerId: 2 }));
    cache.drop({ ownerId: 1, channelIds: [5] });
    const kept = (key: string) => cache.get(key, 1_500) !== undefined;
    expect(['list', 'guide-5', 'guide-6', 'other'].map(kept)).toEqual([false, false, true, true]);
    cache.drop({ ownerId: 1 });
    expect(['guide-6', 'other'].map(kept)).toEqual([false, true]);
  });

  it('keeps an answer pushed out as its gzip alone (the compact tier) and serves it whole (issue 35)', () => {
    // 8 answers of 20,000 compressible bytes against a 100,000-byte bound: a rotation past the bound.
    const cache = trusted(100_000);
    const text = (i: number) => Buffer.from(JSON.stringify(Array.from({ length: 700 }, (_, k) => ({ n: i, k, title: `Programme ${k}` }))).slice(0, 20_000));
    const bodies = Array.from({ length: 8 }, (_, i) => text(i));
    for (let round = 0; round < 2; round++) bodies.forEach((body, i) => cache.keep(`k${i}`, cache.version, { ...answer(0), body }));
    expect(cache.stats().compact).toBeGreaterThan(0);
    expect(cache.stats().bytes).toBeLessThanOrEqual(125_000); // the bound and its compact share
    // Every key of the rotation is served, byte for byte, with the ETag of its body.
    bodies.forEach((body, i) => {
      const served = cache.get(`k${i}`, 1_500);
      expect(served?.body.equals(body), `k${i}`).toBe(true);
      expect(served?.etag).toBe(etagOf(body));
    });
    // A change drops compact answers as it drops whole ones.
    cache.drop({ ownerId: 1 });
    expect(bodies.map((_, i) => cache.get(`k${i}`, 1_500))).toEqual(bodies.map(() => undefined));
    expect(cache.stats()).toMatchObject({ entries: 0, compact: 0, bytes: 0 });
  });

  it('keeps compact only what compresses to half or less, and what is 4 KB or more', () => {
    const cache = trusted(30_000);
    for (let i = 0; i < 6; i++) for (const _ of [1, 2]) cache.keep(`r${i}`, cache.version, { ...answer(0), body: randomBytes(10_000) });
    for (let i = 0; i < 40; i++) for (const _ of [1, 2]) cache.keep(`s${i}`, cache.version, answer(3_000));
    expect(cache.stats().compact).toBe(0);
    expect(cache.get('r0', 1_500)).toBeUndefined();
  });

  it('gzips an answer over 256 KB only for a client that takes gzip, never when pushing it out (bounded work per request)', () => {
    const cache = trusted(2_000_000);
    const big = (fill: number) => ({ ...answer(0), body: Buffer.alloc(300_000, fill) });
    cache.keep('never-gzipped', cache.version, big(97));
    cache.keep('gzipped', cache.version, big(98), true);
    // Push both out (each new key asked twice once the model is full).
    for (let i = 0; i < 8; i++) for (const _ of [1, 2]) cache.keep(`next${i}`, cache.version, big(100 + i));
    expect(cache.get('never-gzipped', 1_500)).toBeUndefined();
    expect(cache.get('gzipped', 1_500)?.body.equals(big(98).body)).toBe(true);
  });

  it('serves a compact answer only within [from, until)', () => {
    const cache = trusted(30_000);
    const body = Buffer.alloc(20_000, 97);
    cache.keep('old', cache.version, { ...answer(0), body });
    // Asked twice (admission), 'new' pushes 'old' out, into the compact tier.
    for (const _ of [1, 2]) cache.keep('new', cache.version, { ...answer(0), body: Buffer.alloc(20_000, 98) });
    expect(cache.stats().compact).toBe(1);
    expect(cache.get('old', 2_000)).toBeUndefined();
    expect(cache.get('old', 999)).toBeUndefined();
    expect(cache.get('old', 1_999)?.body.equals(body)).toBe(true);
  });

  it('compares If-None-Match weakly, as RFC 9110 asks, a list or *', () => {
    const etag = etagOf(Buffer.from('x'));
    expect(etag).toMatch(/^"[\w-]{27}"$/);
    expect([etag, `W/${etag}`, `"a", ${etag}`, '*', '"a"', undefined].map((h) => matchesIfNoneMatch(h, etag))).toEqual([true, true, true, true, false, false]);
  });
});

describe('gzip in the read model', async () => {
  const { acceptsGzip } = await import('../src/http/answers.ts');
  const { gzipped, gzipEtag, GZIP_FROM } = await import('../src/cache/answer-cache.ts');

  it('reads Accept-Encoding as RFC 9110 says: by name or *, q above 0', () => {
    expect(['gzip', 'br, gzip', 'gzip;q=0.5', '*', 'deflate, *;q=0.1', 'GZIP', 'x-gzip'].every(acceptsGzip)).toBe(true);
    expect(['identity', 'gzip;q=0', 'gzip; q=0.000', 'br', '', 'gzipped'].some(acceptsGzip)).toBe(false);
    expect(acceptsGzip(undefined)).toBe(false);
  });

  it('gzips what is worth it, and names the gzipped representation apart', () => {
    expect(gzipped(Buffer.alloc(GZIP_FROM - 1, 97))).toBeUndefined();
    expect(gzipped(Buffer.alloc(GZIP_FROM, 97))!.length).toBeLessThan(100);
    expect(gzipped(randomBytes(4096))).toBeUndefined();
    expect(gzipEtag('"abc"')).toBe('"abc-gz"');
  });

  it('makes the gzip once, for the first client that takes it, counted against the bound', () => {
    const cache = trusted(1 << 20);
    const plain = cache.keep('k', cache.version, { ...answer(0), body: Buffer.alloc(10_000, 97) });
    expect(plain?.gzip).toBeUndefined(); // no gzip client yet: nothing made
    expect(cache.stats().bytes).toBe(10_000 + 2 + 200);
    const made = cache.compressed('k', plain!);
    expect(made.gzip?.length).toBeGreaterThan(0);
    expect(cache.stats().bytes).toBe(10_000 + made.gzip!.length + 2 + 200);
    expect(cache.get('k', 1_500)).toBe(made);
    expect(cache.compressed('k', made)).toBe(made); // made once
    // Dropped by its owner's change like any answer (still indexed after being kept again).
    cache.drop({ ownerId: answer(0).scope.ownerId });
    expect(cache.get('k', 1_500)).toBeUndefined();
    const atOnce = cache.keep('g', cache.version, { ...answer(0), body: Buffer.alloc(10_000, 97) }, true);
    expect(atOnce?.gzip?.length).toBeGreaterThan(0);
    const random = cache.keep('r', cache.version, { ...answer(0), body: randomBytes(4096) }, true);
    expect(random?.gzip).toBeNull(); // tried, not worth it: never tried again
  });
});
