import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROKU_STOCK_THEME } from '../src/apps/theme.ts';
import { APP_TOKEN, OWNER, PNG_1X1, smallCatalog } from './fixtures/catalog.ts';
import { testApp, type TestApp } from './support/app.ts';
import { BACKENDS } from './support/db.ts';

const REST = '/api/v1/rest';

/** The fixture plus a second owner, and accounts in every login state. */
function restCatalog() {
  const catalog: any = smallCatalog();
  catalog.accounts.push(
    { id: 14, username: 'locked', email: 'locked@example.com', password: 'pw-locked', publicUrl: 'locked', status: 'locked' },
    { id: 15, username: 'pending', email: 'pending@example.com', password: 'pw-pending', publicUrl: 'pending', status: 'not_activated' },
    { id: 16, username: 'other', email: 'other@example.com', password: 'pw-other', publicUrl: 'other' },
  );
  catalog.channels.push({ id: 401, ownerId: 16, name: 'Other channel', url: 'other', categoryId: 1, createdAt: '2026-01-01T00:00:00Z' });
  return catalog;
}

describe.each(BACKENDS)('REST API on %s', (backend) => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await testApp(backend, restCatalog());
    token = (await login('alice', OWNER.password)).json().data.authToken;
  });
  afterAll(() => t.close());

  const login = (username: string, password: string, now?: string, address = '10.0.0.1') =>
    t.request({ method: 'POST', url: `${REST}/auth/login`, payload: { username, password }, now, remoteAddress: address });
  const get = (url: string, bearer = token, now?: string) => t.request({ url: `${REST}${url}`, headers: { authorization: `Bearer ${bearer}` }, now });
  const send = (method: 'POST' | 'DELETE', url: string, bearer = token) => t.request({ method, url: `${REST}${url}`, headers: { authorization: `Bearer ${bearer}` } });
  const failure = (code: string) => ({ success: false, error: { code, message: expect.any(String) } });

  describe('auth', () => {
    it('logs in by username or email, case-insensitively', async () => {
      for (const name of ['alice', 'ALICE', 'alice@example.com', 'Alice@Example.COM']) {
        const response = await login(name, OWNER.password);
        expect(response.statusCode).toBe(200);
        expect(response.json()).toEqual({
          success: true,
          data: { authToken: expect.stringMatching(/^[0-9a-f-]{36}$/), userId: 11, userName: 'alice', email: 'Alice@Example.com', publicUrl: 'alice-tv' },
        });
      }
    });

    it('refuses wrong credentials, locked and unconfirmed accounts', async () => {
      expect((await login('alice', 'wrong', undefined, '10.0.1.1')).json()).toEqual(failure('invalid_credentials'));
      expect((await login('nobody', 'x', undefined, '10.0.1.1')).statusCode).toBe(401);
      const locked = await login('locked', 'pw-locked');
      expect([locked.statusCode, locked.json()]).toEqual([403, failure('account_locked')]);
      const pending = await login('pending@example.com', 'pw-pending');
      expect([pending.statusCode, pending.json()]).toEqual([403, failure('account_not_activated')]);
      // A wrong password does not reveal the account state.
      expect((await login('locked', 'wrong', undefined, '10.0.1.1')).json()).toEqual(failure('invalid_credentials'));
    });

    it('refuses a name from one address after 5 failed logins there for 15 minutes, with Retry-After; other addresses still log in', async () => {
      const start = '2026-11-21T09:00:00Z';
      for (let i = 0; i < 5; i++) expect((await login('other', 'wrong', start, '10.0.2.1')).statusCode).toBe(401);
      const blocked = await login('other', 'pw-other', '2026-11-21T09:01:00Z', '10.0.2.1');
      expect([blocked.statusCode, blocked.json()]).toEqual([429, failure('too_many_attempts')]);
      expect(blocked.headers['retry-after']).toBe('840');
      expect((await login('other', 'pw-other', '2026-11-21T09:01:00Z', '10.0.3.1')).statusCode).toBe(200);
      expect((await login('other', 'pw-other', '2026-11-21T09:15:01Z', '10.0.2.1')).statusCode).toBe(200);
    });

    it('answers malformed bodies with invalid_request', async () => {
      const cases = [
        { headers: { 'content-type': 'application/json' }, payload: '{"username":' },
        { payload: [1, 2] },
        { payload: { username: 5, password: 'x' } },
        { payload: { username: 'alice' } },
        { headers: { 'content-type': 'application/json' }, payload: '' },
      ];
      for (const c of cases) {
        const response = await t.request({ method: 'POST', url: `${REST}/auth/login`, ...c });
        expect([response.statusCode, response.json()]).toEqual([400, failure('invalid_request')]);
      }
    });

    it('requires a live Bearer token on every other route', async () => {
      const routes = ['/channels', '/channels/201', '/channels/201/schedules?date=2026-11-21', '/favorites', '/apps/mobile'];
      for (const url of routes) {
        for (const headers of [{}, { authorization: 'Bearer not-a-guid' }, { authorization: 'Basic abc' }, { authorization: `Bearer ${crypto.randomUUID()}` }]) {
          const response = await t.request({ url: `${REST}${url}`, headers });
          expect([response.statusCode, response.json()]).toEqual([401, failure('unauthorized')]);
        }
      }
    });

    it('logout revokes the token sent; a revoked token is refused', async () => {
      const mine = (await login('alice', OWNER.password)).json().data.authToken;
      expect((await get('/channels', mine)).statusCode).toBe(200);
      const out = await send('POST', '/auth/logout', mine);
      expect(out.json()).toEqual({ success: true, data: { message: 'Logged out.' } });
      expect((await get('/channels', mine)).json()).toEqual(failure('unauthorized'));
      expect((await send('POST', '/auth/logout', mine)).statusCode).toBe(401);
      expect((await get('/channels')).statusCode).toBe(200);
    });

    it('REST tokens slide: 30 days from their last use', async () => {
      const mine = (await login('alice', OWNER.password, '2026-01-01T00:00:00Z')).json().data.authToken;
      expect((await get('/favorites', mine, '2026-01-25T00:00:00Z')).statusCode).toBe(200);
      expect((await get('/favorites', mine, '2026-02-20T00:00:00Z')).statusCode).toBe(200);
      expect((await get('/favorites', mine, '2026-03-22T00:00:01Z')).json()).toEqual(failure('unauthorized'));
    });

    it('accepts a long-lived app token and revokes it through logout', async () => {
      expect((await get('/channels', APP_TOKEN, '2036-01-01T00:00:00Z')).statusCode).toBe(200);
      expect((await send('POST', '/auth/logout', APP_TOKEN)).statusCode).toBe(200);
      expect((await get('/channels', APP_TOKEN)).statusCode).toBe(401);
    });
  });

  describe('channels', () => {
    it('lists the caller own live channels in order, with library and VAST', async () => {
      const response = await get('/channels');
      expect(response.statusCode).toBe(200);
      const channels = response.json().data;
      expect(channels.map((c: any) => c.channelTubeId)).toEqual([202, 201]);
      expect(channels[1]).toEqual({
        channelTubeId: 201,
        name: 'Alice News',
        url: 'alice-news',
        categoryName: 'News',
        pictureUrl: null,
        description: null,
        order: 1,
        videos: [
          {
            videoTubeId: 5001,
            title: 'Morning news',
            description: null,
            durationSeconds: 600.5,
            thumbnailUrl: 'https://img.example/1.jpg',
            providerVideoId: 'abcdefghijk',
            providerName: 'YouTube',
            categoryName: 'News',
          },
          {
            videoTubeId: 5002,
            title: 'Weather "live" & <more>',
            description: 'Ünïcödé',
            durationSeconds: 120.25,
            thumbnailUrl: '',
            providerVideoId: '123456',
            providerName: 'Vimeo',
            categoryName: 'News',
          },
        ],
        vastSettings: [
          {
            platform: 'roku',
            vastUrl: 'https://ads.example/roku',
            vastVersion: 1,
            skippable: false,
            adFrequency: null,
            midRollFrequency: null,
            slottable: false,
            timeFrom: null,
            timeTo: null,
            vastType: null,
            allowAdsInVod: false,
          },
          {
            platform: 'web',
            vastUrl: 'https://ads.example/web',
            vastVersion: 3,
            skippable: true,
            adFrequency: 2,
            midRollFrequency: 25,
            slottable: true,
            timeFrom: 8,
            timeTo: 20,
            vastType: 'fullscreen',
            allowAdsInVod: true,
          },
        ],
      });
      expect(channels[0]).toMatchObject({ channelTubeId: 202, videos: [{ videoTubeId: 5003, categoryName: 'Music' }], vastSettings: [] });
    });

    it('answers one channel, and never another owner channel', async () => {
      expect((await get('/channels/201')).json().data.channelTubeId).toBe(201);
      for (const id of ['401', '203', '999', '99999999999999999999']) {
        const response = await get(`/channels/${id}`);
        expect([response.statusCode, response.json()]).toEqual([404, failure('channel_not_found')]);
      }
      for (const id of ['abc', '-1', '1.5', '%20']) {
        const response = await get(`/channels/${id}`);
        expect([response.statusCode, response.json()]).toEqual([400, failure('invalid_request')]);
      }
    });
  });

  describe('schedules', () => {
    it('expands a day in the channel zone: dated, loopDaily, unpublished and live blocks', async () => {
      const response = await get('/channels/201/schedules?date=2026-11-21');
      expect(response.statusCode).toBe(200);
      const data = response.json().data;
      expect(data.schedules.map((b: any) => [b.channelScheduleId, b.startTime, b.published, b.loopDaily])).toEqual([
        [9001, '2026-11-21T08:00:00', true, false],
        [9003, '2026-11-21T12:00:00', false, false],
        [-5003, '2026-11-21T13:00:00', true, false],
        [9002, '2026-11-21T22:00:00', true, true],
      ]);
      expect(data.schedules[0].videos).toEqual([
        {
          videoTubeId: 5001,
          playbackOrderNumber: 1,
          title: 'Morning news',
          thumbnailUrl: 'https://img.example/1.jpg',
          playTimeLabel: '08:00 AM - 08:10 AM',
          playbackStartTime: '2026-11-21T08:00:00',
          playbackEndTime: '2026-11-21T08:10:00',
          providerVideoId: 'abcdefghijk',
          providerName: 'YouTube',
          isLive: false,
        },
        expect.objectContaining({ videoTubeId: 5002, playbackOrderNumber: 2, playbackStartTime: '2026-11-21T08:10:00', playbackEndTime: '2026-11-21T08:12:00' }),
        expect.objectContaining({
          videoTubeId: 5001,
          playbackOrderNumber: 3,
          playbackStartTime: '2026-11-21T08:12:00',
          playbackEndTime: '2026-11-21T08:22:01',
          playTimeLabel: '08:12 AM - 08:22 AM',
        }),
      ]);
      expect(data.schedules[2].videos).toEqual([
        expect.objectContaining({ videoTubeId: 5003, isLive: true, playTimeLabel: '01:00 PM - 02:30 PM', playbackEndTime: '2026-11-21T14:30:00' }),
      ]);
      expect(data).toMatchObject({ channelTubeId: 201, date: '2026-11-21', totalVideos: 6, totalDurationLabel: '2h 4m' });
    });

    it('answers an empty day with an empty array, 0 and 0h 0m', async () => {
      expect((await get('/channels/201/schedules?date=2026-11-10')).json()).toEqual({
        success: true,
        data: { channelTubeId: 201, date: '2026-11-10', schedules: [], totalVideos: 0, totalDurationLabel: '0h 0m' },
      });
    });

    it('refuses bad dates and other owners channels', async () => {
      for (const query of ['date=2026-02-30', 'date=20261121', 'date=', '', 'date=2026-11-21T00:00:00', 'date=0000-01-01']) {
        const response = await get(`/channels/201/schedules?${query}`);
        expect([response.statusCode, response.json()]).toEqual([400, failure('invalid_request')]);
      }
      expect((await get('/channels/401/schedules?date=2026-11-21')).json()).toEqual(failure('channel_not_found'));
      expect((await get('/channels/x/schedules?date=2026-11-21')).statusCode).toBe(400);
    });
  });

  describe('favorites', () => {
    it('adds and removes idempotently and lists most recent first', async () => {
      const initial = (await get('/favorites')).json().data;
      expect(initial).toEqual([
        { channelTubeId: 201, name: 'Alice News', url: 'alice-news', categoryName: 'News', pictureUrl: null, description: null, favoritedAt: '2026-11-20T10:00:00.000Z' },
      ]);
      for (let i = 0; i < 2; i++) {
        expect((await send('POST', '/favorites/202')).json()).toEqual({ success: true, data: { channelTubeId: 202, isFavorite: true } });
      }
      const listed = (await get('/favorites')).json().data;
      expect(listed.map((f: any) => [f.channelTubeId, f.favoritedAt])).toEqual([
        [202, '2026-11-21T15:00:00.000Z'],
        [201, '2026-11-20T10:00:00.000Z'],
      ]);
      for (let i = 0; i < 2; i++) {
        expect((await send('DELETE', '/favorites/202')).json()).toEqual({ success: true, data: { channelTubeId: 202, isFavorite: false } });
      }
      expect((await get('/favorites')).json().data).toHaveLength(1);
    });

    it('answers channel_not_found for missing, deleted and other owners channels', async () => {
      for (const id of ['999', '203', '401', '99999999999']) {
        for (const method of ['POST', 'DELETE'] as const) {
          const response = await send(method, `/favorites/${id}`);
          expect([response.statusCode, response.json()]).toEqual([404, failure('channel_not_found')]);
        }
      }
      expect((await send('POST', '/favorites/abc')).statusCode).toBe(400);
    });
  });

  describe('apps', () => {
    it('answers the mobile app with only its platform object, store products and asset URLs', async () => {
      const response = await get('/apps/MOBILE');
      expect(response.statusCode).toBe(200);
      const data = response.json().data;
      expect(data).toMatchObject({
        appId: 301,
        platform: 'Mobile',
        appName: 'Alice Mobile',
        channelTubeIds: [202, 201],
        isPaid: true,
        roku: null,
        fireTv: null,
        appleTv: null,
        androidTv: null,
        vodPpv: { isEnabled: false, accessDurationHours: 48, storeProducts: [] },
      });
      expect(data.storeProducts).toEqual([
        { storePlatform: 'Apple', productId: 'com.alice.monthly', displayName: 'Monthly', billingPeriod: 'Monthly', isActive: true, storeSharedSecretConfigured: true },
        { storePlatform: 'Apple', productId: 'com.alice.yearly', displayName: 'Yearly', billingPeriod: 'Yearly', isActive: true, storeSharedSecretConfigured: true },
        { storePlatform: 'Google', productId: 'alice_weekly', displayName: '', billingPeriod: 'Weekly', isActive: false, storeSharedSecretConfigured: false },
      ]);
      expect(data.mobile).toMatchObject({
        appSlug: 'alice',
        selectionColor: '112233',
        headerFooterColor: '445566',
        backgroundColor: '778899',
        fontColor: 'aabbcc',
        supportEmail: 'help@example.com',
        gdprLink: null,
        about: null,
        logoUrl: expect.stringMatching(/^\/assets\/apps\/301\/logo\?v=[0-9a-f]{12}$/),
        logoBlobKey: expect.stringMatching(/^[0-9a-f]{64}$/),
      });
      const logo = await t.request({ url: data.mobile.logoUrl });
      expect(logo.statusCode).toBe(200);
      expect(logo.headers['content-type']).toBe('image/png');
      expect(logo.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(logo.rawPayload.equals(Buffer.from(PNG_1X1, 'base64'))).toBe(true);
      const icon = await t.request({ url: data.mobile.iconUrl });
      expect(icon.headers['content-type']).toBe('image/jpeg');
      const again = await t.request({ url: data.mobile.logoUrl, headers: { 'if-none-match': logo.headers.etag as string } });
      expect(again.statusCode).toBe(304);
      expect((await t.request({ url: '/assets/apps/301/nothing' })).statusCode).toBe(404);
    });

    it('reports Roku stock colours without a theme, and androidTv without backgroundColor', async () => {
      const roku = (await get('/apps/roku')).json().data;
      expect(roku.mobile).toBeNull();
      expect(roku.roku).toEqual({
        privacyPolicyLink: null,
        about: null,
        advertisementLink: 'https://ads.example/app',
        avatarHdUrl: null,
        avatarHdBlobKey: null,
        avatarSdUrl: null,
        avatarSdBlobKey: null,
        apiKey: '0e0c8f5e-2b7c-4d43-9d0a-3c6f1f2d9a11',
        ...ROKU_STOCK_THEME,
      });
      const androidTv = (await get('/apps/AndroidTV')).json().data;
      expect(androidTv.androidTv).toEqual({ primaryColor: '010203', secondaryColor: '040506', styleColor: '070809' });
      expect(androidTv.vodPpv).toEqual({
        isEnabled: true,
        accessDurationHours: 24,
        storeProducts: [{ storePlatform: 'Google', productId: 'alice_ppv', displayName: '', billingPeriod: 'OneTime', isActive: true, storeSharedSecretConfigured: false }],
      });
    });

    it('answers app_not_found and unsupported_platform', async () => {
      const missing = await get('/apps/firetv');
      expect([missing.statusCode, missing.json()]).toEqual([404, failure('app_not_found')]);
      const unknown = await get('/apps/web');
      expect([unknown.statusCode, unknown.json()]).toEqual([400, failure('unsupported_platform')]);
    });
  });

  describe('envelope', () => {
    it('wraps unknown routes and wrong methods', async () => {
      for (const [method, url] of [
        ['GET', '/nothing'],
        ['PUT', '/channels'],
        ['PATCH', '/favorites/201'],
        ['GET', '/auth/login'],
      ] as const) {
        const response = await t.request({ method, url: `${REST}${url}`, headers: { authorization: `Bearer ${token}` } });
        expect([response.statusCode, response.json()]).toEqual([404, failure('not_found')]);
      }
    });
  });
});

describe('REST API faults', () => {
  const loginToken = async (t: TestApp) =>
    (await t.request({ method: 'POST', url: `${REST}/auth/login`, payload: { username: 'alice', password: OWNER.password } })).json().data.authToken;

  it('answers internal_error without a stack trace on a fault', async () => {
    const t = await testApp('pglite', smallCatalog());
    const token = await loginToken(t);
    await t.database.db.execute(sql`drop table favorites`);
    const response = await t.request({ url: `${REST}/favorites`, headers: { authorization: `Bearer ${token}` } });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ success: false, error: { code: 'internal_error', message: 'Internal server error.' } });
    await t.close();
  });

  it('answers 503 service_unavailable with Retry-After while the database is unreachable', async () => {
    const t = await testApp('pglite', smallCatalog());
    const token = await loginToken(t);
    await t.database.close();
    const response = await t.request({ url: `${REST}/channels`, headers: { authorization: `Bearer ${token}` } });
    expect(response.statusCode).toBe(503);
    expect(response.headers['retry-after']).toBe('5');
    expect(response.json()).toEqual({ success: false, error: { code: 'service_unavailable', message: expect.any(String) } });
    await t.close();
  });
});
