// Sending JSON text a route has already written to its response schema's shape (an export built
// as text: serializing its 32 MB again was most of its CPU). Fastify sends a string with a JSON
// content type as it is; only the reply's type, which expects the schema's object, is widened.
import type { FastifyReply } from 'fastify';

export function sendJsonText(reply: FastifyReply, text: string): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(text);
}
