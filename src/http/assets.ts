// GET /assets/apps/{appId}/{role}: the image bytes behind the asset URLs of app configuration.
import type { FastifyPluginAsync } from 'fastify';
import { ASSET_VERSION_LENGTH } from '../apps/assets.ts';
import { appImages } from '../data/apps.ts';
import type { DatabaseHandle } from '../db/connect.ts';
import { isDatabaseUnavailable } from '../db/errors.ts';
import { sendUnavailable } from './unavailable.ts';

const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'public, max-age=300';

export const assetRoutes: FastifyPluginAsync<{ database: DatabaseHandle }> = async (app, { database }) => {
  // An unreachable database is a 503 to retry, not a 500 (which would also show the failed query).
  app.setErrorHandler((error, request, reply) => {
    if (!isDatabaseUnavailable(error)) throw error;
    request.log.warn({ err: error }, 'database unavailable');
    return sendUnavailable(reply, undefined);
  });
  app.get<{ Params: { appId: string; role: string }; Querystring: { v?: string } }>('/assets/apps/:appId/:role', async (request, reply) => {
    const { role } = request.params;
    // A role with NUL names no image (PostgreSQL text cannot hold NUL: the query would fail).
    const appId = /^\d{1,9}$/.test(request.params.appId) && !role.includes('\u0000') ? Number(request.params.appId) : undefined;
    const image = appId === undefined ? undefined : (await appImages(database.db, appId, [role])).get(role);
    if (!image) return reply.code(404).type('text/plain; charset=utf-8').send('Not found');
    const etag = `"${image.sha256}"`;
    const current = request.query.v === image.sha256.slice(0, ASSET_VERSION_LENGTH);
    reply.header('etag', etag).header('cache-control', current ? IMMUTABLE : REVALIDATE);
    if (request.headers['if-none-match'] === etag) return reply.code(304).send();
    return reply.type(image.contentType).send(image.bytes);
  });
};
