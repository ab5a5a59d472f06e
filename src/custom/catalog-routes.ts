// GET /users/{id}/categories, /users/{id}/languages and /users/{id}/channels: the client's
// listed channels (schedule today or VOD), as a list or grouped by category or language.
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { categoriesWithIds, languagesWithIds } from '../data/catalog-lists.ts';
import type { GroupOptions } from '../http/group.ts';
import { callerChannels, filterChannels, listedChannels } from '../channels/listing.ts';
import type { Caller, CatalogReads } from '../access/caller.ts';
import { availabilityChangesAt } from '../channels/availability.ts';
import { sameForEveryViewer } from '../entitlements/gating.ts';
import { answerHooks, perViewerAnswer, shareAnswer } from '../http/answers.ts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { cachedDayWindow, fastLocalDate } from '../schedules/zone-offsets.ts';
import { CUSTOM_RULE } from './answer-rules.ts';
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

/**
 * A list's answer is the caller's channels with their availability today: the same for every
 * viewer unless an app of the owner gates it, and unchanged until the day ends or a live stream
 * of today ends (or an edit of the owner). It reads the request zone only through its day window,
 * so every zone with the same window shares one answer (`shared`, the key naming what it depends
 * on): a kept one is sent at once (returned), else the handler computes it and it is kept.
 */
async function keepList(reads: CatalogReads, request: FastifyRequest, reply: FastifyReply, caller: Caller, shared: SendShared): Promise<boolean> {
  const channels = await callerChannels(reads, caller);
  if (!(await sameForEveryViewer(reads, caller, channels, false))) {
    perViewerAnswer(request);
    return false;
  }
  const now = caller.now.getTime();
  const { timezone: _zone, ...rest } = request.query as Record<string, unknown>;
  const window = caller.zone === undefined ? 'own' : (({ from, to }) => `${from}-${to}`)(cachedDayWindow(fastLocalDate(now, caller.zone), caller.zone));
  const alias = `${request.routeOptions.url}|${caller.ownerId}|${caller.app?.id ?? 'none'}|${window}|${JSON.stringify(rest)}`;
  // True, not the reply: a reply is thenable, and awaiting it waits for the send and yields
  // nothing, so the route went on to build (and send again) the answer it had just sent kept.
  if (shared(request, reply, alias)) return true;
  const memo = <T>(key: string, load: () => Promise<T>, scope: Parameters<typeof reads.cache.get>[2]) => reads.cache.get(key, load, scope);
  shareAnswer(request, { ownerId: caller.ownerId }, await availabilityChangesAt(reads.db, channels, caller.zone, now, memo), alias);
  return false;
}

type SendShared = ReturnType<typeof answerHooks>['sendShared'];

export const catalogRoutes: FastifyPluginAsync<GroupOptions> = async (plain, { database, config, cache, timelines, answers }) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const { db } = database;
  const reads = { db, cache, timelines };
  const { hooks: kept, sendShared } = answerHooks(answers, config.ANSWER_MAX_AGE_SECONDS, CUSTOM_RULE);

  app.get('/users/:id/channels', { schema: { querystring: channelsQuery, response: channelsResponse }, ...kept }, async (request, reply) => {
    const caller = await entitledCaller(reads, request);
    if (await keepList(reads, request, reply, caller, sendShared)) return reply;
    return customData(filterChannels(await listedChannels(reads, caller), request.query).map(presentListedChannel));
  });

  app.get('/users/:id/categories', { schema: { querystring: categoriesQuery, response: categoriesResponse }, ...kept }, async (request, reply) => {
    const caller = await entitledCaller(reads, request);
    if (await keepList(reads, request, reply, caller, sendShared)) return reply;
    const listed = await listedChannels(reads, caller);
    const categories = await categoriesWithIds(db, [...new Set(listed.map((l) => l.channel.categoryId))]);
    const channelsOf = (categoryId: number) => listed.filter((l) => l.channel.categoryId === categoryId);
    return customData(categories.map((c) => presentCategory(c, request.query.default ? undefined : channelsOf(c.id))));
  });

  app.get('/users/:id/languages', { schema: { querystring: languagesQuery, response: languagesResponse }, ...kept }, async (request, reply) => {
    const caller = await entitledCaller(reads, request);
    if (await keepList(reads, request, reply, caller, sendShared)) return reply;
    const listed = await listedChannels(reads, caller);
    const ids = listed.flatMap((l) => (l.channel.languageId === null ? [] : [l.channel.languageId]));
    const languages = await languagesWithIds(db, [...new Set(ids)]);
    return customData(languages.map(presentLanguage));
  });
};
