// The Studio group's failures, in the REST envelope with `details` where a body broke rules:
// { success:false, error:{ code, message, details? } }. One table maps the editing domain's
// refusal codes to statuses.
import type { Envelope } from '../http/envelope.ts';
import { REST_ENVELOPE, restFailure } from '../rest/errors.ts';
import type { Detail, EditRefusalCode } from '../editing/refusals.ts';

export const STATUS_OF_REFUSAL: Record<EditRefusalCode, number> = {
  not_found: 404,
  invalid_request: 422,
  schedule_conflict: 409,
  id_taken: 409,
  in_use: 409,
  precondition_failed: 412,
  idempotency_key_reused: 422,
};

export class StudioError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly details?: readonly Detail[],
  ) {
    super(message);
    this.name = 'StudioError';
  }
}

export const studioUnauthorized = () => new StudioError(401, 'unauthorized', 'A valid Bearer token from a sign-in is required (app tokens cannot manage a network).');
export const studioForbidden = () => new StudioError(403, 'forbidden', 'The Studio is for accounts that own channels or apps.');

export function studioFailure(code: string, message: string, details?: readonly Detail[]) {
  const failure = restFailure(code, message);
  return details && details.length > 0 ? { ...failure, error: { ...failure.error, details } } : failure;
}

/** The REST envelope's own answers (unknown routes, faults, 503), for the Studio's prefix. */
export const STUDIO_ENVELOPE: Envelope = REST_ENVELOPE;
