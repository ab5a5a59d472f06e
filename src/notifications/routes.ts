// POST /api/v1/stores/{store}/{appId}: where each store pushes its server notifications for one
// app (docs/entitlements.md: Store notifications). The body is read as text whatever its type (SNS sends
// text/plain JSON, Roku text), handed to the domain to verify and keep, and answered at once.
import type { FastifyError, FastifyPluginAsync, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { hasZodFastifySchemaValidationErrors, validatorCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { parseStorePlatform } from '../entitlements/stores/index.ts';
import { sendEnveloped } from '../http/envelope.ts';
import { setUpGroup, type GroupOptions } from '../http/group.ts';
import { CREDENTIAL_STORES } from '../vocabulary.ts';

import { NOTIFICATIONS_ENVELOPE, refusalAnswer } from './errors.ts';
import { errorBody, okBody, okSchema } from '../http/success-envelope.ts';
import { numericId } from '../http/params.ts';

/** Apple's signed payloads run to tens of kilobytes; nothing a store sends comes near this. */
const BODY_LIMIT = 256 * 1024;

const params = z.object({ store: z.enum(CREDENTIAL_STORES), appId: numericId });
const accepted = okSchema(z.object({ received: z.number().int(), repeated: z.number().int() }));

export const notificationRoutes: FastifyPluginAsync<GroupOptions> = async (app, options) => {
  const notifications = options.notifications;
  if (!notifications) throw new Error("the store notification group needs the app's StoreNotifications");
  // Per client address, before the body is read: each push costs a signature check or a store call.
  await setUpGroup(app, {
    errors: {
      name: 'store notifications',
      envelope: NOTIFICATIONS_ENVELOPE,
      faultMessage: 'Internal error.',
      // A path that names no store or no app id answers as an app without notifications.
      answer: (error: FastifyError, _request, reply) =>
        hasZodFastifySchemaValidationErrors(error)
          ? reply.code(404).send(errorBody('not_configured', 'No app with this store configured for notifications is at this URL.'))
          : undefined,
    },
    validatorCompiler,
    bodyLimit: BODY_LIMIT,
    rateLimit: { ...options.config, RATE_LIMIT_MAX: options.config.RATE_LIMIT_NOTIFY_MAX },
  });
  // Each store's body as text: its proof of origin is checked over the bytes it sent.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));

  app
    .withTypeProvider<ZodTypeProvider>()
    .post(
      '/:store/:appId',
      { schema: { params, response: { 200: accepted }, tags: ['Store notifications'], summary: "A store's server notification for one app" } },
      async (request, reply) => {
        const store = parseStorePlatform(request.params.store)!;
        const result = await notifications.receive(store, request.params.appId, {
          body: typeof request.body === 'string' ? request.body : '',
          authorization: request.headers.authorization,
          address: request.ip,
          now: request.now,
        });
        if ('refused' in result) {
          // The reason names what failed, never the body's content.
          request.log.warn({ store, appId: request.params.appId, refused: result.refused, reason: result.reason }, 'store notification refused');
          const answer = refusalAnswer(result);
          return sendEnveloped((reply as FastifyReply).code(answer.status), { json: answer.body });
        }
        if (result.keySent) {
          // Every disclosure of the Roku Pay API key is on record (never the key itself).
          request.log.info({ store, appId: request.params.appId, transactionId: result.keySent.transactionId, address: request.ip }, 'Roku API key sent in an acknowledgement');
        }
        if (result.reply) return sendEnveloped(reply.headers(result.reply.headers), { text: result.reply.text, contentType: 'text/plain; charset=utf-8' });
        return okBody({ received: result.fresh, repeated: result.notifications.length - result.fresh });
      },
    );
};
