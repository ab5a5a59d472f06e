// The absolute base URL the live outputs write into the M3U and the tuner's documents: players
// and media servers need absolute URLs. PUBLIC_URL when the operator set it; otherwise the
// scheme and Host the request came with (behind a proxy, X-Forwarded-Proto as TRUST_PROXY
// allows). A Host is the caller's word, so the answer goes back to that caller only
// (Cache-Control: private) and a Host that is not a plain host[:port] is not written at all.
import type { FastifyRequest } from 'fastify';

const PLAIN_HOST = /^(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

export function publicBase(request: FastifyRequest, publicUrl: string | undefined): string {
  if (publicUrl !== undefined) return publicUrl;
  const host = request.host;
  return PLAIN_HOST.test(host) ? `${request.protocol}://${host}` : '';
}
