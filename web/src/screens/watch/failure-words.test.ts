import { describe, expect, it } from 'vitest';
import { embedErrorWords, mediaErrorWords, videoHlsWords } from './failure-words.ts';

describe("a programme's player failing, in words", () => {
  it("says a media element's error by its code", () => {
    expect(mediaErrorWords(4)).toMatch(/^The video's address answered nothing this browser can play: the file is missing/);
    expect(mediaErrorWords(3)).toMatch(/could not decode/);
    expect(mediaErrorWords(2)).toMatch(/network error/);
    expect(mediaErrorWords(undefined)).toBe('The video could not be played.');
  });

  it("says a programme's HLS playlist failing by what hls.js saw", () => {
    expect(videoHlsWords({ type: 'networkError', details: 'manifestLoadError', status: 404 })).toMatch(/^The video's playlist was not found \(404\) at its address/);
    expect(videoHlsWords({ type: 'networkError', details: 'manifestLoadError', status: 403 })).toMatch(/refused its playlist \(403\)/);
    expect(videoHlsWords({ type: 'networkError', details: 'manifestLoadError' })).toMatch(/could not be loaded: /);
    expect(videoHlsWords({ type: 'networkError', details: 'manifestParsingError' })).toMatch(/does not answer an HLS playlist/);
    expect(videoHlsWords({ type: 'networkError', details: 'fragLoadError', status: 500 })).toMatch(/segment .* \(500\)/);
    expect(videoHlsWords({ type: 'mediaError', details: 'bufferAppendError' })).toBe('This browser could not decode the video (bufferAppendError).');
    expect(videoHlsWords({ type: 'otherError', details: 'x' })).toBe('The video stopped: otherError, x.');
  });

  it("reads the embeds' error messages and nothing else", () => {
    expect(embedErrorWords('youtube', '{"event":"onError","info":150}')).toMatch(/does not allow it to be played outside YouTube/);
    expect(embedErrorWords('youtube', '{"event":"onError","info":100}')).toMatch(/not there/);
    expect(embedErrorWords('youtube', '{"event":"onError","info":999}')).toBe("YouTube's player stopped with error 999.");
    expect(embedErrorWords('youtube', '{"event":"infoDelivery","info":{"currentTime":3}}')).toBeNull();
    expect(embedErrorWords('youtube', 'not json')).toBeNull();
    expect(embedErrorWords('vimeo', { event: 'error', data: { name: 'PrivacyError', message: 'x' } })).toMatch(/privacy settings/);
    expect(embedErrorWords('vimeo', '{"event":"error","data":{"name":"Other","message":"It broke"}}')).toBe("Vimeo's player could not play the video: It broke");
    expect(embedErrorWords('vimeo', { event: 'ready' })).toBeNull();
    expect(embedErrorWords('vimeo', 5)).toBeNull();
  });
});
