// Requests refused before any route or plugin sees them, answered in the envelope of the
// interface group the path belongs to, like every other answer of that group:
// - by Fastify's router: a path whose percent-encoding is not UTF-8 (400), a path parameter
//   longer than the router's limit (414) — `frameworkErrors`;
// - by Node's HTTP parser: a request line with unencoded bytes (non-ASCII, spaces, controls),
//   oversized headers (431), a request that timed out (408) — `clientErrorHandler`, which only
//   has the raw bytes the parser read, so the path comes from the request line when there is one.
// Paths outside the groups keep Fastify's own JSON errors. The groups' envelopes come from the
// registry (src/groups.ts) through `envelopeAt`.
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { ConnectionError, FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { envelopedText, sendEnveloped, type Envelope } from './envelope.ts';

/** The envelope of the group a path belongs to; undefined for paths outside the groups. */
export type EnvelopeAt = (path: string) => Envelope | undefined;

const ROUTER_MESSAGES: Record<string, string> = {
  FST_ERR_BAD_URL: 'The URL is not valid: it has a percent-encoding that is not UTF-8.',
  FST_ERR_MAX_PARAM_LENGTH: 'The URL has a path segment that is too long.',
};

/** Fastify's `frameworkErrors` option: router refusals in the group's envelope. */
export function frameworkErrorHandler(envelopeAt: EnvelopeAt) {
  // Fastify ignores what this returns; a reply is thenable, so it is sent, not returned.
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply): void => {
    const status = error.statusCode ?? 500;
    const envelope = envelopeAt(request.url);
    reply.code(status);
    if (envelope) void sendEnveloped(reply, envelope.failure(status, ROUTER_MESSAGES[error.code] ?? (status < 500 ? 'Bad request.' : 'Server error.')));
    else void reply.send({ error: status < 500 ? 'Bad Request' : 'Internal Server Error', code: error.code, message: error.message, statusCode: status });
  };
}

/** The path of the request line the parser read (`GET /path?query HTTP/1.1`), if any. */
function requestPath(raw: unknown): string {
  // Node hands over the bytes it read as a Buffer (Fastify's type says otherwise).
  const line = Buffer.isBuffer(raw) ? (raw.subarray(0, 8192).toString('latin1').split('\r\n', 1)[0] ?? '') : '';
  return /^[A-Z]+ (\/\S*)/.exec(line)?.[1] ?? '';
}

/** Fastify's `clientErrorHandler` option: its default (statuses, logging, socket handling), with the groups' envelopes. */
export function clientErrorHandler(envelopeAt: EnvelopeAt) {
  return function answerClientError(this: unknown, error: ConnectionError, socket: Socket): void {
    // A reset connection has nobody to answer.
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const [status, defaultMessage, label] =
      error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Client Timeout', 'timeout']
        : error.code === 'HPE_HEADER_OVERFLOW'
          ? [431, 'Exceeded maximum allowed HTTP header size', 'header_overflow']
          : [400, 'Client Error', 'error'];
    (this as { log?: { trace(obj: object, msg: string): void } } | undefined)?.log?.trace({ err: error }, `client ${label}`);
    const groupMessage = status === 400 ? 'The request is not valid HTTP (e.g. unencoded characters in the URL; percent-encode them as UTF-8).' : defaultMessage;
    const envelope = envelopeAt(requestPath(error.rawPacket));
    const answer = envelope
      ? envelopedText(envelope.failure(status, groupMessage))
      : { contentType: 'application/json', text: JSON.stringify({ error: STATUS_CODES[status], message: defaultMessage, statusCode: status }) };
    if (socket.writable) {
      socket.write(
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(answer.text)}\r\n` +
          `Content-Type: ${answer.contentType}\r\nConnection: close\r\n\r\n${answer.text}`,
      );
    }
    socket.destroy(error);
  };
}
