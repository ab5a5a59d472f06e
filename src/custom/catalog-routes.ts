// GET /users/{id}/categories, /users/{id}/languages and /users/{id}/channels: the client's
// listed channels (schedule today or VOD), as a list or grouped by category or language.
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { categoriesWithIds, languagesWithIds } from '../data/catalog-lists.ts';
import type { GroupOptions } from '../http/group.ts';
import { filterChannels, listedChannels } from '../channels/listing.ts';
import { customData } from './errors.ts';
import { entitledCaller } from './caller.ts';
import { flag, idList, MAX_TAKE, optionalText, wholeNumber, zoneField } from './params.ts';
import { presentCategory, presentLanguage, presentListedChannel } from './presenter.ts';
import { categoriesResponse, channelsResponse, languagesResponse } from './schemas.ts';

const channelsQuery = z.object({
  ...zoneField,
  language_id: idList('language_id', false),
  category_id: idList('category_id', false),
  search: optionalText('search'),
  skip: wholeNumber('skip', 0),
  take: wholeNumber('take', 0, MAX_TAKE),
  newest: flag('newest'),
  oldest: flag('oldest'),
  most_subscribed: flag('most_subscribed'),
});
const categoriesQuery = z.object({ ...zoneField, default: flag('default') });
const languagesQuery = z.object(zoneField);

export const catalogRoutes: FastifyPluginAsync<GroupOptions> = async (plain, { database, cache, timelines }) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const { db } = database;
  const reads = { db, cache, timelines };

  app.get('/users/:id/channels', { schema: { querystring: channelsQuery, response: channelsResponse } }, async (request) => {
    const caller = await entitledCaller(reads, request);
    return customData(filterChannels(await listedChannels(reads, caller), request.query).map(presentListedChannel));
  });

  app.get('/users/:id/categories', { schema: { querystring: categoriesQuery, response: categoriesResponse } }, async (request) => {
    const listed = await listedChannels(reads, await entitledCaller(reads, request));
    const categories = await categoriesWithIds(db, [...new Set(listed.map((l) => l.channel.categoryId))]);
    const channelsOf = (categoryId: number) => listed.filter((l) => l.channel.categoryId === categoryId);
    return customData(categories.map((c) => presentCategory(c, request.query.default ? undefined : channelsOf(c.id))));
  });

  app.get('/users/:id/languages', { schema: { querystring: languagesQuery, response: languagesResponse } }, async (request) => {
    const listed = await listedChannels(reads, await entitledCaller(reads, request));
    const ids = listed.flatMap((l) => (l.channel.languageId === null ? [] : [l.channel.languageId]));
    const languages = await languagesWithIds(db, [...new Set(ids)]);
    return customData(languages.map(presentLanguage));
  });
};
