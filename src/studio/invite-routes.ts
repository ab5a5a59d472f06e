// Onboarding (src/editing/invites.ts): an owner's invites (/invites: create, the token shown once;
// list; read; revoke), and the three routes open to anyone, marked `anonymous` so the group's
// owner check lets them through: GET /onboarding (what the operator allows), POST
// /onboarding/invite (redeem a token into a new owner) and POST /onboarding/signup (SIGNUP=open).
// The two POSTs are rate-limited per address like the login, and throttled in the database.
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { createInvite, readInvite, readInvites, redeemInvite, revokeInvite, signUp, type OnboardingPolicy } from '../editing/invites.ts';
import type { GroupOptions } from '../http/group.ts';
import { loginRateLimit } from '../http/limits.ts';
import { okSchema } from '../http/success-envelope.ts';
import { idempotencyOf, ifMatchOf, sendResource, sendWritten } from './context.ts';
import { createdInviteSchema, inviteListSchema, inviteSchema, newInviteSchema, newOwnerCreatedSchema, newOwnerSchema, redeemInviteSchema, signupModeSchema } from './contract.ts';
import { NO_CONTENT, numericId } from './schemas.ts';

const inviteParams = z.object({ inviteId: numericId });
/** No Bearer: these routes are how an account comes to exist. */
const ANONYMOUS = { anonymous: true } as const;
const NO_SECURITY: Array<Record<string, string[]>> = [];

export const inviteRoutes: FastifyPluginAsync<GroupOptions> = async (plain, { database, config }) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const { db } = database;
  const policy: OnboardingPolicy = { signup: config.SIGNUP, inviteMaxDays: config.INVITE_MAX_DAYS };

  app.get('/invites', { schema: { response: { 200: okSchema(inviteListSchema) } } }, async (request, reply) => {
    const { body, etag } = await readInvites(db, request.editor.ownerId, request.now);
    return sendResource(reply, etag, body);
  });

  app.post('/invites', { schema: { body: newInviteSchema, response: { 201: okSchema(createdInviteSchema) } } }, async (request, reply) =>
    sendWritten(reply, await createInvite(db, request.editor, policy, request.body, idempotencyOf(request))),
  );

  app.get('/invites/:inviteId', { schema: { params: inviteParams, response: { 200: okSchema(inviteSchema) } } }, async (request, reply) => {
    const { body, etag } = await readInvite(db, request.editor.ownerId, request.params.inviteId, request.now);
    return sendResource(reply, etag, body);
  });

  app.delete('/invites/:inviteId', { schema: { params: inviteParams, response: { 204: NO_CONTENT } } }, async (request, reply) =>
    sendWritten(reply, await revokeInvite(db, request.editor, request.params.inviteId, ifMatchOf(request))),
  );

  app.get('/onboarding', { config: ANONYMOUS, schema: { security: NO_SECURITY, response: { 200: okSchema(signupModeSchema) } } }, async () => ({
    success: true as const,
    data: { signup: policy.signup },
  }));

  app.post(
    '/onboarding/invite',
    { config: { ...ANONYMOUS, ...loginRateLimit(config) }, schema: { security: NO_SECURITY, body: redeemInviteSchema, response: { 201: okSchema(newOwnerCreatedSchema) } } },
    async (request, reply) => {
      const { token, ...owner } = request.body;
      const created = await redeemInvite(db, policy, token, owner, { address: request.ip, now: request.now });
      return reply.code(201).send({ success: true as const, data: { id: created.id, username: owner.username } });
    },
  );

  app.post(
    '/onboarding/signup',
    { config: { ...ANONYMOUS, ...loginRateLimit(config) }, schema: { security: NO_SECURITY, body: newOwnerSchema, response: { 201: okSchema(newOwnerCreatedSchema) } } },
    async (request, reply) => {
      const created = await signUp(db, policy, request.body, { address: request.ip, now: request.now });
      return reply.code(201).send({ success: true as const, data: { id: created.id, username: request.body.username } });
    },
  );
};
