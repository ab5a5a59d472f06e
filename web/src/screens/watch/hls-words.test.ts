import { describe, expect, it } from 'vitest';
import { hlsErrorWords } from './hls-words.ts';

describe('a fatal hls.js error in words', () => {
  it('says a refused playlist may be a revoked key or an uncarried channel', () => {
    expect(hlsErrorWords({ type: 'networkError', details: 'manifestLoadError', status: 404 })).toMatch(
      /^The channel's stream was refused \(404\): the guide key may have been replaced or revoked/,
    );
    expect(hlsErrorWords({ type: 'networkError', details: 'manifestLoadTimeOut' })).toBe(
      "The channel's stream could not be loaded. Check that the service is reachable and try again.",
    );
  });

  it("points a segment failure at the video's origin and its CORS", () => {
    expect(hlsErrorWords({ type: 'networkError', details: 'fragLoadError', status: 403 })).toMatch(/^A segment could not be fetched from the video's origin \(403\)\. .*CORS/);
  });

  it('says parsing, codec, decoding and unknown failures', () => {
    expect(hlsErrorWords({ type: 'networkError', details: 'manifestParsingError' })).toMatch(/not an HLS playlist/);
    expect(hlsErrorWords({ type: 'mediaError', details: 'manifestIncompatibleCodecsError' })).toMatch(/cannot play the channel's codecs/);
    expect(hlsErrorWords({ type: 'mediaError', details: 'bufferAppendError' })).toMatch(/^This browser could not decode the stream \(bufferAppendError\)/);
    expect(hlsErrorWords({ type: 'otherError', details: 'internalException' })).toBe("The channel's stream stopped: otherError, internalException.");
  });
});
