import { describe, expect, it } from 'vitest';
import { IMAGE_LABELS, imageSlots } from './image-slots.ts';

describe('image slots per platform', () => {
  it("offers each platform its own artwork, never another platform's", () => {
    expect(imageSlots('roku', {}).map((r) => IMAGE_LABELS[r])).toEqual(['Channel store artwork (HD)', 'Channel store artwork (SD)', 'Logo', 'App icon']);
    expect(imageSlots('roku', {})).not.toContain('logoIos');
    expect(imageSlots('mobile', {})).toContain('logoIos');
    expect(imageSlots('firetv', {})).toEqual(['logo', 'icon', 'backgroundImage', 'image1', 'image2']);
  });

  it('keeps a role the app already has listed, after its own', () => {
    expect(imageSlots('roku', { logoIos: 'iVBOR' }).at(-1)).toBe('logoIos');
  });
});
