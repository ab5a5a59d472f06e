import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JPEG_STUB, PNG_1X1, VIEWER } from './fixtures/catalog.ts';
import type { TestApp } from './support/app.ts';
import { bearer, customClient, customTestApp, failureOf, invalidWith } from './support/custom.ts';
import { BACKENDS } from './support/db.ts';

const ids = (response: { json(): any }) => response.json().data.map((c: any) => c.id ?? c.categoryId ?? c.languageId);

describe.each(BACKENDS)('Custom API settings and catalog on %s', (backend) => {
  let t: TestApp;
  const { get, login } = customClient(() => t);
  beforeAll(async () => {
    t = await customTestApp(backend);
  });
  afterAll(() => t.close());

  describe('settings', () => {
    it('answers the branding with # colours and base64 logos, by id or slug', async () => {
      const expected = {
        data: {
          user_id: 11,
          title: 'Alice TV',
          hex1: '#ff0000',
          hex2: '#00ff00',
          hex3: '#0000ff',
          fontColor: '#ffffff',
          header_background: '',
          FAQ: '',
          PrivacyPolicy: '',
          logo_header: PNG_1X1,
          logo_android: PNG_1X1,
          useVastSettings: true,
        },
      };
      expect((await get('/users/11/settings')).json()).toEqual(expected);
      expect((await get('/users/ALICE-TV/settings')).json()).toEqual(expected);
    });

    it('gives an account without branding its name and blanks', async () => {
      expect((await get('/users/carol/settings')).json()).toEqual({
        data: {
          user_id: 17,
          title: 'carol',
          hex1: '',
          hex2: '',
          hex3: '',
          fontColor: '',
          header_background: '',
          FAQ: '',
          PrivacyPolicy: '',
          logo_header: '',
          logo_android: '',
          useVastSettings: false,
        },
      });
    });

    it('answers unknown owners 404 User is required on every /users route', async () => {
      const routes = [
        'settings',
        'app_settings',
        'categories',
        'languages',
        'channels',
        'channels/video?channels_ids=1&dates=2026-11-21',
        'channels/vod?channels_ids=1',
        'channels/201/live',
      ];
      for (const id of ['999', 'nobody', '99999999999', '%20', '-1']) {
        for (const route of routes) {
          const response = await get(`/users/${id}/${route}`, { 'platform-id': 'ios' });
          expect([response.statusCode, response.json()]).toEqual([404, failureOf(404, 'User is required')]);
        }
      }
      // Before validation too: an unknown owner with a bad query is still a 404.
      expect((await get('/users/nobody/channels/video?page=0')).statusCode).toBe(404);
    });
  });

  describe('app_settings', () => {
    it('answers the mobile app for ios with Apple products only', async () => {
      expect((await get('/users/11/app_settings', { 'platform-id': 'ios' })).json()).toEqual({
        data: {
          user_id: 11,
          slug: 'alice',
          app_name: 'Alice Mobile',
          hex1: '#112233',
          hex2: '#445566',
          hex3: '#778899',
          fontColor: '#aabbcc',
          Logo: PNG_1X1,
          Icon: JPEG_STUB,
          privacy_policy_link: '',
          about: '',
          platform: 'ios',
          app_id: '301',
          is_paid: true,
          store_product_id: 'com.alice.monthly',
          store_products: [
            { product_id: 'com.alice.monthly', billing_period: 'Monthly', display_name: 'Monthly' },
            { product_id: 'com.alice.yearly', billing_period: 'Yearly', display_name: 'Yearly' },
          ],
          vod_ppv_enabled: false,
          vod_ppv_store_product_id: null,
          vod_ppv_access_hours: 48,
        },
      });
    });

    it('gives android the Google store (inactive products left out), and the legacy Platform header', async () => {
      const android = (await get('/users/11/app_settings', { 'platform-id': 'ANDROID' })).json().data;
      expect([android.platform, android.store_product_id, android.store_products]).toEqual(['android', null, []]);
      const legacy = (await get('/users/11/app_settings', { platform: 'mobile' })).json().data;
      expect([legacy.platform, legacy.app_id, legacy.store_product_id]).toEqual(['mobile', '301', 'com.alice.monthly']);
      // Platform-Id wins over Platform.
      expect((await get('/users/11/app_settings', { 'platform-id': 'roku', platform: 'mobile' })).json().data.app_id).toBe('303');
    });

    it('adds the TV-only fields for TV platforms and ad_link for Roku only', async () => {
      const roku = (await get('/users/11/app_settings', { 'platform-id': 'roku' })).json().data;
      expect(roku).toMatchObject({
        app_id: '303',
        hex1: '#6f1ab1',
        hex2: '#b3b3b3',
        hex3: '#101010',
        fontColor: '#ffffff',
        vod_ppv_preview_seconds: 0,
        time_format: '12-hour',
        ad_link: 'https://ads.example/app',
        Logo: '',
        Icon: '',
      });
      const androidTv = (await get('/users/11/app_settings', { 'platform-id': 'android-tv' })).json().data;
      expect(androidTv).toMatchObject({
        app_id: '302',
        hex1: '#010203',
        hex2: '#040506',
        hex3: '',
        fontColor: '#070809',
        vod_ppv_enabled: true,
        vod_ppv_store_product_id: 'alice_ppv',
        vod_ppv_access_hours: 24,
        vod_ppv_preview_seconds: 30,
      });
      expect(androidTv).not.toHaveProperty('ad_link');
      const fire = (await get('/users/11/app_settings', { 'platform-id': 'fire-tv' })).json().data;
      expect(fire).toMatchObject({ app_id: '304', hex3: '#cc0000', time_format: '12-hour', vod_ppv_store_product_id: null });
      const ios = (await get('/users/11/app_settings', { 'platform-id': 'ios' })).json().data;
      expect(ios).not.toHaveProperty('time_format');
      expect(ios).not.toHaveProperty('vod_ppv_preview_seconds');
    });

    it('refuses a missing or unknown Platform-Id 422 errors.platform_id; no app is 404', async () => {
      const cases: Record<string, string>[] = [{}, { 'platform-id': '' }, { 'platform-id': 'windows' }, { platform: 'tizen' }, { 'platform-id': 'firetv' }];
      for (const headers of cases) {
        const response = await get('/users/11/app_settings', headers);
        expect([response.statusCode, response.json()]).toEqual([422, invalidWith('platform_id')]);
      }
      const none = await get('/users/11/app_settings', { 'platform-id': 'apple-tv' });
      expect([none.statusCode, none.json()]).toEqual([404, failureOf(404, 'App not found')]);
      expect((await get('/users/carol/app_settings', { 'platform-id': 'ios' })).statusCode).toBe(404);
    });
  });

  describe('channels', () => {
    it('lists the owner channels in owner order without an app: schedule today or VOD', async () => {
      const response = await get('/users/11/channels');
      expect(response.statusCode).toBe(200);
      // 205 has nothing; 206 only tomorrow; 203 is deleted.
      expect(ids(response)).toEqual([202, 201, 204]);
      expect(response.json().data[0]).toEqual({
        id: 202,
        categoryId: 2,
        userId: 11,
        name: 'Alice Music',
        url: 'alice-music',
        pictureUrl: '',
        isWhiteLabeled: 0,
        playLiveFirst: false,
        privateChannel: true,
        isVerified: false,
        liveAvailable: true,
        guideMode: 'default',
        keepGuideOpened: 0,
        vodAvailable: true,
        scheduleAvailable: true,
      });
      expect(response.json().data[2]).toMatchObject({ id: 204, liveAvailable: true, vodAvailable: false, scheduleAvailable: true });
    });

    it('computes availability from the request time and zone', async () => {
      // After 204's live stream, still on its day: listed, no longer live.
      const evening = await get('/users/11/channels', {}, '2026-11-21T23:30:00Z');
      expect(ids(evening)).toEqual([202, 201, 204]);
      expect(evening.json().data.map((c: any) => c.liveAvailable)).toEqual([false, false, false]);
      // The next UTC day: 204 (UTC) has nothing, 206 (UTC) has its block, 201 (New York) is still on the 21st.
      expect(ids(await get('/users/11/channels', {}, '2026-11-22T00:30:00Z'))).toEqual([202, 201, 206]);
      // The same instant is the 22nd in Tokyo, whose day holds 204's live stream and 206's block.
      for (const zone of [{ timezone: 'Asia/Tokyo' }, { timezone: 'Tokyo Standard Time' }]) {
        expect(ids(await get('/users/11/channels', zone, '2026-11-21T23:30:00Z'))).toEqual([202, 201, 204, 206]);
      }
      expect(ids(await get('/users/11/channels?timezone=Asia/Tokyo', {}, '2026-11-21T23:30:00Z'))).toEqual([202, 201, 204, 206]);
    });

    it('scopes to the app channels in the app order when the owner has an app for the platform', async () => {
      expect(ids(await get('/users/11/channels', { 'platform-id': 'fire-tv' }))).toEqual([204, 201]);
      expect(ids(await get('/users/11/channels', { 'platform-id': 'roku' }))).toEqual([]);
      // No apple-tv app: the owner's channels, nothing gated.
      expect(ids(await get('/users/11/channels', { 'platform-id': 'apple-tv' }))).toEqual([202, 201, 204]);
    });

    it('filters by language, category, live (999) and search', async () => {
      expect(ids(await get('/users/11/channels?language_id=2'))).toEqual([204]);
      expect(ids(await get('/users/11/channels?language_id=1,2'))).toEqual([201, 204]);
      expect(ids(await get('/users/11/channels?category_id=2'))).toEqual([202, 204]);
      expect(ids(await get('/users/11/channels?category_id=999'))).toEqual([202, 201, 204]);
      expect(ids(await get('/users/11/channels?category_id=1,999'))).toEqual([202, 201, 204]);
      expect(ids(await get('/users/11/channels?category_id=999', {}, '2026-11-21T20:30:00Z'))).toEqual([204]);
      expect(ids(await get('/users/11/channels?category_id=1,999', {}, '2026-11-21T20:30:00Z'))).toEqual([201, 204]);
      expect(ids(await get('/users/11/channels?search=MUS'))).toEqual([202]);
      expect(ids(await get('/users/11/channels?search=nothing'))).toEqual([]);
      expect(ids(await get('/users/11/channels?category_id=1,,1&language_id='))).toEqual([201]);
    });

    it('orders by newest, oldest, most_subscribed and pages with skip and take', async () => {
      expect(ids(await get('/users/11/channels?newest=1'))).toEqual([204, 202, 201]);
      expect(ids(await get('/users/11/channels?oldest=true'))).toEqual([201, 202, 204]);
      expect(ids(await get('/users/11/channels?most_subscribed=1'))).toEqual([204, 202, 201]);
      expect(ids(await get('/users/11/channels?newest=0&oldest=1'))).toEqual([201, 202, 204]);
      expect(ids(await get('/users/11/channels?skip=1&take=1'))).toEqual([201]);
      expect(ids(await get('/users/11/channels?skip=5'))).toEqual([]);
      expect(ids(await get('/users/11/channels?take=100000'))).toEqual([202, 201, 204]);
      expect(ids(await get('/users/11/channels?take=0'))).toEqual([]);
    });

    it('refuses bad filters, zones and platforms 422', async () => {
      const cases: [string, Record<string, string>, string][] = [
        ['skip=-1', {}, 'skip'],
        ['take=-5', {}, 'take'],
        ['skip=abc', {}, 'skip'],
        ['take=1.5', {}, 'take'],
        ['category_id=abc', {}, 'category_id'],
        ['language_id=1;2', {}, 'language_id'],
        ['newest=yes', {}, 'newest'],
        ['timezone=Mars/Base', {}, 'timezone'],
        ['', { timezone: 'Nowhere Standard Time' }, 'timezone'],
        ['', { 'platform-id': 'tizen' }, 'platform_id'],
        ['search=' + 'x'.repeat(300), {}, 'search'],
        ['skip=1&skip=2', {}, 'skip'],
      ];
      for (const [query, headers, field] of cases) {
        const response = await get(`/users/11/channels?${query}`, headers);
        expect([query, response.statusCode, response.json()]).toEqual([query, 422, invalidWith(field)]);
      }
    });

    it('answers 403 subscription_required for a paid app without an active subscription', async () => {
      const refused = await get('/users/11/channels', { 'platform-id': 'ios' });
      expect([refused.statusCode, refused.json()]).toEqual([403, failureOf(403, 'subscription_required')]);
      expect((await get('/users/11/channels', { platform: 'mobile', 'device-id': 'other-device' })).statusCode).toBe(403);
      // The subscription is held by device-1 and by viewer 12, until 2026-12-21.
      expect(ids(await get('/users/11/channels', { 'platform-id': 'android', 'device-id': 'device-1' }))).toEqual([202, 201]);
      expect(ids(await get('/users/11/channels', { 'platform-id': 'ios', 'accept-platform-device-id': 'device-1' }))).toEqual([202, 201]);
      const viewer = await login('victor', VIEWER.password);
      expect((await get('/users/11/channels', { 'platform-id': 'ios', ...bearer(viewer) })).statusCode).toBe(200);
      expect((await get('/users/11/channels', { 'platform-id': 'ios', 'device-id': 'device-1' }, '2026-12-21T00:00:00Z')).statusCode).toBe(403);
    });
  });

  describe('categories and languages', () => {
    it('groups the listed channels by category, with slug, svg and nested channels', async () => {
      const response = await get('/users/11/categories');
      expect(response.json().data.map((c: any) => [c.categoryId, c.name, c.slug, c.svg, c.channels.map((ch: any) => ch.id)])).toEqual([
        [1, 'News', 'news', '', [201]],
        [2, 'Music', 'music', '', [202, 204]],
      ]);
      expect((await get('/users/11/categories?default=1')).json()).toEqual({
        data: [
          { categoryId: 1, name: 'News', slug: 'news', svg: '' },
          { categoryId: 2, name: 'Music', slug: 'music', svg: '' },
        ],
      });
      expect(ids(await get('/users/11/categories', { 'platform-id': 'fire-tv' }))).toEqual([1, 2]);
      expect((await get('/users/11/categories', { 'platform-id': 'roku' })).json()).toEqual({ data: [] });
      expect((await get('/users/11/categories?default=maybe')).json()).toEqual(invalidWith('default'));
    });

    it('lists the languages of the listed channels', async () => {
      expect((await get('/users/11/languages')).json()).toEqual({
        data: [
          { languageId: 1, name: 'English', code: 'en' },
          { languageId: 2, name: 'French', code: 'fr' },
        ],
      });
      expect((await get('/users/11/languages', {}, '2026-11-22T00:30:00Z')).json().data.map((l: any) => l.code)).toEqual(['en']);
      expect((await get('/users/carol/languages')).json()).toEqual({ data: [] });
      expect((await get('/users/11/languages?timezone=Bad/Zone')).statusCode).toBe(422);
    });
  });
});
