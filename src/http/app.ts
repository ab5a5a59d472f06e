// Builds the Fastify application: one encapsulated plugin per interface group, all
// sharing the database handle and the per-request clock.
import Fastify, { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { activityRoutes } from '../activity/routes.ts';
import type { Clock } from '../clock.ts';
import { CatalogCache } from '../cache/catalog-cache.ts';
import { ScheduleTimelines } from '../schedules/timelines.ts';
import { loadConfig, type Config } from '../config.ts';
import type { DatabaseHandle } from '../db/connect.ts';
import { legacyRoutes } from '../legacy/routes.ts';
import { customApi } from '../custom/plugin.ts';
import { failureBody } from '../custom/errors.ts';
import { MOBILE_TREE } from '../compat/mobile.ts';
import { ROKU_TREE } from '../compat/roku.ts';
import { clockPlugin } from './clock-plugin.ts';
import { answerClientError, answerFrameworkError } from './framework-errors.ts';
import { restApi } from '../rest/plugin.ts';
import { assetRoutes } from './assets.ts';
import { loggerOptions, requestId } from '../observability/logger.ts';
import { registerDocs } from './docs.ts';
import { healthRoutes } from './health.ts';
import { registerLoadShedding } from './limits.ts';
import { metricsPlugin } from './metrics-plugin.ts';
import { trustProxyOption } from './proxies.ts';
import { unavailableBody } from './unavailable.ts';

export interface AppOptions {
  database: DatabaseHandle;
  /** Unset values take their defaults (tests set only what they test). */
  config: Partial<Config>;
  clock?: Clock;
  logger?: FastifyServerOptions['logger'];
}

/** The compatibility trees COMPAT_ROUTES may switch on (README: Shipped clients). */
const COMPAT_TREES = { mobile: MOBILE_TREE, roku: ROKU_TREE } as const;

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const config: Config = { ...loadConfig({}), ...options.config };
  const app = Fastify({
    logger: options.logger ?? loggerOptions(config.LOG_LEVEL),
    genReqId: requestId,
    logController: new LogController({ disableRequestLogging: !config.LOG_REQUESTS }),
    // Keep-alive connections that are idle are closed at shutdown; busy ones finish first.
    forceCloseConnections: 'idle',
    trustProxy: trustProxyOption(config.TRUST_PROXY),
    requestTimeout: config.REQUEST_TIMEOUT_MS,
    keepAliveTimeout: config.KEEP_ALIVE_TIMEOUT_MS,
    // Malformed URLs and requests are refused before routing; the answer is still in the group's envelope.
    frameworkErrors: answerFrameworkError,
    clientErrorHandler: answerClientError,
  });
  await app.register(clockPlugin, { testClock: config.CHANNELNET_TEST_CLOCK, clock: options.clock });
  const { cache, stop: stopCache } = await CatalogCache.start(options.database, {
    maxEntries: config.CACHE_MAX_ENTRIES,
    maxBytes: config.CACHE_MAX_BYTES,
  });
  app.addHook('onClose', stopCache);
  const timelines = new ScheduleTimelines(config.SCHEDULE_CACHE_ENTRIES);
  cache.follow((trusted) => timelines.invalidate(trusted && config.SCHEDULE_CACHE_ENTRIES > 0));
  const group = { database: options.database, config, cache, timelines };
  await registerLoadShedding(app, {
    database: options.database,
    maxEventLoopDelayMs: config.MAX_EVENT_LOOP_DELAY_MS,
    maxPoolWaiting: config.MAX_DB_POOL_WAITING,
    respond: unavailableBody,
  });
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  await app.register(metricsPlugin, { database: options.database, expose: config.METRICS_ENABLED });
  if (config.DOCS_ENABLED) await registerDocs(app);
  await app.register(healthRoutes, { database: options.database });
  await app.register(activityRoutes, { ...group, sweep: !config.CHANNELNET_TEST_CLOCK });
  await app.register(assetRoutes, { database: options.database });
  await app.register(restApi, { prefix: '/api/v1/rest', ...group });
  await app.register(customApi, { prefix: '/api/v1/services/custom', ...group });
  for (const name of config.COMPAT_ROUTES) await app.register(customApi, { prefix: `/api/v1/services/${name}`, ...group, tree: COMPAT_TREES[name] });
  // Any other path under /api/v1/services/ is the Custom API's 404, not Fastify's.
  await app.register(async (services) => services.setNotFoundHandler((_request, reply) => reply.code(404).send(failureBody(404, 'Not found.'))), {
    prefix: '/api/v1/services',
  });
  await app.register(legacyRoutes, { prefix: '/WebServices', ...group });
  return app;
}
