// The Custom Services API (/api/v1/services/custom): the app templates' routes. Every answer
// of this group, including unknown routes, unreadable bodies and faults, is in its { data }
// envelope. The activity route under the same prefix is a separate plugin with its own.
import { documentSecurity } from '../http/docs.ts';
import type { FastifyError, FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, validatorCompiler } from 'fastify-type-provider-zod';
import { ACCOUNT_ONLY, authenticate, bearerToken, type Authenticated } from '../access/tokens.ts';
import { findAccountByIdOrSlug } from '../data/accounts.ts';
import { routeOptions, setUpGroup, type GroupOptions } from '../http/group.ts';
import type { GroupErrors } from '../http/group-errors.ts';
import { RefusedInput } from '../http/refused-input.ts';
import { refuseNul } from '../http/storable.ts';
import { authRoutes, sessionRoutes } from './auth-routes.ts';
import { catalogRoutes } from './catalog-routes.ts';
import { entitlementRoutes } from './entitlement-routes.ts';
import type { Owner } from './caller.ts';
import { CUSTOM_ENVELOPE, CustomError, invalidBody, unauthenticated, userRequired, type FieldErrors } from './errors.ts';
import { favoritesRoutes } from './favorites-routes.ts';
import { playbackRoutes } from './playback-routes.ts';
import { scheduleRoutes } from './schedule-routes.ts';
import { settingsRoutes } from './settings-routes.ts';
import { vodRoutes } from './vod-routes.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The account of a valid Bearer token, or null (none sent, unknown, expired, revoked). */
    viewer: Authenticated | null;
    /** The account named by `{id}` in /users/{id}/... routes (resolved before validation); null elsewhere. Read it with ownerOf. */
    owner: Owner | null;
  }
}

import type { CustomRouteOptions, RouteGroup } from './route-options.ts';

/**
 * A route tree on the Custom API's machinery (envelope, owner resolution, viewer, limits): the
 * spec's tree at /api/v1/services/custom, and the compatibility trees of older shipped templates
 * (src/compat), which differ only in routes, the Platform-Id they assume and a presenter.
 */
export interface CustomTree {
  open: RouteGroup[];
  /** Behind the Bearer check; request.viewer is set. */
  protected: RouteGroup[];
  /** The Platform-Id a request without one is taken to send. */
  platform?: string;
  /** Reshapes every answer object before it is serialized. */
  present?: (payload: unknown) => unknown;
}

export const CUSTOM_TREE: CustomTree = {
  open: [authRoutes, settingsRoutes, catalogRoutes, scheduleRoutes, vodRoutes, playbackRoutes, entitlementRoutes],
  // The lead's choice: only these need a Bearer.
  protected: [sessionRoutes, favoritesRoutes],
};

export const customApi: FastifyPluginAsync<GroupOptions & { tree?: CustomTree }> = async (app, options) => {
  const { db } = options.database;
  const tree = options.tree ?? CUSTOM_TREE;
  // Not `options` itself: it carries this plugin's prefix, which children would repeat.
  const group: CustomRouteOptions = { ...routeOptions(options), reshaped: tree.present !== undefined };
  await setUpGroup(app, { errors: CUSTOM_ERRORS, validatorCompiler, bodyLimit: options.config.BODY_LIMIT_CUSTOM, rateLimit: options.config, jsonOnly: true });
  // Forms too: the Android TV client posts its login as one.
  useFormBodies(app);
  app.decorateRequest('viewer', null);
  app.decorateRequest('owner', null);
  const { platform, present } = tree;
  if (platform !== undefined) {
    app.addHook('onRequest', async (request) => {
      if (request.headers['platform-id'] === undefined && request.headers['platform'] === undefined) request.headers['platform-id'] = platform;
    });
  }
  // A tree's `present` reshapes an answer before it is written, keeping its keys and their order.
  if (present) app.addHook('preSerialization', async (_request, _reply, payload) => present(payload));

  // A Bearer is optional on most routes; when valid it identifies the viewer for gating and unlocks.
  // A TV archive app token is no viewer: it is shared by every installed copy, so an unlock or a
  // purchase recorded for it would reach them all (and it could be refreshed away).
  app.addHook('onRequest', async (request) => {
    const token = bearerToken(request.headers.authorization);
    request.viewer = token === undefined ? null : ((await authenticate(db, token, request.now, ACCOUNT_ONLY, options.bearers)) ?? null);
  });
  // Before validation, so an unknown owner is a 404 whatever else is wrong with the request.
  app.addHook('preValidation', async (request) => {
    const id = (request.params as Record<string, string | undefined> | undefined)?.['id'];
    if (id === undefined) return;
    // Kept with the owner found (an unknown id or slug: until any change).
    const owner = await options.cache.get(
      `owner:${id.toLowerCase()}`,
      () => findAccountByIdOrSlug(db, id),
      (found) => (found ? { ownerId: found.id } : undefined),
    );
    if (!owner) throw userRequired();
    request.owner = owner;
  });
  // After the owner: an unknown owner stays a 404 whatever the body holds.
  refuseNul(app);

  for (const routes of tree.open) await app.register(routes, group);
  await app.register(async (secured) => {
    secured.addHook('onRequest', async (request) => {
      if (!request.viewer) throw unauthenticated();
    });
    documentSecurity(secured);
    for (const routes of tree.protected) await secured.register(routes, group);
  });
};

/** Forms beside JSON (the Android TV client posts its login as one), nothing else. */
function useFormBodies(app: FastifyInstance) {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, text, done) => {
    done(null, Object.fromEntries(new URLSearchParams(text.toString())));
  });
}

function fieldErrors(error: FastifyError): FieldErrors {
  const errors: FieldErrors = {};
  for (const v of error.validation ?? []) {
    const field = v.instancePath.replace(/^\//, '').replaceAll('/', '.') || (error.validationContext ?? 'body');
    (errors[field] ??= []).push(v.message ?? 'is invalid');
  }
  return errors;
}

/** A body that could not be read (bad JSON, a __proto__ key, an unknown type): a validation failure, as Laravel answers it. */
function isUnreadableBody(error: FastifyError): boolean {
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- an error a plugin throws may carry no code, whatever FastifyError says
  return error.code?.startsWith('FST_ERR_CTP_') === true && error.code !== 'FST_ERR_CTP_BODY_TOO_LARGE';
}

/** A request refused at the edge (src/http), as a validation failure naming the field (or the body). */
function refusedInputErrors(error: RefusedInput): FieldErrors {
  if (error.reason === 'too_deep') return { body: [`The body ${error.problem}.`] };
  const field = error.path.length === 0 ? error.where : error.path.join('.');
  return { [field]: [`The ${field.replaceAll('_', ' ')} may not contain NUL characters.`] };
}

/** The Custom API's refusal table; the root handler (src/http/group-errors.ts) answers the rest. */
const CUSTOM_ERRORS: GroupErrors<FastifyError | RefusedInput> = {
  name: 'the Custom API',
  envelope: CUSTOM_ENVELOPE,
  faultMessage: 'Server error.',
  answer(error, _request, reply) {
    if (error instanceof CustomError) return reply.code(error.statusCode).headers(error.headers).send(error.body);
    if (error instanceof RefusedInput) return reply.code(422).send(invalidBody(refusedInputErrors(error)));
    if (hasZodFastifySchemaValidationErrors(error)) return reply.code(422).send(invalidBody(fieldErrors(error)));
    if (isUnreadableBody(error)) {
      return reply.code(422).send(invalidBody({ body: ['The body must be valid JSON or a form (application/x-www-form-urlencoded).'] }));
    }
    return undefined;
  },
};
