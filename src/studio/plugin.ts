// The Studio API (/api/v1/studio): owners manage their network. REST's envelope and Bearer
// tokens, sign-in tokens only (an app token ships inside every copy of a TV app), and only for
// owners: a viewer is refused with 403. Everything below is scoped to the caller, so another
// owner's ids answer exactly as missing ones.
//
// Identity before bytes: the token and the owner are checked when the request arrives, before
// its body is read, so an outsider's body costs nothing (an anonymous 3 MB import used to be
// parsed and validated first: 44 s of CPU). Bodies are then bounded per route (limits.ts).
import type { FastifyError, FastifyPluginAsync, FastifyRequest } from 'fastify';
import { documentSecurity } from '../http/docs.ts';
import { ACCOUNT_ONLY, authenticate, bearerToken } from '../access/tokens.ts';
import { isOwner } from '../data/owners.ts';
import { EditRefusal, ThrottledRefusal } from '../editing/refusals.ts';
import type { Editor } from '../editing/write.ts';
import { routeOptions, setUpGroup, type GroupOptions } from '../http/group.ts';
import type { GroupErrors } from '../http/group-errors.ts';
import { RefusedInput } from '../http/refused-input.ts';
import { refuseNul } from '../http/storable.ts';
import { STATUS_OF_REFUSAL, STUDIO_ENVELOPE, StudioError, refusedInput, studioFailure, studioForbidden, studioUnauthorized } from './errors.ts';
import { STUDIO_BODY_LIMIT } from './limits.ts';
import { STUDIO_ROUTES } from './routes.ts';
import { studioValidatorCompiler } from './validation.ts';

export const studioApi: FastifyPluginAsync<GroupOptions> = async (app, options) => {
  const { db } = options.database;
  const group = routeOptions(options);
  // Routes that need more than the body limit (an import, images, bulk creates) say so themselves (limits.ts).
  await setUpGroup(app, { errors: STUDIO_ERRORS, validatorCompiler: studioValidatorCompiler, bodyLimit: STUDIO_BODY_LIMIT, rateLimit: options.config, jsonOnly: true });
  app.decorateRequest('editor', null as unknown as Editor);

  // onRequest: before the body is read, let alone parsed or validated.
  app.addHook('onRequest', async (request: FastifyRequest) => {
    // The routes by which an account comes to exist (invite-routes.ts) ask for no sign-in.
    if (request.routeOptions.config.anonymous === true) return;
    const token = bearerToken(request.headers.authorization);
    const account = token === undefined ? undefined : await authenticate(db, token, request.now, ACCOUNT_ONLY, options.bearers);
    if (!account) throw studioUnauthorized();
    if (!(await isOwner(db, account.id))) throw studioForbidden();
    // Today an owner manages their own network only: the owner is the signed-in account.
    request.editor = { ownerId: account.id, actorId: account.id, now: request.now, address: request.ip, committed: (change) => options.cache.change(change) };
  });
  refuseNul(app);
  documentSecurity(app);
  for (const routes of STUDIO_ROUTES) await app.register(routes, group);
};

/** The Studio's refusal table; the root handler (src/http/group-errors.ts) answers the rest. */
const STUDIO_ERRORS: GroupErrors<FastifyError | StudioError | EditRefusal | RefusedInput> = {
  name: 'the Studio API',
  envelope: STUDIO_ENVELOPE,
  faultMessage: 'Internal server error.',
  answer(thrown, _request, reply) {
    const error = thrown instanceof RefusedInput ? refusedInput(thrown) : thrown;
    if (error instanceof EditRefusal) {
      if (error instanceof ThrottledRefusal) void reply.header('retry-after', String(error.retryAfterSeconds));
      return reply.code(STATUS_OF_REFUSAL[error.code]).send(studioFailure(error.code, error.message, error.details, error.detailsOmitted));
    }
    if (error instanceof StudioError) return reply.code(error.statusCode).send(studioFailure(error.code, error.message, error.details, error.detailsOmitted));
    const refused = constraintRefusal(error);
    if (refused) return reply.code(409).send(studioFailure(refused.code, refused.message));
    return undefined;
  },
};

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
