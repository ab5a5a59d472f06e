// /channels/{channelId}/schedules: a channel's schedule blocks in the catalog's block shape
// ({ id, startTime, published, loopDaily, videoIds }); /channels/{channelId}/days/{date}: the
// expanded day (the same occurrences and times as REST's schedules route, in Studio names: each
// entry naming its block, each video its videoId), and copies of a day's one-off blocks to other
// days. Rules, conflicts and writes: src/editing/schedules.ts.
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { etagOf } from '../editing/etag.ts';
import { MAX_COPY_DATES, copyDay, createBlock, deleteBlock, listBlocks, readBlock, readDay, updateBlock } from '../editing/schedules.ts';
import type { GroupOptions } from '../http/group.ts';
import { scheduleTotals } from '../schedules/expand.ts';
import { isValidDate, totalDurationLabel } from '../schedules/labels.ts';
import type { TimelineBlock } from '../schedules/timelines.ts';
import { fastLocalDateTime as formatLocalDateTime } from '../schedules/zone-offsets.ts';
import { dayVideoFields } from '../presenters/day-video.ts';
import { idempotencyOf, ifMatchOf, sendResource, sendWritten } from './context.ts';
import { blockCopiesSchema, blockListSchema, blockPatchSchema, blockSchema, daySchema, newBlockSchema } from './contract.ts';
import { NO_CONTENT, numericId } from './schemas.ts';
import { okSchema } from '../http/success-envelope.ts';

const date = z.string().refine(isValidDate, { error: 'must be a real date in the form yyyy-MM-dd' });
const channelParams = z.object({ channelId: numericId });
const blockParams = z.object({ channelId: numericId, blockId: numericId });
const dayParams = z.object({ channelId: numericId, date });
const listQuery = z
  .strictObject({ from: date.optional(), to: date.optional() })
  .refine((q) => q.from === undefined || q.to === undefined || q.from <= q.to, { error: 'from must not be after to', path: ['to'] });

const copyBody = z.strictObject({
  toDates: z.array(date).min(1).max(MAX_COPY_DATES),
  allowOverlap: z.boolean().optional(),
  replace: z.boolean().optional(),
});

/** The day in Studio names: each entry its block (null for a live stream), each video its videoId. */
function presentDay(channelId: number, date: string, zone: string, blocks: TimelineBlock[]): z.input<typeof daySchema> {
  const totals = scheduleTotals(blocks);
  return {
    channelId,
    date,
    timezone: zone,
    entries: blocks.map((b) => ({
      blockId: b.isLive ? null : b.channelScheduleId,
      isLive: b.isLive,
      startTime: formatLocalDateTime(b.start, zone),
      published: b.published,
      loopDaily: b.loopDaily,
      videos: b.videos.map((v) => ({ videoId: v.video.videoTubeId, ...dayVideoFields(v, zone) })),
    })),
    totalVideos: totals.totalVideos,
    totalDurationLabel: totalDurationLabel(totals.totalDurationSeconds),
  };
}

export const scheduleRoutes: FastifyPluginAsync<GroupOptions> = async (plain, { database }) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const { db } = database;

  app.get('/channels/:channelId/schedules', { schema: { params: channelParams, querystring: listQuery, response: { 200: okSchema(blockListSchema) } } }, async (request, reply) => {
    const { from, to } = request.query;
    const { list, etag } = await listBlocks(db, request.editor.ownerId, request.params.channelId, from, to);
    return sendResource(reply, etag, list);
  });

  app.post('/channels/:channelId/schedules', { schema: { params: channelParams, body: newBlockSchema, response: { 201: okSchema(blockSchema) } } }, async (request, reply) =>
    sendWritten(reply, await createBlock(db, request.editor, request.params.channelId, request.body, ifMatchOf(request), idempotencyOf(request))),
  );

  app.get('/channels/:channelId/schedules/:blockId', { schema: { params: blockParams, response: { 200: okSchema(blockSchema) } } }, async (request, reply) => {
    const block = await readBlock(db, request.editor.ownerId, request.params.channelId, request.params.blockId);
    return sendResource(reply, etagOf(block), block);
  });

  app.patch(
    '/channels/:channelId/schedules/:blockId',
    { schema: { params: blockParams, body: blockPatchSchema, response: { 200: okSchema(blockSchema) } } },
    async (request, reply) => {
      const { channelId, blockId } = request.params;
      return sendWritten(reply, await updateBlock(db, request.editor, channelId, blockId, request.body, ifMatchOf(request)));
    },
  );

  app.delete('/channels/:channelId/schedules/:blockId', { schema: { params: blockParams, response: { 204: NO_CONTENT } } }, async (request, reply) =>
    sendWritten(reply, await deleteBlock(db, request.editor, request.params.channelId, request.params.blockId, ifMatchOf(request))),
  );

  app.get('/channels/:channelId/days/:date', { schema: { params: dayParams, response: { 200: okSchema(daySchema) } } }, async (request, reply) => {
    const day = await readDay(db, request.editor.ownerId, request.params.channelId, request.params.date);
    const body = presentDay(day.channelId, request.params.date, day.timezone, day.blocks);
    return sendResource(reply, etagOf(body), body);
  });

  app.post('/channels/:channelId/days/:date/copy', { schema: { params: dayParams, body: copyBody, response: { 201: okSchema(blockCopiesSchema) } } }, async (request, reply) => {
    const { channelId, date: day } = request.params;
    return sendWritten(reply, await copyDay(db, request.editor, channelId, day, request.body, ifMatchOf(request), idempotencyOf(request)));
  });
};
