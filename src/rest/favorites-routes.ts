// GET /favorites, POST and DELETE /favorites/{channelId}. Idempotent both ways.
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ownedChannel } from '../data/channels.ts';
import { addFavorite, listFavorites, removeFavorite } from '../data/favorites.ts';
import type { GroupOptions } from '../http/group.ts';
import { channelNotFound, restSuccess } from './errors.ts';
import { channelIdParams } from './params.ts';
import { presentFavorite } from './presenter.ts';
import { favoriteSchema, favoriteStateSchema, restSuccessSchema } from './schemas.ts';

const listResponse = { 200: restSuccessSchema(z.array(favoriteSchema)) };
const stateResponse = { 200: restSuccessSchema(favoriteStateSchema) };

export const favoritesRoutes: FastifyPluginAsync<GroupOptions> = async (plain, { database }) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const { db } = database;

  app.get('/favorites', { schema: { response: listResponse } }, async (request) => restSuccess((await listFavorites(db, request.account.id)).map(presentFavorite)));

  app.post('/favorites/:channelId', { schema: { params: channelIdParams, response: stateResponse } }, async (request) => {
    const channel = await ownedChannel(db, request.account.id, request.params.channelId);
    if (!channel) throw channelNotFound();
    await addFavorite(db, request.account.id, channel.id, request.now);
    return restSuccess({ channelTubeId: channel.id, isFavorite: true });
  });

  app.delete('/favorites/:channelId', { schema: { params: channelIdParams, response: stateResponse } }, async (request) => {
    const channel = await ownedChannel(db, request.account.id, request.params.channelId);
    if (!channel) throw channelNotFound();
    await removeFavorite(db, request.account.id, channel.id);
    return restSuccess({ channelTubeId: channel.id, isFavorite: false });
  });
};
