// GET /epg.xml (owner Bearer: the caller's channels) and GET /epg/{key}.xml (open: the channels of
// the app whose public key it is, for FAST platforms and players that cannot send a header): the
// XMLTV guide of `days` days from today in each channel's zone, written from prepared bytes a
// channel-day at a time. Everything that can refuse (the query, the key, a guide still being
// prepared or too large to keep) is settled before the first byte (epg-document.ts), so a refusal
// is a whole REST envelope, never a cut document.
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { appOfEpgKey } from '../access/epg-keys.ts';
import { isLiveLinkKey } from '../access/live-keys.ts';
import { liveGuideChannels } from '../linear/live-access.ts';
import { scopedChannels } from '../channels/listing.ts';
import type { ChannelRow } from '../data/channels.ts';
import { acceptsGzip } from '../http/answers.ts';
import type { GroupOptions } from '../http/group.ts';
import { XMLTV_CONTENT_TYPE } from '../presenters/xmltv.ts';
import { MAX_GUIDE_DAYS } from '../schedules/guide-export.ts';
import type { Guides } from '../guides/guides.ts';
import { guideDocument } from './epg-document.ts';
import { epgKeyNotFound } from './errors.ts';

// Strict: a misspelt parameter (day=14) would otherwise silently answer the default week.
const guideQuery = z.strictObject({
  days: z
    .string()
    .regex(/^\d{1,3}$/, { error: `must be a whole number of days from 1 to ${MAX_GUIDE_DAYS}` })
    .transform(Number)
    .pipe(
      z
        .number()
        .min(1, { error: 'must be at least 1' })
        .max(MAX_GUIDE_DAYS, { error: `must be at most ${MAX_GUIDE_DAYS}` }),
    )
    .default(7),
});
const keyParams = z.object({ key: z.string() });

const guideSchema = {
  querystring: guideQuery,
  response: { 200: z.string().describe('An XMLTV document (xmltv.dtd), streamed') },
  produces: ['application/xml'],
};

async function sendGuide(guides: Guides, request: FastifyRequest, reply: FastifyReply, channels: readonly ChannelRow[], days: number) {
  // Gzipped for a client that takes it: 58 MB for a 200-channel week goes out as about a tenth.
  const gzip = acceptsGzip(request.headers['accept-encoding']);
  const document = await guideDocument(guides.prepared, channels, days, request.now, gzip);
  reply.header('vary', 'Accept-Encoding');
  if (gzip) reply.header('content-encoding', 'gzip');
  // Nothing past this point can refuse: the document's bytes are made. Should writing still fail,
  // the connection is cut (never a 200 that ends as if whole), and it is logged as an error here.
  document.on('error', (error) => request.log.error({ err: error }, 'XMLTV guide cut after its first byte'));
  return reply.type(XMLTV_CONTENT_TYPE).send(document);
}

/** Behind the REST Bearer check (sign-in tokens only): the caller's own channels. */
export const epgRoutes: FastifyPluginAsync<GroupOptions> = async (plain, { database, guides: given }) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const guides = given!; // the REST group always passes them (plugin.ts)

  app.get('/epg.xml', { schema: guideSchema }, async (request, reply) => {
    const channels = await scopedChannels(database.db, request.account.id, undefined);
    return sendGuide(guides, request, reply, channels, request.query.days);
  });
};

/**
 * Open: the key is the credential, an app's guide key or a viewer's live link (the channels it
 * plays: its M3U's url-tvg, docs/linear.md). An unknown, revoked or malformed key is 404.
 */
export const publicEpgRoutes: FastifyPluginAsync<GroupOptions> = async (plain, { database, guides: given }) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const guides = given!; // the REST group always passes them (plugin.ts)

  app.get('/epg/:key.xml', { schema: { ...guideSchema, params: keyParams } }, async (request, reply) => {
    // A viewer's personal live link: the guide of what it plays (the M3U's url-tvg).
    if (isLiveLinkKey(request.params.key)) {
      const held = await liveGuideChannels(database.db, request.params.key, request.now);
      if (!held) throw epgKeyNotFound();
      return sendGuide(guides, request, reply, held, request.query.days);
    }
    const owner = await appOfEpgKey(database.db, request.params.key);
    if (!owner) throw epgKeyNotFound();
    const channels = await scopedChannels(database.db, owner.ownerId, owner);
    // Fetched from outside with a key: kept warm from now on for as many days as asked.
    guides.warmer.remember(owner.id, request.query.days);
    return sendGuide(guides, request, reply, channels, request.query.days);
  });
};
