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
import type { GroupDocs } from './http/docs.ts';
import type { GroupOptions } from './http/group.ts';
import { LEGACY_ENVELOPE } from './legacy/errors.ts';
import { LIVE_ENVELOPE } from './live/errors.ts';
import { hdhrApi, liveApi } from './live/plugin.ts';
import { legacyRoutes } from './legacy/routes.ts';
import { NOTIFICATIONS_ENVELOPE } from './notifications/errors.ts';
import { notificationRoutes } from './notifications/routes.ts';

import { restApi } from './rest/plugin.ts';
import { STUDIO_ENVELOPE } from './studio/errors.ts';
import { studioApi } from './studio/plugin.ts';
import { failureSchema, SUCCESS_ENVELOPE } from './http/success-envelope.ts';
import { activityFailureSchema } from './activity/errors.ts';
import { customFailureSchema } from './custom/errors.ts';

// What every group may answer before or around its routes (src/http: refusals, limits, faults).
const SHARED_FAILURES = {
  429: 'Too many requests from this address (rate limit; Retry-After says when to try again).',
  500: 'A fault of the service (logged; the message says nothing of it).',
  503: 'The database is unreachable or the service is shedding load (Retry-After).',
} as const;
const BODY_FAILURES = {
  400: 'Malformed request: not valid JSON, or a body, query or parameter breaking the schema (REST words it in the message).',
  413: 'The body is larger than the group accepts.',
  415: 'The body is not JSON.',
} as const;
const SUCCESS_DOCS = (failures: Record<number, string>): GroupDocs => ({ failure: failureSchema, failureName: 'Failure', failures: { ...failures, ...SHARED_FAILURES } });

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
  /** Its failures as the OpenAPI document shows them on each operation (documented groups). */
  docs?: GroupDocs;
  /** Registers the group's routes (and its own 404 and error handlers) on the application. */
  register(app: FastifyInstance, options: GroupOptions): PromiseLike<unknown>;
}

const REST = '/api/v1/rest';
const STUDIO = '/api/v1/studio';
const STORES = '/api/v1/stores';
const SERVICES = '/api/v1/services';
const CUSTOM = `${SERVICES}/custom`;
const LEGACY = '/WebServices';
const LIVE = '/api/v1/live';
const HDHR = '/hdhr';

/** The compatibility trees COMPAT_ROUTES may switch on (docs/custom.md: Shipped clients). */
const COMPAT_TREES = { mobile: MOBILE_TREE, roku: ROKU_TREE } as const;

export const GROUPS: readonly InterfaceGroup[] = [
  {
    name: 'activity',
    prefixes: ACTIVITY_PATHS,
    envelope: ACTIVITY_ENVELOPE,
    documented: ACTIVITY_PATHS,
    docs: { failure: activityFailureSchema, failureName: 'ActivityFailure', failures: { 422: 'The event breaks a rule (`errors` names each field).', ...SHARED_FAILURES } },
    // No stale-session sweeper under the test clock: it runs on the system clock.
    register: (app, options) => app.register(activityRoutes, options),
  },
  {
    name: 'rest',
    prefixes: [REST],
    envelope: SUCCESS_ENVELOPE,
    documented: [REST],
    docs: SUCCESS_DOCS({ ...BODY_FAILURES, 403: 'The caller may not do this (an app token outside what TV apps call).' }),
    register: (app, options) => app.register(restApi, { prefix: REST, ...options }),
  },
  {
    name: 'studio',
    prefixes: [STUDIO],
    envelope: STUDIO_ENVELOPE,
    documented: [STUDIO],
    docs: SUCCESS_DOCS({
      ...BODY_FAILURES,
      403: 'The account owns no channel or app.',
      409: 'A conflict: a schedule overlap, an id taken, a resource in use, another write of this owner under way.',
      412: 'If-Match names an older version (someone changed it since it was read).',
      422: 'The body breaks a rule: `details` names each field and what is wrong, in words.',
    }),
    register: (app, options) => app.register(studioApi, { prefix: STUDIO, ...options }),
  },
  {
    name: 'notifications',
    prefixes: [STORES],
    envelope: NOTIFICATIONS_ENVELOPE,
    documented: [STORES],
    docs: SUCCESS_DOCS({ ...BODY_FAILURES, 401: 'No proof that the store sent it.', 403: 'Not accepted from this address.', 404: 'No app configured for this store here.' }),
    register: (app, options) => app.register(notificationRoutes, { prefix: STORES, ...options }),
  },
  {
    name: 'custom',
    prefixes: [CUSTOM],
    envelope: CUSTOM_ENVELOPE,
    documented: [CUSTOM],
    docs: {
      failure: customFailureSchema,
      failureName: 'CustomFailure',
      failures: {
        403: 'subscription_required: the channel or video is sold and the viewer holds no entitlement.',
        404: 'User is required (unknown owner), or no such channel or video.',
        422: 'The given data was invalid (`errors` names each field).',
        ...SHARED_FAILURES,
      },
    },
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
    // The M3U and the live playlists (docs/linear.md): players fetch them with the key in the path.
    name: 'live',
    prefixes: [LIVE],
    envelope: LIVE_ENVELOPE,
    documented: [LIVE],
    docs: SUCCESS_DOCS({ 404: 'Unknown or revoked key, or a channel the key does not play.' }),
    register: (app, options) => app.register(liveApi, { prefix: LIVE, ...options }),
  },
  {
    // The HDHomeRun tuner media servers add by URL (docs/linear.md: The tuner).
    name: 'hdhr',
    prefixes: [HDHR],
    envelope: LIVE_ENVELOPE,
    documented: [HDHR],
    docs: SUCCESS_DOCS({ 404: 'Unknown or revoked key, or a channel the key does not play.' }),
    register: (app, options) => app.register(hdhrApi, { prefix: HDHR, ...options }),
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

/** What the docs say of `url`'s operations, or undefined when they are not documented. */
export function docsAt(url: string): GroupDocs | undefined {
  if (!isDocumented(url)) return undefined;
  return entryAt(
    GROUPS.filter((g) => g.documented.length > 0),
    url,
  )?.docs;
}
