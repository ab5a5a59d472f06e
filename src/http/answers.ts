// Viewer read routes served from the read model (src/cache/answer-cache.ts) with HTTP validators.
//
// A route opts in with two route-level hooks (answerHooks): onRequest, after its group's own hooks
// (rate limit, load shedding, the REST Bearer check), looks the request up by its key (the URL, the
// request headers the answer depends on, and for an account's answers the account) and sends the
// kept bytes as they are, or 304 when If-None-Match names them; onSend keeps what the handler
// computed, if the handler said it may be shared (shareAnswer). A handler that says nothing keeps
// nothing; one whose answer depends on the viewer says so (perViewerAnswer) and its answer is
// neither kept nor cacheable downstream.
//
// Headers:
// - public:      ETag, `Cache-Control: public, max-age=N` with N up to the answer's next change and
//                at most ANSWER_MAX_AGE_SECONDS (an edit cannot be foreseen: that bound is how long
//                a CDN may show an answer an edit replaced), `Vary` on the headers of the key;
// - account:     ETag, `Cache-Control: private, no-cache` (the caller's own data: kept by no
//                shared cache, revalidated by the client), `Vary: Authorization`;
// - per viewer:  `Cache-Control: private, no-store`.
// A kept answer of a kilobyte or more is also kept gzipped (made once, for the first client that
// takes it: answer-cache.ts) and sent so to a client whose Accept-Encoding takes gzip, with its
// own ETag (`"...-gz"`); every kept route says `Vary: Accept-Encoding`, so a cache in front keeps the two apart.
import type { FastifyReply, FastifyRequest, onRequestAsyncHookHandler, onSendAsyncHookHandler } from 'fastify';
import { AnswerCache, etagOf, gzipEtag, matchesIfNoneMatch, type KeptAnswer } from '../cache/answer-cache.ts';
import { declaredQuery, keyedUrl } from './answer-key.ts';
import type { CacheScope } from '../cache/changes.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The read-model key of this request and the change counter when it arrived (answerHooks). */
    answerPlan: { key: string; version: number } | null;
    /** What the handler said of its answer (shareAnswer, perViewerAnswer). */
    answerTerms: AnswerTerms | null;
  }
}

type AnswerTerms = { shared: true; scope: CacheScope; until: number; alias?: string } | { shared: false };

export interface AnswerRule {
  /** Request headers (lower case) the answer depends on beside the URL: part of the key, and the Vary header. */
  vary: readonly string[];
  /** Keep the answer for the signed-in account only (REST): the key part naming it. Absent: public. */
  account?: (request: FastifyRequest) => string | undefined;
  /** Whether a request may be served a kept answer: false when a header left out of the key would make the route refuse it (an overlong Device-Id). */
  admits?: (request: FastifyRequest) => boolean;
}

/**
 * The answer is the same for every caller with this request's key, derived from `scope`, unchanged
 * before `until` (ms; Infinity: only an edit changes it); `alias`: also kept under this key of what
 * it depends on, which other URLs may name (see sendShared).
 */
export function shareAnswer(request: FastifyRequest, scope: CacheScope, until: number, alias?: string): void {
  request.answerTerms = alias === undefined ? { shared: true, scope, until } : { shared: true, scope, until, alias };
}

/** The answer depends on who asks (a subscription, an unlock, a purchase): never kept, never shared. */
export function perViewerAnswer(request: FastifyRequest): void {
  request.answerTerms = { shared: false };
}

/** Decorates a Fastify instance (the root app) with what the hooks read. */
export function decorateAnswers(app: { decorateRequest(name: string, value: null): unknown }): void {
  app.decorateRequest('answerPlan', null);
  app.decorateRequest('answerTerms', null);
}

const PER_VIEWER = 'private, no-store';
const ACCOUNT = 'private, no-cache';

function headerText(request: FastifyRequest, name: string): string {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(',') : (value ?? '');
}

/** Whether an Accept-Encoding value takes gzip (by name or `*`, with a q above 0). */
export function acceptsGzip(header: string | string[] | undefined): boolean {
  if (header === undefined) return false;
  for (const part of (Array.isArray(header) ? header.join(',') : header).split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (name !== 'gzip' && name !== '*' && name !== 'x-gzip') continue;
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    if (q === undefined || Number(q) > 0) return true;
  }
  return false;
}

const declaredByRoute = new WeakMap<object, ReadonlySet<string> | undefined>();
/** The query parameters the request's route declares (answer-key.ts), worked out once per route. */
function declaredOf(request: FastifyRequest): ReadonlySet<string> | undefined {
  const schema = request.routeOptions.schema?.querystring as object | undefined;
  if (!schema) return undefined;
  if (!declaredByRoute.has(schema)) declaredByRoute.set(schema, declaredQuery(schema));
  return declaredByRoute.get(schema);
}

/** Route-level hooks serving and keeping the route's answers (see the top). `maxAge`: seconds a public answer may be kept downstream at most. */
export function answerHooks(
  answers: AnswerCache | undefined,
  maxAge: number,
  rule: AnswerRule,
): {
  hooks: { onRequest: onRequestAsyncHookHandler; onSend: onSendAsyncHookHandler<unknown> };
  sendShared: (request: FastifyRequest, reply: FastifyReply, key: string) => FastifyReply | undefined;
} {
  const vary = [...(rule.account ? ['Authorization'] : rule.vary), 'Accept-Encoding'].join(', ');
  const cacheControl = (until: number, now: number) => (rule.account ? ACCOUNT : `public, max-age=${Math.max(0, Math.min(maxAge, Math.floor((until - now) / 1000)))}`);
  const validators = (reply: FastifyReply, etag: string, until: number, now: number) => {
    reply.header('etag', etag).header('cache-control', cacheControl(until, now)).header('vary', vary);
  };
  /** Sends a kept answer (under `key`), gzipped when the client takes it, or 304 when If-None-Match names either representation. */
  const sendKept = (request: FastifyRequest, reply: FastifyReply, key: string, kept: KeptAnswer, now: number) => {
    const ifNoneMatch = request.headers['if-none-match'];
    // The gzipped representation's ETag derives from the body's, so either names these bytes.
    const heldPlain = matchesIfNoneMatch(ifNoneMatch, kept.etag);
    const heldGzip = !heldPlain && matchesIfNoneMatch(ifNoneMatch, gzipEtag(kept.etag));
    if (heldPlain || heldGzip) {
      // The 304 names the representation the client holds (nothing is compressed for it).
      validators(reply, heldGzip ? gzipEtag(kept.etag) : kept.etag, kept.until, now);
      return reply.code(304).send();
    }
    const gzip = acceptsGzip(request.headers['accept-encoding']) ? answers!.compressed(key, kept).gzip : undefined;
    validators(reply, gzip ? gzipEtag(kept.etag) : kept.etag, kept.until, now);
    if (gzip) reply.header('content-encoding', 'gzip');
    return reply.type(kept.contentType).send(gzip ?? kept.body);
  };

  const onRequest: onRequestAsyncHookHandler = async (request, reply) => {
    if (request.method !== 'GET' || !answers?.active || (rule.admits && !rule.admits(request))) return;
    const account = rule.account ? rule.account(request) : '';
    if (account === undefined) return;
    let key = `${account}\n${keyedUrl(request.url, declaredOf(request))}`;
    for (const name of rule.vary) key += `\n${headerText(request, name)}`;
    request.answerPlan = { key, version: answers.version };
    const now = request.now.getTime();
    const kept = answers.get(key, now);
    if (!kept) return;
    return sendKept(request, reply, key, kept, now);
  };

  const onSend: onSendAsyncHookHandler<unknown> = async (request, reply, payload) => {
    const terms = request.answerTerms;
    // No read model (a group registered alone, in tests): answers go out as they are.
    if (!answers || !terms || reply.statusCode !== 200) return payload;
    if (!terms.shared) {
      reply.header('cache-control', PER_VIEWER);
      return payload;
    }
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
    const now = request.now.getTime();
    const plan = request.answerPlan;
    const takesGzip = acceptsGzip(request.headers['accept-encoding']);
    const admitted = plan !== null && answers.admit(plan.key, plan.version, typeof payload === 'string' ? Buffer.byteLength(payload) : payload.byteLength, now, terms.until);
    // Not kept, and nothing to make of it (no gzip, no alias): sent as written, hashed as it is.
    if (!admitted && !takesGzip && terms.alias === undefined) return validated(request, reply, payload, etagOf(payload), undefined, terms.until, now);
    const body = typeof payload === 'string' ? Buffer.from(payload) : payload;
    const contentType = String(reply.getHeader('content-type') ?? 'application/json; charset=utf-8');
    const kept = plan && answers.keep(plan.key, plan.version, { body, contentType, scope: terms.scope, from: now, until: terms.until }, takesGzip, admitted);
    if (kept && terms.alias !== undefined) answers.keep(`shared\n${terms.alias}`, plan.version, kept);
    return validated(request, reply, body, kept ? kept.etag : etagOf(body), takesGzip ? (kept?.gzip ?? undefined) : undefined, terms.until, now);
  };

  /** A shared answer's validators, then no body for a client holding these very bytes (kept elsewhere, or here before an eviction), else the body (gzipped when given). */
  const validated = (request: FastifyRequest, reply: FastifyReply, body: Buffer | string, etag: string, gzip: Buffer | undefined, until: number, now: number) => {
    validators(reply, gzip ? gzipEtag(etag) : etag, until, now);
    const ifNoneMatch = request.headers['if-none-match'];
    if (request.method === 'GET' && (matchesIfNoneMatch(ifNoneMatch, etag) || matchesIfNoneMatch(ifNoneMatch, gzipEtag(etag)))) {
      reply.code(304).removeHeader('content-type');
      return null;
    }
    if (gzip) {
      reply.header('content-encoding', 'gzip');
      return gzip;
    }
    return body;
  };

  /**
   * For a handler whose answer many URLs share (a list in every zone with the same day window):
   * the answer kept under `key` (the handler names what it depends on), sent and kept under this
   * request's key too; undefined when none holds now. The handler calls shareAnswer with the same
   * key as `alias` so that a computed answer is kept under it.
   */
  const sendShared = (request: FastifyRequest, reply: FastifyReply, key: string): FastifyReply | undefined => {
    if (!answers?.active || !request.answerPlan) return undefined;
    const now = request.now.getTime();
    const kept = answers.get(`shared\n${key}`, now);
    if (!kept) return undefined;
    answers.keep(request.answerPlan.key, request.answerPlan.version, kept);
    return sendKept(request, reply, `shared\n${key}`, kept, now);
  };

  return { hooks: { onRequest, onSend }, sendShared };
}
