// /channels: the owner's channels in the catalog's channel shape (children and secrets left to
// their own routes, `hasPassword` read-only), and per channel: library, vod, vast/{platform},
// password and live-streams. Rules and decisions: src/editing/channels.ts. Here:
// - a VAST platform outside the vocabulary's list is refused with 422 (params.platform), the
//   same answer whoever's channel the path names; a known platform with no setting is 404;
// - DELETE of a VAST setting that is not there is 404, while DELETE of a password that is not
//   set is 204 (a channel always has a password state; clearing it twice leaves it cleared).
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { channelPassword, id, instant, refId } from '../catalog/fields.ts';
import { channelSchema, liveStreamSchema, scheduleBlockSchema, STUDIO_CHANNEL_RULES } from '../catalog/format.ts';
import {
  channelPage,
  clearPassword,
  createChannel,
  createLiveStream,
  deleteChannel,
  deleteLiveStream,
  deleteVast,
  putVast,
  putVideoList,
  readChannel,
  readLiveStream,
  readLiveStreams,
  readPassword,
  readVast,
  readVastList,
  readVideoList,
  reorderChannels,
  setPassword,
  updateChannel,
  updateLiveStream,
  type VideoList,
} from '../editing/channels.ts';
import type { GroupOptions } from '../http/group.ts';
import { VAST_PLATFORMS } from '../vocabulary.ts';
import { idempotencyOf, ifMatchOf, sendResource, sendWritten } from './context.ts';
import { LIST_BODY_LIMIT } from './limits.ts';
import {
  channelOrderSchema,
  channelPageSchema,
  channelResourceSchema,
  liveStreamListSchema,
  liveStreamResourceSchema,
  passwordSchema,
  vastBodySchema,
  vastListSchema,
  vastResourceSchema,
  videoListSchema,
} from './contract.ts';
import { MAX_LIST, NO_CONTENT, numericId, pageQuery, patchOf } from './schemas.ts';
import { okSchema } from '../http/success-envelope.ts';

type Body = Record<string, unknown>;

const channelParams = z.object({ channelId: numericId });
const vastParams = z.object({ channelId: numericId, platform: z.enum(VAST_PLATFORMS) });
const liveStreamParams = z.object({ channelId: numericId, liveStreamId: numericId });

const channelsQuery = pageQuery.extend({ deleted: z.enum(['0', '1']).optional() });

/** Blocks or live streams in one new channel's body (64 KiB holds about 1,100 blocks: 1.3 s of CPU). */
const MAX_CHILDREN = 1000;

/**
 * A new channel: the catalog's entry, id, ownerId and schedule block ids filled in when left out
 * (the entry's own rules, such as password or passwordHash, are checked on the whole entry).
 * Every list capped.
 */
const { videoIds, vodVideoIds, vast, liveStreams } = channelSchema.shape;
const newChannelSchema = z.strictObject({
  ...channelSchema.shape,
  ...STUDIO_CHANNEL_RULES,
  id: id.optional(),
  ownerId: refId.optional(),
  hasPassword: z.boolean().optional(),
  videoIds: videoIds.unwrap().max(MAX_LIST).default([]),
  vodVideoIds: vodVideoIds.unwrap().max(MAX_LIST).default([]),
  vast: vast.unwrap().max(VAST_PLATFORMS.length).default([]),
  liveStreams: liveStreams.unwrap().max(MAX_CHILDREN).default([]),
  schedules: z
    .array(scheduleBlockSchema.extend({ id: id.optional() }))
    .max(MAX_CHILDREN)
    .default([]),
});

/**
 * A channel PATCH: its own fields. Children and the password are taken (and refused with the
 * route that changes them) so the answer says where to go rather than "unknown field".
 */
const CHILDREN = ['videoIds', 'vodVideoIds', 'vast', 'schedules', 'liveStreams', 'password', 'passwordHash'] as const;
const channelPatch = patchOf({ ...channelSchema.shape, ...STUDIO_CHANNEL_RULES }, CHILDREN).extend({
  createdAt: instant.optional(),
  hasPassword: z.boolean().optional(),
  ...Object.fromEntries(CHILDREN.map((key) => [key, z.unknown().optional()])),
});

const orderBody = z.strictObject({ channelIds: z.array(refId).max(MAX_LIST) });
const videoListBody = z.strictObject({ videoIds: z.array(refId).max(MAX_LIST) });
const passwordBody = z.strictObject({ password: channelPassword });
const liveStreamPatch = z.strictObject({ id: z.number().optional(), videoId: refId, start: instant, end: instant, uri: z.string() }).partial();

const VIDEO_LISTS: readonly VideoList[] = ['library', 'vod'];

export const channelsRoutes: FastifyPluginAsync<GroupOptions> = async (plain, { database }) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const { db } = database;

  app.get('/channels', { schema: { querystring: channelsQuery, response: { 200: okSchema(channelPageSchema) } } }, async (request) => {
    const { page, per_page, q, deleted } = request.query;
    return { success: true as const, data: await channelPage(db, request.editor.ownerId, q, deleted === '1', page, per_page) };
  });

  app.post('/channels', { schema: { body: newChannelSchema, response: { 201: okSchema(channelResourceSchema) } } }, async (request, reply) =>
    sendWritten(reply, await createChannel(db, request.editor, request.body, idempotencyOf(request))),
  );

  app.put('/channels/order', { bodyLimit: LIST_BODY_LIMIT, schema: { body: orderBody, response: { 200: okSchema(channelOrderSchema) } } }, async (request, reply) =>
    sendWritten(reply, await reorderChannels(db, request.editor, request.body.channelIds)),
  );

  app.get('/channels/:channelId', { schema: { params: channelParams, response: { 200: okSchema(channelResourceSchema) } } }, async (request, reply) => {
    const { body, etag } = await readChannel(db, request.editor.ownerId, request.params.channelId);
    return sendResource(reply, etag, body);
  });

  app.patch('/channels/:channelId', { schema: { params: channelParams, body: channelPatch, response: { 200: okSchema(channelResourceSchema) } } }, async (request, reply) =>
    sendWritten(reply, await updateChannel(db, request.editor, request.params.channelId, request.body, ifMatchOf(request))),
  );

  app.delete('/channels/:channelId', { schema: { params: channelParams, response: { 204: NO_CONTENT } } }, async (request, reply) =>
    sendWritten(reply, await deleteChannel(db, request.editor, request.params.channelId, ifMatchOf(request))),
  );

  for (const list of VIDEO_LISTS) {
    app.get(`/channels/:channelId/${list}`, { schema: { params: channelParams, response: { 200: okSchema(videoListSchema) } } }, async (request, reply) => {
      const { body, etag } = await readVideoList(db, request.editor.ownerId, request.params.channelId, list);
      return sendResource(reply, etag, body);
    });
    app.put(
      `/channels/:channelId/${list}`,
      { bodyLimit: LIST_BODY_LIMIT, schema: { params: channelParams, body: videoListBody, response: { 200: okSchema(videoListSchema) } } },
      async (request, reply) => sendWritten(reply, await putVideoList(db, request.editor, request.params.channelId, list, request.body.videoIds, ifMatchOf(request))),
    );
  }

  app.get('/channels/:channelId/vast', { schema: { params: channelParams, response: { 200: okSchema(vastListSchema) } } }, async (request, reply) => {
    const { body, etag } = await readVastList(db, request.editor.ownerId, request.params.channelId);
    return sendResource(reply, etag, body);
  });

  app.get('/channels/:channelId/vast/:platform', { schema: { params: vastParams, response: { 200: okSchema(vastResourceSchema) } } }, async (request, reply) => {
    const { body, etag } = await readVast(db, request.editor.ownerId, request.params.channelId, request.params.platform);
    return sendResource(reply, etag, body);
  });

  app.put(
    '/channels/:channelId/vast/:platform',
    { schema: { params: vastParams, body: vastBodySchema, response: { 200: okSchema(vastResourceSchema), 201: okSchema(vastResourceSchema) } } },
    async (request, reply) => sendWritten(reply, await putVast(db, request.editor, request.params.channelId, request.params.platform, request.body, ifMatchOf(request))),
  );

  app.delete('/channels/:channelId/vast/:platform', { schema: { params: vastParams, response: { 204: NO_CONTENT } } }, async (request, reply) =>
    sendWritten(reply, await deleteVast(db, request.editor, request.params.channelId, request.params.platform, ifMatchOf(request))),
  );

  app.get('/channels/:channelId/password', { schema: { params: channelParams, response: { 200: okSchema(passwordSchema) } } }, async (request, reply) => {
    const { body, etag } = await readPassword(db, request.editor.ownerId, request.params.channelId);
    return sendResource(reply, etag, body);
  });

  app.put('/channels/:channelId/password', { schema: { params: channelParams, body: passwordBody, response: { 200: okSchema(passwordSchema) } } }, async (request, reply) =>
    sendWritten(reply, await setPassword(db, request.editor, request.params.channelId, request.body.password, ifMatchOf(request))),
  );

  app.delete('/channels/:channelId/password', { schema: { params: channelParams, response: { 204: NO_CONTENT } } }, async (request, reply) =>
    sendWritten(reply, await clearPassword(db, request.editor, request.params.channelId, ifMatchOf(request))),
  );

  app.get('/channels/:channelId/live-streams', { schema: { params: channelParams, response: { 200: okSchema(liveStreamListSchema) } } }, async (request, reply) => {
    const { body, etag } = await readLiveStreams(db, request.editor.ownerId, request.params.channelId);
    return sendResource(reply, etag, body);
  });

  app.post(
    '/channels/:channelId/live-streams',
    { schema: { params: channelParams, body: liveStreamSchema, response: { 201: okSchema(liveStreamResourceSchema) } } },
    async (request, reply) => sendWritten(reply, await createLiveStream(db, request.editor, request.params.channelId, request.body, idempotencyOf(request))),
  );

  app.get(
    '/channels/:channelId/live-streams/:liveStreamId',
    { schema: { params: liveStreamParams, response: { 200: okSchema(liveStreamResourceSchema) } } },
    async (request, reply) => {
      const { body, etag } = await readLiveStream(db, request.editor.ownerId, request.params.channelId, request.params.liveStreamId);
      return sendResource(reply, etag, body);
    },
  );

  app.patch(
    '/channels/:channelId/live-streams/:liveStreamId',
    { schema: { params: liveStreamParams, body: liveStreamPatch, response: { 200: okSchema(liveStreamResourceSchema) } } },
    async (request, reply) =>
      sendWritten(reply, await updateLiveStream(db, request.editor, request.params.channelId, request.params.liveStreamId, request.body, ifMatchOf(request))),
  );

  app.delete('/channels/:channelId/live-streams/:liveStreamId', { schema: { params: liveStreamParams, response: { 204: NO_CONTENT } } }, async (request, reply) =>
    sendWritten(reply, await deleteLiveStream(db, request.editor, request.params.channelId, request.params.liveStreamId, ifMatchOf(request))),
  );
};
