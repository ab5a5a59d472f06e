// The REST group's failure envelope: { success:false, error:{ code, message } }.
// Statuses are our choice where the spec leaves them open (documented in README).
import type { Envelope } from '../http/envelope.ts';
import { UNAVAILABLE_MESSAGE } from '../http/unavailable.ts';

export class RestError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'RestError';
  }
}

export const unauthorized = () => new RestError(401, 'unauthorized', 'A valid Bearer token is required.');
export const channelNotFound = () => new RestError(404, 'channel_not_found', 'Channel not found.');
export const invalidRequest = (message: string) => new RestError(400, 'invalid_request', message);
export const epgKeyNotFound = () => new RestError(404, 'epg_key_not_found', 'No guide has this key (unknown or revoked).');

export function restFailure(code: string, message: string) {
  return { success: false as const, error: { code, message } };
}

export function restSuccess<T>(data: T) {
  return { success: true as const, data };
}

/** The error code of a failure known only by its status. */
function codeOf(status: number): string {
  if (status >= 500) return 'internal_error';
  if (status === 413) return 'payload_too_large';
  if (status === 415) return 'unsupported_media_type';
  if (status === 429) return 'too_many_requests';
  return 'invalid_request';
}

/** Every answer that is not a route's own, including unknown routes, in the { success:false } envelope. */
export const REST_ENVELOPE = {
  failure: (status, message) => ({ json: restFailure(codeOf(status), message) }),
  notFound: (request) => ({ json: restFailure('not_found', `No route ${request.method} ${request.url.split('?')[0]}.`) }),
  unavailable: { json: restFailure('service_unavailable', UNAVAILABLE_MESSAGE) },
} satisfies Envelope;
