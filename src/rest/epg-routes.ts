// GET /epg.xml (owner Bearer: the caller's channels) and GET /epg/{key}.xml (open: the channels of
// the app whose public key it is, for FAST platforms and players that cannot send a header): the
// XMLTV guide of `days` days from today in each channel's zone, streamed a channel-day at a time.
// Everything that can refuse (the query, the key) is settled before the first byte, so a refusal
// is a whole REST envelope, never a cut document.
import { Readable } from 'node:stream';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { appOfEpgKey } from '../access/epg-keys.ts';
import { scopedChannels } from '../channels/listing.ts';
import type { ChannelRow } from '../data/channels.ts';
import type { Queryable } from '../db/connect.ts';
import type { GroupOptions } from '../http/group.ts';
import { XMLTV_CONTENT_TYPE, xmltvDocument } from '../presenters/xmltv.ts';
import { guideChannelDays, MAX_GUIDE_DAYS } from '../schedules/guide-export.ts';
import type { ScheduleTimelines } from '../schedules/timelines.ts';
import { epgKeyNotFound } from './errors.ts';

// Strict: a misspelt parameter (day=14) would otherwise silently answer the default week.
const guideQuery = z.strictObject({
  days: z
    .string()
    .regex(/^\d{1,3}$/, { error: `must be a whole number of days from 1 to ${MAX_GUIDE_DAYS}` })
    .transform(Number)
    .pipe(z.number().min(1, { error: 'must be at least 1' }).max(MAX_GUIDE_DAYS, { error: `must be at most ${MAX_GUIDE_DAYS}` }))
    .default(7),
});
const keyParams = z.object({ key: z.string() });

const guideSchema = {
  querystring: guideQuery,
  response: { 200: z.string().describe('An XMLTV document (xmltv.dtd), streamed') },
  produces: ['application/xml'],
};

function sendGuide(reply: FastifyReply, db: Queryable, timelines: ScheduleTimelines, channels: readonly ChannelRow[], days: number, now: Date) {
  const pieces = xmltvDocument(channels, guideChannelDays(db, timelines, channels, days, now));
  return reply.type(XMLTV_CONTENT_TYPE).send(Readable.from(pieces, { objectMode: false }));
}

/** Behind the REST Bearer check (sign-in tokens only): the caller's own channels. */
export const epgRoutes: FastifyPluginAsync<GroupOptions> = async (plain, { database, timelines }) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const { db } = database;

  app.get('/epg.xml', { schema: guideSchema }, async (request, reply) => {
    const channels = await scopedChannels(db, request.account.id, undefined);
    return sendGuide(reply, db, timelines, channels, request.query.days, request.now);
  });
};

/** Open: the key is the credential. An unknown, revoked or malformed key is 404. */
export const publicEpgRoutes: FastifyPluginAsync<GroupOptions> = async (plain, { database, timelines }) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const { db } = database;

  app.get('/epg/:key.xml', { schema: { ...guideSchema, params: keyParams } }, async (request, reply) => {
    const owner = await appOfEpgKey(db, request.params.key);
    if (!owner) throw epgKeyNotFound();
    const channels = await scopedChannels(db, owner.ownerId, owner);
    return sendGuide(reply, db, timelines, channels, request.query.days, request.now);
  });
};
