// The { success, data | error } envelope that REST, the Studio and store notifications answer in
// (spec: REST API). It lives here, not in one group, so no group borrows another's.
import { z } from 'zod';
import type { Envelope } from './envelope.ts';
import { UNAVAILABLE_MESSAGE } from './unavailable.ts';

export function okBody<T>(data: T) {
  return { success: true as const, data };
}

export function errorBody(code: string, message: string) {
  return { success: false as const, error: { code, message } };
}

/** { success: false, error }: a failure in this envelope, for the docs (details: the fields a body broke). */
export const failureSchema = z.object({
  success: z.literal(false),
  error: z.object({
    code: z.string(),
    message: z.string(),
    details: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
    detailsOmitted: z.int().optional(),
  }),
});

/** { success: true, data }, for a route's response schema. */
export const okSchema = <T extends z.ZodType>(data: T) => z.object({ success: z.literal(true), data });

/** The error code of a failure known only by its status. */
function codeOf(status: number): string {
  if (status >= 500) return 'internal_error';
  if (status === 413) return 'payload_too_large';
  if (status === 415) return 'unsupported_media_type';
  if (status === 429) return 'too_many_requests';
  return 'invalid_request';
}

/** Every answer that is not a route's own, including unknown routes, in the { success:false } envelope. */
export const SUCCESS_ENVELOPE = {
  failure: (status, message) => ({ json: errorBody(codeOf(status), message) }),
  notFound: (request) => ({ json: errorBody('not_found', `No route ${request.method} ${request.url.split('?')[0]}.`) }),
  unavailable: { json: errorBody('service_unavailable', UNAVAILABLE_MESSAGE) },
} satisfies Envelope;
