// /channels/{channelId}/programming: a channel's programming tools. The stored slot plan and
// filler list (GET/PUT with ETags), a preview of what the plan makes over a range of dates, the
// apply that writes it, a template copy of a day or a week over a range, and one undo of the
// last apply or copy. Everything written is ordinary schedule blocks (GET .../schedules lists
// them). Rules: src/schedules/programming.ts (generation), src/editing/programming.ts (writes).
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  applyProgramming,
  copyTemplate,
  previewProgramming,
  putFallback,
  putFiller,
  putSlots,
  readFallback,
  readFiller,
  readProgramming,
  readSlots,
  undoProgramming,
} from '../editing/programming.ts';
import { etagOf } from '../editing/etag.ts';
import type { GroupOptions } from '../http/group.ts';
import { okSchema } from '../http/success-envelope.ts';
import type { Slot } from '../schedules/programming.ts';
import { idempotencyOf, ifMatchOf, sendResource, sendWritten } from './context.ts';
import {
  fallbackBodySchema,
  fallbackSchema,
  fillerBodySchema,
  fillerSchema,
  generateBodySchema,
  programmingPreviewSchema,
  programmingStateSchema,
  programmingWrittenSchema,
  slotPlanBodySchema,
  slotPlanSchema,
  templateBodySchema,
  undoBodySchema,
  undoneSchema,
} from './contract.ts';
import { numericId } from './schemas.ts';

const channelParams = z.object({ channelId: numericId });
const base = '/channels/:channelId/programming';

export const programmingRoutes: FastifyPluginAsync<GroupOptions> = async (plain, { database }) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const { db } = database;

  app.get(base, { schema: { params: channelParams, response: { 200: okSchema(programmingStateSchema) } } }, async (request, reply) => {
    const state = await readProgramming(db, request.editor.ownerId, request.params.channelId);
    return sendResource(reply, etagOf(state), state);
  });

  app.get(`${base}/slots`, { schema: { params: channelParams, response: { 200: okSchema(slotPlanSchema) } } }, async (request, reply) => {
    const plan = await readSlots(db, request.editor.ownerId, request.params.channelId);
    return sendResource(reply, etagOf(plan), plan);
  });

  app.put(`${base}/slots`, { schema: { params: channelParams, body: slotPlanBodySchema, response: { 200: okSchema(slotPlanSchema) } } }, async (request, reply) =>
    sendWritten(reply, await putSlots(db, request.editor, request.params.channelId, request.body.slots, ifMatchOf(request))),
  );

  app.get(`${base}/filler`, { schema: { params: channelParams, response: { 200: okSchema(fillerSchema) } } }, async (request, reply) => {
    const list = await readFiller(db, request.editor.ownerId, request.params.channelId);
    return sendResource(reply, etagOf(list), list);
  });

  app.put(`${base}/filler`, { schema: { params: channelParams, body: fillerBodySchema, response: { 200: okSchema(fillerSchema) } } }, async (request, reply) =>
    sendWritten(reply, await putFiller(db, request.editor, request.params.channelId, request.body, ifMatchOf(request))),
  );

  app.get(`${base}/fallback`, { schema: { params: channelParams, response: { 200: okSchema(fallbackSchema) } } }, async (request, reply) => {
    const fallback = await readFallback(db, request.editor.ownerId, request.params.channelId);
    return sendResource(reply, etagOf(fallback), fallback);
  });

  app.put(`${base}/fallback`, { schema: { params: channelParams, body: fallbackBodySchema, response: { 200: okSchema(fallbackSchema) } } }, async (request, reply) =>
    sendWritten(reply, await putFallback(db, request.editor, request.params.channelId, request.body.collectionId, ifMatchOf(request))),
  );

  // A preview writes nothing: POST only because its body (an unsaved plan) does not fit a query.
  app.post(`${base}/preview`, { schema: { params: channelParams, body: generateBodySchema, response: { 200: okSchema(programmingPreviewSchema) } } }, async (request, reply) => {
    const preview = await previewProgramming(db, request.editor.ownerId, request.params.channelId, request.body);
    return sendResource(reply, etagOf(preview), preview);
  });

  app.post(`${base}/apply`, { schema: { params: channelParams, body: generateBodySchema, response: { 201: okSchema(programmingWrittenSchema) } } }, async (request, reply) =>
    sendWritten(reply, await applyProgramming(db, request.editor, request.params.channelId, request.body, ifMatchOf(request), idempotencyOf(request))),
  );

  app.post(`${base}/template`, { schema: { params: channelParams, body: templateBodySchema, response: { 201: okSchema(programmingWrittenSchema) } } }, async (request, reply) =>
    sendWritten(reply, await copyTemplate(db, request.editor, request.params.channelId, request.body, ifMatchOf(request), idempotencyOf(request))),
  );

  app.post(`${base}/undo`, { schema: { params: channelParams, body: undoBodySchema.optional(), response: { 200: okSchema(undoneSchema) } } }, async (request, reply) =>
    sendWritten(reply, await undoProgramming(db, request.editor, request.params.channelId, request.body?.allowOverlap === true, ifMatchOf(request), idempotencyOf(request))),
  );
};
