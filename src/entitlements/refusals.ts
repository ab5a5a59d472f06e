// Requests the entitlement rules refuse before (or instead of) asking a store, as codes plus the
// plain values an explanation needs. Which request field a refusal is reported under and in what
// words is the interface's business (src/custom/refusals.ts for the Custom API), as with login.
import type { StorePlatform } from '../vocabulary.ts';

export type Refusal =
  /** PPV verify on an app whose VOD pay-per-view is off. */
  | { refused: 'ppv_disabled' }
  /** PPV verify of a product id that is not an active PPV SKU of the app on the store. */
  | { refused: 'unknown_ppv_product'; store: StorePlatform }
  /** Subscription verify of a product id that is not an active subscription SKU of the app on the store. */
  | { refused: 'unknown_subscription_product'; store: StorePlatform }
  /** Subscription restore on a store where the app sells no subscription. */
  | { refused: 'no_subscription_on_store'; store: StorePlatform }
  /** The video is in none of the owner's VOD catalogs. */
  | { refused: 'video_not_in_catalog' }
  /** A channel was named whose VOD catalog does not hold the video. */
  | { refused: 'video_not_in_channel_catalog' };

export type RefusalCode = Refusal['refused'];

export const isRefusal = (value: object): value is Refusal => 'refused' in value;

/**
 * What verification_attempts.reason says of a refusal, for support. The record is written by the
 * rules, so its words live here; they are the words the Custom API has always answered with.
 */
export function refusalReason(refusal: Refusal): string {
  switch (refusal.refused) {
    case 'ppv_disabled':
      return 'VOD pay-per-view is not enabled for this app.';
    case 'unknown_ppv_product':
      return `The product id is not the active VOD pay-per-view product of this app on ${refusal.store}.`;
    case 'unknown_subscription_product':
      return `The product id is not an active subscription of this app on ${refusal.store}.`;
    case 'no_subscription_on_store':
      return `This app sells no subscription on ${refusal.store}.`;
    case 'video_not_in_catalog':
      return 'The video is not in any VOD catalog of this account.';
    case 'video_not_in_channel_catalog':
      return "The video is not in this channel's VOD catalog.";
  }
}
