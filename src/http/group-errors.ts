// One root error handler for every interface group: a group names its envelope and its fault
// message, and answers the errors it knows (its refusal table) first; what it leaves is answered
// here the same way in every group: an unreachable database is a 503 with Retry-After, a client
// fault (4xx) is that status in the envelope, anything else is a logged 500. As Fastify chains
// handlers, a group's own `answer` comes before the root's.
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { isDatabaseUnavailable } from '../db/errors.ts';
import { sendEnveloped, type Envelope } from './envelope.ts';
import { sendUnavailable } from './unavailable.ts';

export interface GroupErrors<E = FastifyError> {
  /** Names the group in the log line of a fault ("unhandled error in the REST API"). */
  name: string;
  envelope: Envelope;
  /** The message of a 500, in the group's words. */
  faultMessage: string;
  /** The group's refusal table: the answer to an error it knows, or undefined for the root's. */
  answer?(error: E, request: FastifyRequest, reply: FastifyReply): FastifyReply | undefined;
}

export function groupErrorHandler<E>(group: GroupErrors<E>) {
  return (error: E, request: FastifyRequest, reply: FastifyReply): FastifyReply =>
    group.answer?.(error, request, reply) ?? rootAnswer(group, error as FastifyError, request, reply);
}

function rootAnswer(group: GroupErrors<never>, error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  if (isDatabaseUnavailable(error)) {
    request.log.warn({ err: error }, 'database unavailable');
    return sendUnavailable(reply, group.envelope);
  }
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) return sendEnveloped(reply.code(status), group.envelope.failure(status, error.message));
  request.log.error({ err: error }, `unhandled error in ${group.name}`);
  return sendEnveloped(reply.code(500), group.envelope.failure(500, group.faultMessage));
}
