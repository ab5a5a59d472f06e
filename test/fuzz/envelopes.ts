// The shape every answer of an interface group must have, whatever was asked (spec "What the
// service does" and "Errors"; docs/ for the statuses). Each check returns the problems found
// (empty: the answer is in its group's envelope), so a failing run can name all of them.
import type { LightMyRequestResponse } from 'fastify';

export type Group = 'rest' | 'studio' | 'custom' | 'activity' | 'legacy' | 'other';

const ACTIVITY_PREFIXES = ['/api/v1/services/custom/activity', '/api/v1/activity'];

const under = (path: string, prefix: string) => path === prefix || path.startsWith(`${prefix}/`);

/** The group whose plugin answers this path (the path as the server saw it, without the query). */
export function groupOf(path: string): Group {
  if (ACTIVITY_PREFIXES.some((prefix) => under(path, prefix))) return 'activity';
  if (under(path, '/api/v1/rest')) return 'rest';
  if (under(path, '/api/v1/studio')) return 'studio';
  // Store notifications answer in the REST envelope.
  if (under(path, '/api/v1/stores')) return 'rest';
  if (under(path, '/api/v1/services')) return 'custom';
  if (under(path, '/WebServices')) return 'legacy';
  return 'other';
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function parseJson(body: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(body) as unknown };
  } catch {
    return { ok: false };
  }
}

/** A JSON answer: application/json content type and a body that parses. */
function jsonBody(response: LightMyRequestResponse, problems: string[]): unknown {
  const type = String(response.headers['content-type'] ?? '');
  if (!type.startsWith('application/json')) problems.push(`content-type ${JSON.stringify(type)} is not application/json`);
  const parsed = parseJson(response.body);
  if (!parsed.ok) {
    problems.push('body is not JSON');
    return undefined;
  }
  return parsed.value;
}

/** Signs of the implementation in an answer: JS stack frames, source paths, database errors. */
const LEAKS = [
  /\n\s+at (?:async )?[\w$.<>]+ \(/,
  /node_modules/,
  /\.[tj]s:\d+:\d+/,
  /Failed query/,
  /SQLSTATE/,
  /invalid byte sequence/,
  /invalid input syntax/,
  /violates [a-z ]*constraint/,
  /TypeError|RangeError|ReferenceError/,
  /PGlite|drizzle/i,
];

/** Nothing of the implementation leaks; what the request itself sent may be echoed back. */
function noLeaks(body: string, sent: string, problems: string[]): void {
  for (const leak of LEAKS) {
    const match = leak.exec(body);
    if (match && !sent.includes(match[0].trim())) problems.push(`body leaks implementation details: ${JSON.stringify(match[0])}`);
  }
}

function restProblems(response: LightMyRequestResponse, method: string): string[] {
  const problems: string[] = [];
  const type = String(response.headers['content-type'] ?? '');
  // Analytics answers CSV to clients that ask for it, the guide export XMLTV; errors stay JSON.
  if (response.statusCode === 200 && (type.startsWith('text/csv') || type.startsWith('application/xml'))) return problems;
  if (method === 'HEAD') return problems;
  const body = jsonBody(response, problems);
  if (body === undefined) return problems;
  if (!isObject(body) || typeof body.success !== 'boolean') return [...problems, 'body has no boolean success'];
  if (body.success) {
    if (!('data' in body)) problems.push('success without data');
    if (response.statusCode >= 400) problems.push(`success:true with status ${response.statusCode}`);
  } else {
    const error = body.error;
    if (!isObject(error) || typeof error.code !== 'string' || typeof error.message !== 'string') problems.push('failure without error { code, message }');
    if (response.statusCode < 400) problems.push(`success:false with status ${response.statusCode}`);
  }
  return problems;
}

function customProblems(response: LightMyRequestResponse, method: string): string[] {
  const problems: string[] = [];
  if (method === 'HEAD') return problems;
  const body = jsonBody(response, problems);
  if (body === undefined) return problems;
  if (!isObject(body) || !('data' in body)) return [...problems, 'body has no top-level data'];
  if ('links' in body || 'meta' in body) {
    // The bare Laravel pagination shape.
    if (!Array.isArray(body.data) || !isObject(body.links) || !isObject(body.meta)) problems.push('pagination shape is not { data: [], links: {}, meta: {} }');
  }
  if (response.statusCode >= 400) {
    const data = body.data;
    if (!isObject(data) || typeof data.message !== 'string') problems.push('failure without data.message');
    else if (response.statusCode === 422 && !isObject(data.errors)) problems.push('422 without data.errors');
  }
  return problems;
}

function activityProblems(response: LightMyRequestResponse, method: string): string[] {
  const problems: string[] = [];
  if (method === 'HEAD') return problems;
  const body = jsonBody(response, problems);
  if (body === undefined) return problems;
  if (!isObject(body) || typeof body.message !== 'string') return [...problems, 'body has no message'];
  const extra = Object.keys(body).filter((key) => key !== 'message' && !(response.statusCode >= 400 && (key === 'errors' || key === 'error')));
  if (extra.length > 0) problems.push(`unexpected keys ${extra.join(', ')}`);
  if (response.statusCode === 422 && !isObject(body.errors)) problems.push('422 without errors');
  return problems;
}

const XML_HEAD = '<?xml version="1.0" encoding="utf-8"?>\r\n<string xmlns="http://tempuri.org/">';

/** The ASMX pages: the XML string wrapper, {"d":...}, a bare JSON body, or a plain-text error page. */
function legacyProblems(response: LightMyRequestResponse, method: string, sent: string): string[] {
  const problems: string[] = [];
  const type = response.headers['content-type'];
  const status = response.statusCode;
  if (status === 404 && String(type).startsWith('application/json')) {
    // Unknown services and the service description pages go to the root 404 handler (docs/).
    if (method === 'HEAD') return problems;
    const body = parseJson(response.body);
    if (!body.ok || !isObject(body.value) || body.value.statusCode !== 404) problems.push("404 is not the 404 handler's");
    return problems;
  }
  if (status >= 400) {
    if (type !== 'text/plain; charset=utf-8') problems.push(`error page content-type ${JSON.stringify(type)} is not text/plain; charset=utf-8`);
    if (method !== 'HEAD' && !response.body.endsWith('\r\n')) problems.push('error page does not end in CRLF');
    if (status === 500 && method !== 'HEAD' && !/^(System\.[A-Za-z.]+Exception: |Server was unable to process request\.)/.test(response.body)) {
      problems.push('500 is not an ASMX error page');
    }
    noLeaks(response.body, sent, problems);
    return problems;
  }
  if (status !== 200) return [`status ${status} (expected 200 or an error page)`];
  if (method === 'HEAD') return problems;
  if (type === undefined) {
    // GetVastSettings writes its JSON itself: no wrapper, no content type.
    if (!parseJson(response.body).ok) problems.push('bare answer is not JSON');
  } else if (type === 'text/xml; charset=utf-8') {
    if (!response.body.startsWith(XML_HEAD) || !response.body.endsWith('</string>')) problems.push('XML answer is not the ASMX string wrapper');
  } else if (type === 'application/json; charset=utf-8') {
    const body = parseJson(response.body);
    if (!body.ok || !isObject(body.value) || Object.keys(body.value).join() !== 'd') problems.push('AJAX answer is not {"d":...}');
  } else {
    problems.push(`200 with content-type ${JSON.stringify(type)}`);
  }
  return problems;
}

/**
 * Problems with one answer (`sent`: the request's text, which answers may echo): its status (never 5xx, except the legacy ASMX 500 page, which ASMX
 * answers BY DESIGN for a missing or unconvertible parameter) and its group's envelope.
 */
export function answerProblems(group: Group, method: string, sent: string, response: LightMyRequestResponse, ifNoneMatch?: string): string[] {
  const status = response.statusCode;
  // A conditional read whose tag matches (`*` matches any answer, RFC 9110 13.1.2): 304 with no body, in every group.
  if (status === 304)
    return ifNoneMatch !== undefined && (method === 'GET' || method === 'HEAD') && response.body === '' && response.headers.etag
      ? []
      : [`304 to ${method} without a matching If-None-Match, or with a body or no ETag`];
  const problems: string[] = [];
  if (status >= 500 && !(group === 'legacy' && status === 500)) problems.push(`status ${status}`);
  // Outside the groups, successful answers may be anything (the docs pages ship JavaScript).
  if (group !== 'legacy' && (group !== 'other' || status >= 400)) noLeaks(response.body, sent, problems);
  switch (group) {
    case 'rest':
      return [...problems, ...restProblems(response, method)];
    case 'studio':
      // REST's envelope; the catalog export is the one answer that is a document of its own.
      if (response.statusCode === 200 && String(response.headers['content-disposition'] ?? '').startsWith('attachment')) return problems;
      // A delete answers 204 with no body at all (docs/studio.md: Studio API).
      if (response.statusCode === 204) return method === 'DELETE' && response.body === '' ? problems : [...problems, `204 to ${method} or with a body`];
      return [...problems, ...restProblems(response, method)];
    case 'custom':
      return [...problems, ...customProblems(response, method)];
    case 'activity':
      return [...problems, ...activityProblems(response, method)];
    case 'legacy':
      return [...problems, ...legacyProblems(response, method, sent)];
    case 'other':
      return problems;
  }
}
