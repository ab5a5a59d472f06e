// The live playlists (docs/linear.md): GET {key}/{channelId}/master.m3u8 and {key}/{channelId}/{rung}.m3u8,
// and the slate's segments. Open: the key is the credential (an app's guide key, src/linear/live-access.ts).
// - An unknown key, a channel the key may not play, a channel without linear output, an unknown rung:
//   404 in the REST envelope (players read only the status; the body says which in words).
// - Answers: application/vnd.apple.mpegurl, Cache-Control max-age of at most half a target
//   duration, an ETag (If-None-Match: 304), CORS *.
// - The key's answer is kept in memory (src/linear/live-access.ts), so a warm playlist reads no
//   database; a revoked key stops within ACCESS_STALE_MS (far less than a window).
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { GroupOptions } from '../http/group.ts';
import { sendMedia } from '../http/media-body.ts';
import { mayPlayLive } from '../linear/live-access.ts';
import type { LiveStreams, Rendered } from '../linear/live-stream.ts';
import { noSlate, notPlayable } from './errors.ts';
import { slateSegment } from './slate.ts';

export const HLS_CONTENT_TYPE = 'application/vnd.apple.mpegurl';

const playlistParams = z.object({
  key: z.string().max(200),
  channelId: z
    .string()
    .regex(/^\d{1,9}$/)
    .transform(Number),
  file: z.string().max(20),
});
const slateParams = z.object({ rung: z.string().max(20), file: z.string().max(20) });

export function liveRoutes(live: LiveStreams): FastifyPluginAsync<GroupOptions> {
  return async (plain, { database }) => {
    const app = plain.withTypeProvider<ZodTypeProvider>();
    const playlistDocs = {
      tags: ['Live'],
      produces: [HLS_CONTENT_TYPE],
      response: { 200: z.string().describe('An HLS playlist: master.m3u8 (one EXT-X-STREAM-INF per rung) or {rung}.m3u8 (the live window)') },
    };
    app.get('/:key/:channelId/:file', { schema: { params: playlistParams, summary: "A channel's live HLS playlist", ...playlistDocs } }, async (request, reply) => {
      const { key, channelId, file } = request.params;
      const rung = /^(\d{1,2})\.m3u8$/.exec(file);
      if (file !== 'master.m3u8' && !rung) throw notPlayable();
      if (!(await mayPlayLive(database.db, key, channelId, request.now))) throw notPlayable();
      const answer = rung ? await live.media(channelId, Number(rung[1]), request.now.getTime()) : await live.master(channelId);
      if (!answer) throw notPlayable();
      return sendPlaylist(reply, answer, request.headers['if-none-match']);
    });

    const slateDocs = {
      tags: ['Live'],
      summary: 'A segment of the slate (immutable; the playlists name it)',
      produces: ['video/mp2t'],
      response: { 200: z.string().describe('MPEG-TS bytes') },
    };
    app.get('/slate/:rung/:file', { schema: { params: slateParams, ...slateDocs } }, async (request, reply) => {
      const name = /^(\d)\.ts$/.exec(request.params.file);
      const bytes = name ? slateSegment(request.params.rung, name[1]!) : undefined;
      if (!bytes) throw noSlate();
      // Documented as a string (OpenAPI has no bytes); Fastify sends the Buffer as it is.
      return sendMedia(reply.header('cache-control', 'public, max-age=31536000, immutable').header('access-control-allow-origin', '*'), 'video/mp2t', bytes);
    });
  };
}

function sendPlaylist(reply: FastifyReply, answer: Rendered, ifNoneMatch: string | undefined) {
  reply.header('cache-control', `public, max-age=${answer.maxAge}`).header('access-control-allow-origin', '*').header('etag', answer.etag);
  if (ifNoneMatch !== undefined && ifNoneMatch.split(',').some((t) => t.trim().replace(/^W\//, '') === answer.etag)) return reply.code(304).send();
  return reply.type(HLS_CONTENT_TYPE).send(answer.text);
}
