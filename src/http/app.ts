// Builds the Fastify application: one encapsulated plugin per interface group, all
// sharing the database handle and the per-request clock.
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { Clock } from '../clock.ts';
import type { Config } from '../config.ts';
import type { DatabaseHandle } from '../db/connect.ts';
import { clockPlugin } from './clock-plugin.ts';
import { healthRoutes } from './health.ts';

export interface AppOptions {
  database: DatabaseHandle;
  config: Pick<Config, 'CHANNELNET_TEST_CLOCK' | 'LOG_LEVEL' | 'LOG_REQUESTS'>;
  clock?: Clock;
  logger?: FastifyServerOptions['logger'];
}

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger ?? { level: options.config.LOG_LEVEL },
    disableRequestLogging: !options.config.LOG_REQUESTS,
    // Keep-alive connections that are idle are closed at shutdown; busy ones finish first.
    forceCloseConnections: 'idle',
  });
  await app.register(clockPlugin, { testClock: options.config.CHANNELNET_TEST_CLOCK, clock: options.clock });
  await app.register(healthRoutes, { database: options.database });
  return app;
}
