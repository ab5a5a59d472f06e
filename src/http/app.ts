// Builds the Fastify application: one encapsulated plugin per interface group, all
// sharing the database handle and the per-request clock.
import Fastify, { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { Clock } from '../clock.ts';
import type { Config } from '../config.ts';
import type { DatabaseHandle } from '../db/connect.ts';
import { legacyRoutes } from '../legacy/routes.ts';
import { clockPlugin } from './clock-plugin.ts';
import { restApi } from '../rest/plugin.ts';
import { assetRoutes } from './assets.ts';
import { loggerOptions, requestId } from '../observability/logger.ts';
import { healthRoutes } from './health.ts';
import { metricsPlugin } from './metrics-plugin.ts';

export interface AppOptions {
  database: DatabaseHandle;
  config: Pick<Config, 'CHANNELNET_TEST_CLOCK' | 'LOG_LEVEL' | 'LOG_REQUESTS'>;
  clock?: Clock;
  logger?: FastifyServerOptions['logger'];
}

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger ?? loggerOptions(options.config.LOG_LEVEL),
    genReqId: requestId,
    logController: new LogController({ disableRequestLogging: !options.config.LOG_REQUESTS }),
    // Keep-alive connections that are idle are closed at shutdown; busy ones finish first.
    forceCloseConnections: 'idle',
  });
  await app.register(clockPlugin, { testClock: options.config.CHANNELNET_TEST_CLOCK, clock: options.clock });
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  await app.register(metricsPlugin, { database: options.database, expose: true });
  await app.register(healthRoutes, { database: options.database });
  await app.register(assetRoutes, { database: options.database });
  await app.register(restApi, { prefix: '/api/v1/rest', database: options.database });
  await app.register(legacyRoutes, { prefix: '/WebServices', database: options.database });
  return app;
}
