// Issue 26, medium and low items, from the attacker's side:
// - a pay-per-view video that is also in a channel's library (the same channel's or another's)
//   played free through token_by_video, whatever Platform-Id the caller chose;
// - locked rows (VOD locked by pay-per-view or a sold channel, guide and live rows of a locked
//   private channel) still carried providerVideoId, and a YouTube id is the video. The spec types
//   it a string, so a locked row carries '' (docs/security.md: Security, Gating).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cpuOf } from './fuzz/property.ts';
import { testApp, type TestApp } from './support/app.ts';
import { customCatalog, customClient, type Headers } from './support/custom.ts';
import { BACKENDS } from './support/db.ts';
import { expectCpuUnder } from './support/cpu-bounds.ts';

const ANONYMOUS_CPU_MS = 200;
const rendition = (url: string) => ({ url, width: 1280, height: 720, expiresUtc: '2027-01-01T00:00:00Z' });

/**
 * 5007 is sold by pay-per-view in 201's VOD (the Android TV app 302) and sits in 201's library and
 * in the library of 205, which no app carries; 5009 is only in 205's library (nothing sells it).
 * device-7 bought 5007 in 201; device-1 subscribes to the paid mobile app 301, which carries 201
 * without pay-per-view. 5008 (a YouTube video) is in 201's VOD and 202's (private) schedule. The
 * Roku app 303 carries 202.
 */
function lockedCatalog() {
  const catalog: any = customCatalog();
  catalog.videos.push(
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
    { id: 5008, ownerId: 11, title: 'YouTube film', durationSeconds: 600, providerName: 'YouTube', providerVideoId: 'yt-5008' },
    { id: 5009, ownerId: 11, title: 'Free clip', durationSeconds: 60, providerName: 'Vimeo', providerVideoId: 'v-5009', renditions: [rendition('https://cdn.example/5009.mp4')] },
  );
  const channel = (id: number) => catalog.channels.find((c: any) => c.id === id);
  channel(201).vodVideoIds = [5002, 5001, 5007, 5008];
  channel(201).videoIds = [...channel(201).videoIds, 5007];
  channel(205).videoIds = [5007, 5009];
  channel(202).schedules = [{ id: 9101, startTime: '2026-11-21T09:00:00', videoIds: [5003, 5008] }];
  const app = (id: number) => catalog.apps.find((a: any) => a.id === id);
  // The Fire TV app gives 201's VOD free in the shared fixture; here only the Android TV app sells it.
  app(304).channels = [{ channelId: 204 }];
  app(303).channels = [{ channelId: 202 }];
  catalog.entitlements.ppvUnlocks.push({
    appId: 302,
    videoId: 5007,
    channelId: 201,
    deviceId: 'device-7',
    viewerId: null,
    storePlatform: 'Google',
    productId: 'alice_ppv',
    transactionId: 'GPA.7',
    expiresUtc: '2026-11-22T00:00:00Z',
  });
  return catalog;
}

const ATTACKERS: Headers[] = [
  {},
  { 'platform-id': 'android-tv' },
  { 'platform-id': 'fire-tv' },
  { 'platform-id': 'roku' },
  { 'platform-id': 'apple-tv' },
  { 'platform-id': 'mobile' },
  { 'device-id': 'device-2' },
  { 'accept-platform-device-id': 'device-9', 'platform-id': 'android-tv' },
];

describe.each(BACKENDS)('locked videos stay locked (%s)', (backend) => {
  let t: TestApp;
  const { get, post } = customClient(() => t);
  beforeAll(async () => {
    t = await testApp(backend, lockedCatalog());
  });
  afterAll(() => t.close());

  it('token_by_video: a pay-per-view video in any library plays only for its buyer (or an app that gives its VOD)', async () => {
    // The process's first request compiles code and queries once; what an attacker repeats is measured.
    await get('/token_by_video/5007');
    for (const headers of ATTACKERS) {
      const { result, cpuMs } = await cpuOf(() => get('/token_by_video/5007', headers));
      expect(result.statusCode, JSON.stringify(headers)).toBe(403);
      expect(result.body).not.toContain('cdn.example');
      expectCpuUnder(cpuMs, ANONYMOUS_CPU_MS);
    }
    for (const headers of [{ 'device-id': 'device-7' }, { 'device-id': 'device-7', 'platform-id': 'android-tv' }, { 'device-id': 'device-1' }] as Headers[]) {
      expect((await get('/token_by_video/5007', headers)).json().data, JSON.stringify(headers)).toEqual([expect.objectContaining({ url: 'https://cdn.example/5007.mp4' })]);
    }
    // A library video nothing sells still plays for anyone.
    expect((await get('/token_by_video/5009')).json().data).toEqual([expect.objectContaining({ url: 'https://cdn.example/5009.mp4' })]);
  });

  it("VOD rows locked by pay-per-view carry no provider id; the buyer's carry it", async () => {
    const row = async (headers: Headers, videoId: number) =>
      (await get('/users/11/channels/vod?channels_ids=201', headers)).json().data.find((r: any) => r.videoTubeId === videoId);
    for (const headers of [{}, { 'platform-id': 'android-tv' }, { 'device-id': 'device-2' }] as Headers[]) {
      for (const videoId of [5007, 5008]) {
        expect(await row(headers, videoId), `${videoId} ${JSON.stringify(headers)}`).toMatchObject({ streamUrl: null, providerVideoId: '' });
      }
      const body = (await get('/users/11/channels/vod?channels_ids=201', headers)).body;
      expect(body).not.toContain('yt-5008');
      expect(body).not.toContain('v-5007');
    }
    expect(await row({ 'device-id': 'device-7' }, 5007)).toMatchObject({ streamUrl: 'https://media.example/ppv.m3u8', providerVideoId: 'v-5007' });
    expect(await row({ 'device-id': 'device-1' }, 5008)).toMatchObject({ providerVideoId: 'yt-5008' });
    // The shipped Android TV tree (COMPAT mobile) answers from the same routes.
  });

  it('guide and live rows of a locked private channel carry no provider id; unlocked, they do', async () => {
    const guide = (headers: Headers) => get('/users/11/channels/video?channels_ids=202&dates=2026-11-21', headers);
    const locked = await guide({ 'accept-platform-device-id': 'device-8' });
    expect(locked.json().data.map((r: any) => [r.videoTubeId, r.streamUrl, r.providerVideoId])).toEqual([
      [5003, null, ''],
      [5008, null, ''],
      [5004, null, ''],
    ]);
    const live = await get('/users/11/channels/202/live?date=2026-11-21', { 'accept-platform-device-id': 'device-8' });
    expect(live.json().data.map((r: any) => [r.uri, r.providerVideoId])).toEqual([['', '']]);
    expect(await post('/getChannelToken', { channel_id: 202, password: 'letmein' }, { 'accept-platform-device-id': 'device-8' })).toMatchObject({ statusCode: 200 });
    const open = await guide({ 'accept-platform-device-id': 'device-8' });
    expect(open.json().data.map((r: any) => r.providerVideoId)).toEqual(['concert-1', 'yt-5008', 'live-1']);
  });
});

describe.each(BACKENDS)("the older Roku template's tree (COMPAT_ROUTES=roku) on %s", (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp(backend, lockedCatalog(), { COMPAT_ROUTES: ['roku'] });
  });
  afterAll(() => t.close());

  it('programmes of a locked private channel carry no provider id (the template plays it directly)', async () => {
    const answer = await t.request({ method: 'GET', url: '/api/v1/services/roku/users/11/channels/video?channel_ids=202&dates=2026-11-21' });
    expect(answer.statusCode).toBe(200);
    expect(answer.json().map((p: any) => [p.videoTubeId, p.providerVideoId])).toEqual([
      [5003, ''],
      [5008, ''],
      [5004, ''],
    ]);
    expect(answer.body).not.toContain('yt-5008');
  });
});
