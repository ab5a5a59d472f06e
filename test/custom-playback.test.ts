import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { channelVodVideos } from '../src/db/schema.ts';
import { VIEWER } from './fixtures/catalog.ts';
import type { TestApp } from './support/app.ts';
import { BASE, bearer, customClient, customTestApp, failureOf, invalidWith } from './support/custom.ts';
import { BACKENDS } from './support/db.ts';

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const GUID = /^[0-9a-f-]{36}$/;
const streams = (response: { json(): any }) => response.json().data.map((r: any) => [r.customId, r.streamUrl]);

describe.each(BACKENDS)('Custom API playback, VOD and gating on %s', (backend) => {
  let t: TestApp;
  const { get, post, login } = customClient(() => t);
  beforeAll(async () => {
    t = await customTestApp(backend);
  });
  afterAll(() => t.close());

  const unlock = (payload: unknown, headers: Record<string, string> = {}, address = '10.2.0.1') =>
    t.request({ method: 'POST', url: `${BASE}/getChannelToken`, payload: payload as any, headers, remoteAddress: address });

  describe('vast', () => {
    const web = {
      ChannelId: 201,
      VastVersion: 3,
      VastUrl: 'https://ads.example/web',
      Skippable: true,
      AdFrequency: 2,
      MidRollFrequency: 25,
      Slottable: true,
      TimeFrom: 8,
      TimeTo: 20,
      VastType: 'fullscreen',
      Platform: 'web',
      AllowAdsInVod: true,
    };

    it('answers the platform row, else the web row, as a PascalCase object', async () => {
      expect((await get('/channels/201/vast')).json()).toEqual({ data: web });
      const roku = (await get('/channels/201/vast', { 'platform-id': 'roku' })).json().data;
      expect(roku).toEqual({
        ...web,
        VastVersion: 1,
        VastUrl: 'https://ads.example/roku',
        Skippable: false,
        AdFrequency: null,
        MidRollFrequency: null,
        Slottable: false,
        TimeFrom: null,
        TimeTo: null,
        VastType: null,
        Platform: 'roku',
        AllowAdsInVod: false,
      });
      expect((await get('/channels/201/vast', { 'platform-id': 'ios' })).json().data.Platform).toBe('web');
      expect((await get('/channels/201/vast?platform=roku', { 'platform-id': 'ios' })).json().data.Platform).toBe('roku');
      expect((await get('/channels/201/vast?platform=ROKU')).json().data.Platform).toBe('roku');
      expect((await get('/channels/201/vast?platform=firetv', { platform: 'roku' })).json().data.Platform).toBe('web');
      expect((await get('/channels/201/vast', { platform: 'roku' })).json().data.Platform).toBe('roku');
    });

    it('answers null without settings, 404 for missing channels, 422 for unknown platforms', async () => {
      expect((await get('/channels/202/vast')).json()).toEqual({ data: null });
      expect((await get('/channels/401/vast')).json()).toEqual({ data: null });
      for (const id of ['999', '203', 'abc', '99999999999']) {
        expect((await get(`/channels/${id}/vast`)).json()).toEqual(failureOf(404, 'Channel not found'));
      }
      expect((await get('/channels/201/vast?platform=tizen')).json()).toEqual(invalidWith('platform'));
      expect((await get('/channels/201/vast', { 'platform-id': 'tizen' })).json()).toEqual(invalidWith('platform_id'));
    });
  });

  describe('token_by_video', () => {
    it('answers the unexpired renditions, else all, else an empty list', async () => {
      const fresh = await get('/token_by_video/5003');
      expect([fresh.statusCode, fresh.json()]).toEqual([
        200,
        { data: [{ url: 'https://media.example/concert-1280.mp4', expiration_date: '2030-01-01T00:00:00.000Z', width: '1280', height: '720' }] },
      ]);
      const later = await get('/token_by_video/5003', {}, '2031-01-01T00:00:00Z');
      expect(later.json().data.map((r: any) => r.width)).toEqual(['1280', '426']);
      expect((await get('/token_by_video/5001')).json()).toEqual({ data: [] });
    });

    it('answers 404 for unknown videos', async () => {
      for (const id of ['999999', 'abc', '-1', '99999999999']) {
        expect((await get(`/token_by_video/${id}`)).json()).toEqual(failureOf(404, 'Video not found'));
      }
    });

    it('follows the gating rule: pay-per-view locks VOD playback, not a video that airs free on a schedule', async () => {
      const tv = { 'platform-id': 'android-tv' };
      // 5001 and 5002 air on 201's schedule and 5003 is its live stream, free on the Android TV app,
      // whose pay-per-view is for VOD playback. A VOD-only video is locked: test/gating.test.ts.
      for (const id of [5002, 5003, 5001]) expect((await get(`/token_by_video/${id}`, tv)).statusCode).toBe(200);
      // The paid mobile app's videos need its subscription (device-1 holds one); another owner's app-less video is free.
      expect((await get('/token_by_video/5003', { 'platform-id': 'ios' })).statusCode).toBe(403);
      expect((await get('/token_by_video/5003', { 'platform-id': 'ios', 'device-id': 'device-1' })).statusCode).toBe(200);
      expect((await get('/token_by_video/6001', tv)).statusCode).toBe(200);
    });
  });

  describe('channels/vod', () => {
    const vod = (query: string, headers = {}, now?: string) => get(`/users/11/channels/vod?${query}`, headers, now);

    it('lists the catalogs of the channels asked, once per video, isVod rows paginated by 50', async () => {
      // The catalog format refuses a video twice in one catalog; the table does not, so the list guards.
      await t.database.db.insert(channelVodVideos).values({ channelId: 201, position: 9, videoId: 5002 });
      const response = await vod('channels_ids=201,202,204,401');
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(streams(response)).toEqual([
        ['201-5002-vod', 'https://media.example/weather.mp4'],
        ['201-5001-vod', 'https://media.example/morning.m3u8'],
        ['202-5003-vod', null],
      ]);
      expect(body.data[0]).toEqual({
        customId: '201-5002-vod',
        id: '201-5002-vod',
        videoTubeId: 5002,
        userId: 11,
        title: 'Weather "live" & <more>',
        providerVideoId: '123456',
        channelId: 201,
        duration: 120,
        timeDuration: '0h. 2min',
        startDate: '2026-11-21 10:00:00',
        endDate: '2026-11-21 10:02:00',
        providerName: 'Vimeo',
        durationInDate: '10:00 AM - 10:02 AM',
        thumbnail: '',
        streamUrl: 'https://media.example/weather.mp4',
        isVod: true,
      });
      expect(body.meta).toMatchObject({ current_page: 1, per_page: 50, total: 3, last_page: 1 });
      const paged = (await vod('channels_ids=201,202&per_page=1&page=2&timezone=UTC')).json();
      expect([paged.data.map((r: any) => [r.customId, r.startDate]), paged.meta.last_page]).toEqual([[['201-5001-vod', '2026-11-21 15:00:00']], 3]);
      expect((await vod('channels_ids=201&per_page=100000')).json().meta.per_page).toBe(100);
    });

    it('keeps the list visible under VOD PPV with streamUrl null on locked rows', async () => {
      const tv = { 'platform-id': 'android-tv' };
      expect(streams(await vod('channels_ids=201,202', tv))).toEqual([
        ['201-5002-vod', null],
        ['201-5001-vod', null],
        ['202-5003-vod', null],
      ]);
      expect(streams(await vod('channels_ids=201,202', { ...tv, 'device-id': 'device-2' }))).toEqual([
        ['201-5002-vod', 'https://media.example/weather.mp4'],
        ['201-5001-vod', null],
        ['202-5003-vod', null],
      ]);
      expect(streams(await vod('channels_ids=201', { ...tv, 'device-id': 'device-2' }, '2026-11-22T00:00:00Z'))).toEqual([
        ['201-5002-vod', null],
        ['201-5001-vod', null],
      ]);
    });

    it('gates a paid app 403 and scopes to the app channels', async () => {
      const refused = await vod('channels_ids=201', { 'platform-id': 'ios' });
      expect([refused.statusCode, refused.json()]).toEqual([403, failureOf(403, 'subscription_required')]);
      expect(streams(await vod('channels_ids=201', { 'platform-id': 'ios', 'device-id': 'device-1' }))[0]).toEqual(['201-5002-vod', 'https://media.example/weather.mp4']);
      expect((await vod('channels_ids=202', { 'platform-id': 'fire-tv' })).json().data).toEqual([]);
    });

    it('refuses bad input 422', async () => {
      const cases: [string, Record<string, string>, string][] = [
        ['', {}, 'channels_ids'],
        ['channels_ids=x', {}, 'channels_ids'],
        ['channels_ids=201&page=0', {}, 'page'],
        ['channels_ids=201&per_page=0', {}, 'per_page'],
        ['channels_ids=201', { timezone: 'Middle Earth Standard Time' }, 'timezone'],
        ['channels_ids=201', { 'platform-id': 'web' }, 'platform_id'],
        ['channels_ids=201', { 'device-id': 'd'.repeat(300) }, 'device_id'],
      ];
      for (const [query, headers, field] of cases) {
        const response = await vod(query, headers);
        expect([query, response.statusCode, response.json()]).toEqual([query, 422, invalidWith(field)]);
      }
    });
  });

  describe('getChannelToken and private channels', () => {
    const rows = (headers: Record<string, string>) => get('/users/11/channels/video?channels_ids=202&dates=2026-11-21', headers);

    it('unlocks the channel for the device (JSON or form): its streams appear for that device only', async () => {
      expect(streams(await rows({ 'device-id': 'tv-1' }))).toEqual([
        ['202-5003-1', null],
        ['202-5004-1', null],
      ]);
      const response = await unlock({ channel_id: 202, password: 'letmein' }, { 'accept-platform-device-id': 'tv-1' });
      expect([response.statusCode, response.json()]).toEqual([200, { data: { message: 'Success' } }]);
      const unlocked = [
        ['202-5003-1', 'https://media.example/concert.m3u8'],
        ['202-5004-1', 'https://live.example/private'],
      ];
      expect(streams(await rows({ 'device-id': 'tv-1' }))).toEqual(unlocked);
      expect(streams(await rows({ 'accept-platform-device-id': 'tv-1' }))).toEqual(unlocked);
      expect(streams(await rows({ 'device-id': 'tv-2' }))).toEqual([
        ['202-5003-1', null],
        ['202-5004-1', null],
      ]);
      expect((await get('/users/11/channels/202/live', { 'device-id': 'tv-1' })).json().data[0].uri).toBe('https://live.example/private');
      // Its VOD stays locked without a Platform-Id: the apps carrying 202 sell it (paid mobile app, Android TV pay-per-view).
      expect(streams(await get('/users/11/channels/vod?channels_ids=202', { 'device-id': 'tv-1' }))).toEqual([['202-5003-vod', null]]);

      const form = await unlock('channel_id=202&password=letmein', { ...FORM, 'device-id': 'tv-2' });
      expect([form.statusCode, form.json()]).toEqual([200, { data: { message: 'Success' } }]);
      expect(streams(await rows({ 'device-id': 'tv-2' }))).toEqual(unlocked);
      // Unlocking again is harmless.
      expect((await unlock({ channel_id: '202', password: 'letmein' }, { 'device-id': 'tv-2' })).statusCode).toBe(200);
    });

    it('with a Bearer only, unlocks for the viewer and answers a fresh token', async () => {
      const token = await login('victor', VIEWER.password);
      const response = await unlock({ channel_id: 202, password: 'letmein' }, bearer(token));
      expect([response.statusCode, response.json()]).toEqual([200, { data: { access_token: expect.stringMatching(GUID), token_type: 'bearer', expires_in: 3600 } }]);
      const fresh = response.json().data.access_token;
      expect((await get('/auth/me', bearer(fresh))).json().data.id).toBe(12);
      expect(streams(await rows(bearer(token)))[0]).toEqual(['202-5003-1', 'https://media.example/concert.m3u8']);
      expect(streams(await rows(bearer(fresh)))[0][1]).not.toBeNull();
      // With both, the device and the viewer are unlocked and the answer is the message.
      const dora = await login('dora', 'pw-dora');
      const both = await unlock({ channel_id: 202, password: 'letmein' }, { ...bearer(dora), 'device-id': 'tv-6' });
      expect(both.json()).toEqual({ data: { message: 'Success' } });
      expect(streams(await rows(bearer(dora)))[0][1]).not.toBeNull();
      expect(streams(await rows({ 'device-id': 'tv-6' }))[0][1]).not.toBeNull();
    });

    it('refuses a wrong password 403, a public channel 422, a missing one 404', async () => {
      const device = { 'device-id': 'tv-3' };
      const wrong = await unlock({ channel_id: 202, password: 'nope' }, device);
      expect([wrong.statusCode, wrong.json()]).toEqual([403, failureOf(403, 'Invalid channel password.')]);
      expect(streams(await rows(device))[0]).toEqual(['202-5003-1', null]);
      expect((await unlock({ channel_id: 201, password: 'x' }, device)).json()).toEqual(invalidWith('channel_id'));
      for (const id of [999, 203, '99999999999']) {
        expect((await unlock({ channel_id: id, password: 'x' }, device)).json()).toEqual(failureOf(404, 'Channel not found'));
      }
    });

    it('needs a device id or a live Bearer', async () => {
      expect((await unlock({ channel_id: 202, password: 'letmein' })).json()).toEqual(invalidWith('device_id'));
      const dead = await unlock({ channel_id: 202, password: 'letmein' }, bearer(crypto.randomUUID()));
      expect([dead.statusCode, dead.json()]).toEqual([401, failureOf(401, 'Unauthenticated.')]);
    });

    it('answers malformed bodies 422', async () => {
      const device = { 'device-id': 'tv-4' };
      const cases: [unknown, Record<string, string>, string[]][] = [
        ['{"channel_id":', { 'content-type': 'application/json' }, ['body']],
        ['', { 'content-type': 'application/json' }, ['channel_id', 'password']],
        [{ channel_id: 'abc', password: 'x' }, {}, ['channel_id']],
        [{ channel_id: 1.5, password: 'x' }, {}, ['channel_id']],
        [{ channel_id: 202 }, {}, ['password']],
        [{ channel_id: 202, password: ['letmein'] }, {}, ['password']],
        ['channel_id=&password=', FORM, ['channel_id', 'password']],
        ['<xml/>', { 'content-type': 'application/xml' }, ['body']],
      ];
      for (const [payload, headers, fields] of cases) {
        const response = await unlock(payload, { ...device, ...headers });
        expect([response.statusCode, response.json()]).toEqual([422, invalidWith(...fields)]);
      }
    });

    it('throttles password guessing per channel and address: 429 with Retry-After', async () => {
      const guess = (address: string) => unlock({ channel_id: 202, password: 'guess' }, { 'device-id': 'tv-5' }, address);
      for (let i = 0; i < 10; i++) expect((await guess('10.9.9.9')).statusCode).toBe(403);
      const blocked = await unlock({ channel_id: 202, password: 'letmein' }, { 'device-id': 'tv-5' }, '10.9.9.9');
      expect([blocked.statusCode, blocked.json()]).toEqual([429, failureOf(429, expect.any(String))]);
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
      expect((await unlock({ channel_id: 202, password: 'letmein' }, { 'device-id': 'tv-5' }, '10.9.9.10')).statusCode).toBe(200);
    });
  });
});
