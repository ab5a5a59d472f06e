import { describe, expect, it } from 'vitest';
import { askAgainIn, MAX_WAIT_MS, MIN_WAIT_MS, playerFor } from './plan.ts';

const video = (providerName: string, providerVideoId: string, streamUrl: string | null = null, isLive = false) => ({ providerName, providerVideoId, streamUrl, isLive });

describe('the Watch view', () => {
  it('embeds YouTube and Vimeo joined in progress, and plays direct media in a <video> seeked to the position', () => {
    expect(playerFor(video('YouTube', 'dQw4w9WgXcQ'), 125.7)).toEqual({
      kind: 'youtube',
      src: 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?start=125&autoplay=1&rel=0&enablejsapi=1',
    });
    expect(playerFor(video('Vimeo', '76979871'), 60)).toEqual({ kind: 'vimeo', src: 'https://player.vimeo.com/video/76979871?autoplay=1#t=60s' });
    expect(playerFor(video('Self-hosted', '', 'https://cdn.example/a.mp4'), 30)).toEqual({ kind: 'media', src: 'https://cdn.example/a.mp4', position: 30 });
    // A live stream plays its URI at the live edge, whatever its video's provider.
    expect(playerFor(video('YouTube', 'dQw4w9WgXcQ', 'https://live.example/s.m3u8', true), 900)).toEqual({ kind: 'media', src: 'https://live.example/s.m3u8', position: null });
  });

  it('says why a video cannot play instead of embedding a wrong id or a non-web address', () => {
    expect(playerFor(video('YouTube', 'https://www.youtube.com/watch?v=dQw4w9WgXcQ'), 0)).toMatchObject({
      kind: 'none',
      reason: expect.stringContaining('paste its YouTube link again'),
    });
    expect(playerFor(video('Vimeo', 'abc'), 0).kind).toBe('none');
    expect(playerFor(video('Dailymotion', 'x7'), 0)).toMatchObject({ kind: 'none' });
    expect(playerFor(video('Self-hosted', '', 'javascript:alert(1)'), 0).kind).toBe('none');
  });

  it("asks again at the programme's end, or the next one's start, timed from the answer", () => {
    const at = '2026-11-27T08:05:00Z';
    const segment = { start: '2026-11-27T08:00:00Z', end: '2026-11-27T08:10:00Z' } as never;
    expect(askAgainIn({ at, now: segment, next: null })).toBe(5 * 60_000);
    expect(askAgainIn({ at, now: null, next: { ...(segment as object), start: '2026-11-27T08:06:30Z' } as never })).toBe(90_000);
    expect(askAgainIn({ at, now: null, next: null })).toBe(MAX_WAIT_MS);
    expect(askAgainIn({ at: '2026-11-27T08:10:00Z', now: segment, next: null })).toBe(MIN_WAIT_MS);
    expect(askAgainIn({ at, now: { ...(segment as object), end: '2026-11-28T08:00:00Z' } as never, next: null })).toBe(MAX_WAIT_MS);
  });
});
