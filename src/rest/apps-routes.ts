// GET /apps/{platform}: the caller's app configuration for one platform.
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { appChannelAssignments, appImages, appMobileSettings, findAppByOwnerAndPlatform } from '../data/apps.ts';
import { configuredStores, storeProductsOf } from '../data/store-products.ts';
import type { GroupOptions } from '../http/group.ts';
import { RestError } from './errors.ts';
import { presentApp } from './app-presenter.ts';
import { appSchema } from './schemas.ts';
import { APP_PLATFORMS } from '../vocabulary.ts';
import { okBody, okSchema } from '../http/success-envelope.ts';

const platformParams = z.object({ platform: z.string() });
const appResponse = { 200: okSchema(appSchema) };

export const appsRoutes: FastifyPluginAsync<GroupOptions> = async (plain, { database }) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const { db } = database;
  app.get('/apps/:platform', { schema: { params: platformParams, response: appResponse } }, async (request) => {
    const platform = APP_PLATFORMS.find((p) => p === request.params.platform.toLowerCase());
    if (!platform) {
      throw new RestError(400, 'unsupported_platform', `Unknown platform "${request.params.platform}"; use one of ${APP_PLATFORMS.join(', ')}.`);
    }
    const found = await findAppByOwnerAndPlatform(db, request.account.id, platform);
    if (!found) throw new RestError(404, 'app_not_found', `No ${platform} app is configured.`);
    const [channels, images, mobile, products, stores] = await Promise.all([
      appChannelAssignments(db, found.id),
      appImages(db, found.id),
      appMobileSettings(db, found.id),
      storeProductsOf(db, found.id),
      configuredStores(db, found.id),
    ]);
    return okBody(presentApp({ app: found, channels, images, mobile, products, stores }));
  });
};
