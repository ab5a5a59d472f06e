// Page links (custom/pagination.ts pageLink) against what URLSearchParams.set('page', n) then
// toString() writes, for any query: `page` first, last, repeated or absent, names and values
// that need encoding, blank parameters.
import fc from 'fast-check';
import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { pageLink } from '../src/custom/pagination.ts';

const expected = (url: string, path: string, page: number) => {
  const query = new URLSearchParams(url.split('?')[1] ?? '');
  query.set('page', String(page));
  return `${path}?${query.toString()}`;
};
const piece = fc.oneof(fc.constantFrom('page', 'per_page', 'timezone', 'a b', 'x%2Fy', '&', '=', '', 'é', '+'), fc.string({ maxLength: 6 }));

describe('pageLink', () => {
  it('writes what URLSearchParams.set writes, for any query', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(piece, piece, fc.boolean()), { maxLength: 6 }), fc.integer({ min: 1, max: 10_000 }), (params, page) => {
        const query = params.map(([name, value, bare]) => (bare ? encodeURIComponent(name) : `${name}=${value}`)).join('&');
        const url = `/api/v1/services/custom/users/1/channels/video${query ? `?${query}` : ''}`;
        const link = pageLink({ url } as FastifyRequest, '/p');
        expect(link(page)).toBe(expected(url, '/p', page));
      }),
      { seed: 20261129, numRuns: 500 },
    );
    const link = pageLink({ url: '/x?page=3&timezone=America/New_York&page=9&dates=2026-11-29' } as FastifyRequest, 'https://tv.example/x');
    expect(link(4)).toBe('https://tv.example/x?page=4&timezone=America%2FNew_York&dates=2026-11-29');
  });
});
