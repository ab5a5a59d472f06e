// Issue 14: every call of the two public app templates built for this service, sent as the
// client sends it, with the answer checked against the client's own model (field names, types,
// nullability). Gson fills a missing field of a Kotlin non-null type with null and the app then
// crashes where it uses it, so "present and of the type" is the contract.
//
// - Android TV template, GitHub chetanvaghela457/Android-TV: retrofit/StrimmApi.kt (the calls),
//   model/*.kt (the models), EpgFragment.kt and ui/adapters/CategoriesAdapter.kt (what is used).
// - Roku template, GitHub vassabi/strimm, StrimmTube/RokuAppTemplate/source/api.brs (the calls and
//   the fields getRemoteSettings, epgTask, channelParser and programItemParser read).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VIEWER } from './fixtures/catalog.ts';
import { testApp, type TestApp } from './support/app.ts';
import { customCatalog, failureOf } from './support/custom.ts';
import { BACKENDS } from './support/db.ts';

const ROKU_API_KEY = '0E0C8F5E-2B7C-4D43-9D0A-3C6F1F2D9A11';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

/** The catalog with the Roku app carrying two channels, as a Roku template's network would. */
function clientsCatalog() {
  const catalog: any = customCatalog();
  const channel = (id: number) => catalog.channels.find((c: any) => c.id === id);
  channel(201).description = 'Local news [7]';
  catalog.apps.find((a: any) => a.id === 303).channels = [{ channelId: 201 }, { channelId: 204 }];
  return catalog;
}

/** model/VideoItem.kt fields the app reads as non-null Strings (Gson turns numbers into strings). */
function expectVideoItem(row: any) {
  for (const field of [
    'channelId',
    'duration',
    'durationInDate',
    'endDate',
    'id',
    'providerName',
    'providerVideoId',
    'startDate',
    'timeDuration',
    'title',
    'userId',
    'videoTubeId',
  ]) {
    expect(row[field], field).not.toBeNull();
    expect(['string', 'number'], field).toContain(typeof row[field]);
  }
}

/** model/CategoriesItem.kt: categoryId Int, name, slug, svg non-null Strings (CategoriesAdapter calls svg.isEmpty()). */
function expectCategoriesItem(item: any) {
  expect(typeof item.categoryId).toBe('number');
  for (const field of ['name', 'slug', 'svg']) expect(typeof item[field], field).toBe('string');
}

/** model/ChannelItem.kt fields the guide uses (lib/entity/ProgramGuideChannel). */
function expectChannelItem(item: any) {
  for (const field of ['id', 'name', 'categoryId', 'userId', 'url', 'guideMode']) expect(['string', 'number'], field).toContain(typeof item[field]);
  for (const field of ['liveAvailable', 'playLiveFirst', 'privateChannel', 'isVerified']) expect(typeof item[field], field).toBe('boolean');
}

describe.each(BACKENDS)('shipped clients on %s', (backend) => {
  let t: TestApp;
  let token: string;
  const call = (url: string, headers: Record<string, string> = {}) => t.request({ method: 'GET', url, headers });
  beforeAll(async () => {
    t = await testApp(backend, clientsCatalog(), { COMPAT_ROUTES: ['mobile', 'roku'] });
    // LoginViewModel: a form post of email and password (StrimmApi.loginAuth).
    const login = await t.request({
      method: 'POST',
      url: '/api/v1/services/mobile/auth/login',
      headers: FORM,
      payload: `email=${VIEWER.username}&password=${encodeURIComponent(VIEWER.password)}`,
    });
    expect(login.statusCode).toBe(200);
    token = login.json().data.access_token;
  });
  afterAll(() => t.close());

  describe('Android TV template on /api/v1/services/custom and (COMPAT_ROUTES=mobile) /mobile', () => {
    for (const tree of ['custom', 'mobile']) {
      const base = `/api/v1/services/${tree}`;
      // The app sends no Platform-Id: on /custom that is "no app" (every open channel), on /mobile the mobile app.
      // The viewer holds the paid mobile app's subscription, so both trees answer.
      it(`${tree}: getCategoriesList (Authorization, default=0) parses as CategoriesItem`, async () => {
        const response = await call(`${base}/users/11/categories?default=0`, { authorization: `Bearer ${token}` });
        expect(response.statusCode).toBe(200);
        expect(response.json().data.length).toBeGreaterThan(0);
        for (const item of response.json().data) expectCategoriesItem(item);
      });

      it(`${tree}: getAllChannelsList with the "All" chip (category_id=0) lists every channel`, async () => {
        const all = await call(`${base}/users/11/channels?skip=0&take=100&category_id=0`, { authorization: `Bearer ${token}` });
        const plain = await call(`${base}/users/11/channels?skip=0&take=100`, { authorization: `Bearer ${token}` });
        expect(all.statusCode).toBe(200);
        expect(all.json().data.length).toBeGreaterThan(0);
        expect(all.json().data).toEqual(plain.json().data);
        for (const item of all.json().data) expectChannelItem(item);
      });

      it(`${tree}: getVideosByChannel (per_page=10000, all_videos=1) gets every row in one page, each with an id`, async () => {
        const query = 'channels_ids=201,202&dates=2026-11-21,2026-11-22&page=1&per_page=10000&all_videos=1&timezone=America/New_York';
        const response = await call(`${base}/users/11/channels/video?${query}`, { authorization: `Bearer ${token}` });
        expect(response.statusCode).toBe(200);
        const body = response.json();
        expect(body.data.length).toBe(body.meta.total);
        expect(body.meta.last_page).toBe(1);
        for (const row of body.data) {
          expectVideoItem(row);
          expect(row.id).toBe(row.customId);
        }
        // EpgFragment compares providerName with "youtube" and "vimeo" exactly: /mobile lower-cases it.
        const providers = new Set(body.data.map((r: any) => r.providerName));
        if (tree === 'mobile') expect([...providers].every((p) => p === String(p).toLowerCase())).toBe(true);
        else expect(providers).toContain('YouTube');
      });

      it(`${tree}: afterLoginMe (Authorization, Accept: application/json)`, async () => {
        const response = await call(`${base}/auth/me`, { authorization: `Bearer ${token}`, accept: 'application/json' });
        expect(response.json().data).toMatchObject({ id: VIEWER.id, email: VIEWER.email });
      });

      if (tree === 'custom') {
        it("custom: searchItem is not in the spec's tree: the Custom 404, never Fastify's", async () => {
          const response = await call(`${base}/users/11/search?key_word=news&channel_skip=0&channel_take=10&video_skip=0&video_take=10&timezone=UTC`);
          expect([response.statusCode, response.json()]).toEqual([404, failureOf(404, 'Not found.')]);
        });
      }

      it(`${tree}: bad parameters are 422 in the Custom envelope`, async () => {
        const response = await call(`${base}/users/11/channels/video?channels_ids=abc&dates=2026-11-21`);
        expect(response.statusCode).toBe(422);
        expect(response.json().data.errors).toHaveProperty('channels_ids');
      });
    }

    // StrimmRepository.getSearchedItem: key_word, 0, 10, 0, 10, the device zone; EpgFragment.searchDialog reads data[0].videos.
    const search = (query: string, headers: Record<string, string> = { authorization: `Bearer ${token}` }) =>
      call(`/api/v1/services/mobile/users/11/search?${query}&channel_skip=0&channel_take=10&video_skip=0&video_take=10&timezone=Europe/Berlin`, headers);

    it('mobile: searchItem finds channels and videos by title, as SearchResponse and Video.kt parse them', async () => {
      const response = await search('key_word=NEWS');
      expect(response.statusCode, response.body).toBe(200);
      const [found, ...more] = response.json().data;
      expect(more).toEqual([]);
      expect(found.channels.map((c: any) => c.name)).toEqual(['Alice News']);
      for (const item of found.channels) expectChannelItem(item);
      expect(found.channels_count).toBe(1);
      expect(found.videos.map((v: any) => [v.Title, v.providerName, v.ProviderVideoId, v.ChannelTubeId])).toEqual([['Morning news', 'youtube', 'abcdefghijk', '201']]);
      expect(found.videos_count).toBe(1);
      // Video.kt: every field a String for Gson (a boolean there would throw), VideoKey Any.
      for (const [field, value] of Object.entries(found.videos[0])) if (field !== 'VideoKey') expect(typeof value, field).toBe('string');
    });

    it('mobile: searchItem searches only what the caller may list and play, bounded', async () => {
      // 5003 (Concert) is only in the password-protected channel 202: never found.
      expect((await search('key_word=concert')).json().data[0]).toMatchObject({ videos: [], videos_count: 0 });
      // % and _ are letters, not patterns; an empty word (the app searches on every keystroke) finds nothing.
      expect((await search('key_word=%25')).json().data[0].videos_count).toBe(0);
      expect((await search('key_word=')).json().data).toEqual([{ channels: [], channels_count: 0, videos: [], videos_count: 0 }]);
      const tooLong = await search(`key_word=${'a'.repeat(101)}`);
      expect(tooLong.statusCode).toBe(422);
      // The paid mobile app without its subscription: refused as every listing is.
      expect((await search('key_word=news', {})).statusCode).toBe(403);
    });

    it('/mobile takes the app as mobile: the paid app refuses a caller without its subscription', async () => {
      expect((await call('/api/v1/services/mobile/users/11/channels')).statusCode).toBe(403);
    });
  });

  describe('Roku template on /api/v1/services/roku (COMPAT_ROUTES=roku)', () => {
    const base = '/api/v1/services/roku';

    it('settings/{api_key}: UserId, AdLink, PrivacyPolicyLink, About, AppName of the Roku app with that key', async () => {
      for (const key of [ROKU_API_KEY, ROKU_API_KEY.toLowerCase()]) {
        const response = await call(`${base}/settings/${key}`);
        expect(response.statusCode).toBe(200);
        expect(response.json()).toEqual({ UserId: 11, AdLink: 'https://ads.example/app', PrivacyPolicyLink: expect.any(String), About: expect.any(String), AppName: 'Alice Roku' });
      }
      const unknown = await call(`${base}/settings/00000000-0000-0000-0000-000000000000`);
      expect([unknown.statusCode, unknown.json()]).toEqual([404, failureOf(404, 'App not found')]);
    });

    it('users/{id}/channels?limit=100: data with id, name, customLogo, description and a pagination object', async () => {
      const response = await call(`${base}/users/11/channels?limit=100`);
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(body.pagination).toEqual({ page: 1, lastPage: 1 });
      expect(body.data.map((c: any) => c.id)).toEqual([201, 204]);
      expect(body.data[0]).toEqual({ id: 201, name: 'Alice News', customLogo: expect.any(String), description: 'Local news [7]' });
      // epgTask pages while page < lastPage, appending &page=n.
      const paged = await call(`${base}/users/11/channels?limit=1&page=2`);
      expect(paged.json()).toEqual({ data: [expect.objectContaining({ id: 204 })], pagination: { page: 2, lastPage: 2 } });
    });

    it('users/{id}/channels/video?channel_ids=&dates=: a bare array of programmes as programItemParser reads them', async () => {
      const response = await call(`${base}/users/11/channels/video?channel_ids=201%2C204&dates=2026-11-21`);
      expect(response.statusCode).toBe(200);
      const programmes = response.json();
      expect(Array.isArray(programmes)).toBe(true);
      expect(programmes.length).toBeGreaterThan(0);
      for (const p of programmes) {
        expect(Object.keys(p).sort()).toEqual(['channelId', 'description', 'duration', 'endDate', 'id', 'providerName', 'providerVideoId', 'startDate', 'title', 'videoTubeId']);
        expect(typeof p.duration).toBe('number');
        expect(p.startDate).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
        expect(Date.parse(p.endDate)).toBeGreaterThanOrEqual(Date.parse(p.startDate));
      }
      expect(programmes[0]).toMatchObject({ id: '201-5001-1', channelId: 201, videoTubeId: 5001, startDate: '2026-11-21T13:00:00.000Z', duration: 600 });
    });

    it('bad input is a non-2xx answer in the Custom envelope, never a 500', async () => {
      for (const url of [
        `${base}/users/11/channels/video?dates=2026-11-21`,
        `${base}/users/11/channels?limit=abc`,
        `${base}/users/11/channels/video?channel_ids=201&dates=1900-01-01,2026-01-01`,
      ]) {
        const response = await call(url);
        expect(response.statusCode, url).toBe(422);
        expect(response.json().data.message, url).toBe('The given data was invalid.');
      }
      expect((await call(`${base}/users/999/channels`)).statusCode).toBe(404);
    });
  });
});

describe('compatibility trees off by default', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp('pglite', clientsCatalog());
  });
  afterAll(() => t.close());

  it('answers their paths 404 in the Custom envelope', async () => {
    for (const url of [`/api/v1/services/roku/settings/${ROKU_API_KEY}`, '/api/v1/services/mobile/users/11/channels', '/api/v1/services/nope']) {
      const response = await t.request({ method: 'GET', url });
      expect([response.statusCode, response.json()], url).toEqual([404, failureOf(404, 'Not found.')]);
    }
  });
});
