// The REST API (/api/v1/rest): every answer of this group, including unknown routes,
// malformed bodies and faults, is in the { success, data | error } envelope. Protected routes
// check their Bearer when the request arrives, before its body is read.
import { documentSecurity } from '../http/docs.ts';
import type { FastifyError, FastifyPluginAsync, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, validatorCompiler } from 'fastify-type-provider-zod';
import { ACCOUNT_ONLY, ACCOUNT_OR_APP, authenticate, authenticateKept, bearerToken, type Authenticated, type TokenScope } from '../access/tokens.ts';
import { routeOptions, setUpGroup, type GroupOptions } from '../http/group.ts';
import type { GroupErrors } from '../http/group-errors.ts';
import { pointerOf, RefusedInput } from '../http/refused-input.ts';
import { refuseNul } from '../http/storable.ts';
import { analyticsRoutes } from './analytics-routes.ts';
import { programmeRoutes } from './programme-routes.ts';
import { trendsRoutes } from './trends-routes.ts';
import { appsRoutes } from './apps-routes.ts';
import { authRoutes, sessionRoutes } from './auth-routes.ts';
import { channelsRoutes } from './channels-routes.ts';
import { epgRoutes, publicEpgRoutes } from './epg-routes.ts';
import { makeGuides, type Guides } from '../guides/guides.ts';
import { systemClock } from '../clock.ts';
import { RestError, unauthorized } from './errors.ts';
import { favoritesRoutes } from './favorites-routes.ts';
import { liveLinksRoutes } from './live-links-routes.ts';
import { SUCCESS_ENVELOPE, errorBody } from '../http/success-envelope.ts';

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
  [trendsRoutes, ACCOUNT_ONLY],
  [epgRoutes, ACCOUNT_ONLY],
  [liveLinksRoutes, ACCOUNT_ONLY],
];

export const restApi: FastifyPluginAsync<GroupOptions> = async (app, options) => {
  const { db } = options.database;
  // Not `options` itself: it carries this plugin's prefix, which children would repeat.
  const guides = options.guides ?? standaloneGuides(options);
  const group = { ...routeOptions(options), guides };
  // JSON only: Fastify's text/plain parser would hand the route a string (a 400), not the 415 the docs promise.
  await setUpGroup(app, { errors: REST_ERRORS, validatorCompiler, bodyLimit: options.config.BODY_LIMIT_REST, rateLimit: options.config, jsonOnly: true });
  app.decorateRequest('account', null as unknown as Authenticated);
  refuseNul(app);

  for (const routes of OPEN_ROUTES) await app.register(routes, group);
  for (const [routes, accepts] of PROTECTED_ROUTES) {
    await app.register(async (secured) => {
      // onRequest: an anonymous or bad-token request is answered before its body is read.
      // A callback hook: a token kept in memory is checked with no promise (authenticateKept).
      secured.addHook('onRequest', (request: FastifyRequest, _reply, done) => {
        const token = bearerToken(request.headers.authorization);
        if (token === undefined) return done(unauthorized());
        const admit = (account: Authenticated | null | undefined) => {
          if (!account) return done(unauthorized());
          request.account = account;
          done();
        };
        const kept = authenticateKept(token, request.now, accepts, options.bearers);
        if (kept !== undefined) return admit(kept);
        authenticate(db, token, request.now, accepts, options.bearers).then(admit, done);
      });
      documentSecurity(secured);
      await secured.register(routes, group);
    });
  }
};

/** REST's refusal table; the root handler (src/http/group-errors.ts) answers the rest. */
const REST_ERRORS: GroupErrors<FastifyError | RestError | RefusedInput> = {
  name: 'the REST API',
  envelope: SUCCESS_ENVELOPE,
  faultMessage: 'Internal server error.',
  answer(error, _request, reply) {
    if (error instanceof RestError) return reply.code(error.statusCode).headers(error.headers).send(errorBody(error.code, error.message));
    if (error instanceof RefusedInput) {
      return reply.code(400).send(errorBody('invalid_request', `Invalid request: ${pointerOf(error.path) || error.where}: ${error.problem}`));
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const detail = error.validation.map((v) => `${v.instancePath || error.validationContext}: ${v.message}`).join('; ');
      return reply.code(400).send(errorBody('invalid_request', `Invalid request: ${detail}`));
    }
    return undefined;
  },
};

/** The guides of a REST group registered without the app (tests of the group alone): no warming. */
function standaloneGuides(options: GroupOptions): Guides {
  return makeGuides({
    db: options.database.db,
    timelines: options.timelines,
    catalogCache: options.cache,
    config: { GUIDE_CACHE_BYTES: options.config.GUIDE_CACHE_BYTES, GUIDE_WARM_DAYS: 0 },
    clock: systemClock,
    onError: () => undefined,
  });
}
