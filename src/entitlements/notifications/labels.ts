// Metric labels must stay few: a type the store documents is its own label, anything else "other".
import type { StorePlatform } from '../stores/types.ts';
import { GOOGLE_SUBSCRIPTION_TYPES } from './google.ts';

const KNOWN: Record<StorePlatform, ReadonlySet<string>> = {
  Apple: new Set([
    'SUBSCRIBED',
    'DID_RENEW',
    'DID_CHANGE_RENEWAL_STATUS',
    'DID_CHANGE_RENEWAL_PREF',
    'DID_FAIL_TO_RENEW',
    'GRACE_PERIOD_EXPIRED',
    'EXPIRED',
    'REFUND',
    'REFUND_REVERSED',
    'REFUND_DECLINED',
    'REVOKE',
    'CONSUMPTION_REQUEST',
    'OFFER_REDEEMED',
    'PRICE_INCREASE',
    'RENEWAL_EXTENDED',
    'RENEWAL_EXTENSION',
    'ONE_TIME_CHARGE',
    'TEST',
  ]),
  Google: new Set([...Object.values(GOOGLE_SUBSCRIPTION_TYPES), 'ONE_TIME_PRODUCT_PURCHASED', 'ONE_TIME_PRODUCT_CANCELED', 'VOIDED_PURCHASE', 'TEST']),
  Amazon: new Set([
    'SUBSCRIPTION_PURCHASED',
    'SUBSCRIPTION_RENEWED',
    'SUBSCRIPTION_CANCELLED',
    'SUBSCRIPTION_MODIFIED',
    'SUBSCRIPTION_AUTO_RENEWAL_ON',
    'SUBSCRIPTION_AUTO_RENEWAL_OFF',
    'SUBSCRIPTION_CONVERTED_FREE_TRIAL_TO_PAID',
    'ENTITLEMENT_PURCHASED',
    'ENTITLEMENT_CANCELLED',
    'CONSUMABLE_PURCHASED',
    'CONSUMABLE_CANCELLED',
  ]),
  Roku: new Set(['Sale', 'Upgrade', 'Downgrade', 'Cancellation', 'Refund', 'Renewal', 'Credit', 'RenewedCancellation', 'Reactivation']),
};

export function typeLabel(store: StorePlatform, type: string): string {
  const base = type.split('/')[0]!;
  return KNOWN[store].has(base) ? base : 'other';
}
