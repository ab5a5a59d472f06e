// pino options for Fastify: JSON lines carrying the request id, with secrets redacted
// wherever they could appear (headers, bodies, store credentials, tokens, receipts).
import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { IncomingMessage } from 'node:http';

const SECRET_KEYS = [
  'password', 'passwordHash', 'token', 'authToken', 'access_token', 'receipt_data', 'receiptData',
  'original_transaction_ids', 'storeCredentials', 'credentials', 'sharedSecret', 'privateKey', 'apiKey', 'DATABASE_URL',
];

export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-test-now"]',
  ...SECRET_KEYS.flatMap((key) => [key, `*.${key}`, `*.*.${key}`, `req.body.${key}`]),
];

export function loggerOptions(level: string) {
  return {
    level,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    serializers: {
      req: (req: FastifyRequest) => ({
        method: req.method,
        url: req.url,
        headers: req.headers,
        remoteAddress: req.ip,
      }),
    },
  };
}

/** Accepts a sane incoming X-Request-Id (from a load balancer), otherwise makes one. */
export function requestId(req: IncomingMessage): string {
  const incoming = req.headers['x-request-id'];
  return typeof incoming === 'string' && /^[\w.:-]{1,128}$/.test(incoming) ? incoming : randomUUID();
}
