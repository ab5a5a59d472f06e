// The pure parts of "a catalog that comes in fast" (issue 36 item 5): YouTube's ISO 8601
// durations, and pasted URLs that name a list of videos (a playlist, a channel's uploads, a
// Vimeo showcase) rather than one video.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatIsoDuration, parseIsoDuration } from '../src/catalog/iso-duration.ts';
import { parseListUrl, uploadsPlaylistOf } from '../src/catalog/list-url.ts';
import { parseVideoUrl } from '../src/catalog/video-url.ts';

describe('ISO 8601 durations (contentDetails.duration)', () => {
  it('reads what YouTube writes', () => {
    expect(parseIsoDuration('PT3M33S')).toBe(213);
    expect(parseIsoDuration('PT1H2M3S')).toBe(3723);
    expect(parseIsoDuration('PT1H')).toBe(3600);
    expect(parseIsoDuration('PT45S')).toBe(45);
    expect(parseIsoDuration('P1DT2H')).toBe(93_600);
    expect(parseIsoDuration('P1D')).toBe(86_400);
    expect(parseIsoDuration('P2W')).toBe(1_209_600);
    expect(parseIsoDuration('PT0S')).toBe(0);
    expect(parseIsoDuration('PT1.5S')).toBe(1.5);
    expect(parseIsoDuration('pt10m')).toBe(600);
  });

  it('refuses what is not a duration of days and time', () => {
    for (const bad of ['', 'P', 'PT', 'P1Y', 'P1M', 'PT-5S', '3:33', 'PT1H2', 'P1DT', 'PTS', 'PT1S2M', 'xPT1S', '213']) expect(parseIsoDuration(bad), bad).toBeUndefined();
  });

  it('writes whole seconds as YouTube does', () => {
    expect(formatIsoDuration(213)).toBe('PT3M33S');
    expect(formatIsoDuration(3723)).toBe('PT1H2M3S');
    expect(formatIsoDuration(90_000)).toBe('P1DT1H');
    expect(formatIsoDuration(86_400)).toBe('P1D');
    expect(formatIsoDuration(0)).toBe('PT0S');
  });

  it('format then parse gives the seconds back', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10 * 365 * 86_400 }), (seconds) => parseIsoDuration(formatIsoDuration(seconds)) === seconds),
      { seed: 20261121, numRuns: 2000 },
    );
  });
});

describe('list URLs', () => {
  const CHANNEL = 'UC_x5XG1OV2P6uZZ5FSM9Ttw';
  it('reads playlists, channels, handles, user names and showcases', () => {
    expect(parseListUrl('https://www.youtube.com/playlist?list=PLrAXtmErZgOeiKm4sgNOknGvNjby9efdf')).toEqual({
      ok: true,
      list: { provider: 'YouTube', kind: 'playlist', playlistId: 'PLrAXtmErZgOeiKm4sgNOknGvNjby9efdf' },
    });
    expect(parseListUrl('youtube.com/playlist?list=PL1&si=abc')).toMatchObject({ ok: true, list: { playlistId: 'PL1' } });
    expect(parseListUrl(`https://www.youtube.com/channel/${CHANNEL}/videos`)).toEqual({ ok: true, list: { provider: 'YouTube', kind: 'channel', channelId: CHANNEL } });
    expect(parseListUrl('https://www.youtube.com/@HarbourFilms')).toEqual({ ok: true, list: { provider: 'YouTube', kind: 'handle', handle: 'HarbourFilms' } });
    expect(parseListUrl('https://m.youtube.com/@harbour.films/videos')).toMatchObject({ ok: true, list: { kind: 'handle', handle: 'harbour.films' } });
    expect(parseListUrl('https://www.youtube.com/user/GoogleDevelopers')).toMatchObject({ ok: true, list: { kind: 'user', username: 'GoogleDevelopers' } });
    expect(parseListUrl('https://vimeo.com/showcase/9876543')).toEqual({ ok: true, list: { provider: 'Vimeo', kind: 'showcase', showcaseId: '9876543' } });
    expect(parseListUrl('https://vimeo.com/album/9876543')).toMatchObject({ ok: true, list: { showcaseId: '9876543' } });
    expect(uploadsPlaylistOf(CHANNEL)).toBe('UU_x5XG1OV2P6uZZ5FSM9Ttw');
  });

  it('leaves video URLs to the video parser, a watch URL with &list= included', () => {
    for (const url of [
      'https://www.youtube.com/watch?v=dQw4w9WgXcQ&list=PL1',
      'https://youtu.be/dQw4w9WgXcQ',
      'https://vimeo.com/76979871',
      'https://vimeo.com/showcase/9876543/video/76979871',
      'https://cdn.example/a.mp4',
      'https://example.com/playlist?list=PL1',
    ]) {
      expect(parseListUrl(url), url).toBeNull();
    }
    expect(parseVideoUrl('https://vimeo.com/showcase/9876543/video/76979871')).toMatchObject({ ok: true, video: { providerVideoId: '76979871' } });
  });

  it('says why a list cannot be read', () => {
    expect(parseListUrl('https://www.youtube.com/playlist?list=WL')).toMatchObject({ ok: false, problem: expect.stringContaining('private') });
    expect(parseListUrl('https://www.youtube.com/playlist?list=RDdQw4w9WgXcQ')).toMatchObject({ ok: false, problem: expect.stringContaining('mix') });
    expect(parseListUrl('https://www.youtube.com/playlist')).toMatchObject({ ok: false, problem: expect.stringContaining('without a playlist id') });
    expect(parseListUrl('https://www.youtube.com/channel/nope')).toMatchObject({ ok: false, problem: expect.stringContaining('not a YouTube channel id') });
    expect(parseListUrl('https://www.youtube.com/c/Harbour')).toMatchObject({ ok: false, problem: expect.stringContaining('@handle') });
    expect(parseListUrl('https://vimeo.com/showcase/abc')).toMatchObject({ ok: false, problem: expect.stringContaining('without its number') });
  });
});
