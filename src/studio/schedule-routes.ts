// /channels/{channelId}/schedules: a channel's schedule blocks in the catalog's block shape
// ({ id, startTime, published, loopDaily, videoIds }); /channels/{channelId}/days/{date}: the
// expanded day as REST's schedules route shows it, each entry naming its block, and copies of a
// day's one-off blocks to other days. Rules, conflicts and writes: src/editing/schedules.ts.
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { id } from '../catalog/fields.ts';
import { scheduleBlockSchema } from '../catalog/format.ts';
import { etagOf } from '../editing/etag.ts';
import { MAX_COPY_DATES, copyDay, createBlock, deleteBlock, listBlocks, readBlock, readDay, updateBlock } from '../editing/schedules.ts';
import type { GroupOptions } from '../http/group.ts';
import { presentSchedule } from '../rest/presenter.ts';
import { scheduleSchema } from '../rest/schemas.ts';
import { isValidDate } from '../schedules/labels.ts';
import type { TimelineBlock } from '../schedules/timelines.ts';
import { idempotencyOf, ifMatchOf, sendResource, sendWritten } from './context.ts';
import { NO_CONTENT, numericId, patchOf } from './schemas.ts';
import { okSchema } from '../http/success-envelope.ts';

const date = z.string().refine(isValidDate, { error: 'must be a real date in the form yyyy-MM-dd' });
const channelParams = z.object({ channelId: numericId });
const blockParams = z.object({ channelId: numericId, blockId: numericId });
const dayParams = z.object({ channelId: numericId, date });
const listQuery = z
  .strictObject({ from: date.optional(), to: date.optional() })
  .refine((q) => q.from === undefined || q.to === undefined || q.from <= q.to, { error: 'from must not be after to', path: ['to'] });

/** Overlaps with other blocks are refused (409 schedule_conflict) unless the request says so; never stored. */
const allowOverlap = z.boolean();
/** A new block: the catalog's, its id assigned when left out. */
const createBody = scheduleBlockSchema.extend({ id: id.optional(), allowOverlap: allowOverlap.optional() });
/** Any of the block's fields; id may be sent back unchanged (GET, edit, PATCH). */
const patchBody = patchOf({ ...scheduleBlockSchema.shape, allowOverlap }, []);
const copyBody = z.strictObject({
  toDates: z.array(date).min(1).max(MAX_COPY_DATES),
  allowOverlap: allowOverlap.optional(),
  replace: z.boolean().optional(),
});

const blockSchema = z.object({ id: z.int(), startTime: z.string(), published: z.boolean(), loopDaily: z.boolean(), videoIds: z.array(z.int()) });
const listSchema = z.object({ channelId: z.int(), timezone: z.string(), items: z.array(blockSchema) });
const copiesSchema = z.object({ items: z.array(blockSchema) });

/** REST's schedule day, each block and video naming its block (null for a live stream) and whether it is published. */
const restBlock = scheduleSchema.shape.schedules.element;
const daySchema = scheduleSchema.extend({
  schedules: z.array(
    restBlock.extend({
      videos: z.array(restBlock.shape.videos.element.extend({ blockId: z.int().nullable(), published: z.boolean() })),
      blockId: z.int().nullable(),
    }),
  ),
  timezone: z.string(),
});

function presentDay(channelId: number, day: string, timezone: string, blocks: TimelineBlock[]): z.input<typeof daySchema> {
  const schedule = presentSchedule(channelId, day, timezone, blocks);
  return {
    ...schedule,
    schedules: schedule.schedules.map((entry, i) => {
      const block = blocks[i]!;
      const blockId = block.isLive ? null : block.channelScheduleId;
      return { ...entry, videos: entry.videos.map((v) => ({ ...v, blockId, published: block.published })), blockId };
    }),
    timezone,
  };
}

export const scheduleRoutes: FastifyPluginAsync<GroupOptions> = async (plain, { database }) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const { db } = database;

  app.get('/channels/:channelId/schedules', { schema: { params: channelParams, querystring: listQuery, response: { 200: okSchema(listSchema) } } }, async (request, reply) => {
    const { from, to } = request.query;
    const { list, etag } = await listBlocks(db, request.editor.ownerId, request.params.channelId, from, to);
    return sendResource(reply, etag, list);
  });

  app.post('/channels/:channelId/schedules', { schema: { params: channelParams, body: createBody, response: { 201: okSchema(blockSchema) } } }, async (request, reply) =>
    sendWritten(reply, await createBlock(db, request.editor, request.params.channelId, request.body as Record<string, unknown>, ifMatchOf(request), idempotencyOf(request))),
  );

  app.get('/channels/:channelId/schedules/:blockId', { schema: { params: blockParams, response: { 200: okSchema(blockSchema) } } }, async (request, reply) => {
    const block = await readBlock(db, request.editor.ownerId, request.params.channelId, request.params.blockId);
    return sendResource(reply, etagOf(block), block);
  });

  app.patch('/channels/:channelId/schedules/:blockId', { schema: { params: blockParams, body: patchBody, response: { 200: okSchema(blockSchema) } } }, async (request, reply) => {
    const { channelId, blockId } = request.params;
    return sendWritten(reply, await updateBlock(db, request.editor, channelId, blockId, request.body as Record<string, unknown>, ifMatchOf(request)));
  });

  app.delete('/channels/:channelId/schedules/:blockId', { schema: { params: blockParams, response: { 204: NO_CONTENT } } }, async (request, reply) =>
    sendWritten(reply, await deleteBlock(db, request.editor, request.params.channelId, request.params.blockId, ifMatchOf(request))),
  );

  app.get('/channels/:channelId/days/:date', { schema: { params: dayParams, response: { 200: okSchema(daySchema) } } }, async (request, reply) => {
    const day = await readDay(db, request.editor.ownerId, request.params.channelId, request.params.date);
    const body = presentDay(day.channelId, request.params.date, day.timezone, day.blocks);
    return sendResource(reply, etagOf(body), body);
  });

  app.post('/channels/:channelId/days/:date/copy', { schema: { params: dayParams, body: copyBody, response: { 201: okSchema(copiesSchema) } } }, async (request, reply) => {
    const { channelId, date: day } = request.params;
    return sendWritten(reply, await copyDay(db, request.editor, channelId, day, request.body, ifMatchOf(request), idempotencyOf(request)));
  });
};
