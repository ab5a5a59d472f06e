// What every interface group plugin and its route plugins receive.
import type { BearerCache } from '../access/bearer-cache.ts';
import type { FastifyInstance, FastifySchemaCompiler } from 'fastify';
import type { Config } from '../config.ts';
import type { AnswerCache } from '../cache/answer-cache.ts';
import type { CatalogCache } from '../cache/catalog-cache.ts';
import type { DatabaseHandle } from '../db/connect.ts';
import type { StoreNotifications } from '../entitlements/notifications/service.ts';
import type { Guides } from '../guides/guides.ts';
import type { HlsIngests } from '../linear/ingest-worker.ts';
import type { ScheduleTimelines } from '../schedules/timelines.ts';
import { sendEnveloped } from './envelope.ts';
import { groupErrorHandler, type GroupErrors } from './group-errors.ts';
import { acceptEmptyJsonBodies } from './json-body.ts';
import { registerRateLimit, type LimitsConfig } from './limits.ts';
import { responseSerializerCompiler } from './serializer.ts';

export interface GroupOptions {
  database: DatabaseHandle;
  config: Config;
  /** Answers derived from catalog data only; dropped on every import, in every process. */
  cache: CatalogCache;
  /** Compiled channel-days, dropped with the catalog cache. */
  timelines: ScheduleTimelines;
  /** Encoded viewer read answers (src/http/answers.ts), dropped with the catalog cache; absent: none kept (groups tested alone). */
  answers?: AnswerCache;
  /** XMLTV guides kept as rendered bytes, prepared in the background and kept warm (src/guides;
   *  made by the app; the REST group makes its own when registered alone). */
  guides?: Guides;
  /** Store server notifications: verification, the inbox and its worker (one per process, made
   *  by the app; only the notification group needs it, so groups tested alone may go without). */
  notifications?: StoreNotifications;
  /** HLS ingest's queue (src/linear/ingest-worker.ts; one per process, made by the app): the Studio kicks it. */
  ingests?: HlsIngests;
  /** Bearer checks kept in memory (src/access/bearer-cache.ts; one per app); absent: read every request. */
  bearers?: BearerCache;
  /**
   * The secret of the operator's link to this server (src/operator-link.ts: `channelnet owner
   * create` while the server holds the embedded database); absent: the operator route answers 404.
   */
  operatorSecret?: string | undefined;
}

/** Applies the group's body limit to every route registered after this call. */
export function limitBodies(app: FastifyInstance, bytes: number): void {
  app.addHook('onRoute', (route) => {
    route.bodyLimit ??= bytes;
  });
}

/** The options a group hands its route plugins: not the group's own, which carry its prefix. */
export const routeOptions = (options: GroupOptions): GroupOptions => ({
  database: options.database,
  config: options.config,
  cache: options.cache,
  timelines: options.timelines,
  answers: options.answers,
  notifications: options.notifications,
  guides: options.guides,
  ingests: options.ingests,
  bearers: options.bearers,
  operatorSecret: options.operatorSecret,
});

export interface GroupSetUp<E> {
  /** The group's envelope, fault message and refusal table (group-errors.ts). */
  errors: GroupErrors<E>;
  /** Route schemas' validator; absent: Fastify's default. */
  validatorCompiler?: FastifySchemaCompiler<any>;
  bodyLimit: number;
  /** The per-address limit's settings; absent: the group sets its own limits. */
  rateLimit?: LimitsConfig;
  /** JSON bodies only (an empty body is no body; text/plain is refused with a 415, not parsed). */
  jsonOnly?: boolean;
}

/**
 * What every interface group installs the same way: its validator, the serializer of response
 * schemas, its error handler (the root handler extended by its refusal table), body parsing,
 * body limit, rate limit and its 404 in its envelope. Groups add only what is theirs.
 */
export async function setUpGroup<E>(app: FastifyInstance, setUp: GroupSetUp<E>): Promise<void> {
  if (setUp.validatorCompiler) app.setValidatorCompiler(setUp.validatorCompiler);
  // Success answers by their response schemas (fast-json-stringify).
  app.setSerializerCompiler(responseSerializerCompiler);
  app.setErrorHandler(groupErrorHandler(setUp.errors));
  if (setUp.jsonOnly) {
    acceptEmptyJsonBodies(app);
    app.removeContentTypeParser('text/plain');
  }
  limitBodies(app, setUp.bodyLimit);
  if (setUp.rateLimit) await registerRateLimit(app, setUp.rateLimit);
  const { notFound } = setUp.errors.envelope;
  if (notFound) app.setNotFoundHandler((request, reply) => sendEnveloped(reply.code(404), notFound(request)));
}
