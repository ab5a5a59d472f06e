// The Custom API's failure bodies (spec "Errors" -> Custom API). Statuses where the spec is
// silent are the lead's choices, listed in docs/custom.md: 401 failed login and missing Bearer, 403
// wrong channel password, 404 unknown routes, 500 faults; all in the same { data } envelope.
import { z } from 'zod';
import type { Envelope } from '../http/envelope.ts';
import { UNAVAILABLE_MESSAGE } from '../http/unavailable.ts';

export type FieldErrors = Record<string, string[]>;

export class CustomError extends Error {
  constructor(
    readonly statusCode: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {},
  ) {
    super(`Custom API ${statusCode}`);
    this.name = 'CustomError';
  }
}

export const INVALID_DATA = 'The given data was invalid.';

export function invalidBody(errors: FieldErrors) {
  return { data: { message: INVALID_DATA, errors } };
}

/** A failure's body, for the docs: { data: { message, status_code } }, or on a 422 { data: { message, errors } }. */
export const customFailureSchema = z.object({
  data: z.object({ message: z.string(), status_code: z.int().optional(), errors: z.record(z.string(), z.array(z.string())).optional() }),
});

export function failureBody(statusCode: number, message: string) {
  return { data: { message, status_code: statusCode } };
}

export const failure = (statusCode: number, message: string, headers?: Record<string, string>) => new CustomError(statusCode, failureBody(statusCode, message), headers);
export const invalid = (errors: FieldErrors) => new CustomError(422, invalidBody(errors));
export const invalidField = (field: string, message: string) => invalid({ [field]: [message] });

export const userRequired = () => failure(404, 'User is required');
export const channelNotFound = () => failure(404, 'Channel not found');
export const unauthenticated = () => failure(401, 'Unauthenticated.');
export const subscriptionRequired = () => failure(403, 'subscription_required');

export function customData<T>(data: T) {
  return { data };
}

/** Every answer that is not a route's own, including unknown routes, in the { data } envelope. */
export const CUSTOM_ENVELOPE = {
  failure: (statusCode, message) => ({ json: failureBody(statusCode, message) }),
  notFound: () => ({ json: failureBody(404, 'Not found.') }),
  unavailable: { json: failureBody(503, UNAVAILABLE_MESSAGE) },
} satisfies Envelope;
