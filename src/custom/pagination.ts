// Laravel's paginated resource shape, bare (not inside another { data }): data, links, meta.
// meta also carries Laravel's from, to and path (clients ignore them). Page links keep the
// request's other query parameters, so a client that follows `next` asks the same question.
import type { FastifyRequest } from 'fastify';

export interface PageRequest {
  page: number;
  perPage: number;
}

export function paginate<T>(request: FastifyRequest, items: readonly T[], { page, perPage }: PageRequest) {
  const total = items.length;
  const lastPage = Math.max(1, Math.ceil(total / perPage));
  const offset = (page - 1) * perPage;
  const data = offset < total ? items.slice(offset, offset + perPage) : [];
  const link = pageLink(request);
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
      path: pathOf(request),
      per_page: perPage,
      to: data.length > 0 ? offset + data.length : null,
      total,
    },
  };
}

function pathOf(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}${request.url.split('?')[0]}`;
}

function pageLink(request: FastifyRequest): (page: number) => string {
  const query = new URLSearchParams(request.url.split('?')[1] ?? '');
  return (page) => {
    query.set('page', String(page));
    return `${pathOf(request)}?${query.toString()}`;
  };
}
