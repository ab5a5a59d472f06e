// /apps/{platform}/epg-key: the key of the app's public XMLTV guide URL. POST makes one (revoking
// the previous) and shows the guide's full URL once; GET says since when the app has one; DELETE
// revokes it. Rules and decisions: src/editing/epg-keys.ts.
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { createEpgKey, readEpgKey, revokeEpgKey } from '../editing/epg-keys.ts';
import type { GroupOptions } from '../http/group.ts';
import { idempotencyOf, ifMatchOf, sendResource, sendWritten } from './context.ts';
import { NO_CONTENT } from './schemas.ts';
import { okSchema } from '../http/success-envelope.ts';
import { createdEpgKeySchema as createdSchema, epgKeySchema } from './contract.ts';

const platformParams = z.object({ platform: z.string() });
/** Nothing to send: the key is made by the service. */
const noBody = z.strictObject({}).nullish();

export const epgKeyRoutes: FastifyPluginAsync<GroupOptions> = async (plain, { database, config }) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const { db } = database;

  app.get('/apps/:platform/epg-key', { schema: { params: platformParams, response: { 200: okSchema(epgKeySchema) } } }, async (request, reply) => {
    const { body, etag } = await readEpgKey(db, request.editor.ownerId, request.params.platform);
    return sendResource(reply, etag, body);
  });

  app.post('/apps/:platform/epg-key', { schema: { params: platformParams, body: noBody, response: { 201: okSchema(createdSchema) } } }, async (request, reply) =>
    sendWritten(reply, await createEpgKey(db, request.editor, request.params.platform, config.PUBLIC_URL, idempotencyOf(request))),
  );

  app.delete('/apps/:platform/epg-key', { schema: { params: platformParams, response: { 204: NO_CONTENT } } }, async (request, reply) =>
    sendWritten(reply, await revokeEpgKey(db, request.editor, request.params.platform, ifMatchOf(request))),
  );
};
