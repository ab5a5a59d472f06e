// GET /favorites, POST and DELETE /favorites/{channelId}. Idempotent both ways.
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { markFavorite, viewerFavorites } from '../channels/favorites.ts';
import type { GroupOptions } from '../http/group.ts';
import { channelNotFound } from './errors.ts';
import { channelIdParams } from './params.ts';
import { presentFavorite } from './presenter.ts';
import { favoriteSchema, favoriteStateSchema } from './schemas.ts';
import { okBody, okSchema } from '../http/success-envelope.ts';

const listResponse = { 200: okSchema(z.array(favoriteSchema)) };
const stateResponse = { 200: okSchema(favoriteStateSchema) };

/** REST favorites are the account's own, among its own channels: the account is both owner and viewer. */
const callerOf = (request: FastifyRequest) => ({ ownerId: request.account.id, viewerId: request.account.id, now: request.now });

export const favoritesRoutes: FastifyPluginAsync<GroupOptions> = async (plain, { database }) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const { db } = database;

  app.get('/favorites', { schema: { response: listResponse } }, async (request) => okBody((await viewerFavorites(db, request.account.id)).map(presentFavorite)));

  app.post('/favorites/:channelId', { schema: { params: channelIdParams, response: stateResponse } }, async (request) => {
    const channel = await markFavorite(db, callerOf(request), request.params.channelId, true);
    if (channel === 'channel_not_found') throw channelNotFound();
    return okBody({ channelTubeId: channel.id, isFavorite: true });
  });

  app.delete('/favorites/:channelId', { schema: { params: channelIdParams, response: stateResponse } }, async (request) => {
    const channel = await markFavorite(db, callerOf(request), request.params.channelId, false);
    if (channel === 'channel_not_found') throw channelNotFound();
    return okBody({ channelTubeId: channel.id, isFavorite: false });
  });
};
