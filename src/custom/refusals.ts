// The Custom API's words for the entitlement rules' refusals (src/entitlements/refusals.ts): a
// 422 naming the request field in error, { errors: { <field>: [<message>] } }.
import type { Refusal, RefusalCode } from '../entitlements/refusals.ts';
import { invalidField, type CustomError } from './errors.ts';

type Words<C extends RefusalCode> = { field: string; message: (refusal: Extract<Refusal, { refused: C }>) => string };

const REFUSALS: { [C in RefusalCode]: Words<C> } = {
  ppv_disabled: { field: 'vod_ppv', message: () => 'VOD pay-per-view is not enabled for this app.' },
  unknown_ppv_product: {
    field: 'vod_ppv',
    message: (r) => `The product id is not the active VOD pay-per-view product of this app on ${r.store}.`,
  },
  unknown_subscription_product: {
    field: 'product_id',
    message: (r) => `The product id is not an active subscription of this app on ${r.store}.`,
  },
  no_subscription_on_store: { field: 'store_platform', message: (r) => `This app sells no subscription on ${r.store}.` },
  video_not_in_catalog: { field: 'video_tube_id', message: () => 'The video is not in any VOD catalog of this account.' },
  video_not_in_channel_catalog: { field: 'channel_tube_id', message: () => "The video is not in this channel's VOD catalog." },
};

/**
 * The 422 for a refusal, under the table's field unless the route reports every error under one
 * (PPV verify: errors.vod_ppv, spec "Custom API errors").
 */
export function refusalError(refusal: Refusal, field?: string): CustomError {
  // Each entry takes its own code's refusal; TypeScript cannot tie the lookup to that, hence the cast.
  const words = REFUSALS[refusal.refused] as { field: string; message: (refusal: Refusal) => string };
  return invalidField(field ?? words.field, words.message(refusal));
}
