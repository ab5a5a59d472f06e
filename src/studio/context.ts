// What every Studio route reads off its request: the editor (owner, signed-in account, clock)
// and the write preconditions a client sent (If-Match, Idempotency-Key).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { requestHash, type Editor, type Idempotency, type Written } from '../editing/write.ts';
import { StudioError } from './errors.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The owner managing their network through a Studio route (set by the auth hook). */
    editor: Editor;
  }
  interface FastifyContextConfig {
    /** A Studio route open without a sign-in (onboarding: invite-routes.ts); no `editor` is set. */
    anonymous?: boolean;
  }
}

const KEY_RE = /^[\x21-\x7e]{1,200}$/;

export function ifMatchOf(request: FastifyRequest): string | undefined {
  const header = request.headers['if-match'];
  return Array.isArray(header) ? header.join(',') : header;
}

/** The Idempotency-Key of a POST (printable ASCII, at most 200 characters), tied to its body's digest. */
export function idempotencyOf(request: FastifyRequest): Idempotency | undefined {
  const key = request.headers['idempotency-key'];
  if (key === undefined) return undefined;
  if (typeof key !== 'string' || !KEY_RE.test(key)) {
    throw new StudioError(422, 'invalid_request', 'Idempotency-Key must be 1 to 200 printable ASCII characters.');
  }
  return { key, requestHash: requestHash(request.method, request.url, withoutSecrets(request.body ?? null)) };
}

const SECRET_KEYS = new Set(['password', 'passwordHash', 'storeCredentials', 'token']);

/**
 * The body as the stored request digest sees it: a fast digest of a password would be kept for a
 * day, so secrets are left out (a retry that changes only a secret counts as the same request).
 */
function withoutSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSecrets);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !SECRET_KEYS.has(key))
      .map(([key, v]) => [key, withoutSecrets(v)]),
  );
}

/** Sends a write's answer: its status, ETag and body in the envelope (204: no body). */
export function sendWritten<T>(reply: FastifyReply, written: Written<T>) {
  if (written.etag) reply.header('etag', written.etag);
  reply.code(written.status);
  return written.status === 204 ? reply.send() : reply.send({ success: true as const, data: written.body });
}

/** Sends a read: the resource with its ETag. */
export function sendResource<T>(reply: FastifyReply, etag: string, data: T) {
  return reply.header('etag', etag).send({ success: true as const, data });
}
