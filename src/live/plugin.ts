// The live outputs' groups: /api/v1/live (channels' live HLS playlists, the slate and the M3U) and
// /hdhr (the HDHomeRun tuner). Their keys are in the path, since IPTV players and media servers
// cannot send headers; every refusal is in the { success:false } envelope (src/live/errors.ts).
import type { FastifyPluginAsync } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { routeOptions, setUpGroup, type GroupOptions } from '../http/group.ts';
import { LiveStreams } from '../linear/live-stream.ts';
import { observeCache } from '../observability/metrics.ts';
import { LIVE_ERRORS } from './errors.ts';
import { hdhrRoutes } from './hdhr-routes.ts';
import { m3uRoutes } from './m3u-routes.ts';
import { liveRoutes } from './playlist-routes.ts';

export const LIVE = '/api/v1/live';

export const liveApi: FastifyPluginAsync<GroupOptions> = async (app, options) => {
  await setUpGroup(app, { errors: LIVE_ERRORS('the live outputs'), validatorCompiler, bodyLimit: 1024, rateLimit: options.config, jsonOnly: true });
  const live = new LiveStreams(options.database.db, options.timelines, `${options.config.PUBLIC_URL ?? ''}${LIVE}/slate`);
  options.cache.follow(live);
  observeCache('live_playlists', () => ({ bytes: live.heldBytes }));
  await app.register(liveRoutes(live), routeOptions(options));
  await app.register(m3uRoutes, routeOptions(options));
};

export const hdhrApi: FastifyPluginAsync<GroupOptions> = async (app, options) => {
  await setUpGroup(app, { errors: LIVE_ERRORS('the HDHomeRun tuner'), validatorCompiler, bodyLimit: 1024, rateLimit: options.config });
  await app.register(hdhrRoutes, routeOptions(options));
};
