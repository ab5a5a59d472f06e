// Account-level Studio routes: /app-tokens (create: the token shown once; list; revoke),
// /branding (the Custom `settings` answer's source: read, replace, clear) and the shared
// reference data /categories and /languages (list all, create; no change or delete, since other
// owners' channels may name them). Rules and decisions: src/editing/account.ts.
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { accountSchema } from '../catalog/format.ts';
import {
  clearBranding,
  createAppToken,
  createCategory,
  createLanguage,
  putBranding,
  readAppToken,
  readAppTokens,
  readBranding,
  readCategories,
  readLanguages,
  revokeToken,
} from '../editing/account.ts';
import type { GroupOptions } from '../http/group.ts';
import { idempotencyOf, ifMatchOf, sendResource, sendWritten } from './context.ts';
import { IMAGES_BODY_LIMIT } from './limits.ts';
import {
  appTokenListSchema,
  appTokenSchema,
  brandingSchema,
  categoryListSchema,
  categoryResourceSchema,
  createdTokenSchema,
  languageListSchema,
  languageResourceSchema,
  newCategorySchema,
  newLanguageSchema,
} from './contract.ts';
import { NO_CONTENT, numericId } from './schemas.ts';
import { okSchema } from '../http/success-envelope.ts';

type Body = Record<string, unknown>;

const tokenParams = z.object({ tokenId: numericId });
const tokenBody = z.strictObject({ label: z.string().max(200).default('') });
/** The body is handed on as sent (see validation.ts): a left-out label is the catalog's default, ''. */
const labelOf = (body: unknown): string => {
  const label = (body as Body | null | undefined)?.['label'];
  return typeof label === 'string' ? label : '';
};

/** The catalog account's branding object (PUT replaces it whole: fields left out are null). */
const brandingBody = accountSchema.shape.branding.unwrap().unwrap();

export const accountRoutes: FastifyPluginAsync<GroupOptions> = async (plain, { database }) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const { db } = database;

  // ---------------------------------------------------------------- app tokens

  app.get('/app-tokens', { schema: { response: { 200: okSchema(appTokenListSchema) } } }, async (request, reply) => {
    const { body, etag } = await readAppTokens(db, request.editor.ownerId);
    return sendResource(reply, etag, body);
  });

  app.post('/app-tokens', { schema: { body: tokenBody, response: { 201: okSchema(createdTokenSchema) } } }, async (request, reply) =>
    sendWritten(reply, await createAppToken(db, request.editor, labelOf(request.body), idempotencyOf(request))),
  );

  app.get('/app-tokens/:tokenId', { schema: { params: tokenParams, response: { 200: okSchema(appTokenSchema) } } }, async (request, reply) => {
    const { body, etag } = await readAppToken(db, request.editor.ownerId, request.params.tokenId);
    return sendResource(reply, etag, body);
  });

  app.delete('/app-tokens/:tokenId', { schema: { params: tokenParams, response: { 204: NO_CONTENT } } }, async (request, reply) =>
    sendWritten(reply, await revokeToken(db, request.editor, request.params.tokenId, ifMatchOf(request))),
  );

  // ---------------------------------------------------------------- branding

  app.get('/branding', { schema: { response: { 200: okSchema(brandingSchema.nullable()) } } }, async (request, reply) => {
    const { body, etag } = await readBranding(db, request.editor.ownerId);
    return sendResource(reply, etag, body);
  });

  app.put(
    '/branding',
    { bodyLimit: IMAGES_BODY_LIMIT, schema: { body: brandingBody, response: { 200: okSchema(brandingSchema), 201: okSchema(brandingSchema) } } },
    async (request, reply) => sendWritten(reply, await putBranding(db, request.editor, request.body, ifMatchOf(request))),
  );

  app.delete('/branding', { schema: { response: { 204: NO_CONTENT } } }, async (request, reply) => sendWritten(reply, await clearBranding(db, request.editor, ifMatchOf(request))));

  // ---------------------------------------------------------------- categories and languages

  app.get('/categories', { schema: { response: { 200: okSchema(categoryListSchema) } } }, async (_request, reply) => {
    const { body, etag } = await readCategories(db);
    return sendResource(reply, etag, body);
  });

  app.post('/categories', { schema: { body: newCategorySchema, response: { 201: okSchema(categoryResourceSchema) } } }, async (request, reply) =>
    sendWritten(reply, await createCategory(db, request.editor, request.body, idempotencyOf(request))),
  );

  app.get('/languages', { schema: { response: { 200: okSchema(languageListSchema) } } }, async (_request, reply) => {
    const { body, etag } = await readLanguages(db);
    return sendResource(reply, etag, body);
  });

  app.post('/languages', { schema: { body: newLanguageSchema, response: { 201: okSchema(languageResourceSchema) } } }, async (request, reply) =>
    sendWritten(reply, await createLanguage(db, request.editor, request.body, idempotencyOf(request))),
  );
};
