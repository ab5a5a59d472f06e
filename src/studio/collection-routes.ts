// /collections: the owner's named, reusable sets of videos that slots of any of its channels play
// (docs/programming.md, Collections). Manual (a list) or smart (rules resolved when read or
// generated); each answer says which slots play it. Rules: src/editing/collections.ts.
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { createCollection, deleteCollection, listCollections, readCollection, replaceCollection } from '../editing/collections.ts';
import { etagOf } from '../editing/etag.ts';
import type { GroupOptions } from '../http/group.ts';
import { okSchema } from '../http/success-envelope.ts';
import { idempotencyOf, ifMatchOf, sendResource, sendWritten } from './context.ts';
import { COLLECTION_BODY_LIMIT } from './limits.ts';
import { collectionBodySchema, collectionSchema } from './contract.ts';
import { NO_CONTENT, numericId } from './schemas.ts';

const collectionParams = z.object({ collectionId: numericId });

export const collectionRoutes: FastifyPluginAsync<GroupOptions> = async (plain, { database }) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const { db } = database;

  app.get('/collections', { schema: { response: { 200: okSchema(z.array(collectionSchema)) } } }, async (request, reply) => {
    const list = await listCollections(db, request.editor.ownerId);
    return sendResource(reply, etagOf(list), list);
  });

  app.post('/collections', { bodyLimit: COLLECTION_BODY_LIMIT, schema: { body: collectionBodySchema, response: { 201: okSchema(collectionSchema) } } }, async (request, reply) =>
    sendWritten(reply, await createCollection(db, request.editor, request.body, idempotencyOf(request))),
  );

  app.get('/collections/:collectionId', { schema: { params: collectionParams, response: { 200: okSchema(collectionSchema) } } }, async (request, reply) => {
    const collection = await readCollection(db, request.editor.ownerId, request.params.collectionId);
    return sendResource(reply, etagOf(collection), collection);
  });

  app.put(
    '/collections/:collectionId',
    { bodyLimit: COLLECTION_BODY_LIMIT, schema: { params: collectionParams, body: collectionBodySchema, response: { 200: okSchema(collectionSchema) } } },
    async (request, reply) => sendWritten(reply, await replaceCollection(db, request.editor, request.params.collectionId, request.body, ifMatchOf(request))),
  );

  app.delete('/collections/:collectionId', { schema: { params: collectionParams, response: { 204: NO_CONTENT } } }, async (request, reply) =>
    sendWritten(reply, await deleteCollection(db, request.editor, request.params.collectionId, ifMatchOf(request))),
  );
};
