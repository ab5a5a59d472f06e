// POST /live-links { appId }, GET /live-links, DELETE /live-links/{id}: a signed-in viewer's
// personal live links (docs/rest.md: Live links). The made link's URLs carry its key and are in
// the creation answer only; the list never shows a key.
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { GroupOptions } from '../http/group.ts';
import { numericId } from '../http/params.ts';
import { publicBase } from '../http/public-base.ts';
import { okBody, okSchema } from '../http/success-envelope.ts';
import { createLiveLink, listLiveLinks, MAX_LIVE_LINKS, revokeViewerLiveLink } from '../linear/live-links.ts';
import { RestError } from './errors.ts';

const linkSchema = z.object({ id: z.number().int(), appId: z.number().int(), createdAt: z.string() });
const madeSchema = linkSchema.extend({
  m3uUrl: z.string().describe('the M3U of what the viewer holds in the app; shown in this answer only'),
  guideUrl: z.string().describe('its XMLTV guide'),
  tunerUrl: z.string().describe('its HDHomeRun tuner, to add to Plex, Jellyfin or Emby'),
});
const createBody = z.strictObject({ appId: z.number().int().positive() });

const present = (link: { id: number; appId: number; createdAt: Date }) => ({ id: link.id, appId: link.appId, createdAt: link.createdAt.toISOString() });

export const liveLinksRoutes: FastifyPluginAsync<GroupOptions> = async (plain, { database, config }) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const { db } = database;

  app.post('/live-links', { schema: { body: createBody, response: { 201: okSchema(madeSchema) } } }, async (request, reply) => {
    const made = await createLiveLink(db, request.account.id, request.body.appId, request.now);
    if (made === 'app_not_found') throw new RestError(404, 'app_not_found', 'No app has this id.');
    if (made === 'too_many_live_links') {
      throw new RestError(409, 'too_many_live_links', `You have ${MAX_LIVE_LINKS} live links, the most one viewer may hold; revoke one first.`);
    }
    const base = publicBase(request, config.PUBLIC_URL);
    return reply
      .code(201)
      .header('cache-control', 'no-store')
      .send(
        okBody({
          ...present(made),
          m3uUrl: `${base}/api/v1/live/${made.key}/channels.m3u`,
          guideUrl: `${base}/api/v1/rest/epg/${made.key}.xml`,
          tunerUrl: `${base}/hdhr/${made.key}`,
        }),
      );
  });

  app.get('/live-links', { schema: { response: { 200: okSchema(z.array(linkSchema)) } } }, async (request) => okBody((await listLiveLinks(db, request.account.id)).map(present)));

  app.delete(
    '/live-links/:id',
    { schema: { params: z.object({ id: numericId }), response: { 200: okSchema(z.object({ id: z.number().int(), revoked: z.literal(true) })) } } },
    async (request) => {
      if (!(await revokeViewerLiveLink(db, request.account.id, request.params.id, request.now))) {
        throw new RestError(404, 'live_link_not_found', 'You have no live link with this id (or it is already revoked).');
      }
      return okBody({ id: request.params.id, revoked: true as const });
    },
  );
};
