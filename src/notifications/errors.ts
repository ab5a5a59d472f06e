// The store notification group's answers other than success, in the REST envelope
// ({ success:false, error:{ code, message } }): stores read only the status, people read the rest.
// One table maps the domain's refusal codes to statuses.
import { NOTIFICATION_REFUSALS, type NotificationRefusal } from '../entitlements/notifications/types.ts';
import type { Envelope } from '../http/envelope.ts';
import { SUCCESS_ENVELOPE, errorBody } from '../http/success-envelope.ts';

export const NOTIFICATIONS_ENVELOPE: Envelope = SUCCESS_ENVELOPE;

const MESSAGES: Record<NotificationRefusal['refused'], string> = {
  malformed: 'The body is not a notification of this store.',
  wrong_app: 'The notification is for another app.',
  not_configured: 'No app with this store configured for notifications is at this URL.',
  unauthenticated: 'The notification carries no proof that the store sent it.',
  invalid_signature: "The notification could not be verified as the store's.",
  not_confirmed: 'The store does not confirm the transaction.',
  forbidden_source: 'Notifications for this store are not accepted from this address.',
};

/** Status and body of a refusal: the code and a fixed message; the detailed reason goes to the log only. */
export function refusalAnswer(refusal: NotificationRefusal): { status: number; body: ReturnType<typeof errorBody> } {
  return { status: NOTIFICATION_REFUSALS[refusal.refused], body: errorBody(refusal.refused, MESSAGES[refusal.refused]) };
}
