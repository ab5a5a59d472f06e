// Builds the Fastify application: one encapsulated plugin per interface group of the registry
// (groups.ts), all sharing the database handle, the caches and the per-request clock.
import { BearerCache } from './access/bearer-cache.ts';
import { allowStoredOrigins } from './catalog/fields.ts';
import Fastify, { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { AnswerCache } from './cache/answer-cache.ts';
import { CatalogCache } from './cache/catalog-cache.ts';
import { systemClock, type Clock } from './clock.ts';
import { StoreNotifications } from './entitlements/notifications/service.ts';
import { loadConfig, type Config } from './config.ts';
import type { DatabaseHandle } from './db/connect.ts';
import { docsAt, envelopeAt, GROUPS } from './groups.ts';
import { assetRoutes } from './http/assets.ts';
import { clockPlugin } from './http/clock-plugin.ts';
import { consoleRoutes } from './http/console.ts';
import { registerDocs } from './http/docs.ts';
import { clientErrorHandler, frameworkErrorHandler } from './http/framework-errors.ts';
import type { GroupOptions } from './http/group.ts';
import { decorateAnswers } from './http/answers.ts';
import { healthRoutes } from './http/health.ts';
import { registerLoadShedding } from './http/limits.ts';
import { metricsPlugin } from './http/metrics-plugin.ts';
import { trustProxyOption } from './http/proxies.ts';
import { Jobs, serviceJobs } from './jobs.ts';
import { HlsIngests } from './linear/ingest-worker.ts';
import { safeFetcher } from './media/safe-fetch.ts';
import { lazyChildLogger, loggerOptions, requestId } from './observability/logger.ts';
import { observeCache } from './observability/metrics.ts';
import { BYTES_PER_ENTRY, ScheduleTimelines } from './schedules/timelines.ts';
import { zoneOffsetBytes } from './schedules/zone-offsets.ts';
import { makeGuides, type Guides } from './guides/guides.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The process's store notification service (its inbox worker, for tests and the CLI). */
    storeNotifications: StoreNotifications;
    /** The process's XMLTV guides: kept days, the background preparer and the warmer (tests await them). */
    guides: Guides;
    /** The process's read model of viewer answers (src/http/answers.ts; tests read its figures). */
    answers: AnswerCache;
    /** The process's HLS ingest queue (tests await its idle()). */
    hlsIngests: HlsIngests;
  }
}

export interface AppOptions {
  database: DatabaseHandle;
  /** Unset values take their defaults (tests set only what they test). */
  config: Partial<Config>;
  clock?: Clock;
  logger?: FastifyServerOptions['logger'];
  /** The operator link's secret (src/operator-link.ts), when the server holds an embedded data directory. */
  operatorSecret?: string;
}

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const config: Config = { ...loadConfig({}), ...options.config };
  const app = Fastify({
    logger: options.logger ?? loggerOptions(config.LOG_LEVEL),
    genReqId: requestId,
    childLoggerFactory: lazyChildLogger,
    logController: new LogController({ disableRequestLogging: !config.LOG_REQUESTS }),
    // Keep-alive connections that are idle are closed at shutdown; busy ones finish first.
    forceCloseConnections: 'idle',
    trustProxy: trustProxyOption(config.TRUST_PROXY),
    requestTimeout: config.REQUEST_TIMEOUT_MS,
    keepAliveTimeout: config.KEEP_ALIVE_TIMEOUT_MS,
    // Malformed URLs and requests are refused before routing; the answer is still in the group's envelope.
    frameworkErrors: frameworkErrorHandler(envelopeAt),
    clientErrorHandler: clientErrorHandler(envelopeAt),
  });
  await app.register(clockPlugin, { testClock: config.CHANNELNET_TEST_CLOCK, clock: options.clock });
  const { cache, stop: stopCache } = await CatalogCache.start(options.database, {
    maxEntries: config.CACHE_MAX_ENTRIES,
    maxBytes: config.CACHE_MAX_BYTES,
  });
  app.addHook('onClose', stopCache);
  const scheduleEntries = Math.min(config.SCHEDULE_CACHE_ENTRIES, Math.floor(config.SCHEDULE_CACHE_BYTES / BYTES_PER_ENTRY));
  const timelines = new ScheduleTimelines(scheduleEntries);
  cache.follow({
    invalidate: (trusted) => timelines.invalidate(trusted && scheduleEntries > 0),
    drop: (change) => timelines.drop(change),
  });
  const answers = new AnswerCache(config.ANSWER_CACHE_BYTES);
  cache.follow(answers);
  const bearers = new BearerCache(config.TOKEN_CACHE_SECONDS * 1000);
  cache.follow(bearers);
  app.addHook('onClose', async () => bearers.close());
  app.decorate('answers', answers);
  decorateAnswers(app);
  observeCache('answers', () => answers.stats());
  observeCache('catalog', () => cache.stats());
  const notifications = new StoreNotifications(options.database.db, config, options.clock ?? systemClock, app.log);
  app.decorate('storeNotifications', notifications);
  // What an earlier process acknowledged but did not apply is applied now.
  app.addHook('onReady', async () => notifications.inbox.kick());
  const guides = makeGuides({
    db: options.database.db,
    timelines,
    catalogCache: cache,
    config,
    clock: options.clock ?? systemClock,
    onError: (error) => app.log.error({ err: error }, 'XMLTV guide preparation failed'),
  });
  app.decorate('guides', guides);
  observeCache('guides', () => guides.cache.stats());
  // Heap bytes of the compiled channel-days and published windows (bounded by SCHEDULE_CACHE_BYTES), and the zone tables.
  observeCache('schedule_days', () => ({ bytes: timelines.bytes.days, entries: timelines.size.entries }));
  observeCache('published_windows', () => ({ bytes: timelines.bytes.published }));
  observeCache('zone_offsets', () => ({ bytes: zoneOffsetBytes() }));
  if (config.GUIDE_WARM_DAYS > 0) app.addHook('onReady', async () => guides.warmer.start());
  // Stored URLs may name the origins the operator allowed (src/media/url-rule.ts), as fetches may.
  allowStoredOrigins(config.MEDIA_FETCH_ALLOW_ORIGINS);
  const ingests = new HlsIngests(options.database.db, safeFetcher({ allowOrigins: config.MEDIA_FETCH_ALLOW_ORIGINS }), options.clock ?? systemClock, app.log);
  app.decorate('hlsIngests', ingests);
  // What an earlier process queued and did not read is read now.
  app.addHook('onReady', async () => ingests.kick());
  const jobs = new Jobs(options.clock ?? systemClock, app.log);
  for (const job of serviceJobs({ database: options.database, config, timelines, notifications, guides, ingests, log: app.log })) jobs.add(job);
  app.addHook('onClose', async () => {
    await jobs.stop();
    await ingests.stop();
    await guides.stop();
    await notifications.inbox.idle();
  });
  const group: GroupOptions = { database: options.database, config, cache, timelines, answers, notifications, guides, ingests, bearers, operatorSecret: options.operatorSecret };
  await registerLoadShedding(app, {
    database: options.database,
    maxEventLoopDelayMs: config.MAX_EVENT_LOOP_DELAY_MS,
    maxPoolWaiting: config.MAX_DB_POOL_WAITING,
    envelopeAt,
  });
  // Set when the request arrives, not in an onSend hook: an answer sent from a hook (a kept
  // answer, a 304) then has it too, and no response pays for an onSend hook of its own.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
  await app.register(metricsPlugin, { database: options.database, expose: config.METRICS_ENABLED });
  if (config.DOCS_ENABLED) await registerDocs(app, docsAt);
  await app.register(healthRoutes, { database: options.database });
  await app.register(assetRoutes, { database: options.database });
  for (const { register } of GROUPS) await register(app, group);
  await app.register(consoleRoutes, { mediaOrigins: config.MEDIA_FETCH_ALLOW_ORIGINS });
  return app;
}
