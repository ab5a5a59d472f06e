// The REST API (/api/v1/rest): every answer of this group, including unknown routes,
// malformed bodies and faults, is in the { success, data | error } envelope. Protected routes
// check their Bearer when the request arrives, before its body is read.
import type { FastifyError, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, validatorCompiler } from 'fastify-type-provider-zod';
import { ACCOUNT_ONLY, ACCOUNT_OR_APP, authenticate, bearerToken, type Authenticated, type TokenScope } from '../access/tokens.ts';
import { isDatabaseUnavailable } from '../db/errors.ts';
import { limitBodies, type GroupOptions } from '../http/group.ts';
import { sendEnveloped } from '../http/envelope.ts';
import { acceptEmptyJsonBodies } from '../http/json-body.ts';
import { registerRateLimit } from '../http/limits.ts';
import { pointerOf, RefusedInput } from '../http/refused-input.ts';
import { responseSerializerCompiler } from '../http/serializer.ts';
import { refuseNul } from '../http/storable.ts';
import { sendUnavailable } from '../http/unavailable.ts';
import { analyticsRoutes } from './analytics-routes.ts';
import { programmeRoutes } from './programme-routes.ts';
import { appsRoutes } from './apps-routes.ts';
import { authRoutes, sessionRoutes } from './auth-routes.ts';
import { channelsRoutes } from './channels-routes.ts';
import { epgRoutes, publicEpgRoutes } from './epg-routes.ts';
import { makeGuides, type Guides } from '../guides/guides.ts';
import { systemClock } from '../clock.ts';
import { REST_ENVELOPE, RestError, restFailure, unauthorized } from './errors.ts';
import { favoritesRoutes } from './favorites-routes.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller of a protected REST route (set by the auth hook). */
    account: Authenticated;
  }
}

type RouteGroup = FastifyPluginAsync<GroupOptions>;
/** Open to anyone (the public guide's key is its own credential). */
const OPEN_ROUTES: RouteGroup[] = [authRoutes, publicEpgRoutes];
/**
 * Behind the Bearer check, each with the token scopes it accepts: request.account is the caller.
 * TV archive app tokens are public, so they reach only what shipped TV apps call.
 */
const PROTECTED_ROUTES: [RouteGroup, readonly TokenScope[]][] = [
  [sessionRoutes, ACCOUNT_OR_APP],
  [appsRoutes, ACCOUNT_OR_APP],
  [channelsRoutes, ACCOUNT_OR_APP],
  [favoritesRoutes, ACCOUNT_OR_APP],
  [analyticsRoutes, ACCOUNT_ONLY],
  [programmeRoutes, ACCOUNT_ONLY],
  [epgRoutes, ACCOUNT_ONLY],
];

export const restApi: FastifyPluginAsync<GroupOptions> = async (app, options) => {
  const { db } = options.database;
  // Not `options` itself: it carries this plugin's prefix, which children would repeat.
  const guides = options.guides ?? standaloneGuides(options);
  const group: GroupOptions = { database: options.database, config: options.config, cache: options.cache, timelines: options.timelines, notifications: options.notifications, guides };
  app.setValidatorCompiler(validatorCompiler);
  // Success answers by their response schemas (fast-json-stringify); errors as before.
  app.setSerializerCompiler(responseSerializerCompiler);
  app.setErrorHandler(sendRestError);
  acceptEmptyJsonBodies(app);
  // JSON only: Fastify's text/plain parser would hand the route a string (a 400), not the 415 README promises.
  app.removeContentTypeParser('text/plain');
  limitBodies(app, options.config.BODY_LIMIT_REST);
  await registerRateLimit(app, options.config);
  app.setNotFoundHandler((request, reply) => sendEnveloped(reply.code(404), REST_ENVELOPE.notFound(request)));
  app.decorateRequest('account', null as unknown as Authenticated);
  refuseNul(app);

  for (const routes of OPEN_ROUTES) await app.register(routes, group);
  for (const [routes, accepts] of PROTECTED_ROUTES) {
    await app.register(async (secured) => {
      // onRequest: an anonymous or bad-token request is answered before its body is read.
      secured.addHook('onRequest', async (request: FastifyRequest) => {
        const token = bearerToken(request.headers.authorization);
        const account = token === undefined ? undefined : await authenticate(db, token, request.now, accepts);
        if (!account) throw unauthorized();
        request.account = account;
      });
      await secured.register(routes, group);
    });
  }
};

function sendRestError(error: FastifyError | RestError | RefusedInput, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof RestError) {
    return reply.code(error.statusCode).headers(error.headers).send(restFailure(error.code, error.message));
  }
  if (error instanceof RefusedInput) {
    return reply.code(400).send(restFailure('invalid_request', `Invalid request: ${pointerOf(error.path) || error.where}: ${error.problem}`));
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    const detail = error.validation.map((v) => `${v.instancePath || error.validationContext}: ${v.message}`).join('; ');
    return reply.code(400).send(restFailure('invalid_request', `Invalid request: ${detail}`));
  }
  if (isDatabaseUnavailable(error)) {
    request.log.warn({ err: error }, 'database unavailable');
    return sendUnavailable(reply, REST_ENVELOPE);
  }
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) return sendEnveloped(reply.code(status), REST_ENVELOPE.failure(status, error.message));
  request.log.error({ err: error }, 'unhandled error in the REST API');
  const fault = status >= 500 ? status : 500;
  return sendEnveloped(reply.code(fault), REST_ENVELOPE.failure(fault, 'Internal server error.'));
}

/** The group registered alone (tests of one group): guides kept as configured, never warmed, stopped with the group. */
function standaloneGuides(options: GroupOptions): Guides {
  return makeGuides({
    db: options.database.db, timelines: options.timelines, catalogCache: options.cache,
    config: { GUIDE_CACHE_BYTES: options.config.GUIDE_CACHE_BYTES, GUIDE_WARM_DAYS: 0 }, clock: systemClock, onError: () => undefined,
  });
}
