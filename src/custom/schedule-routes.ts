// GET /users/{id}/channels/video (schedule rows for days and channels, paginated) and
// GET /users/{id}/channels/{channelId}/live (a day's live streams of one channel).
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ownedChannel, type ChannelRow } from '../data/channels.ts';
import { liveStreamsFor } from '../data/schedules.ts';
import type { Queryable } from '../db/connect.ts';
import type { GroupOptions } from '../http/group.ts';
import { localDateOf, localDayWindow } from '../schedules/labels.ts';
import { requestedChannels } from './channel-lists.ts';
import { clientOf } from './context.ts';
import { channelNotFound, customData, subscriptionRequired } from './errors.ts';
import { clientGate, entitledClient, streamableChannels } from './gating.ts';
import { paginate } from './pagination.ts';
import { boundChannelDays, dateList, DEFAULT_PER_PAGE, idList, optionalDate, pageFields, pathId, zoneField } from './params.ts';
import { presentLive, presentVideoRow, type VideoRowSource } from './presenter.ts';
import { dayWindow, loadPublishedDays } from './schedule-days.ts';

const videoQuery = z
  .object({ ...zoneField, channels_ids: idList('channels_ids', true), dates: dateList('dates'), ...pageFields(DEFAULT_PER_PAGE) })
  .superRefine(boundChannelDays);
const liveQuery = z.object({ ...zoneField, date: optionalDate('date') });
const liveParams = z.object({ id: z.string(), channelId: z.string() });

/**
 * One channel's rows for the days, each day a calendar day in `zone`. customId's last part
 * counts the video's occurrences in that channel-day, so ids are unique and stable.
 */
async function channelRows(db: Queryable, channel: ChannelRow, dates: readonly string[], zone: string): Promise<VideoRowSource[]> {
  const windows = dates.map((date) => dayWindow(date, zone));
  const entriesOf = await loadPublishedDays(db, channel, windows);
  return windows.flatMap((window) => {
    const seen = new Map<number, number>();
    return entriesOf(window).map((entry) => {
      const k = (seen.get(entry.video.videoTubeId) ?? 0) + 1;
      seen.set(entry.video.videoTubeId, k);
      return {
        customId: `${channel.id}-${entry.video.videoTubeId}-${k}`,
        video: entry.video,
        userId: channel.ownerId,
        channelId: channel.id,
        durationSeconds: entry.isLive ? (entry.end - entry.start) / 1000 : entry.video.durationSeconds,
        start: entry.start,
        end: entry.end,
        zone,
        streamUrl: entry.video.streamUrl,
        isVod: false,
      };
    });
  });
}

export const scheduleRoutes: FastifyPluginAsync<GroupOptions> = async (plain, { database, config }) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const { db } = database;

  app.get('/users/:id/channels/video', { schema: { querystring: videoQuery } }, async (request) => {
    const client = await entitledClient(db, request);
    const { channels_ids, dates, page, per_page } = request.query;
    const channels = await requestedChannels(db, client, channels_ids);
    const streamable = await streamableChannels(db, client, channels);
    const rows = (await Promise.all(channels.map((c) => channelRows(db, c, dates, client.zone ?? c.timezone)))).flat();
    const paged = paginate(request, rows, { page, perPage: per_page }, config.PUBLIC_URL);
    return { ...paged, data: paged.data.map((r) => presentVideoRow(streamable(r.channelId) ? r : { ...r, streamUrl: null })) };
  });

  app.get('/users/:id/channels/:channelId/live', { schema: { params: liveParams, querystring: liveQuery } }, async (request) => {
    const channel = await ownedChannel(db, request.owner.id, pathId(request.params.channelId));
    if (!channel) throw channelNotFound();
    const client = await entitledClient(db, request);
    if (!(await clientGate(db, client)).channelOpen(channel.id)) throw subscriptionRequired();
    // The day defaults to today in UTC (spec); without a timezone it is a UTC day, rendered in UTC.
    const zone = client.zone ?? 'UTC';
    const { from, to } = localDayWindow(request.query.date ?? localDateOf(client.now.getTime(), 'UTC'), zone);
    const [streams, streamable] = await Promise.all([
      liveStreamsFor(db, channel.id, new Date(from), new Date(to)),
      streamableChannels(db, client, [channel]),
    ]);
    return customData(streams.map((s) => presentLive(channel.id, s, zone, client.now, streamable(channel.id))));
  });
};
