// The 503 of an unreachable database or of load shedding, in the envelope of the interface
// group the request belongs to. Retry-After: every shipped client retries later.
import type { FastifyReply } from 'fastify';
import { sendEnveloped, type Envelope, type Enveloped } from './envelope.ts';

/** The message of every group's 503. */
export const UNAVAILABLE_MESSAGE = 'The service is temporarily unavailable; try again shortly.';

/** Outside the groups (health, assets and unknown paths): the health check's shape. */
const OPERATIONAL: Enveloped = { json: { status: 'unavailable' } };

/** Sends the 503; no envelope: the request belongs to no group. */
export function sendUnavailable(reply: FastifyReply, envelope: Envelope | undefined): FastifyReply {
  reply.code(503).header('retry-after', '5');
  return sendEnveloped(reply, envelope?.unavailable ?? OPERATIONAL);
}
