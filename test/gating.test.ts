// Issue 12, item 4, from the attacker's side: leaving out or changing Platform-Id, or calling
// token_by_video anonymously, never unlocks what one of the owner's apps sells (a paid app's
// channels, pay-per-view VOD) or what a channel password protects.
//
// The catalog: alice's channel 201 is carried by the paid mobile app 301 and the free Android TV
// app 302 (VOD pay-per-view); 208 only by the paid mobile app; 202 is private. device-1 holds a
// subscription to 301; device-2 unlocked video 5002 in 201 on 302.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from './support/app.ts';
import { customCatalog, customClient, failureOf, type Headers } from './support/custom.ts';
import { testApp } from './support/app.ts';
import { BACKENDS } from './support/db.ts';

const rendition = (url: string) => ({ url, width: 1280, height: 720, expiresUtc: '2027-01-01T00:00:00Z' });

function gatingCatalog() {
  const catalog: any = customCatalog();
  catalog.videos.push(
    {
      id: 5005,
      ownerId: 11,
      title: 'Private concert',
      durationSeconds: 600,
      providerName: 'Vimeo',
      providerVideoId: 'v-5005',
      renditions: [rendition('https://cdn.example/5005.mp4')],
    },
    {
      id: 5006,
      ownerId: 11,
      title: 'Premium film',
      durationSeconds: 600,
      providerName: 'Vimeo',
      providerVideoId: 'v-5006',
      streamUrl: 'https://media.example/premium.m3u8',
      renditions: [rendition('https://cdn.example/5006.mp4')],
    },
    {
      id: 5007,
      ownerId: 11,
      title: 'Pay-per-view film',
      durationSeconds: 600,
      providerName: 'Vimeo',
      providerVideoId: 'v-5007',
      streamUrl: 'https://media.example/ppv.m3u8',
      renditions: [rendition('https://cdn.example/5007.mp4')],
    },
  );
  const channel = (id: number) => catalog.channels.find((c: any) => c.id === id);
  channel(202).videoIds = [5003, 5005];
  channel(201).vodVideoIds = [5002, 5001, 5007];
  catalog.channels.push({
    id: 208,
    ownerId: 11,
    name: 'Alice Premium',
    url: 'alice-premium',
    categoryId: 1,
    order: 6,
    videoIds: [5006],
    vodVideoIds: [5006],
    schedules: [{ id: 9301, startTime: '2026-11-21T11:00:00', videoIds: [5006] }],
    liveStreams: [{ videoId: 5004, start: '2026-11-21T22:00:00Z', end: '2026-11-21T23:00:00Z', uri: 'https://live.example/premium' }],
    createdAt: '2026-08-01T00:00:00Z',
  });
  const app = (id: number) => catalog.apps.find((a: any) => a.id === id);
  app(301).channels.push({ channelId: 208 });
  app(304).channels = [{ channelId: 204 }];
  return catalog;
}

const SUBSCRIBED: Headers = { 'device-id': 'device-1' };
const PPV_HOLDER: Headers = { 'device-id': 'device-2' };
const rowsOf = (body: any) => body.data.map((r: any) => [r.customId, r.streamUrl]);

describe.each(BACKENDS)('one gating rule whatever the headers, on %s', (backend) => {
  let t: TestApp;
  const { get, post } = customClient(() => t);
  beforeAll(async () => {
    t = await testApp(backend, gatingCatalog());
  });
  afterAll(() => t.close());

  it('a channel only a paid app sells: 403 with its app, absent with no header or another app', async () => {
    const guide = '/users/11/channels/video?channels_ids=208&dates=2026-11-21';
    expect(await get(guide, { 'platform-id': 'mobile' })).toMatchObject({ statusCode: 403 });
    for (const headers of [{}, { 'platform-id': 'fire-tv' }, { 'platform-id': 'android-tv' }, { 'platform-id': 'roku' }, { 'platform-id': 'apple-tv' }] as Headers[]) {
      const response = await get(guide, headers);
      expect(response.statusCode, JSON.stringify(headers)).toBe(200);
      expect(response.json().data, JSON.stringify(headers)).toEqual([]);
      const list = await get('/users/11/channels', headers);
      expect(
        list.json().data.map((c: any) => c.id),
        JSON.stringify(headers),
      ).not.toContain(208);
      const vod = await get('/users/11/channels/vod?channels_ids=208', headers);
      expect(vod.json().data, JSON.stringify(headers)).toEqual([]);
    }
  });

  it('favorites: a sold channel marked as favorite stays out of the list without its app, in with it', async () => {
    const login = await post('/auth/login', { email: 'carol', password: 'pw-carol' });
    const bearer = { authorization: `Bearer ${login.json().data.access_token}` };
    for (const id of [208, 201]) expect((await post(`/users/11/channels/${id}/app/favorite/add`, undefined, bearer)).statusCode).toBe(200);
    const favorites = async (headers: Headers) => (await get('/users/11/app/favorites', { ...bearer, ...headers })).json().data.map((c: any) => c.id);
    for (const headers of [{}, { 'platform-id': 'roku' }, { 'platform-id': 'android-tv' }] as Headers[]) {
      expect(await favorites(headers), JSON.stringify(headers)).not.toContain(208);
    }
    expect(await favorites({ 'platform-id': 'mobile', ...SUBSCRIBED })).toContain(208);
  });

  it('the subscriber gets the paid channel with or without the header', async () => {
    for (const headers of [SUBSCRIBED, { ...SUBSCRIBED, 'platform-id': 'mobile' }] as Headers[]) {
      const guide = await get('/users/11/channels/video?channels_ids=208&dates=2026-11-21', headers);
      expect(rowsOf(guide.json()), JSON.stringify(headers)).toContainEqual(['208-5006-1', 'https://media.example/premium.m3u8']);
      expect((await get('/users/11/channels', headers)).json().data.map((c: any) => c.id)).toContain(208);
    }
  });

  it('live: a sold channel is 403 whatever the header says, open to the subscriber', async () => {
    for (const headers of [{}, { 'platform-id': 'fire-tv' }, { 'platform-id': 'mobile' }] as Headers[]) {
      expect(await get('/users/11/channels/208/live?date=2026-11-21', headers), JSON.stringify(headers)).toMatchObject({
        statusCode: 403,
        body: JSON.stringify(failureOf(403, 'subscription_required')),
      });
    }
    const live = await get('/users/11/channels/208/live?date=2026-11-21', SUBSCRIBED);
    expect(live.json().data[0]).toMatchObject({ uri: 'https://live.example/premium' });
  });

  it('categories and languages of a paid app refuse like its channels; with no app they hold only open channels', async () => {
    expect(await get('/users/11/categories', { 'platform-id': 'mobile' })).toMatchObject({ statusCode: 403 });
    expect(await get('/users/11/languages', { 'platform-id': 'mobile' })).toMatchObject({ statusCode: 403 });
    const nested = (await get('/users/11/categories')).json().data.flatMap((c: any) => c.channels.map((ch: any) => ch.id));
    expect(nested).not.toContain(208);
    expect(nested).toContain(201);
  });

  it('pay-per-view VOD: no header or another app never gives a stream the PPV app withholds', async () => {
    const vod = '/users/11/channels/vod?channels_ids=201';
    for (const headers of [{}, { 'platform-id': 'android-tv' }] as Headers[]) {
      const rows = rowsOf((await get(vod, headers)).json());
      expect(rows, JSON.stringify(headers)).toEqual([
        ['201-5002-vod', null],
        ['201-5001-vod', null],
        ['201-5007-vod', null],
      ]);
    }
    // Fire TV does not carry 201: nothing, rather than the streams.
    expect((await get(vod, { 'platform-id': 'fire-tv' })).json().data).toEqual([]);
    // device-2's unlock of 5002 in 201 opens that row alone, with or without the header.
    for (const headers of [PPV_HOLDER, { ...PPV_HOLDER, 'platform-id': 'android-tv' }] as Headers[]) {
      const rows = rowsOf((await get(vod, headers)).json());
      expect(rows, JSON.stringify(headers)).toEqual([
        ['201-5002-vod', 'https://media.example/weather.mp4'],
        ['201-5001-vod', null],
        ['201-5007-vod', null],
      ]);
    }
    // The mobile subscriber gets the mobile app's VOD (no pay-per-view there) even with no header.
    expect(rowsOf((await get(vod, SUBSCRIBED)).json())).toEqual([
      ['201-5002-vod', 'https://media.example/weather.mp4'],
      ['201-5001-vod', 'https://media.example/morning.m3u8'],
      ['201-5007-vod', 'https://media.example/ppv.m3u8'],
    ]);
  });

  it('token_by_video: no renditions of sold, pay-per-view or private videos for anonymous callers', async () => {
    for (const [video, headers] of [
      [5006, {}],
      [5006, { 'platform-id': 'fire-tv' }],
      [5006, { 'platform-id': 'mobile' }],
      [5007, {}],
      [5007, { 'platform-id': 'android-tv' }],
      [5007, { 'platform-id': 'fire-tv' }],
      [5007, PPV_HOLDER],
      [5005, {}],
      [5005, { 'platform-id': 'android-tv' }],
    ] as [number, Headers][]) {
      const response = await get(`/token_by_video/${video}`, headers);
      expect(response.statusCode, `${video} ${JSON.stringify(headers)}`).toBe(403);
      expect(response.body).not.toContain('cdn.example');
    }
    expect((await get('/token_by_video/5006', SUBSCRIBED)).json().data[0]).toMatchObject({ url: 'https://cdn.example/5006.mp4' });
    expect((await get('/token_by_video/5007', SUBSCRIBED)).json().data[0]).toMatchObject({ url: 'https://cdn.example/5007.mp4' });
    // The private channel's password unlocks its video for that device.
    const device = { 'accept-platform-device-id': 'device-9' };
    expect(await post('/getChannelToken', { channel_id: 202, password: 'letmein' }, device)).toMatchObject({ statusCode: 200 });
    expect((await get('/token_by_video/5005', device)).json().data[0]).toMatchObject({ url: 'https://cdn.example/5005.mp4' });
  });
});
