// Activity ingestion (spec "Activity event", "Events"): one handler on both paths. Every answer
// under these paths, including unknown routes, bad bodies and faults, is a bare { message }.
import type { FastifyError, FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { z } from 'zod';
import { systemClock } from '../clock.ts';
import type { Config } from '../config.ts';
import { countOpenSessions } from '../data/activity.ts';
import { countSessionsToCredit } from '../data/programme-watch.ts';
import { sendEnveloped } from '../http/envelope.ts';
import { groupErrorHandler } from '../http/group-errors.ts';
import { sendUnavailable } from '../http/unavailable.ts';
import type { GroupOptions } from '../http/group.ts';
import { MAX_JSON_DEPTH, nestsDeeperThan, TOO_DEEP } from '../http/json-body.ts';
import { registerActivityRateLimits } from '../http/limits.ts';
import { responseSerializerCompiler } from '../http/serializer.ts';
import { heartbeats, observeCreditBacklog, observeOpenSessions } from '../observability/metrics.ts';
import { BatcherOverloaded } from '../sessions/batcher.ts';
import { ActivityChannels } from '../sessions/activity-channels.ts';
import { createActivityRecorder, defaultRecorderOptions, type ActivityRecorder } from '../sessions/recorder.ts';
import { ACTIVITY_ENVELOPE, invalid } from './errors.ts';
import { parseActivityEvent, parseFormBody } from './event.ts';

export const ACTIVITY_PATHS = ['/api/v1/services/custom/activity', '/api/v1/activity'] as const;

interface EndpointOptions {
  recorder: ActivityRecorder;
  config: Config;
  /** The per-device limit, shared by both paths (undefined: rate limits off). */
  perDevice: preHandlerAsyncHookHandler | undefined;
}

/** A body that its content type's parser could not read. */
class UnparsableBody extends Error {}

/** An event accepted (stored, or a legacy action ignored); every other answer is in errors.ts. */
const acceptedResponse = { 200: z.object({ message: z.literal('Success') }) };

const UNSUPPORTED_BODY = invalid({ body: ['The body must be application/json or application/x-www-form-urlencoded.'] });

export const activityRoutes: FastifyPluginAsync<GroupOptions> = async (app, options) => {
  // The batches' channels from memory, dropped by the catalog NOTIFY like every cached answer.
  const channels = new ActivityChannels();
  options.cache.follow(channels);
  const recorder = createActivityRecorder(options.database, { ...defaultRecorderOptions(options.database, options.config), channels });
  observeOpenSessions(() => countOpenSessions(options.database.db, systemClock()));
  observeCreditBacklog(() => countSessionsToCredit(options.database.db));
  // Both limits apply, each counting both paths: per address (whatever user_id the events carry,
  // so rotating user_id does not escape it) and per device (one player sending too often).
  const perDevice = await registerActivityRateLimits(app, options.config, (reply, retryAfterSeconds) =>
    reply.code(429).send({ message: `Too many events from this device; retry in ${retryAfterSeconds} seconds.` }),
  );
  for (const prefix of ACTIVITY_PATHS) await app.register(activityEndpoint, { prefix, recorder, config: options.config, perDevice });
};

const activityEndpoint: FastifyPluginAsync<EndpointOptions> = async (app, { recorder, config, perDevice }) => {
  const bodyLimit = config.BODY_LIMIT_ACTIVITY;
  useOwnBodyParsers(app, bodyLimit);
  app.setSerializerCompiler(responseSerializerCompiler);
  app.setErrorHandler(activityErrors(bodyLimit));
  app.setNotFoundHandler(notFound);
  app.addHook('onResponse', async (request, reply) => {
    const body = request.body as { action?: unknown } | undefined;
    if (body?.action === 'play_channel') heartbeats.inc({ result: reply.statusCode === 200 ? 'accepted' : 'rejected' });
  });
  app.post('/', { bodyLimit, preHandler: perDevice ? [perDevice] : [], schema: { response: acceptedResponse } }, async (request, reply) => {
    const parsed = parseActivityEvent(request.body ?? {});
    if (!parsed.ok) return refuse(reply, 422, invalid(parsed.errors));
    const outcome = await recorder.record({ event: parsed.event, at: request.now, bytes: bodyBytes(request) });
    if (outcome === 'unknown_channel') return refuse(reply, 422, invalid({ channel_id: ['The selected channel id is invalid.'] }));
    if (outcome === 'no_service_plan') {
      return refuse(reply, 403, { message: 'The owner of this channel has no active service plan.', error: 'invalid_user' });
    }
    return { message: 'Success' };
  });
};

/** The body's size from its header; a chunked body counts as the limit (the most it can be). */
const bodyBytes = (request: FastifyRequest): number | undefined => Number(request.headers['content-length']) || undefined;

/** A refusal by the route: only its 200 has a schema, so the body is JSON.stringify's as before. */
const refuse = (reply: FastifyReply, status: number, body: unknown) => reply.code(status).send(body);

/** JSON as JSON.parse reads it (a repeated key keeps its last value) and forms, nothing else. */
function useOwnBodyParsers(app: FastifyInstance, bodyLimit: number) {
  app.removeAllContentTypeParsers();
  const options = { parseAs: 'string' as const, bodyLimit };
  app.addContentTypeParser('application/json', options, (_request, text: string, done) => {
    // Refused before JSON.parse builds every level of it.
    if (nestsDeeperThan(text, MAX_JSON_DEPTH)) return done(new UnparsableBody(`The body ${TOO_DEEP}.`), undefined);
    try {
      done(null, JSON.parse(text));
    } catch {
      done(new UnparsableBody('The body is not valid JSON.'), undefined);
    }
  });
  app.addContentTypeParser('application/x-www-form-urlencoded', options, (_request, text: string, done) => {
    done(null, parseFormBody(text));
  });
}

/** Activity's refusal table; the root handler (src/http/group-errors.ts) answers the rest. */
function activityErrors(bodyLimit: number) {
  return groupErrorHandler<FastifyError>({
    name: 'activity ingestion',
    envelope: ACTIVITY_ENVELOPE,
    faultMessage: 'Server Error',
    answer(error, _request, reply) {
      // Group commit's waiting line is full: the database is behind, so the answer is the
      // group's 503 with Retry-After, like load shedding.
      if (error instanceof BatcherOverloaded) return sendUnavailable(reply, ACTIVITY_ENVELOPE);
      if (error instanceof UnparsableBody) return reply.code(422).send(invalid({ body: [error.message] }));
      if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return reply.code(422).send(UNSUPPORTED_BODY);
      if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
        return reply.code(413).send({ message: `The request body may not be larger than ${Math.floor(bodyLimit / 1024)} KiB.` });
      }
      return undefined;
    },
  });
}

function notFound(request: FastifyRequest, reply: FastifyReply) {
  const path = request.url.split('?')[0]!.replace(/\/+$/, '');
  if ((ACTIVITY_PATHS as readonly string[]).includes(path)) {
    return reply
      .code(405)
      .header('allow', 'POST')
      .send({ message: `The ${request.method} method is not supported for this route. Supported methods: POST.` });
  }
  return sendEnveloped(reply.code(404), ACTIVITY_ENVELOPE.notFound());
}
