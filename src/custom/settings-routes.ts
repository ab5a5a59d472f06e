// GET /users/{id}/settings (account branding) and GET /users/{id}/app_settings (Platform-Id required).
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { appImages, appMobileSettings, findAppByOwnerAndPlatform } from '../data/apps.ts';
import { brandingOf } from '../data/brandings.ts';
import { storeProductsOf } from '../data/store-products.ts';
import type { GroupOptions } from '../http/group.ts';
import { customData, failure } from './errors.ts';
import { ownerOf } from './caller.ts';
import { requiredPlatform } from './headers.ts';
import { CLIENT_PLATFORMS } from './platforms.ts';
import { presentAppSettings, presentSettings } from './settings-presenter.ts';
import { appSettingsResponse, settingsResponse } from './schemas.ts';
import { answerHooks, shareAnswer } from '../http/answers.ts';
import { PLATFORM_RULE } from './answer-rules.ts';

const ARTWORK = ['logo', 'icon', 'avatarHd', 'avatarSd'];

export const settingsRoutes: FastifyPluginAsync<GroupOptions> = async (plain, { database, config, cache, answers }) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const { db } = database;
  // The owner's branding and apps: catalog data the same for everyone, changed only by an edit.
  const brandingKept = answerHooks(answers, config.ANSWER_MAX_AGE_SECONDS, { vary: [] }).hooks;
  const appKept = answerHooks(answers, config.ANSWER_MAX_AGE_SECONDS, PLATFORM_RULE).hooks;

  app.get('/users/:id/settings', { schema: { response: settingsResponse }, ...brandingKept }, async (request) => {
    shareAnswer(request, { ownerId: ownerOf(request).id }, Infinity);
    return customData(presentSettings(ownerOf(request), await brandingOf(db, ownerOf(request).id)));
  });

  app.get('/users/:id/app_settings', { schema: { response: appSettingsResponse }, ...appKept }, async (request) => {
    const platform = requiredPlatform(request);
    const ownerId = ownerOf(request).id;
    shareAnswer(request, { ownerId }, Infinity);
    const settings = await cache.get(
      `custom:app_settings:${ownerId}:${platform}`,
      async () => {
        const found = await findAppByOwnerAndPlatform(db, ownerId, CLIENT_PLATFORMS[platform].app);
        if (!found) return undefined;
        const [images, mobile, products] = await Promise.all([appImages(db, found.id, ARTWORK), appMobileSettings(db, found.id), storeProductsOf(db, found.id)]);
        return presentAppSettings({ ownerId, app: found, platform, images, mobile, products });
      },
      { ownerId },
    );
    if (!settings) throw failure(404, 'App not found');
    return customData(settings);
  });
};
