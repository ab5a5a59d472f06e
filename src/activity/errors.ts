// Activity ingestion's answers other than success: a bare { message }, with `errors` on a 422
// (the Laravel shape the shipped players were built against).
import { z } from 'zod';
import type { Envelope } from '../http/envelope.ts';
import { UNAVAILABLE_MESSAGE } from '../http/unavailable.ts';
import type { FieldErrors } from './event.ts';

export const invalid = (errors: FieldErrors) => ({ message: 'The given data was invalid.', errors });

/** A failure's body, for the docs: { message }, with `errors` on a 422. */
export const activityFailureSchema = z.object({ message: z.string(), errors: z.record(z.string(), z.array(z.string())).optional() });

/** Every answer that is not a route's own, including unknown routes, as a bare { message }. */
export const ACTIVITY_ENVELOPE = {
  failure: (_status, message) => ({ json: { message } }),
  notFound: () => ({ json: { message: 'Not Found' } }),
  unavailable: { json: { message: UNAVAILABLE_MESSAGE } },
} satisfies Envelope;
