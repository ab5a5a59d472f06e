// /api/v1/services/roku/* (COMPAT_ROUTES=roku): the three calls of the older Roku template (GitHub
// vassabi/strimm, StrimmTube/RokuAppTemplate/source/api.brs), answered from the Custom API's
// domain and data code in the shapes that file parses:
// - settings/{api_key}: getRemoteSettings reads UserId, AdLink, PrivacyPolicyLink, About, AppName;
// - users/{id}/channels?limit=&page=: epgTask reads data[] and pagination.page/lastPage, and
//   channelParser id, name, customLogo, description (a "[n]" in it is the channel number);
// - users/{id}/channels/video?channel_ids=&dates=: a bare array; programItemParser reads id,
//   channelId, providerName, providerVideoId, videoTubeId, description, title, duration (a number
//   it divides by 60) and startDate/endDate through roDateTime.FromISO8601String.
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { findRokuAppByApiKey } from '../data/apps.ts';
import { videoTexts } from '../data/video-categories.ts';
import { listedChannels } from '../channels/listing.ts';
import { failure } from '../custom/errors.ts';
import { guideRows } from '../channels/guide-rows.ts';
import { entitledCaller } from '../custom/caller.ts';
import { wholeGuide } from '../custom/pagination.ts';
import { unlessTooBig } from '../custom/refusals.ts';
import { boundChannelDays, dateList, idList, MAX_TAKE, wholeNumber, zoneField } from '../custom/params.ts';
import type { CustomTree } from '../custom/plugin.ts';
import type { GuideRow } from '../channels/guide-rows.ts';
import type { GroupOptions } from '../http/group.ts';
import { MAX_DAY_ENTRIES } from '../schedules/day-entries.ts';
import { plainText } from '../presenters/plain-text.ts';

// The answers, keys in the order written (src/http/serializer.ts writes them in schema order).
const settingsResponse = {
  200: z.object({ UserId: z.int(), AdLink: z.string(), PrivacyPolicyLink: z.string(), About: z.string(), AppName: z.string() }),
};
const channelsResponse = {
  200: z.object({
    data: z.array(z.object({ id: z.int(), name: z.string(), customLogo: z.string(), description: z.string() })),
    pagination: z.object({ page: z.int(), lastPage: z.int() }),
  }),
};
/** Ids and instants this module formats (src/http/serializer.ts). */
const formatted = plainText();
const programmeSchema = z.object({
  id: formatted,
  channelId: z.int(),
  videoTubeId: z.int(),
  title: z.string(),
  description: z.string(),
  startDate: formatted,
  endDate: formatted,
  duration: z.int(),
  providerName: z.string(),
  providerVideoId: z.string(),
});
const programmesResponse = { 200: z.array(programmeSchema) };

/**
 * Rows of the Roku tree's guide, which answers every row with its video's description (up to
 * 5,000 characters each): two full channel-days (docs/security.md: What an owner may build).
 */
const MAX_ROKU_ROWS = 2 * MAX_DAY_ENTRIES;

const channelsQuery = z.object({ ...zoneField, limit: wholeNumber('limit', 1, MAX_TAKE), page: wholeNumber('page', 1) });
const videoQuery = z.object({ ...zoneField, channel_ids: idList('channel_ids', true), dates: dateList('dates') }).superRefine(boundChannelDays('channel_ids'));

/** A programme as programItemParser reads it; times as UTC instants (ISO 8601 with Z). */
function presentProgramme(r: GuideRow, description: string): z.input<typeof programmeSchema> {
  return {
    id: r.customId,
    channelId: r.channelId,
    videoTubeId: r.video.videoTubeId,
    title: r.video.title,
    description,
    startDate: new Date(Math.floor(r.start)).toISOString(),
    endDate: new Date(Math.floor(r.end)).toISOString(),
    duration: Math.max(0, Math.trunc(r.durationSeconds)),
    providerName: r.video.providerName,
    providerVideoId: r.video.providerVideoId,
  };
}

const rokuRoutes: FastifyPluginAsync<GroupOptions> = async (plain, { database, cache, timelines }) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const { db } = database;
  const reads = { db, cache, timelines };

  app.get('/settings/:apiKey', { schema: { params: z.object({ apiKey: z.string().max(100) }), response: settingsResponse } }, async (request) => {
    const rokuApp = await findRokuAppByApiKey(db, request.params.apiKey);
    if (!rokuApp) throw failure(404, 'App not found');
    return { UserId: rokuApp.ownerId, AdLink: rokuApp.adLink ?? '', PrivacyPolicyLink: rokuApp.privacyPolicyLink ?? '', About: rokuApp.about ?? '', AppName: rokuApp.appName };
  });

  app.get('/users/:id/channels', { schema: { querystring: channelsQuery, response: channelsResponse } }, async (request) => {
    const listed = await listedChannels(reads, await entitledCaller(reads, request));
    const limit = request.query.limit ?? MAX_TAKE;
    const page = request.query.page ?? 1;
    const lastPage = Math.max(1, Math.ceil(listed.length / limit));
    const data = listed.slice((page - 1) * limit, page * limit).map(({ channel }) => ({
      id: channel.id,
      name: channel.name,
      customLogo: channel.pictureUrl ?? '',
      description: channel.description ?? '',
    }));
    return { data, pagination: { page, lastPage } };
  });

  app.get('/users/:id/channels/video', { schema: { querystring: videoQuery, response: programmesResponse } }, async (request) => {
    const caller = await entitledCaller(reads, request);
    // Every row in one answer, each with its video's description: at most MAX_ROKU_ROWS (two full channel-days).
    const guide = wholeGuide(unlessTooBig(await guideRows(reads, caller, request.query.channel_ids, request.query.dates), 'channel_ids'), 'channel_ids', MAX_ROKU_ROWS);
    const rows = guide.slice(0, guide.total);
    const texts = await videoTexts(db, [...new Set(rows.map((r) => r.video.videoTubeId))]);
    return rows.map((r) => presentProgramme(r, texts.get(r.video.videoTubeId)?.description ?? ''));
  });
};

export const ROKU_TREE: CustomTree = { open: [rokuRoutes], protected: [], platform: 'roku' };
