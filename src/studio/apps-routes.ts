// /apps: the owner's apps, one per platform, in the catalog's app shape with `storeCredentials`
// write-only (answers carry read-only `configuredStores`). Rules and decisions:
// src/editing/apps.ts. Here: a platform outside the vocabulary's list is 404, as an app that is
// not there (the path names a resource, and there is none).
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { id, instant, refId } from '../catalog/fields.ts';
import { appSchema, STUDIO_APP_RULES } from '../catalog/format.ts';
import { deleteApp, putApp, readApp, readApps } from '../editing/apps.ts';
import { notFound } from '../editing/refusals.ts';
import type { GroupOptions } from '../http/group.ts';
import { APP_PLATFORMS, CREDENTIAL_STORES } from '../vocabulary.ts';
import { ifMatchOf, sendResource, sendWritten } from './context.ts';
import { appListSchema, appResourceSchema } from './contract.ts';
import { IMAGES_BODY_LIMIT } from './limits.ts';
import { MAX_LIST, NO_CONTENT } from './schemas.ts';
import { okSchema } from '../http/success-envelope.ts';

const platformParams = z.object({ platform: z.string() });

/** An unknown platform is 404 before the body is looked at (a PUT's body errors would say 422). */
async function knownPlatform(request: FastifyRequest): Promise<void> {
  const { platform } = request.params as { platform?: unknown };
  if (!(APP_PLATFORMS as readonly unknown[]).includes(platform)) throw notFound('App');
}

/**
 * A PUT body: the catalog's app entry, id, ownerId and platform filled in when left out,
 * storeCredentials kept when left out, and the read-only configuredStores taken (and ignored) so
 * that GET, edit, PUT works. The entry's own rules (theme per platform...) are checked on the whole.
 */
const appBody = z.strictObject({
  ...appSchema.shape,
  ...STUDIO_APP_RULES,
  id: id.optional(),
  ownerId: refId.optional(),
  platform: z.enum(APP_PLATFORMS).optional(),
  storeCredentials: appSchema.shape.storeCredentials.unwrap().optional(),
  channels: appSchema.shape.channels.unwrap().max(MAX_LIST).default([]),
  configuredStores: z.array(z.string().max(20)).max(CREDENTIAL_STORES.length).optional(),
  // Answered, taken back and ignored like configuredStores.
  credentialFields: z.record(z.string().max(20), z.record(z.string().max(200), z.unknown())).optional(),
  // Single keys changed, the rest kept (editing/apps.ts): a string sets, null removes; a store null removes it.
  credentialChanges: z
    .partialRecord(z.enum(CREDENTIAL_STORES), z.record(z.string().min(1).max(200), appSchema.shape.storeCredentials.unwrap().shape.apple.unwrap().valueType.nullable()).nullable())
    .optional(),
  createdAt: instant.optional(),
});

export const appsRoutes: FastifyPluginAsync<GroupOptions> = async (plain, { database }) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const { db } = database;

  app.get('/apps', { schema: { response: { 200: okSchema(appListSchema) } } }, async (request, reply) => {
    const { body, etag } = await readApps(db, request.editor.ownerId);
    return sendResource(reply, etag, body);
  });

  app.get('/apps/:platform', { schema: { params: platformParams, response: { 200: okSchema(appResourceSchema) } } }, async (request, reply) => {
    const { body, etag } = await readApp(db, request.editor.ownerId, request.params.platform);
    return sendResource(reply, etag, body);
  });

  app.put(
    '/apps/:platform',
    {
      bodyLimit: IMAGES_BODY_LIMIT,
      preValidation: knownPlatform,
      schema: { params: platformParams, body: appBody, response: { 200: okSchema(appResourceSchema), 201: okSchema(appResourceSchema) } },
    },
    async (request, reply) => sendWritten(reply, await putApp(db, request.editor, request.params.platform, request.body, ifMatchOf(request))),
  );

  app.delete('/apps/:platform', { schema: { params: platformParams, response: { 204: NO_CONTENT } } }, async (request, reply) =>
    sendWritten(reply, await deleteApp(db, request.editor, request.params.platform, ifMatchOf(request))),
  );
};
