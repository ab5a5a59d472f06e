// The 503 of load shedding, in the envelope of the interface group the URL belongs to.
import type { FastifyReply, FastifyRequest } from 'fastify';

const MESSAGE = 'The service is temporarily unavailable; try again shortly.';

export function unavailableBody(request: FastifyRequest, reply: FastifyReply): unknown {
  const path = request.url;
  if (path.startsWith('/api/v1/rest')) return { success: false, error: { code: 'service_unavailable', message: MESSAGE } };
  if (path.startsWith('/api/v1/activity') || path.startsWith('/api/v1/services/custom/activity')) return { message: MESSAGE };
  if (path.startsWith('/api/v1/services/')) return { data: { message: MESSAGE, status_code: 503 } };
  if (path.startsWith('/WebServices')) {
    reply.type('text/plain; charset=utf-8');
    return 'Server Too Busy\r\n';
  }
  return { status: 'unavailable' };
}
