// The Studio group's route modules, registered behind its owner check (plugin.ts).
import type { FastifyPluginAsync } from 'fastify';
import type { GroupOptions } from '../http/group.ts';
import { accountRoutes } from './account-routes.ts';
import { appsRoutes } from './apps-routes.ts';
import { catalogRoutes } from './catalog-routes.ts';
import { channelsRoutes } from './channels-routes.ts';
import { collectionRoutes } from './collection-routes.ts';
import { epgKeyRoutes } from './epg-key-routes.ts';
import { guideRoutes } from './guide-routes.ts';
import { inviteRoutes } from './invite-routes.ts';
import { linearRoutes } from './linear-routes.ts';
import { onAirRoutes } from './on-air-routes.ts';
import { operatorRoutes } from './operator-routes.ts';
import { programmingRoutes } from './programming-routes.ts';
import { scheduleRoutes } from './schedule-routes.ts';
import { videosRoutes } from './videos-routes.ts';

export const STUDIO_ROUTES: FastifyPluginAsync<GroupOptions>[] = [
  videosRoutes,
  channelsRoutes,
  linearRoutes,
  catalogRoutes,
  scheduleRoutes,
  programmingRoutes,
  collectionRoutes,
  guideRoutes,
  onAirRoutes,
  appsRoutes,
  epgKeyRoutes,
  accountRoutes,
  inviteRoutes,
  operatorRoutes,
];
