// Issue 30 through the Studio API: videos from pasted URLs (parsed to provider and id, looked up
// at local servers answering as YouTube's and Vimeo's oEmbed endpoints do), and the rules a
// creator used to get past (0-second videos, bad slugs and URLs, long names, short channel
// passwords, a channel number twice in one app), each refused with a detail at its field.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lookUpVideoUrls } from '../src/editing/video-urls.ts';
import { BACKENDS } from './support/db.ts';
import { studioCatalog, studioTest, type StudioTest } from './support/studio.ts';

const YT = 'dQw4w9WgXcQ';
const YT_PRIVATE = 'privatePriv';
const VIMEO = '76979871';

/** Providers as their oEmbed documentation answers; every request kept, to see what was asked. */
async function fakeProviders() {
  const asked: string[] = [];
  const server: Server = createServer((request, response) => {
    asked.push(request.url ?? '');
    const url = new URL(request.url ?? '/', 'http://x');
    const target = url.searchParams.get('url') ?? '';
    const json = (status: number, body: unknown) => response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (url.pathname === '/youtube/oembed') {
      if (target === `https://www.youtube.com/watch?v=${YT}`) {
        return json(200, {
          title: 'Never Gonna Give You Up',
          author_name: 'Rick Astley',
          type: 'video',
          version: '1.0',
          thumbnail_url: `https://i.ytimg.com/vi/${YT}/hqdefault.jpg`,
          html: '<iframe></iframe>',
        });
      }
      if (target.endsWith(YT_PRIVATE)) return response.writeHead(401).end('Unauthorized');
      if (target.includes('v=slow')) return; // never answers
      return response.writeHead(404).end('Not Found');
    }
    if (url.pathname === '/vimeo/api/oembed.json' && target === `https://vimeo.com/${VIMEO}`) {
      return json(200, {
        type: 'video',
        title: 'The New Vimeo Player',
        description: 'A player.',
        duration: 62,
        thumbnail_url: 'https://i.vimeocdn.com/video/452001751-8b1768af_640',
        video_id: Number(VIMEO),
      });
    }
    response.writeHead(404).end('{"error":"not found"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { asked, base, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

type Providers = Awaited<ReturnType<typeof fakeProviders>>;

describe('looking up pasted URLs (no database)', () => {
  it('says a provider is unavailable when it cannot be reached, and asks it once per request', async () => {
    const offline = { youtube: 'http://127.0.0.1:1/oembed', vimeo: '', timeoutMs: 500 };
    const items = await lookUpVideoUrls(offline, [`https://youtu.be/${YT}`, 'https://www.youtube.com/shorts/aaaaaaaaaaa', `https://vimeo.com/${VIMEO}`]);
    expect(items.map((i) => [i.lookup, i.lookupMessage, i.missing])).toEqual([
      ['unavailable', 'YouTube could not be reached', ['title', 'durationSeconds']],
      ['unavailable', 'YouTube could not be reached', ['title', 'durationSeconds']],
      ['unavailable', 'Vimeo is not asked on this server (no oEmbed endpoint configured)', ['title', 'durationSeconds']],
    ]);
    // Offline, the parsed fields and YouTube's thumbnail are still there to fill in around.
    expect(items[0]!.video).toEqual({ providerName: 'YouTube', providerVideoId: YT, streamUrl: null, thumbnailUrl: `https://i.ytimg.com/vi/${YT}/hqdefault.jpg` });
  });
});

describe.each(BACKENDS)('Studio: videos from URLs and field rules on %s', (backend) => {
  let s: StudioTest;
  let providers: Providers;
  beforeAll(async () => {
    providers = await fakeProviders();
    s = await studioTest(backend, studioCatalog(), {
      OEMBED_YOUTUBE_URL: `${providers.base}/youtube/oembed`,
      OEMBED_VIMEO_URL: `${providers.base}/vimeo/api/oembed.json`,
      OEMBED_TIMEOUT_MS: 20_000,
    });
  }, 120_000);
  afterAll(async () => {
    await s?.t.close();
    await providers?.close();
  });

  const details = (response: { json(): any }) => response.json().error?.details;

  it('looks up pasted URLs: what the provider says, what is missing, and only the rebuilt provider URL is asked', async () => {
    providers.asked.length = 0;
    const answer = await s.call('POST', '/videos/lookup', {
      body: {
        urls: [
          `https://www.youtube.com/watch?v=${YT}&t=42s&list=PL1&redirect=http://169.254.169.254/`,
          `https://player.vimeo.com/video/${VIMEO}?badge=0`,
          'https://cdn.example/shows/ep-12.mp4',
          `https://youtu.be/${YT_PRIVATE}`,
          'https://example.com/not-a-video',
        ],
      },
    });
    expect(answer.statusCode, answer.body).toBe(200);
    const [yt, vimeo, direct, hidden, page] = answer.json().data.items;
    expect(yt).toMatchObject({
      problem: null,
      lookup: 'found',
      missing: ['durationSeconds'],
      video: { providerName: 'YouTube', providerVideoId: YT, title: 'Never Gonna Give You Up', thumbnailUrl: `https://i.ytimg.com/vi/${YT}/hqdefault.jpg`, streamUrl: null },
    });
    expect(vimeo).toMatchObject({
      lookup: 'found',
      missing: [],
      video: {
        providerName: 'Vimeo',
        providerVideoId: VIMEO,
        title: 'The New Vimeo Player',
        durationSeconds: 62,
        description: 'A player.',
        thumbnailUrl: 'https://i.vimeocdn.com/video/452001751-8b1768af_640',
      },
    });
    expect(direct).toMatchObject({
      lookup: 'none',
      missing: ['title', 'durationSeconds'],
      video: { providerName: 'Custom', providerVideoId: 'ep-12', streamUrl: 'https://cdn.example/shows/ep-12.mp4' },
    });
    expect(hidden).toMatchObject({ lookup: 'not_found', lookupMessage: `YouTube has no public, embeddable video ${YT_PRIVATE} (it answered 401)` });
    expect(page).toMatchObject({ problem: expect.stringContaining('not a YouTube, Vimeo or direct media URL'), video: null });
    // SSRF: the fake providers saw only their own paths, with the URL rebuilt from the id.
    const targets = providers.asked
      .map((a) => new URL(a, 'http://x'))
      .map((u) => `${u.pathname} ${u.searchParams.get('url')}`)
      .sort();
    expect(targets).toEqual([
      `/vimeo/api/oembed.json https://vimeo.com/${VIMEO}`,
      `/youtube/oembed https://www.youtube.com/watch?v=${YT}`,
      `/youtube/oembed https://www.youtube.com/watch?v=${YT_PRIVATE}`,
    ]);
  });

  it('a provider that does not answer in time is unavailable, the rest of its URLs not asked again; 50 URLs at most', async () => {
    providers.asked.length = 0;
    const slow = { youtube: `${providers.base}/youtube/oembed`, vimeo: '', timeoutMs: 300 };
    // Six are asked at once; the seventh and the repeat find YouTube already down and are not asked.
    const urls = [...Array.from({ length: 7 }, (_, i) => `https://youtu.be/slowSlowSl${i}`), 'https://youtu.be/slowSlowSl0'];
    const items = await lookUpVideoUrls(slow, urls);
    expect(new Set(items.map((i) => `${i.lookup}: ${i.lookupMessage}`))).toEqual(new Set(['unavailable: YouTube did not answer within 300 ms']));
    expect(providers.asked).toHaveLength(6);
    const tooMany = await s.call('POST', '/videos/lookup', { body: { urls: Array.from({ length: 51 }, () => `https://youtu.be/${YT}`) } });
    expect(tooMany.statusCode).toBe(422);
  });

  it("creates videos from URLs: the id, never the URL; YouTube's thumbnail; direct media as its stream", async () => {
    const one = await s.call('POST', '/videos', { body: { url: `https://www.youtube.com/watch?v=${YT}&t=42`, title: 'Rick', durationSeconds: 213 } });
    expect(one.statusCode, one.body).toBe(201);
    expect(one.json().data).toMatchObject({ providerName: 'YouTube', providerVideoId: YT, thumbnailUrl: `https://i.ytimg.com/vi/${YT}/hqdefault.jpg`, streamUrl: null });
    const many = await s.call('POST', '/videos', {
      body: [
        { url: `https://vimeo.com/channels/staffpicks/${VIMEO}`, title: 'Player', durationSeconds: 62 },
        { url: 'https://media.example/news/evening/master.m3u8', title: 'Evening', durationSeconds: 1800.5, thumbnailUrl: 'https://media.example/news/evening.jpg' },
      ],
    });
    expect(many.statusCode, many.body).toBe(201);
    expect(many.json().data.items.map((v: any) => [v.providerName, v.providerVideoId, v.streamUrl, v.thumbnailUrl])).toEqual([
      ['Vimeo', VIMEO, null, ''],
      ['Custom', 'evening-master', 'https://media.example/news/evening/master.m3u8', 'https://media.example/news/evening.jpg'],
    ]);
    const changed = await s.call('PATCH', `/videos/${one.json().data.id}`, { body: { url: `https://vimeo.com/${VIMEO}` } });
    expect(changed.json().data).toMatchObject({ providerName: 'Vimeo', providerVideoId: VIMEO, thumbnailUrl: '', title: 'Rick' });
  });

  it('flags a looked-up video the owner has already, and a repeat of an earlier line, before anything is added', async () => {
    const mine = (await s.call('GET', `/videos?q=${VIMEO}`)).json().data.items.filter((v: any) => v.providerName === 'Vimeo' && v.providerVideoId === VIMEO);
    expect(mine.length).toBeGreaterThan(0);
    const answer = await s.call('POST', '/videos/lookup', {
      body: { urls: [`https://vimeo.com/${VIMEO}`, `https://player.vimeo.com/video/${VIMEO}`, 'https://cdn.example/shows/new-one.mp4'] },
    });
    const [first, again, fresh] = answer.json().data.items;
    expect([first.existing, first.repeatOf]).toEqual([{ videoId: mine[0].id, title: mine[0].title }, null]);
    expect(again.repeatOf).toBe(0);
    expect([fresh.existing, fresh.repeatOf]).toEqual([null, null]);
    // Another owner's videos are never named: olga's lookup of the same URL finds nothing of alice's.
    const hers = await s.call('POST', '/videos/lookup', { body: { urls: [`https://vimeo.com/${VIMEO}`] }, token: s.tokens.olga });
    expect(hers.statusCode, hers.body).toBe(200);
    expect(hers.json().data.items[0].existing).toBeNull();
  });

  it('stores no URL into a private network: a metadata thumbnail, a loopback stream, a quote; nothing created', async () => {
    const before = (await s.call('GET', '/videos')).json().data.total;
    const bad = await s.call('POST', '/videos', {
      body: [
        { title: 'A', durationSeconds: 5, providerName: 'Custom', providerVideoId: 'a', streamUrl: 'http://127.0.0.1:9000/a.m3u8' },
        {
          title: 'B',
          durationSeconds: 5,
          providerName: 'Custom',
          providerVideoId: 'b',
          streamUrl: 'https://cdn.example/b.m3u8',
          thumbnailUrl: 'https://169.254.169.254/latest/meta-data/',
        },
        { title: 'C', durationSeconds: 5, providerName: 'Custom', providerVideoId: 'c', streamUrl: 'https://cdn.example/c.m3u8"><script>' },
        { title: 'D', durationSeconds: 5, providerName: 'Custom', providerVideoId: 'd', streamUrl: 'https://cdn.example/d.m3u8', thumbnailUrl: 'http://cdn.example/d.jpg' },
      ],
    });
    expect(bad.statusCode).toBe(422);
    expect(details(bad)).toEqual([
      { path: '[0].streamUrl', message: expect.stringContaining('this machine (loopback)') },
      { path: '[1].thumbnailUrl', message: expect.stringContaining('link-local') },
      { path: '[2].streamUrl', message: expect.stringContaining('quotes must be percent-encoded') },
      { path: '[3].thumbnailUrl', message: expect.stringContaining('want https://') },
    ]);
    expect((await s.call('GET', '/videos')).json().data.total).toBe(before);
  });

  it('refuses what would never play, each at its field, and creates nothing', async () => {
    const before = (await s.call('GET', '/videos')).json().data.total;
    const bulk = await s.call('POST', '/videos', {
      body: [
        { url: 'https://example.com/page', title: 'A', durationSeconds: 5 },
        { url: `https://youtu.be/${YT}`, title: 'B', durationSeconds: 0 },
      ],
    });
    expect(bulk.statusCode).toBe(422);
    expect(details(bulk)).toEqual([
      { path: '[0].url', message: expect.stringContaining('not a YouTube, Vimeo or direct media URL') },
      { path: '[1].durationSeconds', message: 'must be at least 1 second' },
    ]);
    const conflict = await s.call('POST', '/videos', { body: [{ url: `https://youtu.be/${YT}`, providerVideoId: 'other', title: 'C', durationSeconds: 5 }] });
    expect(details(conflict)).toEqual([{ path: '[0].providerVideoId', message: `"other" is not what url says ("${YT}"); leave it out to take the url's` }]);
    const zero = await s.call('POST', '/videos', { body: { url: `https://youtu.be/${YT}`, title: 'B', durationSeconds: 0 } });
    expect(details(zero)).toEqual([{ path: 'durationSeconds', message: 'must be at least 1 second' }]);
    const whole = await s.call('POST', '/videos', { body: { title: 'D', durationSeconds: 5, providerName: 'YouTube', providerVideoId: `https://www.youtube.com/watch?v=${YT}` } });
    expect(details(whole)).toEqual([{ path: 'providerVideoId', message: `a YouTube video id, not a URL: this URL's id is "${YT}"` }]);
    const unknown = await s.call('POST', '/videos', { body: { title: 'E', durationSeconds: 5, providerName: 'Dailymotion', providerVideoId: 'x1' } });
    expect(details(unknown)).toEqual([{ path: 'providerName', message: expect.stringContaining('unknown provider "Dailymotion"') }]);
    expect((await s.call('GET', '/videos')).json().data.total).toBe(before);
  });

  it('refuses a bad slug, a picture or stream that is not a URL, a 300-character name and a 2-character password', async () => {
    const channel = { name: 'Retro', url: 'retro-cartoons', categoryId: 1, timezone: 'UTC' };
    const bad = await s.call('POST', '/channels', { body: { ...channel, url: 'Retro Cartoons!', pictureUrl: 'not a url', name: 'n'.repeat(300), password: 'ab' } });
    expect(bad.statusCode).toBe(422);
    expect(details(bad)).toEqual([
      { path: 'name', message: 'must be at most 200 characters' },
      { path: 'url', message: expect.stringContaining('bad slug "Retro Cartoons!"') },
      { path: 'pictureUrl', message: 'bad URL "not a url" (spaces, control characters and quotes must be percent-encoded)' },
      { path: 'password', message: 'must be at least 4 characters' },
    ]);
    expect(details(await s.call('PATCH', '/channels/201', { body: { pictureUrl: 'javascript:alert(1)' } }))).toEqual([
      { path: 'pictureUrl', message: 'URL scheme "javascript:" is not allowed (want http:// or https://)' },
    ]);
    expect(details(await s.call('PUT', '/channels/201/password', { body: { password: 'ab' } }))).toEqual([{ path: 'password', message: 'must be at least 4 characters' }]);
    const stream = await s.call('POST', '/channels/201/live-streams', { body: { videoId: 5001, start: '2026-12-01T10:00:00Z', end: '2026-12-01T11:00:00Z', uri: 'not a url' } });
    expect(details(stream)).toEqual([{ path: 'uri', message: 'bad URL "not a url" (spaces, control characters and quotes must be percent-encoded)' }]);
  });

  it('refuses one Roku channel number given to two channels of the app', async () => {
    const roku = {
      appName: 'Alice Roku',
      theme: { primaryColor: '102030', secondaryColor: '405060', backgroundColor: '708090', styleColor: 'a0b0c0' },
      channels: [
        { channelId: 201, channelNumber: '7' },
        { channelId: 202, channelNumber: '7' },
      ],
    };
    const twice = await s.call('PUT', '/apps/roku', { body: roku });
    expect(twice.statusCode).toBe(422);
    expect(details(twice)).toEqual([{ path: 'channels[1].channelNumber', message: 'number "7" is already channel 201\'s in this app' }]);
    const fine = await s.call('PUT', '/apps/roku', {
      body: {
        ...roku,
        channels: [
          { channelId: 201, channelNumber: '7' },
          { channelId: 202, channelNumber: '8' },
        ],
      },
    });
    expect(fine.statusCode, fine.body).toBeLessThan(300);
  });
});
