import { describe, expect, it } from 'vitest';
import { base64Of, fromInput, imageDataUrl, readableOn, toCss } from './colours.ts';

describe('app colours', () => {
  it('converts between the catalog spelling and CSS', () => {
    expect(toCss('AABBCC')).toBe('#aabbcc');
    expect(toCss('zz')).toBe('transparent');
    expect(toCss(null)).toBe('transparent');
    expect(fromInput(' #AABBCC ')).toBe('aabbcc');
    expect(fromInput('red')).toBe('red');
  });

  it('picks readable text for a background', () => {
    expect(readableOn('ffffff')).toBe('#000000');
    expect(readableOn('101010')).toBe('#ffffff');
    expect(readableOn('6f1ab1')).toBe('#ffffff');
    expect(readableOn('bad')).toBe('#000000');
  });

  it('encodes image bytes as base64 and previews PNG and JPEG', () => {
    expect(base64Of(new Uint8Array([0x89, 0x50, 0x4e, 0x47]))).toBe('iVBORw==');
    expect(base64Of(new Uint8Array(70_000)).length).toBe(93_336);
    expect(imageDataUrl('iVBORw==')).toBe('data:image/png;base64,iVBORw==');
    expect(imageDataUrl('/9j/4AAQ')).toBe('data:image/jpeg;base64,/9j/4AAQ');
  });
});
