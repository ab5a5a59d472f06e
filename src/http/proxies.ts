// The client address behind proxies. Fastify 5 ignores a bare hop count (it cannot check the
// peer), so a count becomes a function trusting that many hops from the socket inward.
import type { FastifyServerOptions } from 'fastify';
import type { TrustProxy } from '../config.ts';

/** Fastify's `trustProxy` for TRUST_PROXY: hop 0 is the socket peer, hop 1 the last X-Forwarded-For entry, ... */
export function trustProxyOption(trust: TrustProxy): FastifyServerOptions['trustProxy'] {
  if (trust === false || trust === 0) return false;
  if (typeof trust === 'number') return (_address: string, hop: number) => hop < trust;
  return trust;
}
