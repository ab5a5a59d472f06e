// Sending media bytes (a slate segment from memory, a tuner's MPEG-TS stream) on a route whose
// response schema documents them as a string (OpenAPI has no bytes type): Fastify sends a Buffer
// or a stream as it is; only the reply's type, which expects the schema's string, is widened
// (as json-text.ts does for JSON written as text), instead of a cast in the handler.
import type { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';

export function sendMedia(reply: FastifyReply, type: string, body: Buffer | Readable): FastifyReply {
  return reply.type(type).send(body);
}
