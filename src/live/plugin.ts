// The live outputs' groups: /api/v1/live (the M3U; the live playlists join it) and /hdhr (the
// HDHomeRun tuner). Their keys are in the path, since IPTV players and media servers cannot send
// headers; every refusal is in the { success:false } envelope (src/live/errors.ts).
import type { FastifyPluginAsync } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { routeOptions, setUpGroup, type GroupOptions } from '../http/group.ts';
import { LIVE_ERRORS } from './errors.ts';
import { hdhrRoutes } from './hdhr-routes.ts';
import { m3uRoutes } from './m3u-routes.ts';

export const liveApi: FastifyPluginAsync<GroupOptions> = async (app, options) => {
  await setUpGroup(app, { errors: LIVE_ERRORS('the live outputs'), validatorCompiler, bodyLimit: 1024, rateLimit: options.config });
  await app.register(m3uRoutes, routeOptions(options));
};

export const hdhrApi: FastifyPluginAsync<GroupOptions> = async (app, options) => {
  await setUpGroup(app, { errors: LIVE_ERRORS('the HDHomeRun tuner'), validatorCompiler, bodyLimit: 1024, rateLimit: options.config });
  await app.register(hdhrRoutes, routeOptions(options));
};
