// GET /channels, /channels/now, /channels/{channelId}, /channels/{channelId}/schedules?date=
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { libraryVideos, ownedChannel, ownerChannels, vastRows, type ChannelRow } from '../data/channels.ts';
import type { Queryable } from '../db/connect.ts';
import type { GroupOptions } from '../http/group.ts';
import { channelNotFound } from './errors.ts';
import { channelIdParams, dateQuery } from './params.ts';
import { presentChannel, presentNowOnAir, presentSchedule } from './presenter.ts';
import { channelSchema, nowOnAirSchema, scheduleSchema } from './schemas.ts';
import { nowOnAir } from '../schedules/now-on-air.ts';
import { okBody, okSchema } from '../http/success-envelope.ts';
import { answerHooks, shareAnswer } from '../http/answers.ts';

const JSON_TYPE = 'application/json; charset=utf-8';

/** JSON text is sent as it is: no serializer runs (the route's schema only documents it). */
const sendJsonText = (reply: FastifyReply, text: string) => reply.type(JSON_TYPE).send(text);

const listResponse = { 200: okSchema(z.array(channelSchema)) };
const channelResponse = { 200: okSchema(channelSchema) };
const scheduleResponse = { 200: okSchema(scheduleSchema) };

function byChannel<T extends { channelId: number }>(rows: T[]): (id: number) => T[] {
  const groups = new Map<number, T[]>();
  for (const row of rows) groups.set(row.channelId, [...(groups.get(row.channelId) ?? []), row]);
  return (id) => groups.get(id) ?? [];
}

async function withLibraries(db: Queryable, channels: ChannelRow[]) {
  const ids = channels.map((c) => c.id);
  const [videos, vast] = await Promise.all([libraryVideos(db, ids), vastRows(db, ids)]);
  const videosOf = byChannel(videos);
  const vastOf = byChannel(vast);
  return channels.map((c) => presentChannel(c, videosOf(c.id), vastOf(c.id)));
}

export const channelsRoutes: FastifyPluginAsync<GroupOptions> = async (plain, { database, config, cache, timelines, answers }) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const { db } = database;
  // The signed-in owner's own data: kept per account (after the Bearer check, which runs first), private downstream.
  const kept = answerHooks(answers, config.ANSWER_MAX_AGE_SECONDS, { vary: [], account: (request) => String(request.account.id) }).hooks;

  // Cached as the serialized envelope: a library list is tens of kilobytes, and stringifying it
  // again on every request cost more than the rest of the request.
  app.get('/channels', { schema: { response: listResponse }, ...kept }, async (request, reply) => {
    const owner = request.account.id;
    shareAnswer(request, { ownerId: owner }, Infinity);
    const body = await cache.get(
      `rest:channels:${owner}`,
      async () => JSON.stringify(okBody(await withLibraries(db, await ownerChannels(db, owner)))),
      { ownerId: owner },
    );
    return sendJsonText(reply, body);
  });

  // Not in the spec (docs/rest.md): what plays now on each of the caller's channels and next, with
  // the position to join at; no stream URL (a player plays through its own playback path).
  app.get('/channels/now', { schema: { response: { 200: okSchema(nowOnAirSchema) } } }, async (request) => {
    const owner = request.account.id;
    const channels = await cache.get(`rest:channel-zones:${owner}`, async () => (await ownerChannels(db, owner)).map((c) => ({ id: c.id, timezone: c.timezone, ownerId: owner })), { ownerId: owner });
    const at = request.now.getTime();
    const onAir = await nowOnAir(db, timelines, channels, at);
    return okBody(channels.map((c, i) => presentNowOnAir(c, at, onAir[i]!)));
  });

  app.get('/channels/:channelId', { schema: { params: channelIdParams, response: channelResponse } }, async (request) => {
    const channel = await ownedChannel(db, request.account.id, request.params.channelId);
    if (!channel) throw channelNotFound();
    const [presented] = await withLibraries(db, [channel]);
    return okBody(presented!);
  });

  app.get('/channels/:channelId/schedules', { schema: { params: channelIdParams, querystring: dateQuery, response: scheduleResponse }, ...kept }, async (request, reply) => {
    const { channelId } = request.params;
    const { date } = request.query;
    // The channel's own data (and the owner's videos): another channel's change keeps it.
    const scope = { ownerId: request.account.id, channelIds: [channelId] };
    // A day's blocks as planned, whatever the time: only an edit changes them.
    shareAnswer(request, scope, Infinity);
    const body = await cache.get(`rest:schedule:${request.account.id}:${channelId}:${date}`, async () => {
      const channel = await cache.get(`rest:owned:${request.account.id}:${channelId}`, () => ownedChannel(db, request.account.id, channelId), scope);
      if (!channel) return undefined;
      const blocks = await timelines.onAirDay(db, channel, date);
      return JSON.stringify(okBody(presentSchedule(channel.id, date, channel.timezone, blocks)));
    }, scope);
    if (!body) throw channelNotFound();
    return sendJsonText(reply, body);
  });
};
