// pino options for Fastify: JSON lines carrying the request id, with secrets redacted
// wherever they could appear (headers, bodies, store credentials, tokens, receipts).
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { Bindings, ChildLoggerOptions, FastifyChildLoggerFactory } from 'fastify/types/logger.js';
import type { IncomingMessage } from 'node:http';

const SECRET_KEYS = [
  'password',
  'passwordHash',
  'token',
  'authToken',
  'access_token',
  'receipt_data',
  'receiptData',
  'original_transaction_ids',
  'storeCredentials',
  'credentials',
  'sharedSecret',
  'privateKey',
  'apiKey',
  'DATABASE_URL',
];

export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-test-now"]',
  'req.headers["x-channelnet-operator"]',
  ...SECRET_KEYS.flatMap((key) => [key, `*.${key}`, `*.*.${key}`, `req.body.${key}`]),
];

export function loggerOptions(level: string) {
  return {
    level,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    serializers: {
      req: (req: FastifyRequest) => ({
        method: req.method,
        url: withoutInviteToken(req.url),
        headers: req.headers,
        remoteAddress: req.ip,
      }),
    },
  };
}

/** A console invitation's address carries its one-time token (docs/studio.md, Onboarding): logged without it. */
export const withoutInviteToken = (url: string) => url.replace(/^(\/studio\/invite\/)[^/?#]+/, '$1[redacted]');

/** Accepts a sane incoming X-Request-Id (from a load balancer), otherwise makes one. */
export function requestId(req: IncomingMessage): string {
  const incoming = req.headers['x-request-id'];
  return typeof incoming === 'string' && /^[\w.:-]{1,128}$/.test(incoming) ? incoming : randomUUID();
}

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';
type LogCall = (...args: unknown[]) => void;

/**
 * A request's logger, made only when the request logs at an enabled level: pino's child binds
 * and redacts the request id at once, which was a tenth of a 304's CPU (issue 35, item 3), and
 * most requests log nothing (LOG_REQUESTS off, no error).
 */
class LazyChild {
  #child: FastifyBaseLogger | undefined;
  readonly #parent: FastifyBaseLogger;
  readonly #bindings: Bindings;
  readonly #options: ChildLoggerOptions;

  constructor(parent: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions) {
    this.#parent = parent;
    this.#bindings = bindings;
    this.#options = options;
  }

  get level(): string {
    return this.#child?.level ?? this.#parent.level;
  }

  set level(level: string) {
    this.#real().level = level;
  }

  fatal(...args: unknown[]): void {
    this.#log('fatal', args);
  }
  error(...args: unknown[]): void {
    this.#log('error', args);
  }
  warn(...args: unknown[]): void {
    this.#log('warn', args);
  }
  info(...args: unknown[]): void {
    this.#log('info', args);
  }
  debug(...args: unknown[]): void {
    this.#log('debug', args);
  }
  trace(...args: unknown[]): void {
    this.#log('trace', args);
  }
  silent(): void {}

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.#real().child(bindings, options);
  }

  #real(): FastifyBaseLogger {
    this.#child ??= this.#parent.child(this.#bindings, this.#options);
    return this.#child;
  }

  #log(level: Level, args: unknown[]): void {
    const enabled = (this.#parent as { isLevelEnabled?: (l: string) => boolean }).isLevelEnabled;
    if (enabled && !enabled.call(this.#parent, level)) return;
    (this.#real()[level] as LogCall)(...args);
  }
}

export const lazyChildLogger: FastifyChildLoggerFactory = (logger, bindings, options) => new LazyChild(logger, bindings, options) as unknown as FastifyBaseLogger;
