import { describe, expect, it } from 'vitest';
import { refusalError } from '../src/custom/refusals.ts';
import { refusalReason, type Refusal } from '../src/entitlements/refusals.ts';

const REFUSALS: Refusal[] = [
  { refused: 'ppv_disabled' },
  { refused: 'unknown_ppv_product', store: 'Amazon' },
  { refused: 'unknown_subscription_product', store: 'Roku' },
  { refused: 'no_subscription_on_store', store: 'Google' },
  { refused: 'video_not_in_catalog' },
  { refused: 'video_not_in_channel_catalog' },
];

describe('entitlement refusals', () => {
  it('are answered by the Custom API under their field, or under the one field a route names', () => {
    const fields = REFUSALS.map((r) => Object.keys((refusalError(r).body as { data: { errors: object } }).data.errors));
    expect(fields).toEqual([['vod_ppv'], ['vod_ppv'], ['product_id'], ['store_platform'], ['video_tube_id'], ['channel_tube_id']]);
    expect(refusalError({ refused: 'video_not_in_catalog' }, 'vod_ppv').body).toEqual({
      data: { message: 'The given data was invalid.', errors: { vod_ppv: ['The video is not in any VOD catalog of this account.'] } },
    });
  });

  // The support record has always held the words the client was answered with.
  it('are recorded for support in the words the Custom API answers with', () => {
    for (const refusal of REFUSALS) {
      const errors = (refusalError(refusal).body as { data: { errors: Record<string, string[]> } }).data.errors;
      expect(Object.values(errors)).toEqual([[refusalReason(refusal)]]);
    }
  });
});
