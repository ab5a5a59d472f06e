// Pasted video URLs read as the catalog stores them (src/catalog/video-url.ts): the id, never the URL.
import { describe, expect, it } from 'vitest';
import { parseVideoUrl } from '../src/catalog/video-url.ts';

const ID = 'dQw4w9WgXcQ';
const parsed = (url: string) => {
  const result = parseVideoUrl(url);
  if (!result.ok) throw new Error(`${url}: ${result.problem}`);
  return result.video;
};
const problem = (url: string) => {
  const result = parseVideoUrl(url);
  return result.ok ? `parsed as ${result.video.providerName} ${result.video.providerVideoId}` : result.problem;
};

describe('YouTube', () => {
  it.each([
    `https://www.youtube.com/watch?v=${ID}`,
    `https://www.youtube.com/watch?v=${ID}&t=42s&list=PL123&index=2`,
    `https://www.youtube.com/watch?feature=share&v=${ID}`,
    `https://m.youtube.com/watch?v=${ID}`,
    `https://music.youtube.com/watch?v=${ID}`,
    `https://youtu.be/${ID}`,
    `https://youtu.be/${ID}?si=abc&t=10`,
    `https://www.youtube.com/shorts/${ID}`,
    `https://www.youtube.com/embed/${ID}?start=5`,
    `https://www.youtube-nocookie.com/embed/${ID}`,
    `https://www.youtube.com/live/${ID}?feature=share`,
    `youtube.com/watch?v=${ID}`,
    `  http://youtu.be/${ID}  `,
  ])('%s is YouTube %s', (url) => {
    expect(parsed(url)).toMatchObject({
      providerName: 'YouTube',
      providerVideoId: ID,
      streamUrl: null,
      thumbnailUrl: `https://i.ytimg.com/vi/${ID}/hqdefault.jpg`,
      oembedUrl: `https://www.youtube.com/watch?v=${ID}`,
    });
  });

  it('keeps a start offset as information only', () => {
    expect(parsed(`https://youtu.be/${ID}?t=1m30s`).startSeconds).toBe(90);
    expect(parsed(`https://www.youtube.com/watch?v=${ID}&t=42`).startSeconds).toBe(42);
    expect(parsed(`https://www.youtube.com/watch?v=${ID}`).startSeconds).toBeUndefined();
  });

  it('refuses YouTube URLs that name no video', () => {
    expect(problem('https://www.youtube.com/watch?list=PL123')).toContain('without a video id');
    expect(problem('https://www.youtube.com/@somechannel')).toContain('without a video id');
    expect(problem('https://youtu.be/short')).toContain('is not a YouTube video id');
    expect(problem('https://www.youtube.com/watch?v=<script>xx')).toContain('is not a YouTube video id');
  });
});

describe('Vimeo', () => {
  it.each([
    ['https://vimeo.com/76979871', 'https://vimeo.com/76979871'],
    ['https://vimeo.com/76979871?share=copy', 'https://vimeo.com/76979871'],
    ['https://www.vimeo.com/76979871', 'https://vimeo.com/76979871'],
    ['https://vimeo.com/channels/staffpicks/76979871', 'https://vimeo.com/76979871'],
    ['https://vimeo.com/groups/shortfilms/videos/76979871', 'https://vimeo.com/76979871'],
    ['https://vimeo.com/showcase/123/video/76979871', 'https://vimeo.com/76979871'],
    ['https://player.vimeo.com/video/76979871', 'https://vimeo.com/76979871'],
    ['https://vimeo.com/76979871/8a2f4c9e1b', 'https://vimeo.com/76979871/8a2f4c9e1b'],
    ['https://player.vimeo.com/video/76979871?h=8a2f4c9e1b&badge=0', 'https://vimeo.com/76979871/8a2f4c9e1b'],
  ])('%s is Vimeo 76979871 (asked as %s)', (url, oembedUrl) => {
    expect(parsed(url)).toEqual({ providerName: 'Vimeo', providerVideoId: '76979871', streamUrl: null, thumbnailUrl: '', oembedUrl });
  });

  it('refuses Vimeo URLs that name no video', () => {
    expect(problem('https://vimeo.com/channels/staffpicks')).toContain('without a numeric video id');
    expect(problem('https://vimeo.com/somebody')).toContain('without a numeric video id');
  });
});

describe('direct media', () => {
  it('is Custom with the URL as its stream and an id from the file name', () => {
    expect(parsed('https://cdn.example/shows/ep-12.mp4?sig=abc')).toEqual({
      providerName: 'Custom',
      providerVideoId: 'ep-12',
      streamUrl: 'https://cdn.example/shows/ep-12.mp4?sig=abc',
      thumbnailUrl: '',
      oembedUrl: null,
    });
    expect(parsed('http://media.example/news/evening/master.m3u8').providerVideoId).toBe('evening-master');
    expect(parsed('https://media.example/a/clip.MPD').providerVideoId).toBe('clip');
    expect(parsed('https://media.example/My%20Film.webm').providerVideoId).toBe('My-Film');
  });

  it('refuses pages, other schemes and text', () => {
    expect(problem('https://example.com/watch/my-video')).toContain('not a YouTube, Vimeo or direct media URL');
    expect(problem('https://example.com/clip.mp4.html')).toContain('not a YouTube, Vimeo or direct media URL');
    expect(problem('ftp://media.example/a.mp4')).toContain('scheme "ftp:" is not allowed');
    expect(problem('javascript://alert(1)//a.mp4')).toContain('is not allowed');
    expect(problem('not a url')).toBe('a URL has no spaces');
    expect(problem('')).toBe('empty');
    expect(problem(`https://cdn.example/${'a'.repeat(3000)}.mp4`)).toContain('longer than');
  });
});
