// The Custom API's answer to the entitlement rules' refusals (src/entitlements/refusals.ts): a
// 422 naming the request field in error, { errors: { <field>: [<message>] } }. The words are the
// rules' own explanation (refusalReason, also what the support record keeps), so they are written once.
import { refusalReason, type Refusal, type RefusalCode } from '../entitlements/refusals.ts';
import { invalidField, type CustomError } from './errors.ts';

const FIELDS: Record<RefusalCode, string> = {
  ppv_disabled: 'vod_ppv',
  unknown_ppv_product: 'vod_ppv',
  unknown_subscription_product: 'product_id',
  no_subscription_on_store: 'store_platform',
  video_not_in_catalog: 'video_tube_id',
  video_not_in_channel_catalog: 'channel_tube_id',
};

/**
 * The 422 for a refusal, under the table's field unless the route reports every error under one
 * (PPV verify: errors.vod_ppv, spec "Custom API errors").
 */
export function refusalError(refusal: Refusal, field?: string): CustomError {
  return invalidField(field ?? FIELDS[refusal.refused], refusalReason(refusal));
}
