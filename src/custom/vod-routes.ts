// GET /users/{id}/channels/vod: the VOD catalogs of the channels asked, paginated. With VOD
// PPV on, the list stays visible (clients sell from it) and locked rows carry no streamUrl and
// no providerVideoId (empty).
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ChannelRow } from '../data/channels.ts';
import { vodVideosOf, type VodVideo } from '../data/vod.ts';
import type { GroupOptions } from '../http/group.ts';
import { requestedChannels, vodCatalogRows } from '../channels/listing.ts';
import { streamableChannels, vodPlayable, withheldVideo } from '../entitlements/gating.ts';
import { entitledClient, type Client } from './context.ts';
import { paginate } from './pagination.ts';
import { DEFAULT_PER_PAGE, idList, pageFields, zoneField } from './params.ts';
import { presentVideoRow, type VideoRowSource } from './presenter.ts';
import { videoPageResponse } from './schemas.ts';

const vodQuery = z.object({ ...zoneField, channels_ids: idList('channels_ids', true), ...pageFields(DEFAULT_PER_PAGE) });

/** VOD rows have no air time: start is the request time and end start + duration (clients show timeDuration). */
function vodRow(client: Client, channel: ChannelRow, video: VodVideo, streamUrl: string | null): VideoRowSource {
  const start = client.now.getTime();
  return {
    customId: `${channel.id}-${video.videoTubeId}-vod`,
    video,
    userId: channel.ownerId,
    channelId: channel.id,
    durationSeconds: video.durationSeconds,
    start,
    end: start + Math.max(0, video.durationSeconds) * 1000,
    zone: client.zone ?? channel.timezone,
    streamUrl,
    isVod: true,
  };
}

export const vodRoutes: FastifyPluginAsync<GroupOptions> = async (plain, { database, config }) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const { db } = database;

  app.get('/users/:id/channels/vod', { schema: { querystring: vodQuery, response: videoPageResponse } }, async (request) => {
    const client = await entitledClient(db, request);
    const { channels_ids, page, per_page } = request.query;
    const channels = await requestedChannels(db, client, channels_ids);
    const ids = channels.map((c) => c.id);
    // VOD catalogs are catalog data of these channels (all the owner's): kept until a change touches one.
    const videos = await client.cache.get(`custom:vod:${client.ownerId}:${ids.join(',')}`, () => vodVideosOf(db, ids), { ownerId: client.ownerId, channelIds: ids });
    const rows = vodCatalogRows(channels, videos);
    const paged = paginate(request, rows, { page, perPage: per_page }, config.PUBLIC_URL);
    const refs = paged.data.map((r) => ({ videoId: r.video.videoTubeId, channelId: r.channel.id }));
    const [streamable, unlocked] = await Promise.all([streamableChannels(db, client, channels), vodPlayable(db, client, refs)]);
    const data = paged.data.map(({ channel, video }) => {
      const playable = streamable(channel.id) && unlocked({ videoId: video.videoTubeId, channelId: channel.id });
      // A locked row still sells the video; it carries nothing that plays it.
      return presentVideoRow(playable ? vodRow(client, channel, video, video.streamUrl) : vodRow(client, channel, withheldVideo(video), null));
    });
    return { ...paged, data };
  });
};
