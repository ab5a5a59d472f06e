// The Studio API (/api/v1/studio): owners manage their network. REST's envelope and Bearer
// tokens, sign-in tokens only (an app token ships inside every copy of a TV app), and only for
// owners: a viewer is refused with 403. Everything below is scoped to the caller, so another
// owner's ids answer exactly as missing ones.
import type { FastifyError, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { ACCOUNT_ONLY, authenticate, bearerToken } from '../access/tokens.ts';
import { isOwner } from '../data/owners.ts';
import { isDatabaseUnavailable } from '../db/errors.ts';
import { EditRefusal } from '../editing/refusals.ts';
import type { Editor } from '../editing/write.ts';
import { sendEnveloped } from '../http/envelope.ts';
import { limitBodies, type GroupOptions } from '../http/group.ts';
import { acceptEmptyJsonBodies } from '../http/json-body.ts';
import { registerRateLimit } from '../http/limits.ts';
import { responseSerializerCompiler } from '../http/serializer.ts';
import { sendUnavailable } from '../http/unavailable.ts';
import { STATUS_OF_REFUSAL, STUDIO_ENVELOPE, StudioError, studioFailure, studioForbidden, studioUnauthorized } from './errors.ts';
import { STUDIO_ROUTES } from './routes.ts';
import { studioValidatorCompiler } from './validation.ts';

/** Bulk video creates and catalog imports carry more than REST's small bodies. */
const STUDIO_BODY_LIMIT = 32 * 1024 * 1024;

export const studioApi: FastifyPluginAsync<GroupOptions> = async (app, options) => {
  const { db } = options.database;
  const group: GroupOptions = { database: options.database, config: options.config, cache: options.cache, timelines: options.timelines, notifications: options.notifications };
  app.setValidatorCompiler(studioValidatorCompiler);
  app.setSerializerCompiler(responseSerializerCompiler);
  app.setErrorHandler(sendStudioError);
  acceptEmptyJsonBodies(app);
  app.removeContentTypeParser('text/plain');
  limitBodies(app, Math.max(options.config.BODY_LIMIT_REST, STUDIO_BODY_LIMIT));
  await registerRateLimit(app, options.config);
  app.setNotFoundHandler((request, reply) => sendEnveloped(reply.code(404), STUDIO_ENVELOPE.notFound!(request)));
  app.decorateRequest('editor', null as unknown as Editor);

  app.addHook('preHandler', async (request: FastifyRequest) => {
    const token = bearerToken(request.headers.authorization);
    const account = token === undefined ? undefined : await authenticate(db, token, request.now, ACCOUNT_ONLY);
    if (!account) throw studioUnauthorized();
    if (!(await isOwner(db, account.id))) throw studioForbidden();
    // Today an owner manages their own network only: the owner is the signed-in account.
    request.editor = { ownerId: account.id, actorId: account.id, now: request.now, committed: (change) => options.cache.change(change) };
  });
  for (const routes of STUDIO_ROUTES) await app.register(routes, group);
};

function sendStudioError(error: FastifyError | StudioError | EditRefusal, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof EditRefusal) {
    return reply.code(STATUS_OF_REFUSAL[error.code]).send(studioFailure(error.code, error.message, error.details));
  }
  if (error instanceof StudioError) return reply.code(error.statusCode).send(studioFailure(error.code, error.message, error.details));
  if (isDatabaseUnavailable(error)) {
    request.log.warn({ err: error }, 'database unavailable');
    return sendUnavailable(reply, STUDIO_ENVELOPE);
  }
  const refused = constraintRefusal(error);
  if (refused) return reply.code(409).send(studioFailure(refused.code, refused.message));
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) return sendEnveloped(reply.code(status), STUDIO_ENVELOPE.failure(status, error.message));
  request.log.error({ err: error }, 'unhandled error in the Studio API');
  return sendEnveloped(reply.code(500), STUDIO_ENVELOPE.failure(500, 'Internal server error.'));
}

/**
 * The database's own guards, for writes that raced past the checks: a row still referenced
 * (a video deleted while a block of another request named it), or an id taken meanwhile.
 */
function constraintRefusal(error: unknown): { code: string; message: string } | undefined {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth++) {
    const code = (current as { code?: unknown }).code;
    if (code === '23503') return { code: 'in_use', message: 'The change refers to, or removes, something another change still uses; read again and retry.' };
    if (code === '23505') return { code: 'id_taken', message: 'An id or unique name in the change is already in use.' };
  }
  return undefined;
}
