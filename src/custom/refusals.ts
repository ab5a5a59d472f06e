// The Custom API's answer to the rules' refusals: a 422 naming the request field in error,
// { errors: { <field>: [<message>] } }. For the entitlement rules (src/entitlements/refusals.ts) the
// words are the rules' own explanation (refusalReason, also what the support record keeps), so
// they are written once; a guide too big to compile (src/channels/guide-rows.ts) is named here.
import type { GuideRows, TooBigGuide } from '../channels/guide-rows.ts';
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

const label = (field: string) => field.replaceAll('_', ' ');

/** The guide's rows, or the 422 naming `field` (the request's channel list) when the guide is too big to compile. */
export function unlessTooBig(rows: GuideRows | TooBigGuide, field: string): GuideRows {
  if (!('refused' in rows)) return rows;
  throw invalidField(field, `The ${label(field)} times the dates hold ${rows.entries} schedule entries to compute; at most ${rows.max}: ask fewer channels or dates.`);
}
