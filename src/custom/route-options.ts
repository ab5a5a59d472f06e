// What a Custom tree's route plugins are given (plugin.ts registers them with it): apart from the
// plugin so that route modules need not import the plugin that imports them.
import type { FastifyPluginAsync } from 'fastify';
import type { GroupOptions } from '../http/group.ts';

export interface CustomRouteOptions extends GroupOptions {
  /** The tree reshapes answer objects before they are serialized (CustomTree.present): a route that writes its JSON as text must hand over objects instead. */
  reshaped?: boolean;
}

export type RouteGroup = FastifyPluginAsync<CustomRouteOptions>;
