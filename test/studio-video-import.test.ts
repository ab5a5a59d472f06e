// Issue 36 item 5, "a catalog that comes in fast", through the Studio API: YouTube durations from
// the Data API (videos.list, 50 ids a call), a YouTube playlist, a channel's uploads and a Vimeo
// showcase read into review rows (paged, bounded), duplicates flagged before anything is added,
// and an API that is slow, down, garbled or out of quota leaving the review usable. The providers
// are local servers answering as their APIs document (test/support/provider-apis.ts).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MAX_LIST_VIDEOS } from '../src/editing/provider-apis.ts';
import { lookUpPaste } from '../src/editing/video-urls.ts';
import { BACKENDS } from './support/db.ts';
import { providerApis, providerConfig, YOUTUBE_KEY, type ProviderApis } from './support/provider-apis.ts';
import { studioCatalog, studioTest, type StudioTest } from './support/studio.ts';

/** An 11-character YouTube id per number. */
const yt = (n: number) => `v${String(n).padStart(10, '0')}`;
/** alice's video 5001 is YouTube abcdefghijk ("Morning news"). */
const ALICES = 'abcdefghijk';
const CHANNEL = 'UC_harbour00000000000000';

describe.each(BACKENDS)('Studio: a catalog that comes in fast on %s', (backend) => {
  let s: StudioTest;
  let apis: ProviderApis;
  beforeAll(async () => {
    apis = await providerApis();
    for (let n = 1; n <= 620; n++) apis.videos.set(yt(n), { title: `Clip ${n}`, duration: n % 2 ? `PT${n % 60}M${n % 60}S` : `PT1H${n % 60}M3S`, description: `Number ${n}` });
    apis.videos.set(ALICES, { title: 'Morning news again', duration: 'PT10M' });
    apis.videos.set('liveLive001', { title: 'Town hall', duration: 'PT0S', live: 'live' });
    apis.videos.set('noEmbed0001', { title: 'Not here', duration: 'PT5M', embeddable: false });
    // 120 videos and one private one: three pages of playlistItems, three calls of videos.list.
    apis.playlists.set('PLharbour', [...Array.from({ length: 60 }, (_, i) => yt(i + 1)), `private:${yt(900)}`, ...Array.from({ length: 60 }, (_, i) => yt(i + 61))]);
    apis.playlists.set('PLwithmine', [yt(1), ALICES, yt(2)]);
    apis.playlists.set(
      'PLhuge',
      Array.from({ length: 620 }, (_, i) => yt(i + 1)),
    );
    apis.playlists.set(`UU${CHANNEL.slice(2)}`, [yt(7), yt(8)]);
    apis.handles.set('@harbourfilms', { channelId: CHANNEL, title: 'Harbour Films' });
    apis.showcases.set(
      '9876543',
      Array.from({ length: 150 }, (_, i) => ({ id: String(700_000 + i), name: `Showcase clip ${i}`, duration: 60 + i })),
    );
    s = await studioTest(backend, studioCatalog(), providerConfig(apis));
  }, 120_000);
  afterAll(async () => {
    await s?.t.close();
    await apis?.close();
  });
  afterEach(() => {
    apis.mode.youtube = 'ok';
    apis.mode.vimeo = 'ok';
  });

  const lookup = async (urls: string[]) => {
    const answer = await s.call('POST', '/videos/lookup', { body: { urls } });
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.json().data as { items: any[]; lists: any[] };
  };
  const asked = () => apis.asked.splice(0).map((a) => new URL(a, 'http://x'));

  it('fills YouTube durations from one videos.list call: live streams, unembeddable and unknown videos said as such', async () => {
    asked();
    const { items, lists } = await lookup([
      `https://youtu.be/${yt(3)}`,
      `https://www.youtube.com/watch?v=${yt(4)}&t=5`,
      'https://youtu.be/liveLive001',
      'https://youtu.be/noEmbed0001',
      'https://youtu.be/unknown0001',
    ]);
    expect(lists).toEqual([]);
    expect(items.map((i) => [i.lookup, i.video.title ?? null, i.video.durationSeconds ?? null, i.missing, i.lookupMessage])).toEqual([
      ['found', 'Clip 3', 183, [], null],
      ['found', 'Clip 4', 3843, [], null],
      ['found', 'Town hall', null, ['durationSeconds'], 'YouTube gives no duration for a live stream or premiere (live)'],
      ['not_found', null, null, ['title', 'durationSeconds'], 'YouTube does not let video noEmbed0001 be embedded (its owner turned embedding off)'],
      ['not_found', null, null, ['title', 'durationSeconds'], 'YouTube has no public video unknown0001 (private, deleted or never there)'],
    ]);
    expect(items[0].video).toMatchObject({
      providerName: 'YouTube',
      providerVideoId: yt(3),
      description: 'Number 3',
      thumbnailUrl: `https://i.ytimg.com/vi/${yt(3)}/hqdefault.jpg`,
      streamUrl: null,
    });
    // One call, to the configured base, with the ids parsed from the URLs (never a pasted URL), and the key; no oEmbed.
    const calls = asked();
    expect(calls.map((u) => [u.pathname, u.searchParams.get('part'), u.searchParams.get('id'), u.searchParams.get('key')])).toEqual([
      ['/youtube/v3/videos', 'contentDetails,snippet,status', [yt(3), yt(4), 'liveLive001', 'noEmbed0001', 'unknown0001'].join(','), YOUTUBE_KEY],
    ]);
  });

  it('reads a playlist page by page into rows with durations, private videos left out and said', async () => {
    asked();
    const { items, lists } = await lookup(['https://www.youtube.com/playlist?list=PLharbour']);
    expect(lists).toEqual([
      {
        url: 'https://www.youtube.com/playlist?list=PLharbour',
        name: 'YouTube playlist PLharbour',
        title: null,
        lookup: 'found',
        videos: 120,
        cut: false,
        message: '1 private or deleted video left out',
      },
    ]);
    expect(items).toHaveLength(120);
    expect(items.every((i) => i.list === 0 && i.lookup === 'found' && i.missing.length === 0)).toBe(true);
    expect(items[0]).toMatchObject({ url: `https://www.youtube.com/watch?v=${yt(1)}`, video: { title: 'Clip 1', durationSeconds: 61 } });
    expect(items[119]).toMatchObject({ video: { providerVideoId: yt(120), durationSeconds: 3600 + 3 } });
    const calls = asked();
    expect(calls.map((u) => u.pathname)).toEqual([
      '/youtube/v3/playlistItems',
      '/youtube/v3/playlistItems',
      '/youtube/v3/playlistItems',
      '/youtube/v3/videos',
      '/youtube/v3/videos',
      '/youtube/v3/videos',
    ]);
    expect(calls.filter((u) => u.pathname.endsWith('/videos')).map((u) => u.searchParams.get('id')!.split(',').length)).toEqual([50, 50, 20]);
    expect(calls[1]!.searchParams.get('pageToken')).toBeTruthy();
  });

  it("reads a channel's uploads by id and by @handle; an unknown handle is said, the rest of the paste still looked up", async () => {
    asked();
    const { items, lists } = await lookup([
      `https://www.youtube.com/channel/${CHANNEL}`,
      'https://www.youtube.com/@harbourfilms/videos',
      'https://www.youtube.com/@nobodyhere',
      `https://youtu.be/${yt(9)}`,
      'https://www.youtube.com/playlist?list=PLprivate',
      'https://www.youtube.com/playlist?list=PLgone',
    ]);
    expect(lists.map((l) => [l.name, l.title, l.lookup, l.videos, l.message])).toEqual([
      [`the uploads of YouTube channel ${CHANNEL}`, null, 'found', 2, null],
      ['the uploads of YouTube channel @harbourfilms', 'Harbour Films', 'found', 2, null],
      ['the uploads of YouTube channel @nobodyhere', null, 'not_found', 0, 'YouTube has no channel @nobodyhere'],
      ['YouTube playlist PLprivate', null, 'not_found', 0, 'YouTube has no public playlist PLprivate (YouTube answered 403 (playlistItemsNotAccessible))'],
      ['YouTube playlist PLgone', null, 'not_found', 0, 'YouTube has no public playlist PLgone (YouTube answered 404)'],
    ]);
    expect(items.map((i) => [i.video.providerVideoId, i.list, i.repeatOf])).toEqual([
      [yt(7), 0, null],
      [yt(8), 0, null],
      [yt(7), 1, 0],
      [yt(8), 1, 1],
      [yt(9), null, null],
    ]);
    const calls = asked();
    expect(calls.filter((u) => u.pathname.endsWith('/playlistItems')).map((u) => u.searchParams.get('playlistId'))).toEqual([
      `UU${CHANNEL.slice(2)}`,
      `UU${CHANNEL.slice(2)}`,
      'PLprivate',
      'PLgone',
    ]);
    expect(calls.filter((u) => u.pathname.endsWith('/channels')).map((u) => u.searchParams.get('forHandle'))).toEqual(['@harbourfilms', '@nobodyhere']);
  });

  it('reads a Vimeo showcase page by page with its durations and thumbnails', async () => {
    asked();
    const { items, lists } = await lookup(['https://vimeo.com/showcase/9876543']);
    expect(lists[0]).toMatchObject({ name: 'Vimeo showcase 9876543', lookup: 'found', videos: 150, cut: false, message: null });
    expect(items[0]).toMatchObject({
      url: 'https://vimeo.com/700000',
      lookup: 'found',
      missing: [],
      video: { providerName: 'Vimeo', providerVideoId: '700000', title: 'Showcase clip 0', durationSeconds: 60, thumbnailUrl: 'https://i.vimeocdn.com/video/700000-d_640x360' },
    });
    expect(items[149].video.durationSeconds).toBe(209);
    expect(asked().map((u) => [u.pathname, u.searchParams.get('page')])).toEqual([
      ['/vimeo/albums/9876543/videos', '1'],
      ['/vimeo/albums/9876543/videos', '2'],
    ]);
  });

  it(`takes at most ${MAX_LIST_VIDEOS} videos from lists in one lookup, and says it was cut`, async () => {
    const { items, lists } = await lookup(['https://www.youtube.com/playlist?list=PLhuge', 'https://vimeo.com/showcase/9876543']);
    expect(items).toHaveLength(MAX_LIST_VIDEOS);
    expect(lists.map((l) => [l.videos, l.cut, l.message])).toEqual([
      [500, true, 'cut at 500 videos, the most one lookup takes from lists: import the rest another way'],
      [0, true, 'Not read: this lookup already holds 500 videos from lists; look it up on its own'],
    ]);
  });

  it("flags a listed video the owner has, and one pasted twice, with the existing video's id and title; adding anyway works", async () => {
    const { items } = await lookup(['https://www.youtube.com/playlist?list=PLwithmine', `https://youtu.be/${yt(2)}`]);
    expect(items.map((i) => [i.video.providerVideoId, i.existing, i.repeatOf])).toEqual([
      [yt(1), null, null],
      [ALICES, { videoId: 5001, title: 'Morning news' }, null],
      [yt(2), null, null],
      [yt(2), null, 2],
    ]);
    // The review's rows are bodies POST /videos takes as they are (url, title, duration); a duplicate may be added on purpose.
    const bodies = items.slice(0, 3).map((i) => ({ url: i.url, title: i.video.title, durationSeconds: i.video.durationSeconds }));
    const created = await s.call('POST', '/videos', { body: bodies });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().data.items.map((v: any) => [v.providerName, v.providerVideoId, v.durationSeconds])).toEqual([
      ['YouTube', yt(1), 61],
      ['YouTube', ALICES, 600],
      ['YouTube', yt(2), 3723],
    ]);
    const again = await lookup([`https://youtu.be/${yt(1)}`]);
    expect(again.items[0].existing).toEqual({ videoId: created.json().data.items[0].id, title: 'Clip 1' });
  });

  it.each([
    ['down', 'YouTube did not answer: it answered 503'],
    ['garbage', 'YouTube did not answer: its answer was not the JSON its API documents'],
    ['quota', "YouTube's API quota for today is used up (403 quotaExceeded): durations cannot be read until it resets"],
  ] as const)('a YouTube API that is %s leaves the review usable: the rows say so, oEmbed still names them', async (mode, message) => {
    apis.mode.youtube = mode;
    const { items, lists } = await lookup([`https://youtu.be/${yt(5)}`, 'https://www.youtube.com/playlist?list=PLharbour', 'https://cdn.example/a.mp4']);
    expect(lists.map((l) => [l.lookup, l.videos, l.message])).toEqual([['unavailable', 0, message]]);
    expect(items.map((i) => [i.lookup, i.video.title ?? null, i.missing, i.lookupMessage])).toEqual([
      ['found', 'Clip 5', ['durationSeconds'], message],
      ['none', null, ['title', 'durationSeconds'], null],
    ]);
  });

  it('a key YouTube refuses and a Vimeo that is down or garbled are said in words; never a 500', async () => {
    apis.mode.vimeo = 'down';
    expect((await lookup(['https://vimeo.com/showcase/9876543'])).lists[0]).toMatchObject({ lookup: 'unavailable', message: 'Vimeo did not answer: it answered 500' });
    apis.mode.vimeo = 'garbage';
    expect((await lookup(['https://vimeo.com/showcase/9876543'])).lists[0]).toMatchObject({
      lookup: 'unavailable',
      message: 'Vimeo did not answer: its answer was not the JSON its API documents',
    });
    apis.mode.vimeo = 'ok';
    expect((await lookup(['https://vimeo.com/showcase/1'])).lists[0]).toMatchObject({ lookup: 'not_found', message: 'Vimeo has no public showcase 1 (Vimeo answered 404)' });
    const config = { youtube: apis.oembed, vimeo: '', timeoutMs: 2000 };
    const wrongKey = await lookUpPaste(config, { youtubeKey: 'nope', youtubeUrl: apis.youtube, vimeoToken: 'nope', vimeoUrl: apis.vimeo, timeoutMs: 2000 }, [
      `https://youtu.be/${yt(6)}`,
      'https://vimeo.com/showcase/9876543',
    ]);
    expect(wrongKey.items[0]).toMatchObject({
      lookup: 'found',
      video: { title: 'Clip 6' },
      lookupMessage: "YouTube refused this server's API key (400): the operator checks YOUTUBE_API_KEY",
    });
    expect(wrongKey.lists[0]).toMatchObject({ lookup: 'unavailable', message: "Vimeo refused this server's API token (401): the operator checks VIMEO_API_TOKEN" });
  });

  it('a silent API is unavailable after the configured timeout, once', async () => {
    apis.mode.youtube = 'silent';
    apis.mode.vimeo = 'silent';
    asked();
    const config = { youtube: apis.oembed, vimeo: '', timeoutMs: 2000 };
    const result = await lookUpPaste(config, { youtubeKey: YOUTUBE_KEY, youtubeUrl: apis.youtube, vimeoToken: 'x', vimeoUrl: apis.vimeo, timeoutMs: 200 }, [
      `https://youtu.be/${yt(10)}`,
      `https://youtu.be/${yt(11)}`,
      'https://www.youtube.com/playlist?list=PLharbour',
      'https://vimeo.com/showcase/9876543',
    ]);
    expect(result.lists.map((l) => l.message)).toEqual(['YouTube did not answer: no answer within 200 ms', 'Vimeo did not answer: no answer within 200 ms']);
    expect(result.items.map((i) => [i.lookup, i.video?.title, i.lookupMessage])).toEqual([
      ['found', 'Clip 10', 'YouTube did not answer: no answer within 200 ms'],
      ['found', 'Clip 11', 'YouTube did not answer: no answer within 200 ms'],
    ]);
    // The playlist's page, one videos.list for both pasted videos, the showcase's page; then oEmbed.
    expect(
      asked()
        .map((u) => u.pathname)
        .filter((p) => !p.endsWith('oembed')),
    ).toEqual(['/youtube/v3/playlistItems', '/vimeo/albums/9876543/videos', '/youtube/v3/videos']);
  });

  it('without a key or token, a list says what the operator would set; pasted videos still go to oEmbed', async () => {
    const result = await lookUpPaste(
      { youtube: apis.oembed, vimeo: '', timeoutMs: 2000 },
      { youtubeKey: '', youtubeUrl: apis.youtube, vimeoToken: '', vimeoUrl: apis.vimeo, timeoutMs: 2000 },
      ['https://www.youtube.com/playlist?list=PLharbour', 'https://vimeo.com/showcase/9876543', `https://youtu.be/${yt(12)}`, 'https://www.youtube.com/playlist?list=WL'],
    );
    expect(result.lists.map((l) => [l.lookup, l.message])).toEqual([
      ['unavailable', "Importing YouTube playlist PLharbour needs YouTube's Data API, which this server is not set up for (YOUTUBE_API_KEY): paste the videos' URLs instead"],
      ['unavailable', "Importing Vimeo showcase 9876543 needs Vimeo's API, which this server is not set up for (VIMEO_API_TOKEN): paste the videos' URLs instead"],
      ['not_found', 'Watch later and Liked videos are private lists: make a playlist of them, or paste their URLs'],
    ]);
    expect(result.items.map((i) => [i.lookup, i.video?.title, i.missing])).toEqual([['found', 'Clip 12', ['durationSeconds']]]);
  });

  it('refuses bad input in the Studio envelope and changes nothing', async () => {
    const before = (await s.call('GET', '/videos')).json().data.total;
    for (const body of [{ urls: [] }, { urls: ['x'.repeat(3000)] }, { urls: 'https://youtu.be/x' }, { urls: ['https://youtu.be/x'], extra: 1 }]) {
      const answer = await s.call('POST', '/videos/lookup', { body });
      expect(answer.statusCode, JSON.stringify(body)).toBe(422);
      expect(answer.json()).toMatchObject({ success: false, error: { code: 'invalid_request' } });
    }
    expect((await s.call('GET', '/videos')).json().data.total).toBe(before);
  });
});
