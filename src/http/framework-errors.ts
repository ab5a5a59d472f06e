// Requests Fastify refuses before any route or plugin sees them — a path whose percent-encoding
// is not UTF-8 (400), a path parameter longer than the router's limit (414) — answered in the
// envelope of the interface group the path belongs to, like every other answer of that group.
// Paths outside the groups keep Fastify's own JSON error.
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ACTIVITY_PATHS } from '../activity/routes.ts';
import { failureBody } from '../custom/errors.ts';
import { ASMX_ERROR_CONTENT_TYPE } from '../legacy/asmx.ts';
import { restFailure } from '../rest/errors.ts';

const under = (path: string, prefix: string) => path === prefix || path.startsWith(`${prefix}/`) || path.startsWith(`${prefix}?`);

const MESSAGES: Record<string, string> = {
  FST_ERR_BAD_URL: 'The URL is not valid: it has a percent-encoding that is not UTF-8.',
  FST_ERR_MAX_PARAM_LENGTH: 'The URL has a path segment that is too long.',
};

export function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const path = request.url;
  const status = error.statusCode ?? 500;
  const message = MESSAGES[error.code] ?? (status < 500 ? 'Bad request.' : 'Server error.');
  reply.code(status);
  if (ACTIVITY_PATHS.some((prefix) => under(path, prefix))) return reply.send({ message });
  if (under(path, '/api/v1/rest')) return reply.send(restFailure(status === 500 ? 'internal_error' : 'invalid_request', message));
  if (under(path, '/api/v1/services/custom')) return reply.send(failureBody(status, message));
  if (under(path, '/WebServices')) {
    // The legacy group's own refusals are short plain-text pages (see src/legacy/routes.ts).
    return reply.type(ASMX_ERROR_CONTENT_TYPE).send(status === 414 ? 'URI Too Long\r\n' : status < 500 ? 'Bad Request\r\n' : 'Server Error\r\n');
  }
  return reply.send({ error: status < 500 ? 'Bad Request' : 'Internal Server Error', code: error.code, message: error.message, statusCode: status });
}
