// The Studio group's failures, in the REST envelope with `details` where a body broke rules:
// { success:false, error:{ code, message, details? } }. One table maps the editing domain's
// refusal codes to statuses.
import { formatPath } from '../catalog/issues.ts';
import type { Envelope } from '../http/envelope.ts';
import type { RefusedInput } from '../http/refused-input.ts';

import { invalid, type Detail, type EditRefusalCode } from '../editing/refusals.ts';
import { SUCCESS_ENVELOPE, errorBody } from '../http/success-envelope.ts';

export const STATUS_OF_REFUSAL: Record<EditRefusalCode, number> = {
  not_found: 404,
  invalid_request: 422,
  schedule_conflict: 409,
  id_taken: 409,
  in_use: 409,
  precondition_failed: 412,
  idempotency_key_reused: 422,
  write_in_progress: 409,
  invite_unusable: 410,
  signup_closed: 403,
  too_many_attempts: 429,
};

export class StudioError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly details?: readonly Detail[],
    /** Details left out of `details` (capped, see MAX_DETAILS); the message counts them too. */
    readonly detailsOmitted = 0,
  ) {
    super(message);
    this.name = 'StudioError';
  }
}

export const studioUnauthorized = () => new StudioError(401, 'unauthorized', 'A valid Bearer token from a sign-in is required (app tokens cannot manage a network).');
export const studioForbidden = () => new StudioError(403, 'forbidden', 'The Studio is for accounts that own channels or apps.');

export function studioFailure(code: string, message: string, details?: readonly Detail[], detailsOmitted = 0) {
  const failure = errorBody(code, message);
  if (!details || details.length === 0) return failure;
  return { ...failure, error: { ...failure.error, details, ...(detailsOmitted > 0 ? { detailsOmitted } : {}) } };
}

/**
 * A request refused at the edge (src/http): a body nested too deep is not acceptable JSON, a 400
 * as malformed JSON is; a NUL is a value breaking a rule, a 422 naming it as validation does.
 */
export function refusedInput(error: RefusedInput): StudioError {
  if (error.reason === 'too_deep') return new StudioError(400, 'invalid_request', `Invalid request: the body ${error.problem}.`);
  const where = error.where === 'body' ? '' : `${error.where}.`;
  const refusal = invalid([`${where}${formatPath(error.path)}: ${error.problem}`]);
  return new StudioError(422, 'invalid_request', refusal.message, refusal.details);
}

/** The REST envelope's own answers (unknown routes, faults, 503), for the Studio's prefix. */
export const STUDIO_ENVELOPE: Envelope = SUCCESS_ENVELOPE;
