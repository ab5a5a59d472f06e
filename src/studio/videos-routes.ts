// /videos: the owner's videos in the catalog's video shape (renditions included); one video
// with its HLS ingest (docs/studio.md: HLS ingest), and the ingest's refresh.
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { etagOf } from '../editing/etag.ts';
import { notFound } from '../editing/refusals.ts';
import { MAX_BULK_VIDEOS, createVideos, deleteVideo, readVideo, updateVideo, usageOfVideo, videoPage } from '../editing/videos.ts';
import type { GroupOptions } from '../http/group.ts';
import { idempotencyOf, ifMatchOf, sendResource, sendWritten } from './context.ts';
import { BULK_VIDEOS_BODY_LIMIT } from './limits.ts';
import {
  bulkVideosSchema,
  hlsStateSchema,
  newVideoSchema,
  studioVideoSchema,
  videoLookupBodySchema,
  videoLookupSchema,
  videoPageSchema,
  videoPatchSchema,
  videoSchema,
  videoUsageSchema,
} from './contract.ts';
import { refreshVideoHls } from '../editing/video-hls.ts';
import { hlsStateOf } from '../linear/ingest-state.ts';
import { flagDuplicates, lookUpPaste } from '../editing/video-urls.ts';
import { NO_CONTENT, numericId, pageQuery } from './schemas.ts';
import { okSchema } from '../http/success-envelope.ts';

const videoIdParams = z.object({ videoId: numericId });
const createBody = z.union([newVideoSchema, z.array(newVideoSchema).min(1).max(MAX_BULK_VIDEOS)]);

export const videosRoutes: FastifyPluginAsync<GroupOptions> = async (plain, { database, config, ingests }) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const { db } = database;
  const oembed = { youtube: config.OEMBED_YOUTUBE_URL, vimeo: config.OEMBED_VIMEO_URL, timeoutMs: config.OEMBED_TIMEOUT_MS };
  const apis = {
    youtubeKey: config.YOUTUBE_API_KEY,
    youtubeUrl: config.YOUTUBE_API_URL,
    vimeoToken: config.VIMEO_API_TOKEN,
    vimeoUrl: config.VIMEO_API_URL,
    timeoutMs: config.PROVIDER_API_TIMEOUT_MS,
  };

  // Writes nothing: what each pasted URL is (a playlist, channel or showcase read into its videos),
  // what its provider says, and whether the owner has it already.
  app.post('/videos/lookup', { schema: { body: videoLookupBodySchema, response: { 200: okSchema(videoLookupSchema) } } }, async (request) => {
    const { items, lists } = await lookUpPaste(oembed, apis, request.body.urls);
    return { success: true as const, data: { items: await flagDuplicates(db, request.editor.ownerId, items), lists } };
  });

  app.get('/videos', { schema: { querystring: pageQuery, response: { 200: okSchema(videoPageSchema) } } }, async (request) => {
    const { page, per_page, q } = request.query;
    return { success: true as const, data: await videoPage(db, request.editor.ownerId, q, page, per_page) };
  });

  app.post(
    '/videos',
    { bodyLimit: BULK_VIDEOS_BODY_LIMIT, schema: { body: createBody, response: { 201: okSchema(z.union([videoSchema, bulkVideosSchema])) } } },
    async (request, reply) => {
      const bulk = Array.isArray(request.body);
      const bodies = (bulk ? request.body : [request.body]) as Record<string, unknown>[];
      const written = await createVideos(db, request.editor, bodies, bulk, idempotencyOf(request));
      // An HLS video among them was queued for ingest: read it now rather than at the job's next run.
      ingests?.kick();
      return sendWritten(reply, written);
    },
  );

  // The ETag is the video's own (what If-Match on PATCH compares), whatever its ingest's state.
  app.get('/videos/:videoId', { schema: { params: videoIdParams, response: { 200: okSchema(studioVideoSchema) } } }, async (request, reply) => {
    const video = await readVideo(db, request.editor.ownerId, request.params.videoId);
    if (!video) throw notFound('Video');
    return sendResource(reply, etagOf(video), { ...video, hls: await hlsStateOf(db, video.id) });
  });

  // Reads the video's HLS playlists again, in the background: 202 with the pending state.
  app.post('/videos/:videoId/hls/refresh', { schema: { params: videoIdParams, response: { 202: okSchema(hlsStateSchema) } } }, async (request, reply) => {
    const written = await refreshVideoHls(db, request.editor, request.params.videoId);
    ingests?.kick();
    return sendWritten(reply, written);
  });

  app.get('/videos/:videoId/usage', { schema: { params: videoIdParams, response: { 200: okSchema(videoUsageSchema) } } }, async (request) => {
    const usage = await usageOfVideo(db, request.editor.ownerId, request.params.videoId);
    if (!usage) throw notFound('Video');
    return { success: true as const, data: usage };
  });

  app.patch('/videos/:videoId', { schema: { params: videoIdParams, body: videoPatchSchema, response: { 200: okSchema(videoSchema) } } }, async (request, reply) => {
    const written = await updateVideo(db, request.editor, request.params.videoId, request.body, ifMatchOf(request));
    ingests?.kick();
    return sendWritten(reply, written);
  });

  app.delete('/videos/:videoId', { schema: { params: videoIdParams, response: { 204: NO_CONTENT } } }, async (request, reply) =>
    sendWritten(reply, await deleteVideo(db, request.editor, request.params.videoId, ifMatchOf(request))),
  );
};
