// The envelope of an interface group: how the group words the answers that are not a route's
// own (a refusal before routing, an unknown route, a fault, a 503). Each group declares one next
// to its error bodies; src/groups.ts lists them by URL prefix, and the shared handlers here take
// them as values, so src/http depends on no group.
import type { FastifyReply, FastifyRequest } from 'fastify';

/** A body in a group's envelope: a value Fastify serializes as JSON, or text of a content type. */
export type Enveloped = { json: unknown } | { text: string; contentType: string };

export interface Envelope {
  /** A failure described by status and message: a refusal before routing (400, 408, 414, 431), a fault. */
  failure(status: number, message: string): Enveloped;
  /** An unknown route under the group's prefixes; absent: Fastify's own 404. */
  notFound?(request: FastifyRequest): Enveloped;
  /** The 503 of an unreachable database or of load shedding (sent with Retry-After). */
  unavailable: Enveloped;
}

export function sendEnveloped(reply: FastifyReply, body: Enveloped): FastifyReply {
  return 'text' in body ? reply.type(body.contentType).send(body.text) : reply.send(body.json);
}

const JSON_TYPE = 'application/json; charset=utf-8';

/** The bytes and their type, for answers written to the socket without Fastify. */
export function envelopedText(body: Enveloped): { contentType: string; text: string } {
  return 'text' in body ? body : { contentType: JSON_TYPE, text: JSON.stringify(body.json) };
}

/** Whether `path` (a request URL, query included) is `prefix` or below it, as Fastify's prefixes route. */
export const isUnder = (path: string, prefix: string): boolean => path === prefix || path.startsWith(`${prefix}/`) || path.startsWith(`${prefix}?`);

/** The entry whose longest prefix holds `path` (a group nested in another's prefix wins), if any. */
export function entryAt<T extends { prefixes: readonly string[] }>(entries: readonly T[], path: string): T | undefined {
  let best: T | undefined;
  let length = -1;
  for (const entry of entries) {
    for (const prefix of entry.prefixes) {
      if (prefix.length > length && isUnder(path, prefix)) [best, length] = [entry, prefix.length];
    }
  }
  return best;
}
