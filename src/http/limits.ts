// Request limits shared by every interface group. Each group registers the rate limiter
// inside its own encapsulated plugin, so a 429 reaches that group's error handler and is
// answered in the group's envelope (with Retry-After set by the limiter).
import rateLimit from '@fastify/rate-limit';
import underPressure from '@fastify/under-pressure';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import type { DatabaseHandle } from '../db/connect.ts';
import type { Envelope } from './envelope.ts';
import { sendUnavailable } from './unavailable.ts';

export type LimitsConfig = Pick<
  Config,
  'RATE_LIMIT_ENABLED' | 'RATE_LIMIT_WINDOW_MS' | 'RATE_LIMIT_MAX' | 'RATE_LIMIT_LOGIN_MAX' | 'RATE_LIMIT_ACTIVITY_MAX' | 'RATE_LIMIT_ACTIVITY_ADDRESS_MAX'
>;

/** Per client address on every route of the group; routes may override with `rateLimit` config. */
export async function registerRateLimit(app: FastifyInstance, limits: LimitsConfig): Promise<void> {
  if (!limits.RATE_LIMIT_ENABLED) return;
  await app.register(rateLimit, {
    max: limits.RATE_LIMIT_MAX,
    timeWindow: limits.RATE_LIMIT_WINDOW_MS,
    // X-RateLimit-* headers only on a 429: three more headers on every answer cost the hot
    // read routes a measurable share of their throughput (bench/README.md: Performance).
    addHeadersOnExceeding: { 'x-ratelimit-limit': false, 'x-ratelimit-remaining': false, 'x-ratelimit-reset': false },
  });
}

/** Route config for login routes: fewer attempts per address. */
export function loginRateLimit(limits: LimitsConfig) {
  return { rateLimit: { max: limits.RATE_LIMIT_LOGIN_MAX, timeWindow: limits.RATE_LIMIT_WINDOW_MS } };
}

/** Longer user_ids are refused by parsing (422); as limiter keys they could hold 64 KiB each. */
const MAX_DEVICE_KEY_LENGTH = 255;

/** The device an activity event names (its user_id), or undefined. */
function deviceOf(body: unknown): string | undefined {
  const id = (body as { user_id?: unknown } | undefined)?.user_id;
  const device = typeof id === 'string' || typeof id === 'number' ? String(id) : '';
  return device !== '' && device.length <= MAX_DEVICE_KEY_LENGTH ? device : undefined;
}

type RefuseDevice = (reply: FastifyReply, retryAfterSeconds: number) => FastifyReply;

/**
 * Activity's two limits, registered once around both activity paths so that each counts both:
 * per client address on every request, before the body is read (as the group default: a route
 * with its own limit would get its own counter), and per device (user_id), returned as a
 * preHandler that answers with `refuse` (the plugin runs one limit per request itself).
 * Undefined when rate limits are off.
 */
export async function registerActivityRateLimits(app: FastifyInstance, limits: LimitsConfig, refuse: RefuseDevice) {
  if (!limits.RATE_LIMIT_ENABLED) return undefined;
  await registerRateLimit(app, { ...limits, RATE_LIMIT_MAX: limits.RATE_LIMIT_ACTIVITY_ADDRESS_MAX });
  const check = app.createRateLimit({
    max: limits.RATE_LIMIT_ACTIVITY_MAX,
    timeWindow: limits.RATE_LIMIT_WINDOW_MS,
    keyGenerator: (request: FastifyRequest) => `device:${deviceOf(request.body)}`,
  });
  return async (request: FastifyRequest, reply: FastifyReply) => {
    if (deviceOf(request.body) === undefined) return;
    const result = await check(request);
    if (result.isAllowed || !result.isExceeded) return;
    // The headers the plugin sends with its own 429s (docs/operations.md: Configuration).
    reply.headers({ 'x-ratelimit-limit': result.max, 'x-ratelimit-remaining': 0, 'x-ratelimit-reset': result.ttlInSeconds });
    return refuse(reply.header('retry-after', String(result.ttlInSeconds)), result.ttlInSeconds);
  };
}

export interface SheddingOptions {
  database: DatabaseHandle;
  maxEventLoopDelayMs: number;
  maxPoolWaiting: number;
  /** The envelope of the group a URL belongs to (undefined: none), for the 503. */
  envelopeAt: (url: string) => Envelope | undefined;
}

/** Load shedding: 503 while the event loop lags or too many requests wait for the database. */
export async function registerLoadShedding(app: FastifyInstance, options: SheddingOptions): Promise<void> {
  const poolSaturated = () => {
    const stats = options.database.poolStats();
    return options.maxPoolWaiting > 0 && stats !== undefined && stats.waiting > options.maxPoolWaiting;
  };
  await app.register(underPressure, {
    maxEventLoopDelay: options.maxEventLoopDelayMs,
    retryAfter: 5,
    exposeStatusRoute: false,
    // Returns nothing: under-pressure would send a returned value as the body.
    pressureHandler: (request, reply) => {
      sendUnavailable(reply, options.envelopeAt(request.url));
    },
  });
  app.addHook('onRequest', (request, reply, done) => {
    if (!poolSaturated()) return done();
    sendUnavailable(reply, options.envelopeAt(request.url));
  });
}
