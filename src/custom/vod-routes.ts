// GET /users/{id}/channels/vod: the VOD catalogs of the channels asked, paginated. With VOD
// PPV on, the list stays visible (clients sell from it) and locked rows carry no streamUrl and
// no providerVideoId (empty).
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { vodRow } from '../channels/guide-rows.ts';
import { requestedChannels, vodCatalogRows } from '../channels/listing.ts';
import { playableVod } from '../channels/playback.ts';
import { vodVideosOf } from '../data/vod.ts';
import { presentVideoRow, videoPageJson } from '../presenters/video-row.ts';
import type { CustomRouteOptions } from './route-options.ts';
import { sendJsonText } from '../http/json-text.ts';
import { entitledCaller } from './caller.ts';
import { paginate } from './pagination.ts';
import { DEFAULT_PER_PAGE, idList, pageFields, zoneField } from './params.ts';
import { videoPageResponse } from './schemas.ts';
import { sameForEveryViewer } from '../entitlements/gating.ts';
import { answerHooks, perViewerAnswer, shareAnswer } from '../http/answers.ts';
import { CUSTOM_RULE } from './answer-rules.ts';

const vodQuery = z.object({ ...zoneField, channels_ids: idList('channels_ids', true), ...pageFields(DEFAULT_PER_PAGE) });

export const vodRoutes: FastifyPluginAsync<CustomRouteOptions> = async (plain, { database, config, cache, timelines, answers, reshaped }) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const { db } = database;
  const reads = { db, cache, timelines };
  const kept = answerHooks(answers, config.ANSWER_MAX_AGE_SECONDS, CUSTOM_RULE).hooks;

  app.get('/users/:id/channels/vod', { schema: { querystring: vodQuery, response: videoPageResponse }, ...kept }, async (request, reply) => {
    const caller = await entitledCaller(reads, request);
    const { channels_ids, page, per_page } = request.query;
    const channels = await requestedChannels(reads, caller, channels_ids);
    const ids = channels.map((c) => c.id);
    // A VOD row starts at the request time, written to the second: the answer holds until the
    // next second (a poll served from it meanwhile), for every viewer unless a gate or an unlock applies.
    const now = caller.now.getTime();
    if (await sameForEveryViewer(reads, caller, channels, true)) {
      shareAnswer(request, { ownerId: caller.ownerId, channelIds: channels_ids }, Math.floor(now / 1000) * 1000 + 1000);
    } else perViewerAnswer(request);
    // VOD catalogs are catalog data of these channels (all the owner's): kept until a change touches one.
    const videos = await cache.get(`custom:vod:${caller.ownerId}:${ids.join(',')}`, () => vodVideosOf(db, ids), { ownerId: caller.ownerId, channelIds: ids });
    const rows = vodCatalogRows(channels, videos);
    const paged = paginate(request, rows, { page, perPage: per_page }, config.PUBLIC_URL);
    const refs = paged.data.map((r) => ({ videoId: r.video.videoTubeId, channelId: r.channel.id }));
    const playable = await playableVod(reads, caller, channels, refs);
    const data = paged.data.map(({ channel, video }) => vodRow(caller, channel, video, playable({ videoId: video.videoTubeId, channelId: channel.id })));
    // As the guide writes its rows (schedule-routes.ts).
    if (reshaped) return { ...paged, data: data.map(presentVideoRow) };
    return sendJsonText(reply, videoPageJson({ ...paged, data }));
  });
};
