// GET /channels/{channelId}/on-air?from=&to= (the timeline over a span: segments, and what blocks
// lose to what) and GET /channels/{channelId}/now (now, with the position to join at, and next):
// what is on air, by the rule of src/schedules/on-air-timeline.ts, for one of the owner's channels.
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ownedChannel } from '../data/channels.ts';
import { invalid, notFound } from '../editing/refusals.ts';
import type { GroupOptions } from '../http/group.ts';
import { okSchema } from '../http/success-envelope.ts';
import { presentPreemption, presentSegment, utcInstant } from '../presenters/on-air.ts';
import { channelOnAir, nowOnAir, onAirSpan } from '../schedules/now-on-air.ts';
import { ScheduleTimelines } from '../schedules/timelines.ts';
import { nowOnAirSchema, onAirSchema } from './contract.ts';
import { numericId } from './schemas.ts';

const params = z.object({ channelId: numericId });
const bound = z.string().max(40);
const spanQuery = z.strictObject({
  from: bound.optional().describe('an instant (yyyy-MM-ddTHH:mm:ssZ or an offset) or a date of the channel (its start); default today'),
  to: bound.optional().describe("an instant, or a date of the channel (its end); default the end of from's day (a day after an instant); at most 14 days after from"),
});

/**
 * Nothing kept: an editor sees the timeline of their own write at once (as the Studio's day,
 * src/editing/schedules.ts readDay), without waiting for the change notice to reach the cache.
 */
const timelines = new ScheduleTimelines(0, false);

export const onAirRoutes: FastifyPluginAsync<GroupOptions> = async (plain, { database }) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const { db } = database;

  app.get('/channels/:channelId/on-air', { schema: { params, querystring: spanQuery, response: { 200: okSchema(onAirSchema) } } }, async (request) => {
    const { ownerId, now } = request.editor;
    const channel = await ownedChannel(db, ownerId, request.params.channelId);
    if (!channel) throw notFound('Channel');
    const span = onAirSpan(request.query, channel.timezone, now);
    if ('problem' in span) throw invalid([`${span.path}: ${span.problem}`]);
    const { segments, preempted } = await channelOnAir(db, timelines, { id: channel.id, timezone: channel.timezone, ownerId }, span.from, span.to);
    return {
      success: true as const,
      data: {
        channelId: channel.id,
        timezone: channel.timezone,
        from: utcInstant(span.from),
        to: utcInstant(span.to),
        segments: segments.map((s) => presentSegment(s, channel.timezone)),
        preempted: preempted.map((p) => presentPreemption(p, channel.timezone)),
      },
    };
  });

  app.get('/channels/:channelId/now', { schema: { params, response: { 200: okSchema(nowOnAirSchema) } } }, async (request) => {
    const { ownerId, now } = request.editor;
    const channel = await ownedChannel(db, ownerId, request.params.channelId);
    if (!channel) throw notFound('Channel');
    const [onAir] = await nowOnAir(db, timelines, [{ id: channel.id, timezone: channel.timezone, ownerId }], now.getTime());
    const { now: playing, next } = onAir!;
    return {
      success: true as const,
      data: {
        channelId: channel.id,
        timezone: channel.timezone,
        at: utcInstant(now.getTime()),
        now: playing ? { ...presentSegment(playing, channel.timezone), positionSeconds: Math.floor(playing.position / 1000) } : null,
        next: next ? presentSegment(next, channel.timezone) : null,
      },
    };
  });
};
