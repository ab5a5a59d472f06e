// Behind the Bearer check: GET /users/{id}/app/favorites and POST
// /users/{id}/channels/{channelId}/app/favorite/add|remove. The favorites are the Bearer
// account's (the store REST uses); the channel must be one of {id}'s, the app's owner.
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { callerFavorites, markFavorite } from '../channels/favorites.ts';
import type { GroupOptions } from '../http/group.ts';
import { withAvailability } from '../channels/listing.ts';
import { callerOf, ownerOf } from './caller.ts';
import { channelNotFound, customData } from './errors.ts';
import { pathId, zoneField } from './params.ts';
import { presentChannelItem } from './presenter.ts';
import { favoritesResponse, messageResponse } from './schemas.ts';

const channelParams = z.object({ id: z.string(), channelId: z.string() });
const SUCCESS = customData({ message: 'Success' });

export const favoritesRoutes: FastifyPluginAsync<GroupOptions> = async (plain, { database, cache, timelines }) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const { db } = database;
  const reads = { db, cache, timelines };

  app.get('/users/:id/app/favorites', { schema: { querystring: z.object(zoneField), response: favoritesResponse } }, async (request) => {
    // Behind the Bearer check: the viewer is signed in.
    const caller = { ...(await callerOf(reads, request)), viewerId: request.viewer!.id };
    const listed = await withAvailability(reads, caller, await callerFavorites(reads, caller));
    return customData(listed.map(({ channel, availability }) => ({ ...presentChannelItem(channel, availability), marked: true })));
  });

  const favoriteRoute = (action: 'add' | 'remove') =>
    app.post(`/users/:id/channels/:channelId/app/favorite/${action}`, { schema: { params: channelParams, response: messageResponse } }, async (request) => {
      // Only the owner and the viewer: a mark reads no Platform-Id, Device-Id or zone.
      const caller = { ownerId: ownerOf(request).id, viewerId: request.viewer!.id, now: request.now };
      if ((await markFavorite(db, caller, pathId(request.params.channelId), action === 'add')) === 'channel_not_found') throw channelNotFound();
      return SUCCESS;
    });
  favoriteRoute('add');
  favoriteRoute('remove');
};
