// /channels/{id}/linear: a channel's linear output settings with their coverage over the next 7
// days (GET, with the settings' ETag) and turning it on or off (PUT, If-Match, audited). Rules:
// src/editing/linear-settings.ts.
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { GroupOptions } from '../http/group.ts';
import { okSchema } from '../http/success-envelope.ts';
import { MAX_RUNGS, MAX_TARGET_SECONDS, MAX_WINDOW_SECONDS, putLinear, readLinear } from '../editing/linear-settings.ts';
import { ifMatchOf, sendResource, sendWritten } from './context.ts';
import { numericId } from './schemas.ts';

const channelParams = z.object({ channelId: numericId });

const rungSchema = z.strictObject({
  bandwidth: z.int().min(1).max(1_000_000_000),
  averageBandwidth: z.int().min(1).max(1_000_000_000).optional(),
  resolution: z.strictObject({ width: z.int().min(1).max(16384), height: z.int().min(1).max(16384) }).optional(),
  codecs: z
    .string()
    .max(200)
    .regex(/^[A-Za-z0-9.,\- ]*$/, { error: 'must be an RFC 6381 codecs list' })
    .optional(),
  frameRate: z.number().positive().max(1000).optional(),
});

const linearBody = z.strictObject({
  enabled: z.boolean(),
  targetDurationSeconds: z.int().min(1).max(MAX_TARGET_SECONDS),
  windowSeconds: z.int().min(1).max(MAX_WINDOW_SECONDS).optional(),
  ladder: z.array(rungSchema).min(1).max(MAX_RUNGS).optional(),
});

const coverageSchema = z.object({
  share: z.number(),
  airtimeSeconds: z.number(),
  itselfSeconds: z.number(),
  reasons: z.record(z.string(), z.number()),
  programmes: z.array(z.object({ start: z.string(), end: z.string(), videoId: z.number(), title: z.string(), reason: z.string() })),
});

const linearSchema = z.object({
  enabled: z.boolean(),
  container: z.enum(['ts', 'fmp4']),
  targetDurationSeconds: z.number(),
  windowSeconds: z.number(),
  ladder: z.array(rungSchema),
  epoch: z.string().nullable(),
  coverage: coverageSchema,
});

export const linearRoutes: FastifyPluginAsync<GroupOptions> = async (plain, { database, timelines }) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();

  app.get('/channels/:channelId/linear', { schema: { params: channelParams, response: { 200: okSchema(linearSchema) } } }, async (request, reply) => {
    const { body, etag } = await readLinear(database.db, timelines, request.editor.ownerId, request.params.channelId, request.now);
    return sendResource(reply, etag, body);
  });

  app.put('/channels/:channelId/linear', { schema: { params: channelParams, body: linearBody, response: { 200: okSchema(linearSchema) } } }, async (request, reply) =>
    sendWritten(reply, await putLinear(database.db, request.editor, request.params.channelId, request.body, ifMatchOf(request), timelines)),
  );
};
