// The interface groups, in one registry: each group's URL prefixes, its plugin, its envelope
// (how a refusal, an unknown route, a fault and a 503 are answered) and whether the OpenAPI
// document shows it. The app assembly (app.ts), the refusals before routing, load shedding and
// the docs all read this list; a new group (the Studio API) is one more entry.
import type { FastifyInstance } from 'fastify';
import { ACTIVITY_ENVELOPE } from './activity/errors.ts';
import { ACTIVITY_PATHS, activityRoutes } from './activity/routes.ts';
import { MOBILE_TREE } from './compat/mobile.ts';
import { ROKU_TREE } from './compat/roku.ts';
import { CUSTOM_ENVELOPE } from './custom/errors.ts';
import { customApi } from './custom/plugin.ts';
import { entryAt, isUnder, sendEnveloped, type Envelope } from './http/envelope.ts';
import { groupErrorHandler } from './http/group-errors.ts';
import type { GroupOptions } from './http/group.ts';
import { LEGACY_ENVELOPE } from './legacy/errors.ts';
import { legacyRoutes } from './legacy/routes.ts';
import { LIVE, liveApi } from './live/plugin.ts';
import { NOTIFICATIONS_ENVELOPE } from './notifications/errors.ts';
import { notificationRoutes } from './notifications/routes.ts';

import { restApi } from './rest/plugin.ts';
import { STUDIO_ENVELOPE } from './studio/errors.ts';
import { studioApi } from './studio/plugin.ts';
import { SUCCESS_ENVELOPE } from './http/success-envelope.ts';

export interface InterfaceGroup {
  name: string;
  /**
   * The URL space whose answers are in this group's envelope, unknown routes included. A path
   * belongs to the group with the longest prefix holding it (activity's Custom path is under
   * the Custom API's prefix, and answers as activity).
   */
  prefixes: readonly string[];
  envelope: Envelope;
  /** Prefixes whose routes the OpenAPI document shows; empty: the group keeps another contract. */
  documented: readonly string[];
  /** Registers the group's routes (and its own 404 and error handlers) on the application. */
  register(app: FastifyInstance, options: GroupOptions): PromiseLike<unknown>;
}

const REST = '/api/v1/rest';
const STUDIO = '/api/v1/studio';
const STORES = '/api/v1/stores';
const SERVICES = '/api/v1/services';
const CUSTOM = `${SERVICES}/custom`;
const LEGACY = '/WebServices';

/** The compatibility trees COMPAT_ROUTES may switch on (docs/custom.md: Shipped clients). */
const COMPAT_TREES = { mobile: MOBILE_TREE, roku: ROKU_TREE } as const;

export const GROUPS: readonly InterfaceGroup[] = [
  {
    name: 'activity',
    prefixes: ACTIVITY_PATHS,
    envelope: ACTIVITY_ENVELOPE,
    documented: ACTIVITY_PATHS,
    // No stale-session sweeper under the test clock: it runs on the system clock.
    register: (app, options) => app.register(activityRoutes, options),
  },
  {
    name: 'rest',
    prefixes: [REST],
    envelope: SUCCESS_ENVELOPE,
    documented: [REST],
    register: (app, options) => app.register(restApi, { prefix: REST, ...options }),
  },
  {
    name: 'studio',
    prefixes: [STUDIO],
    envelope: STUDIO_ENVELOPE,
    documented: [STUDIO],
    register: (app, options) => app.register(studioApi, { prefix: STUDIO, ...options }),
  },
  {
    name: 'notifications',
    prefixes: [STORES],
    envelope: NOTIFICATIONS_ENVELOPE,
    documented: [STORES],
    register: (app, options) => app.register(notificationRoutes, { prefix: STORES, ...options }),
  },
  {
    name: 'custom',
    prefixes: [CUSTOM],
    envelope: CUSTOM_ENVELOPE,
    documented: [CUSTOM],
    register: (app, options) => app.register(customApi, { prefix: CUSTOM, ...options }),
  },
  {
    // The older templates' trees on the Custom API's machinery, and every other path under
    // /api/v1/services/: the Custom API's 404, not Fastify's.
    name: 'compat',
    prefixes: [SERVICES],
    envelope: CUSTOM_ENVELOPE,
    documented: [],
    register: async (app, options) => {
      for (const name of options.config.COMPAT_ROUTES) {
        await app.register(customApi, { prefix: `${SERVICES}/${name}`, ...options, tree: COMPAT_TREES[name] });
      }
      await app.register(
        async (services) => {
          services.setNotFoundHandler((_request, reply) => sendEnveloped(reply.code(404), CUSTOM_ENVELOPE.notFound()));
          // What is refused before the 404 (a body of an unknown type, too large): the same envelope.
          services.setErrorHandler(groupErrorHandler({ name: 'the Custom API', envelope: CUSTOM_ENVELOPE, faultMessage: 'Server error.' }));
        },
        { prefix: SERVICES },
      );
    },
  },
  {
    // Channels' live HLS playlists (docs/linear.md): open, the key in the path; not in the OpenAPI document (HLS, not JSON).
    name: 'live',
    prefixes: [LIVE],
    envelope: SUCCESS_ENVELOPE,
    documented: [],
    register: (app, options) => app.register(liveApi, { prefix: LIVE, ...options }),
  },
  {
    name: 'legacy',
    prefixes: [LEGACY],
    envelope: LEGACY_ENVELOPE,
    documented: [],
    register: (app, options) => app.register(legacyRoutes, { prefix: LEGACY, ...options }),
  },
];

/** The envelope of the group `path` (a request URL) belongs to; undefined outside the groups. */
export const envelopeAt = (path: string): Envelope | undefined => entryAt(GROUPS, path)?.envelope;

const DOCUMENTED = GROUPS.flatMap((group) => group.documented);

/** Whether a route URL is in the OpenAPI document. */
export const isDocumented = (url: string): boolean => DOCUMENTED.some((prefix) => isUnder(url, prefix));
