// GET /channels/{channelId}/vast, GET /token_by_video/{videoTubeId} and POST /getChannelToken:
// what a player needs to play (ads, progressive renditions, the unlock of a private channel).
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { unlockChannel } from '../access/channel-unlocks.ts';
import { videoRenditions } from '../channels/playback.ts';
import { channelVastSettings, findChannel, vastSettingFor, type VastPlatform } from '../data/channel-settings.ts';
import { findVideo } from '../data/renditions.ts';
import type { GroupOptions } from '../http/group.ts';
import { loginRateLimit } from '../http/limits.ts';
import { vastSettingsObject } from '../presenters/vast.ts';
import { callerIdsOf, videoCallerOf } from './caller.ts';
import { channelNotFound, customData, failure, invalidField, subscriptionRequired, unauthenticated } from './errors.ts';
import { optionalPlatform } from './headers.ts';
import { bodyObject, optionalText, pathId, text } from './params.ts';
import { CLIENT_PLATFORMS, vastPlatform } from './platforms.ts';
import { presentRendition, presentToken } from './presenter.ts';
import { channelTokenResponse, renditionsResponse, vastResponse } from './schemas.ts';
import { issueCustomToken } from './tokens.ts';
import { answerHooks, shareAnswer } from '../http/answers.ts';
import { PLATFORM_RULE } from './answer-rules.ts';

const vastQuery = z.object({ platform: optionalText('platform') });
const channelTokenBody = bodyObject(
  z.object({
    // Clients send the id as a number (JSON) or a string (forms).
    channel_id: z
      .preprocess((v) => (typeof v === 'number' ? String(v) : v), text('channel_id'))
      .transform((v, ctx) => {
        if (/^\d+$/.test(v.trim())) return pathId(v.trim());
        ctx.addIssue({ code: 'custom', message: 'The channel id must be an integer.' });
        return z.NEVER;
      }),
    password: text('password', 1024),
  }),
);

/** The `platform` query wins over Platform-Id; neither: the channel-wide (web) row. */
function requestedVastPlatform(request: FastifyRequest, query: string | undefined): VastPlatform {
  if (query !== undefined) {
    const platform = vastPlatform(query.trim());
    if (!platform) throw invalidField('platform', 'The selected platform is invalid.');
    return platform;
  }
  const client = optionalPlatform(request);
  return client ? CLIENT_PLATFORMS[client].vast : 'web';
}

const UNLOCK_FAILURES = {
  channel_not_found: channelNotFound,
  not_private: () => invalidField('channel_id', 'The channel is not password protected.'),
  wrong_password: () => failure(403, 'Invalid channel password.'),
} as const;

export const playbackRoutes: FastifyPluginAsync<GroupOptions> = async (plain, { database, config, cache, timelines, answers }) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const { db } = database;
  const reads = { db, cache, timelines };
  const vastKept = answerHooks(answers, config.ANSWER_MAX_AGE_SECONDS, PLATFORM_RULE).hooks;

  app.get(
    '/channels/:channelId/vast',
    { schema: { params: z.object({ channelId: z.string() }), querystring: vastQuery, response: vastResponse }, ...vastKept },
    async (request) => {
      // Catalog data only (the channel and its VAST rows): kept until the catalog changes.
      const id = pathId(request.params.channelId);
      const found = await cache.get(`custom:vast:${id}`, async () => {
        const channel = await findChannel(db, id);
        return channel ? { ownerId: channel.ownerId, settings: await channelVastSettings(db, channel.id) } : null;
      });
      if (!found) throw channelNotFound();
      const { settings } = found;
      // Ads are no one's purchase: the same answer for everyone, until the channel changes.
      shareAnswer(request, { ownerId: found.ownerId, channelIds: [id] }, Infinity);
      const row = vastSettingFor(settings, requestedVastPlatform(request, request.query.platform));
      return customData(row ? vastSettingsObject(row) : null);
    },
  );

  app.get('/token_by_video/:videoTubeId', { schema: { params: z.object({ videoTubeId: z.string() }), response: renditionsResponse } }, async (request) => {
    const video = await findVideo(db, pathId(request.params.videoTubeId));
    if (!video) throw failure(404, 'Video not found');
    const renditions = await videoRenditions(reads, await videoCallerOf(reads, request, video), video);
    if (renditions === 'subscription_required') throw subscriptionRequired();
    return customData(renditions.map(presentRendition));
  });

  // A password check: the login rate limit per address applies, on top of the per-channel throttle.
  app.post('/getChannelToken', { schema: { body: channelTokenBody, response: channelTokenResponse }, config: loginRateLimit(config) }, async (request) => {
    const caller = callerIdsOf(request);
    if (caller.deviceId === null && caller.viewerId === null) {
      // A Bearer that was sent but is dead is the caller's only identity here: say so.
      if (request.headers.authorization !== undefined) throw unauthenticated();
      throw invalidField('device_id', 'The Accept-Platform-Device-Id header or a Bearer token is required.');
    }
    const { channel_id, password } = request.body;
    const result = await unlockChannel(db, { channelId: channel_id, password, address: request.ip, caller, now: request.now });
    if (!result.ok && result.reason === 'too_many_attempts') {
      throw failure(429, 'Too many attempts. Please try again later.', { 'retry-after': String(result.retryAfterSeconds) });
    }
    if (!result.ok) throw UNLOCK_FAILURES[result.reason]();
    // With a device id the device is unlocked; a Bearer-only client gets a fresh token instead.
    if (caller.deviceId !== null) return customData({ message: 'Success' });
    return presentToken(await issueCustomToken(db, caller.viewerId!, request.now));
  });
};
