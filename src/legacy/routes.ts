// The Legacy Web Services: `/WebServices/<Service>.asmx/<Method>`, read-only, answered byte for
// byte as the original ASP.NET ASMX service did. This module reads requests the way ASMX read
// them, calls the data and domain functions, and writes answers through asmx.ts and newtonsoft.ts.
import type { FastifyError, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { tvTheme } from '../apps/theme.ts';
import type { CacheScope } from '../cache/changes.ts';
import { appChannelAssignment, appChannelAssignments, appImages, appMobileSettings, findAppByOwnerAndPlatform, type AppPlatform } from '../data/apps.ts';
import { channelRokuSettings, channelVastSettings, findOwnedChannel, vastSettingFor, vastSettingsOfChannels } from '../data/channel-settings.ts';
import type { Queryable } from '../db/connect.ts';
import { isDatabaseUnavailable } from '../db/errors.ts';
import { sendEnveloped } from '../http/envelope.ts';
import type { GroupErrors } from '../http/group-errors.ts';
import { setUpGroup, type GroupOptions } from '../http/group.ts';
import { nestsDeeperThan } from '../http/json-body.ts';
import { vastSettingsObject } from '../presenters/vast.ts';
import {
  ASMX_AJAX_CONTENT_TYPE,
  ASMX_ERROR_CONTENT_TYPE,
  ASMX_ERROR_STATUS,
  ASMX_XML_CONTENT_TYPE,
  AsmxParams,
  asmxAjaxBody,
  asmxXmlBody,
  htmlEncode,
  invalidValueBody,
  parseInt32,
  readAsmxParameters,
  type AsmxParamDecl,
  type AsmxValues,
  type ParamRecord,
} from './asmx.ts';
import { LEGACY_ENVELOPE } from './errors.ts';
import { serializeNewtonsoft, type NValue } from './newtonsoft.ts';
import { mobileAppValue, rokuAppValue, rokuChannelSettingsValue, tvAppValue } from './presenter.ts';
import { answerHooks, shareAnswer } from '../http/answers.ts';

/** What a web method answers: text in the XML (or AJAX) wrapper, a bare body, or a 500 page. */
type Answer = { kind: 'wrapped' | 'bare'; text: string } | { kind: 'fault'; body: string };

/**
 * A call bound to its parameters: `values` (as the method reads them) alone decide the answer,
 * derived from `scope`'s data (undefined: the owner is not known from the values).
 */
type Bound = { ok: true; values: readonly unknown[]; scope: CacheScope | undefined; run: (db: Queryable) => Promise<Answer> } | { ok: false; answer: Answer };

interface WebMethod {
  bind(params: AsmxParams): Bound;
}

const REQUIRED_FIELDS = 'One of the required fields is not passed';
const CRLF = '\r\n';

const wrappedJson = (value: NValue): Answer => ({ kind: 'wrapped', text: serializeNewtonsoft(value) });
const fault = (body: string): Answer => ({ kind: 'fault', body });

// ---------------------------------------------------------------- web methods

/**
 * Binds the declared parameters first, as ASMX did before calling the method body. `scope` tells
 * whose data the answer is, from the values; without it, any catalog change drops the answer.
 */
function webMethod<const D extends readonly AsmxParamDecl[]>(
  decls: D,
  run: (db: Queryable, values: AsmxValues<D>) => Promise<Answer>,
  scope?: (values: AsmxValues<D>) => CacheScope | undefined,
): WebMethod {
  return {
    bind(params) {
      const read = readAsmxParameters(params, decls);
      if (!read.ok) return { ok: false, answer: fault(read.error.body) };
      return { ok: true, values: read.values, scope: scope?.(read.values), run: (db) => run(db, read.values) };
    },
  };
}

/** The owner named by a userId (the apps and channels of that account), when it reads as one. */
function ownerScope(userId: number | string): CacheScope | undefined {
  if (typeof userId === 'number') return { ownerId: userId };
  const parsed = parseInt32(userId);
  return parsed.ok ? { ownerId: parsed.value } : undefined;
}

/** Parameters declared as strings and parsed inside the method, after its own empty checks. */
function int32Inside(name: string, text: string): { ok: true; value: number } | { ok: false; answer: Answer } {
  const parsed = parseInt32(text);
  return parsed.ok ? parsed : { ok: false, answer: fault(invalidValueBody(name, text, 'int32', parsed.reason)) };
}

// The channel-wide (web) row is what the original returned; a channel with only per-platform
// rows, or none, or a missing or deleted channel answers the literal null. The method wrote
// the JSON to the response itself, hence no wrapper and no Content-Type header.
// (This and the Roku channel settings name a channel, not its owner: dropped on any change.)
const getVastSettings = webMethod([{ name: 'channelId', type: 'int32' }], async (db, [channelId]) => {
  const web = (await channelVastSettings(db, channelId)).find((row) => row.platform === 'web');
  return { kind: 'bare', text: serializeNewtonsoft(web ? vastSettingsObject(web) : null) };
});

const getChannelTubeRokuSettings = webMethod([{ name: 'channelId', type: 'int32' }], async (db, [channelId]) => {
  const row = await channelRokuSettings(db, channelId);
  return wrappedJson(row ? rokuChannelSettingsValue(row) : null);
});

const getUserRokuApp = webMethod(
  [{ name: 'userId', type: 'int32' }],
  async (db, [userId]) => {
    const app = await findAppByOwnerAndPlatform(db, userId, 'roku');
    if (!app) return wrappedJson(null);
    const images = await appImages(db, app.id, ['avatarHd', 'avatarSd']);
    return wrappedJson(rokuAppValue(app, images, tvTheme(app)));
  },
  ([userId]) => ownerScope(userId),
);

const MOBILE_PARAMS = [
  { name: 'userId', type: 'string' },
  { name: 'channelId', type: 'string' },
] as const;

const getChannelMobileApp = webMethod(
  MOBILE_PARAMS,
  async (db, [userIdText, channelIdText]) => {
    if (userIdText === '' || channelIdText === '') return { kind: 'wrapped', text: REQUIRED_FIELDS };
    const userId = int32Inside('userId', userIdText);
    if (!userId.ok) return userId.answer;
    const channelId = int32Inside('channelId', channelIdText);
    if (!channelId.ok) return channelId.answer;
    const [app, channel] = await Promise.all([findAppByOwnerAndPlatform(db, userId.value, 'mobile'), findOwnedChannel(db, channelId.value, userId.value)]);
    if (!app || !channel) return wrappedJson(null);
    const [mobile, images, assignment] = await Promise.all([
      appMobileSettings(db, app.id),
      appImages(db, app.id, ['headerLogo', 'logoIos', 'logoAndroid']),
      appChannelAssignment(db, app.id, channel.id),
    ]);
    return wrappedJson(mobileAppValue({ app, channelId: channel.id, mobile, images, assignment }));
  },
  ([userId]) => ownerScope(userId),
);

/** Legacy platform names (matched exactly, as a C# switch does) to app platforms. */
const TV_PLATFORMS: ReadonlyMap<string, Extract<AppPlatform, 'firetv' | 'androidtv' | 'appletv'>> = new Map([
  ['fire-tv', 'firetv'],
  ['android-tv', 'androidtv'],
  ['apple-tv', 'appletv'],
]);
const TV_PARAMS = [
  { name: 'userId', type: 'string' },
  { name: 'platform', type: 'string' },
  { name: 'skipImages', type: 'boolean' },
] as const;
const TV_IMAGES = ['logo', 'icon', 'backgroundImage', 'image1', 'image2'];

const getUserTvApp = webMethod(
  TV_PARAMS,
  async (db, [userIdText, platform, skipImages]) => {
    if (userIdText === '' || platform === '') return wrappedJson({ error: REQUIRED_FIELDS });
    const userId = int32Inside('userId', userIdText);
    if (!userId.ok) return userId.answer;
    const appPlatform = TV_PLATFORMS.get(platform);
    const app = appPlatform && (await findAppByOwnerAndPlatform(db, userId.value, appPlatform));
    if (!appPlatform || !app) return wrappedJson({ error: `Application does not exist on ${platform} platform` });
    const [images, assignments] = await Promise.all([skipImages ? null : appImages(db, app.id, TV_IMAGES), appChannelAssignments(db, app.id)]);
    const vast = await vastSettingsOfChannels(
      db,
      assignments.filter((a) => a.useVastSettings).map((a) => a.channelId),
    );
    const settings = assignments.map((assignment) => ({
      assignment,
      vast: vastSettingFor(vast.get(assignment.channelId) ?? [], appPlatform) ?? null,
    }));
    return wrappedJson(tvAppValue({ app, platform, images, theme: tvTheme(app), settings }));
  },
  ([userId]) => ownerScope(userId),
);

/** Keyed by the lowercased .asmx file name (IIS paths are case-insensitive); method names are not. */
const SERVICES: ReadonlyMap<string, ReadonlyMap<string, WebMethod>> = new Map([
  ['vastservice.asmx', new Map([['GetVastSettings', getVastSettings]])],
  [
    'rokuappgeneratorservice.asmx',
    new Map([
      ['GetChannelTubeRokuSettings', getChannelTubeRokuSettings],
      ['GetUserRokuApp', getUserRokuApp],
    ]),
  ],
  ['mobileappgeneratorservice.asmx', new Map([['GetChannelMobileApp', getChannelMobileApp]])],
  ['tvappgeneratorservice.asmx', new Map([['GetUserTVApp', getUserTvApp]])],
]);

// ---------------------------------------------------------------- ASMX pages and request reading

// Written by HttpServerProtocol.WriteException (message HTML-encoded, stack trace left out).
const invalidMethodNamePage = (name: string) => `System.InvalidOperationException: ${htmlEncode(name)} Web Service method name is not valid.${CRLF}`;
const invalidRequestFormatPage = (contentType: string) => `System.InvalidOperationException: Request format is invalid: ${htmlEncode(contentType)}.${CRLF}`;
// WebServiceHandlerFactory throws this before any protocol runs; ASP.NET showed it on its HTML
// error page, reduced here to the same plain-text form as the other pages.
const unrecognizedPage = (pathInfo: string) => `System.InvalidOperationException: Request format is unrecognized for URL unexpectedly ending in '${pathInfo}'.${CRLF}`;
// ASMX's own text when exception details are suppressed: never a trace of this service.
const SERVER_ERROR_PAGE = `Server was unable to process request.${CRLF}`;

type Body = { kind: 'form' | 'json'; params: ParamRecord } | { kind: 'unreadable' };
const UNREADABLE: Body = { kind: 'unreadable' };

/** HttpValueCollection.FillFromString: a part without '=' has a null name, so it names no parameter. */
function parseUrlEncoded(text: string): ParamRecord {
  const params: Record<string, string[]> = Object.create(null);
  const named = text.split('&').filter((part) => part.includes('='));
  for (const [name, value] of new URLSearchParams(named.join('&'))) (params[name] ??= []).push(value);
  return params;
}

/** The ASP.NET AJAX form: one JSON object whose members are the parameters. */
function parseJsonBody(text: string): Body {
  if (text.trim() === '') return { kind: 'json', params: {} };
  // Only a flat object binds; a deeper one is refused before JSON.parse builds every level of it.
  if (nestsDeeperThan(text, 1)) return UNREADABLE;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return UNREADABLE;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return UNREADABLE;
  const params: Record<string, string> = Object.create(null);
  for (const [name, member] of Object.entries(value)) {
    const scalar = jsonScalarText(member);
    if (scalar === undefined) return UNREADABLE;
    params[name] = scalar;
  }
  return { kind: 'json', params };
}

/** Scalars are bound through their text; null reads as empty, as a null string is to the method. */
function jsonScalarText(member: unknown): string | undefined {
  if (member === null) return '';
  if (typeof member === 'string') return member;
  if (typeof member === 'number') return String(member);
  if (typeof member === 'boolean') return member ? 'True' : 'False';
  return undefined;
}

/** HttpGet reads only the query string, HttpPost only the form, the AJAX handler only the JSON. */
function readParams(request: FastifyRequest): { params: AsmxParams; ajax: boolean } | { answer: Answer } {
  if (request.method === 'GET') {
    const url = request.raw.url ?? '';
    const query = url.includes('?') ? url.slice(url.indexOf('?') + 1) : '';
    return { params: new AsmxParams(parseUrlEncoded(query)), ajax: false };
  }
  const body = request.body as Body | undefined;
  if (body !== undefined && body.kind !== 'unreadable') return { params: new AsmxParams(body.params), ajax: body.kind === 'json' };
  return { answer: fault(invalidRequestFormatPage(request.headers['content-type'] ?? '')) };
}

// ---------------------------------------------------------------- plugin

const bareReplies = new WeakSet<FastifyReply>();

function send(reply: FastifyReply, answer: Answer, ajax = false): FastifyReply {
  if (answer.kind === 'fault') return reply.code(ASMX_ERROR_STATUS).type(ASMX_ERROR_CONTENT_TYPE).send(answer.body);
  if (answer.kind === 'bare') {
    bareReplies.add(reply);
    return reply.code(200).send(answer.text);
  }
  if (ajax) return reply.code(200).type(ASMX_AJAX_CONTENT_TYPE).send(asmxAjaxBody(answer.text));
  return reply.code(200).type(ASMX_XML_CONTENT_TYPE).send(asmxXmlBody(answer.text));
}

/** Splits `Service.asmx/Method` into the file and ASP.NET's PathInfo (`/Method`, or empty). */
function splitPath(rest: string): { file: string; pathInfo: string } {
  const slash = rest.indexOf('/');
  return slash < 0 ? { file: rest, pathInfo: '' } : { file: rest.slice(0, slash), pathInfo: rest.slice(slash) };
}

function registerBodyParsers(app: Parameters<FastifyPluginAsync>[0]): void {
  // Scoped to this plugin: the other groups keep Fastify's parsers and JSON errors.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    done(null, { kind: 'form', params: parseUrlEncoded(body as string) } satisfies Body);
  });
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    done(null, parseJsonBody(body as string));
  });
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, _body, done) => done(null, UNREADABLE));
}

export const legacyRoutes: FastifyPluginAsync<GroupOptions> = async (app, { database, config, cache, answers }) => {
  registerBodyParsers(app);
  await setUpGroup(app, { errors: LEGACY_ERRORS, bodyLimit: config.BODY_LIMIT_LEGACY, rateLimit: config });

  app.addHook('onSend', async (_request, reply, payload) => {
    if (bareReplies.has(reply)) reply.removeHeader('content-type');
    return payload;
  });

  // GETs are answered from the read model: a web method's answer depends only on the query string.
  const kept = answerHooks(answers, config.ANSWER_MAX_AGE_SECONDS, { vary: [] }).hooks;
  app.all('/*', kept, async (request, reply) => {
    const { file, pathInfo } = splitPath((request.params as { '*': string })['*']);
    const service = SERVICES.get(file.toLowerCase());
    // No service description or WSDL pages are offered: only the web methods.
    if (!service || pathInfo === '') return reply.callNotFound();
    if ((request.method !== 'GET' && request.method !== 'POST') || pathInfo.length < 2) {
      return send(reply, fault(unrecognizedPage(pathInfo)));
    }
    const method = service.get(pathInfo.slice(1));
    if (!method) return send(reply, fault(invalidMethodNamePage(pathInfo.slice(1))));
    const input = readParams(request);
    if ('answer' in input) return send(reply, input.answer);
    const bound = method.bind(input.params);
    if (!bound.ok) return send(reply, bound.answer);
    // Every web method reads catalog data only, so its answer is cached per declared argument as
    // bound (names matched case-insensitively, values parsed): parameters it ignores, a name's
    // case, repeats or ' true' for 'True' make no new entry for a caller to fill the cache with.
    const key = `legacy:${file.toLowerCase()}${pathInfo}:${JSON.stringify(bound.values)}`;
    const answer = await cache.get(key, () => bound.run(database.db), bound.scope);
    // Wrapped text only: a bare answer (GetVastSettings) goes out with no Content-Type at all, which a kept Buffer would get.
    if (answer.kind === 'wrapped' && bound.scope) shareAnswer(request, bound.scope, Infinity);
    return send(reply, answer, input.ajax);
  });
};

const LEGACY_ERRORS: GroupErrors<FastifyError> = {
  name: 'the Legacy Web Services',
  envelope: LEGACY_ENVELOPE,
  faultMessage: 'Server Error',
  answer(error, request, reply) {
    if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      return send(reply, fault(invalidRequestFormatPage(request.headers['content-type'] ?? '')));
    }
    // ASMX had neither limits nor an unreachable database: the group's plain-text pages (errors.ts).
    if (error.statusCode === 429) return sendEnveloped(reply.code(429), LEGACY_ENVELOPE.failure(429));
    if (isDatabaseUnavailable(error)) return undefined;
    // Anything else is ASMX's own fault page. Client faults (body too large, aborted upload)
    // are not failures of this service.
    const level = (error.statusCode ?? 500) < 500 ? 'warn' : 'error';
    request.log[level]({ err: error }, 'legacy web service request failed');
    return send(reply, fault(SERVER_ERROR_PAGE));
  },
};
