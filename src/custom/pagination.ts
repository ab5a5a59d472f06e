// Laravel's paginated resource shape, bare (not inside another { data }): data, links, meta.
// meta also carries Laravel's from, to and path (clients ignore them). Page links keep the
// request's other query parameters, so a client that follows `next` asks the same question.
// Links never repeat the caller's Host header (a forged one would be reflected to whoever
// follows them): they start with the configured PUBLIC_URL, or are relative (`/api/...`).
import type { FastifyRequest } from 'fastify';
import type { GuideRows } from '../channels/guide-rows.ts';
import { invalidField } from './errors.ts';
import { MAX_GUIDE_ROWS } from './params.ts';

export interface PageRequest {
  page: number;
  perPage: number;
}

/** Items a page can be cut from without holding them all: a count and the items of a range. */
export interface Sliceable<T> {
  total: number;
  slice(from: number, to: number): T[];
}

/** `publicUrl`: the service's public base URL (PUBLIC_URL), or undefined for relative links. */
export function paginate<T>(request: FastifyRequest, items: readonly T[] | Sliceable<T>, { page, perPage }: PageRequest, publicUrl: string | undefined) {
  const total = 'total' in items ? items.total : items.length;
  const lastPage = Math.max(1, Math.ceil(total / perPage));
  const offset = (page - 1) * perPage;
  const data = offset < total ? items.slice(offset, Math.min(total, offset + perPage)) : [];
  const path = pathOf(request, publicUrl);
  const link = pageLink(request, path);
  return {
    data,
    links: {
      first: link(1),
      last: link(lastPage),
      prev: page > 1 ? link(Math.min(page - 1, lastPage)) : null,
      next: page < lastPage ? link(page + 1) : null,
    },
    meta: {
      current_page: page,
      from: data.length > 0 ? offset + 1 : null,
      last_page: lastPage,
      path,
      per_page: perPage,
      to: data.length > 0 ? offset + data.length : null,
      total,
    },
  };
}

function pathOf(request: FastifyRequest, publicUrl: string | undefined): string {
  // One leading slash: `//host/...` would be a link to another host.
  const path = `/${request.url.split('?')[0]!.replace(/^\/+/, '')}`;
  return `${publicUrl ?? ''}${path}`;
}

/**
 * What `query.set('page', n)` then `toString()` gives, for each n, with the query serialized once
 * (a page has four links; serializing per link was a tenth of a rotating guide's handler): the
 * parameters before the first `page` and after it, `page=n` in its place (at the end without one).
 */
export function pageLink(request: FastifyRequest, path: string): (page: number) => string {
  const entries = [...new URLSearchParams(request.url.split('?')[1] ?? '')];
  const at = entries.findIndex(([name]) => name === 'page');
  const part = (list: [string, string][]) => new URLSearchParams(list.filter(([name]) => name !== 'page')).toString();
  const before = part(at < 0 ? entries : entries.slice(0, at));
  const after = at < 0 ? '' : part(entries.slice(at + 1));
  const head = `${path}?${before}${before ? '&' : ''}page=`;
  const tail = after ? `&${after}` : '';
  return (page) => `${head}${page}${tail}`;
}

/** The guide, when all of it may be one answer (all_videos, the Roku tree); a 422 naming `field` past `max` rows. */
export function wholeGuide(rows: GuideRows, field: string, max = MAX_GUIDE_ROWS): GuideRows {
  if (rows.total <= max) return rows;
  throw invalidField(field, `The guide holds ${rows.total} videos; one answer holds at most ${max}: page through it, or ask fewer channels or dates.`);
}
