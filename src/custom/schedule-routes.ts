// GET /users/{id}/channels/video (schedule rows for days and channels, paginated) and
// GET /users/{id}/channels/{channelId}/live (a day's live streams of one channel).
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { guideRows } from '../channels/guide-rows.ts';
import { channelLiveStreams } from '../channels/playback.ts';
import { ownedChannel } from '../data/channels.ts';
import { localDateOf, localDayWindow } from '../schedules/labels.ts';
import { entitledCaller, ownerOf } from './caller.ts';
import { channelNotFound, customData, subscriptionRequired } from './errors.ts';
import { paginate, wholeGuide } from './pagination.ts';
import { boundChannelDays, dateList, DEFAULT_PER_PAGE, flag, idList, MAX_GUIDE_PER_PAGE, optionalDate, pageFields, pathId, zoneField } from './params.ts';
import { presentVideoRow, videoPageJson } from '../presenters/video-row.ts';
import type { CustomRouteOptions } from './route-options.ts';
import { sendJsonText } from '../http/json-text.ts';
import { presentLive } from './presenter.ts';
import { unlessTooBig } from './refusals.ts';
import { liveResponse, videoPageResponse } from './schemas.ts';
import { requestedChannels } from '../channels/listing.ts';
import { sameForEveryViewer } from '../entitlements/gating.ts';
import { answerHooks, perViewerAnswer, shareAnswer } from '../http/answers.ts';
import { CUSTOM_RULE } from './answer-rules.ts';

const videoQuery = z
  .object({
    ...zoneField,
    channels_ids: idList('channels_ids', true),
    dates: dateList('dates'),
    ...pageFields(DEFAULT_PER_PAGE, MAX_GUIDE_PER_PAGE),
    // Every row in one page (shipped Android TV clients ask it with per_page=10000).
    all_videos: flag('all_videos'),
  })
  .superRefine(boundChannelDays('channels_ids'));
const liveQuery = z.object({ ...zoneField, date: optionalDate('date') });
const liveParams = z.object({ id: z.string(), channelId: z.string() });

export const scheduleRoutes: FastifyPluginAsync<CustomRouteOptions> = async (plain, { database, config, cache, timelines, answers, reshaped }) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const { db } = database;
  const reads = { db, cache, timelines };
  const kept = answerHooks(answers, config.ANSWER_MAX_AGE_SECONDS, CUSTOM_RULE).hooks;

  app.get('/users/:id/channels/video', { schema: { querystring: videoQuery, response: videoPageResponse }, ...kept }, async (request, reply) => {
    const caller = await entitledCaller(reads, request);
    const { channels_ids, dates, page, per_page, all_videos } = request.query;
    const guide = unlessTooBig(await guideRows(reads, caller, channels_ids, dates), 'channels_ids');
    // The rows of these channels and days: the same for every viewer unless an app gates them or a
    // channel is private (its unlock opens the streams to one device); kept until the next programme
    // boundary of the guide (what is on air there may change) or a change of one of these channels.
    const channels = await requestedChannels(reads, caller, channels_ids);
    if (await sameForEveryViewer(reads, caller, channels, true)) {
      shareAnswer(request, { ownerId: caller.ownerId, channelIds: channels_ids }, guide.boundaryAfter(caller.now.getTime()));
    } else perViewerAnswer(request);
    const rows = all_videos ? wholeGuide(guide, 'all_videos') : guide;
    const paged = paginate(request, rows, { page: all_videos ? 1 : page, perPage: all_videos ? Math.max(1, rows.total) : per_page }, config.PUBLIC_URL);
    // Written by the row writer (the schema's bytes, checked against it under test), not serialized
    // from row objects; as objects for a tree that reshapes them (the mobile tree's provider names).
    if (reshaped) return { ...paged, data: paged.data.map(presentVideoRow) };
    return sendJsonText(reply, videoPageJson(paged));
  });

  app.get('/users/:id/channels/:channelId/live', { schema: { params: liveParams, querystring: liveQuery, response: liveResponse } }, async (request) => {
    const channel = await ownedChannel(db, ownerOf(request).id, pathId(request.params.channelId));
    if (!channel) throw channelNotFound();
    const caller = await entitledCaller(reads, request);
    // The day defaults to today in UTC (spec); without a timezone it is a UTC day, rendered in UTC.
    const zone = caller.zone ?? 'UTC';
    const { from, to } = localDayWindow(request.query.date ?? localDateOf(caller.now.getTime(), 'UTC'), zone);
    const live = await channelLiveStreams(reads, caller, channel, new Date(from), new Date(to));
    if (live === 'subscription_required') throw subscriptionRequired();
    return customData(live.streams.map((s) => presentLive(channel.id, s, zone, caller.now, live.playable)));
  });
};
