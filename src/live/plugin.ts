// The live group (/api/v1/live, docs/linear.md): channels' live HLS playlists and the slate, open
// to players that cannot send a header (the key is in the path). Refusals and unknown routes
// answer in the REST { success:false } envelope.
import type { FastifyError, FastifyPluginAsync } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { routeOptions, setUpGroup, type GroupOptions } from '../http/group.ts';
import type { GroupErrors } from '../http/group-errors.ts';
import { SUCCESS_ENVELOPE, errorBody } from '../http/success-envelope.ts';
import { LiveStreams } from '../linear/live-stream.ts';
import { observeCache } from '../observability/metrics.ts';
import { LiveError } from './errors.ts';
import { liveRoutes } from './playlist-routes.ts';

export const LIVE = '/api/v1/live';

const LIVE_ERRORS: GroupErrors<FastifyError | LiveError> = {
  name: 'the live playlists',
  envelope: SUCCESS_ENVELOPE,
  faultMessage: 'Internal server error.',
  answer(error, _request, reply) {
    if (error instanceof LiveError) return reply.code(error.statusCode).header('access-control-allow-origin', '*').send(errorBody(error.code, error.message));
    // A malformed path parameter: nothing is here.
    if ((error as FastifyError).validation) return reply.code(404).header('access-control-allow-origin', '*').send(errorBody('not_found', 'No live stream here.'));
    return undefined;
  },
};

export const liveApi: FastifyPluginAsync<GroupOptions> = async (app, options) => {
  await setUpGroup(app, { errors: LIVE_ERRORS, validatorCompiler, bodyLimit: 1024, rateLimit: options.config, jsonOnly: true });
  const live = new LiveStreams(options.database.db, options.timelines, `${options.config.PUBLIC_URL ?? ''}${LIVE}/slate`);
  options.cache.follow(live);
  observeCache('live_playlists', () => ({ bytes: live.heldBytes }));
  await app.register(liveRoutes(live), routeOptions(options));
};
