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
import type { Authenticated } from '../access/tokens.ts';
import { asSeenByPublicToken, videosWithheldFromPublicTokens } from '../channels/public-token-view.ts';
import type { TimelineSegment } from '../schedules/timelines.ts';

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

/** What the caller's token may be handed: everything for a sign-in, not what only private channels hold for a public app token. */
async function withheldFrom(db: Queryable, account: Authenticated, channels: readonly ChannelRow[]): Promise<ReadonlySet<number>> {
  return account.scope === 'app' ? videosWithheldFromPublicTokens(db, account.id, channels) : new Set();
}

async function withLibraries(db: Queryable, channels: ChannelRow[], withheld: ReadonlySet<number>) {
  const ids = channels.map((c) => c.id);
  const [videos, vast] = await Promise.all([libraryVideos(db, ids), vastRows(db, ids)]);
  const videosOf = byChannel(withheld.size === 0 ? videos : videos.map((v) => asSeenByPublicToken(withheld, v.id, v)));
  const vastOf = byChannel(vast);
  return channels.map((c) => presentChannel(c, videosOf(c.id), vastOf(c.id)));
}

export const channelsRoutes: FastifyPluginAsync<GroupOptions> = async (plain, { database, config, cache, timelines, answers }) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const { db } = database;
  // The signed-in owner's own data: kept per account (after the Bearer check, which runs first), private downstream.
  // A public app token sees less than a sign-in (public-token-view.ts): its answers are kept apart.
  const kept = answerHooks(answers, config.ANSWER_MAX_AGE_SECONDS, { vary: [], account: (request) => `${request.account.id}:${request.account.scope}` }).hooks;
  const viewOf = (account: Authenticated) => `${account.id}:${account.scope}`;

  // Cached as the serialized envelope: a library list is tens of kilobytes, and stringifying it
  // again on every request cost more than the rest of the request.
  app.get('/channels', { schema: { response: listResponse }, ...kept }, async (request, reply) => {
    const owner = request.account.id;
    shareAnswer(request, { ownerId: owner }, Infinity);
    const body = await cache.get(
      `rest:channels:${viewOf(request.account)}`,
      async () => {
        const channels = await ownerChannels(db, owner);
        return JSON.stringify(okBody(await withLibraries(db, channels, await withheldFrom(db, request.account, channels))));
      },
      { ownerId: owner },
    );
    return sendJsonText(reply, body);
  });

  // Not in the spec (docs/rest.md): what plays now on each of the caller's channels and next, with
  // the position to join at; no stream URL (a player plays through its own playback path).
  app.get('/channels/now', { schema: { response: { 200: okSchema(nowOnAirSchema) } } }, async (request) => {
    const owner = request.account.id;
    const channels = await cache.get(`rest:channel-zones:${owner}`, async () => (await ownerChannels(db, owner)).map((c) => ({ id: c.id, timezone: c.timezone, ownerId: owner })), {
      ownerId: owner,
    });
    const withheld = await cache.get(`rest:withheld:${viewOf(request.account)}`, async () => [...(await withheldFrom(db, request.account, await ownerChannels(db, owner)))], {
      ownerId: owner,
    });
    const at = request.now.getTime();
    const onAir = await nowOnAir(db, timelines, channels, at);
    const hidden = new Set(withheld);
    const seen = <S extends TimelineSegment>(s: S | null): S | null => (s && hidden.size > 0 ? { ...s, video: asSeenByPublicToken(hidden, s.video.videoTubeId, s.video) } : s);
    return okBody(channels.map((c, i) => presentNowOnAir(c, at, { now: seen(onAir[i]!.now), next: seen(onAir[i]!.next) })));
  });

  app.get('/channels/:channelId', { schema: { params: channelIdParams, response: channelResponse } }, async (request) => {
    const channel = await ownedChannel(db, request.account.id, request.params.channelId);
    if (!channel) throw channelNotFound();
    const [presented] = await withLibraries(db, [channel], await withheldFrom(db, request.account, await ownerChannels(db, request.account.id)));
    return okBody(presented!);
  });

  app.get('/channels/:channelId/schedules', { schema: { params: channelIdParams, querystring: dateQuery, response: scheduleResponse }, ...kept }, async (request, reply) => {
    const { channelId } = request.params;
    const { date } = request.query;
    // The channel's own data (and the owner's videos): another channel's change keeps it.
    const scope = { ownerId: request.account.id, channelIds: [channelId] };
    // A day's blocks as planned, whatever the time: only an edit changes them.
    shareAnswer(request, scope, Infinity);
    // The text is not kept here: the read model keeps the answer's bytes under the same key (the
    // hooks above), and a second copy of every schedule day as a string here was most of the
    // catalog cache (67 MB of a 416 MB service after the 200-channel run). A read-model miss
    // compiles from the kept channel-days (timelines), not from the database.
    const channel = await cache.get(`rest:owned:${request.account.id}:${channelId}`, () => ownedChannel(db, request.account.id, channelId), scope);
    if (!channel) throw channelNotFound();
    const blocks = await timelines.onAirDay(db, channel, date);
    // Only a private channel can hold a video only private channels hold.
    const withheld = channel.passwordHash === null ? new Set<number>() : await withheldFrom(db, request.account, [channel]);
    const seen =
      withheld.size === 0 ? blocks : blocks.map((b) => ({ ...b, videos: b.videos.map((e) => ({ ...e, video: asSeenByPublicToken(withheld, e.video.videoTubeId, e.video) })) }));
    return sendJsonText(reply, JSON.stringify(okBody(presentSchedule(channel.id, date, channel.timezone, seen))));
  });
};
