// GET /api/v1/live/{key}/channels.m3u: the channels a live key lists, as the M3U IPTV players
// read (docs/linear.md: The M3U), each pointing at its master playlist. `url-tvg` names the XMLTV
// guide of the same key (/api/v1/rest/epg/{key}.xml takes an app's key and a viewer's link alike).
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { epgGuideUrl } from '../access/epg-keys.ts';
import type { GroupOptions } from '../http/group.ts';
import { liveLineup } from '../linear/live-access.ts';
import { M3U_CONTENT_TYPE, writeM3u } from '../linear/m3u.ts';
import { publicBase } from '../http/public-base.ts';
import { liveKeyNotFound } from './errors.ts';

const keyParams = z.object({ key: z.string() });

/** A channel's master playlist (the live playlists' route). */
export const masterPlaylistUrl = (base: string, key: string, channelId: number) => `${base}/api/v1/live/${key}/${channelId}/master.m3u8`;

export const m3uRoutes: FastifyPluginAsync<GroupOptions> = async (plain, { database, config }) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/:key/channels.m3u',
    {
      schema: {
        params: keyParams,
        produces: ['audio/x-mpegurl'],
        response: { 200: z.string().describe('An M3U playlist (#EXTM3U)') },
        tags: ['Live'],
        summary: 'The M3U of the channels a live key plays',
      },
    },
    async (request, reply) => {
      const { key } = request.params;
      const lineup = await liveLineup(database.db, key, request.now);
      if (!lineup) throw liveKeyNotFound();
      const base = publicBase(request, config.PUBLIC_URL);
      const entries = lineup.channels.map((c) => ({ ...c, url: masterPlaylistUrl(base, key, c.channelId) }));
      return (
        reply
          .type(M3U_CONTENT_TYPE)
          .header('access-control-allow-origin', '*')
          // Built from the caller's Host when PUBLIC_URL is unset: never kept for another caller.
          .header('cache-control', 'private, max-age=5')
          .send(writeM3u(epgGuideUrl(key, base), entries))
      );
    },
  );
};
