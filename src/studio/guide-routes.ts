// GET /channels/{channelId}/guide/{date}?timezone=: the rows a TV app receives from the Custom
// API's guide (/users/{id}/channels/video) for one of the owner's channels and one day in a
// request zone (absent: the channel's own). Same rows (src/channels/guide-rows.ts), same wire
// object (src/presenters/video-row.ts): the caller is anyone, a TV app sending no Platform-Id from
// a device with no unlocks, so a locked private channel's rows carry no stream URL; a channel an
// app sells shows the rows that app's subscribers get (listed: false, soldBy: its platform).
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { guidePreview } from '../channels/guide-preview.ts';
import { ownedChannel } from '../data/channels.ts';
import { notFound } from '../editing/refusals.ts';
import type { GroupOptions } from '../http/group.ts';
import { presentVideoRow, videoRowSchema } from '../presenters/video-row.ts';
import { isValidDate } from '../schedules/labels.ts';
import { resolveZone } from '../schedules/zones.ts';
import { guideSchema } from './contract.ts';
import { numericId } from './schemas.ts';
import { okSchema } from '../http/success-envelope.ts';

const params = z.object({
  channelId: numericId,
  date: z.string().refine(isValidDate, { error: 'must be a real date in the form yyyy-MM-dd' }),
});
const query = z.strictObject({
  timezone: z
    .string()
    .refine((zone) => resolveZone(zone) !== undefined, { error: 'must be a valid IANA or Windows time zone id' })
    .optional(),
});

export const guideRoutes: FastifyPluginAsync<GroupOptions> = async (plain, { database, cache, timelines }) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const { db } = database;
  const reads = { db, cache, timelines };

  app.get('/channels/:channelId/guide/:date', { schema: { params, querystring: query, response: { 200: okSchema(guideSchema) } } }, async (request) => {
    const { ownerId, now } = request.editor;
    const channel = await ownedChannel(db, ownerId, request.params.channelId);
    if (!channel) throw notFound('Channel');
    const zone = request.query.timezone === undefined ? undefined : resolveZone(request.query.timezone);
    const { rows, listed, soldBy } = await guidePreview(reads, ownerId, now, zone, channel.id, request.params.date);
    // One channel-day holds at most 2 x MAX_DAY_ENTRIES entries, far below the guide's bound.
    if ('refused' in rows) throw new Error(`one channel-day refused as too big (${rows.entries} entries)`);
    return {
      success: true as const,
      data: {
        channelId: channel.id,
        date: request.params.date,
        timezone: zone ?? channel.timezone,
        listed,
        soldBy: soldBy?.platform ?? null,
        items: rows.slice(0, rows.total).map(presentVideoRow),
      },
    };
  });
};
