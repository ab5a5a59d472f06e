// Studio channels and their per-channel parts (library, vod, vast, password, live streams):
// CRUD, If-Match, Idempotency-Key, the import's wording for bad input, another owner's ids
// answering exactly as missing ones, and each change seen at once by the public APIs.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS } from './support/db.ts';
import { studioTest, type StudioTest } from './support/studio.ts';

const REST = '/api/v1/rest';
const CUSTOM = '/api/v1/services/custom';

const alice201 = {
  id: 201,
  ownerId: 11,
  name: 'Alice News',
  url: 'alice-news',
  categoryId: 1,
  languageId: 1,
  pictureUrl: null,
  description: null,
  order: 1,
  timezone: 'America/New_York',
  isWhiteLabeled: false,
  playLiveFirst: false,
  isVerified: false,
  keepGuideOpened: false,
  guideMode: 'default',
  subscriberCount: 0,
  createdAt: '2026-01-01T00:00:00.000Z',
  deleted: false,
  roku: { addedToRoku: true, lastUpdateDate: '2021-04-19T20:11:16.370Z' },
  hasPassword: false,
};

/**
 * The Custom routes answer from the catalog cache, which the write's NOTIFY drops; on PostgreSQL
 * the notification arrives on another connection, so it is polled for briefly (bounded).
 */
const POLL = { timeout: 5_000, interval: 50 };

const webVast = {
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
};

describe.each(BACKENDS)('Studio channels on %s', (backend) => {
  let s: StudioTest;
  beforeAll(async () => {
    s = await studioTest(backend);
  });
  afterAll(() => s.t.close());

  const rest = (url: string) => s.t.request({ url: `${REST}${url}`, headers: { authorization: `Bearer ${s.tokens.alice}` } });
  const custom = (url: string, headers: Record<string, string> = {}) => s.t.request({ url: `${CUSTOM}${url}`, headers });
  const rows = async (query: ReturnType<typeof sql>) => ((await s.t.database.db.execute(query)) as any).rows as any[];
  const listed = async (url = '/channels') => (await s.call('GET', url)).json().data.items.map((c: any) => c.id);

  describe('channels', () => {
    it("lists the owner's channels in their order (deleted ones only when asked), paginated and searchable", async () => {
      const page = (await s.call('GET', '/channels')).json().data;
      expect(page).toMatchObject({ page: 1, perPage: 50, total: 2 });
      expect(page.items.map((c: any) => c.id)).toEqual([202, 201]);
      expect(page.items[1]).toEqual(alice201);
      expect(page.items[0]).toMatchObject({ id: 202, hasPassword: true, roku: null });
      for (const item of page.items)
        for (const key of ['password', 'passwordHash', 'videoIds', 'vodVideoIds', 'vast', 'schedules', 'liveStreams']) expect(item).not.toHaveProperty(key);
      expect(await listed('/channels?deleted=1')).toEqual([202, 203, 201]);
      expect(await listed('/channels?deleted=1&per_page=1&page=2')).toEqual([203]);
      expect(await listed('/channels?q=MUSIC')).toEqual([202]);
      expect(await listed('/channels?q=news')).toEqual([201]);
      expect((await s.call('GET', '/channels?deleted=2')).statusCode).toBe(422);
      expect((await s.call('GET', '/channels', { token: s.tokens.olga })).json().data.items.map((c: any) => c.id)).toEqual([601]);
    });

    it('reads one channel with an ETag; a deleted one too', async () => {
      const read = await s.call('GET', '/channels/201');
      expect(read.statusCode).toBe(200);
      expect(read.json().data).toEqual(alice201);
      expect(read.headers.etag).toMatch(/^"[\w-]+"$/);
      const deleted = await s.call('GET', '/channels/203');
      expect(deleted.json().data).toMatchObject({ id: 203, deleted: true });
      expect((await s.call('GET', '/channels/abc')).statusCode).toBe(422);
    });

    it('creates a whole channel in one request: children, password and block ids assigned', async () => {
      const created = await s.call('POST', '/channels', {
        body: {
          name: 'Alice Sports',
          url: 'alice-sports',
          categoryId: 2,
          timezone: 'Europe/Paris',
          order: 7,
          password: 'sesame',
          videoIds: [5003, 5001],
          vodVideoIds: [5002],
          vast: [{ platform: 'mobile', vastUrl: 'https://ads.example/mobile' }],
          schedules: [{ startTime: '2026-11-21T09:00:00', videoIds: [5001] }],
          liveStreams: [{ videoId: 5003, start: '2026-11-22T18:00:00Z', end: '2026-11-22T19:00:00Z' }],
          hasPassword: false,
        },
      });
      expect(created.statusCode, created.body).toBe(201);
      const channel = created.json().data;
      expect(channel).toMatchObject({ ownerId: 11, name: 'Alice Sports', order: 7, hasPassword: true, deleted: false, createdAt: '2026-11-21T15:00:00.000Z', roku: null });
      expect(channel.id).toBeGreaterThan(601);
      expect(created.headers.etag).toBe((await s.call('GET', `/channels/${channel.id}`)).headers.etag);
      expect((await s.call('GET', `/channels/${channel.id}/library`)).json().data).toEqual({ videoIds: [5003, 5001] });
      expect((await s.call('GET', `/channels/${channel.id}/vod`)).json().data).toEqual({ videoIds: [5002] });
      expect((await s.call('GET', `/channels/${channel.id}/vast/mobile`)).json().data).toMatchObject({ vastUrl: 'https://ads.example/mobile', vastVersion: 1 });
      expect((await s.call('GET', `/channels/${channel.id}/live-streams`)).json().data.items).toEqual([
        { id: expect.any(Number), videoId: 5003, start: '2026-11-22T18:00:00.000Z', end: '2026-11-22T19:00:00.000Z', uri: '' },
      ]);
      const [block] = await rows(sql`select id from schedule_blocks where channel_id = ${channel.id}`);
      expect(block.id).toBeGreaterThan(9601);
      const [stored] = await rows(sql`select password_hash from channels where id = ${channel.id}`);
      expect(stored.password_hash).toMatch(/^scrypt:/);
      // At once on the REST API.
      expect((await rest(`/channels/${channel.id}`)).json().data.videos.map((v: any) => v.videoTubeId)).toEqual([5003, 5001]);
    });

    it('puts a new channel sent without an order last in app order (issue 30: it landed second)', async () => {
      const orders = (await s.call('GET', '/channels?deleted=1&per_page=500')).json().data.items.map((c: any) => c.order);
      const created = await s.call('POST', '/channels', { body: { name: 'Alice Late', url: 'alice-late', categoryId: 1, timezone: 'UTC' } });
      expect(created.statusCode, created.body).toBe(201);
      expect(created.json().data.order).toBe(Math.max(...orders) + 1);
      expect((await listed('/channels?per_page=500')).at(-1)).toBe(created.json().data.id);
      await s.call('DELETE', `/channels/${created.json().data.id}`);
    });

    it("refuses bad bodies in the import's wording and creates nothing", async () => {
      const before = (await s.call('GET', '/channels?deleted=1')).json().data.total;
      const base = { name: 'X', url: 'x-1', categoryId: 1 };
      const shape = await s.call('POST', '/channels', { body: { ...base, timezone: 'Mars/Base', colour: 1 } });
      expect(shape.statusCode).toBe(422);
      expect(shape.json().error.details).toEqual(
        expect.arrayContaining([
          { path: 'timezone', message: 'unknown time zone "Mars/Base"' },
          { path: 'colour', message: 'unknown field' },
        ]),
      );
      const url = await s.call('POST', '/channels', { body: { ...base, url: 'alice-news' } });
      expect(url.json().error.details).toEqual([{ path: 'url', message: 'url "alice-news" already used by channel 201 of owner 11' }]);
      const foreign = await s.call('POST', '/channels', { body: { ...base, videoIds: [5001, 6001], categoryId: 99 } });
      expect(foreign.statusCode).toBe(422);
      expect(foreign.json().error.details).toEqual([
        { path: 'categoryId', message: 'unknown category 99' },
        { path: 'videoIds[1]', message: 'unknown video 6001' },
      ]);
      const both = await s.call('POST', '/channels', { body: { ...base, password: 'abcd', passwordHash: 'scrypt:16384:8:1:c2FsdA==:aGFzaA==' } });
      expect(both.json().error.details).toEqual([{ path: '(root)', message: 'password and passwordHash are both set; give at most one' }]);
      expect((await s.call('POST', '/channels', { body: { ...base, ownerId: 16 } })).statusCode).toBe(422);
      const taken = await s.call('POST', '/channels', { body: { ...base, id: 601 } });
      expect([taken.statusCode, taken.json().error.code]).toEqual([409, 'id_taken']);
      const block = await s.call('POST', '/channels', { body: { ...base, schedules: [{ id: 9601, startTime: '2026-11-21T09:00:00', videoIds: [5001] }] } });
      expect([block.statusCode, block.json().error.code]).toEqual([409, 'id_taken']);
      expect((await s.call('GET', '/channels?deleted=1')).json().data.total).toBe(before);
    });

    it('a retried POST with the same Idempotency-Key creates one channel', async () => {
      const headers = { 'idempotency-key': 'channel-once' };
      const body = { name: 'Once', url: 'once', categoryId: 1 };
      const first = await s.call('POST', '/channels', { body, headers });
      const again = await s.call('POST', '/channels', { body, headers });
      expect(first.statusCode).toBe(201);
      expect(again.json()).toEqual(first.json());
      expect(again.headers.etag).toBe(first.headers.etag);
      expect(await listed('/channels?q=once')).toEqual([first.json().data.id]);
    });

    it("PATCH changes the channel's own fields with If-Match, seen by REST at once; children stay", async () => {
      const streamsBefore = (await s.call('GET', '/channels/201/live-streams')).json().data.items;
      const read = await s.call('GET', '/channels/201');
      const etag = read.headers.etag as string;
      const patched = await s.call('PATCH', '/channels/201', {
        body: { ...read.json().data, name: 'Alice Headlines', roku: null, hasPassword: true },
        headers: { 'if-match': etag },
      });
      expect(patched.statusCode, patched.body).toBe(200);
      expect(patched.json().data).toEqual({ ...alice201, name: 'Alice Headlines', roku: null });
      expect(patched.headers.etag).not.toBe(etag);
      const stale = await s.call('PATCH', '/channels/201', { body: { name: 'Lost' }, headers: { 'if-match': etag } });
      expect([stale.statusCode, stale.json().error.code]).toEqual([412, 'precondition_failed']);
      expect((await rest('/channels/201')).json().data.name).toBe('Alice Headlines');
      // Live stream ids, the library and the VAST rows are untouched by a channel PATCH.
      expect((await s.call('GET', '/channels/201/live-streams')).json().data.items).toEqual(streamsBefore);
      expect((await s.call('GET', '/channels/201/library')).json().data.videoIds).toEqual([5001, 5002]);
      expect((await s.call('GET', '/channels/201/vast')).json().data.items).toHaveLength(2);
    });

    it('PATCH refuses fixed fields, children and the password, pointing to their routes', async () => {
      const fixed = await s.call('PATCH', '/channels/201', { body: { id: 77, ownerId: 16 } });
      expect(fixed.json().error.details).toEqual([
        { path: 'id', message: 'cannot be changed' },
        { path: 'ownerId', message: 'cannot be changed' },
      ]);
      const children = await s.call('PATCH', '/channels/201', { body: { videoIds: [5001], password: 'x' } });
      expect(children.statusCode).toBe(422);
      expect(children.json().error.details).toEqual([
        { path: 'videoIds', message: 'not changed by a channel PATCH; use PUT /channels/201/library' },
        { path: 'password', message: 'not changed by a channel PATCH; use PUT or DELETE /channels/201/password' },
      ]);
      const zone = await s.call('PATCH', '/channels/201', { body: { timezone: 'Nowhere/City', url: 'alice-music' } });
      expect(zone.json().error.details).toEqual([{ path: 'timezone', message: 'unknown time zone "Nowhere/City"' }]);
      const url = await s.call('PATCH', '/channels/201', { body: { url: 'alice-music' } });
      expect(url.json().error.details).toEqual([{ path: 'url', message: 'url "alice-music" already used by channel 202 of owner 11' }]);
      expect((await s.call('PATCH', '/channels/201', { body: { colour: 'red' } })).json().error.details).toEqual([{ path: 'colour', message: 'unknown field' }]);
      expect((await s.call('GET', '/channels/201')).json().data.url).toBe('alice-news');
    });

    it('DELETE hides the channel from the public APIs; the Studio still reads it and PATCH restores it', async () => {
      const channel = (await s.call('POST', '/channels', { body: { name: 'Doomed', url: 'doomed', categoryId: 1, videoIds: [5001] } })).json().data;
      expect((await rest(`/channels/${channel.id}`)).statusCode).toBe(200);
      const gone = await s.call('DELETE', `/channels/${channel.id}`);
      expect(gone.statusCode).toBe(204);
      expect(gone.body).toBe('');
      expect((await rest(`/channels/${channel.id}`)).statusCode).toBe(404);
      expect((await rest('/channels')).json().data.map((c: any) => c.channelTubeId)).not.toContain(channel.id);
      expect(await listed()).not.toContain(channel.id);
      expect(await listed('/channels?deleted=1')).toContain(channel.id);
      const read = await s.call('GET', `/channels/${channel.id}`);
      expect(read.json().data.deleted).toBe(true);
      expect((await s.call('DELETE', `/channels/${channel.id}`)).statusCode).toBe(204);
      const restored = await s.call('PATCH', `/channels/${channel.id}`, { body: { deleted: false }, headers: { 'if-match': read.headers.etag as string } });
      expect(restored.json().data.deleted).toBe(false);
      expect((await rest(`/channels/${channel.id}`)).json().data.videos.map((v: any) => v.videoTubeId)).toEqual([5001]);
    });

    it('PUT /channels/order sets order 0..n-1 in the given sequence', async () => {
      const bad = await s.call('PUT', '/channels/order', { body: { channelIds: [601, 201, 201] } });
      expect(bad.statusCode).toBe(422);
      expect(bad.json().error.details).toEqual([
        { path: 'channelIds[0]', message: 'unknown channel 601' },
        { path: 'channelIds[2]', message: 'duplicate channel 201' },
      ]);
      const put = await s.call('PUT', '/channels/order', { body: { channelIds: [202, 201] } });
      expect(put.statusCode, put.body).toBe(200);
      expect((await s.call('GET', '/channels/202')).json().data.order).toBe(0);
      expect((await s.call('GET', '/channels/201')).json().data.order).toBe(1);
      const all = (await s.call('GET', '/channels')).json().data.items.map((c: any) => c.id);
      const reversed = [...all].reverse();
      const again = await s.call('PUT', '/channels/order', { body: { channelIds: reversed } });
      expect(again.json().data).toEqual({ channelIds: reversed });
      expect(await listed()).toEqual(reversed);
      expect((await rest('/channels')).json().data.map((c: any) => c.channelTubeId)).toEqual(reversed);
    });
  });

  describe('library and vod', () => {
    it('reads and replaces the library whole with If-Match; REST shows the new order at once', async () => {
      const read = await s.call('GET', '/channels/201/library');
      expect(read.json().data).toEqual({ videoIds: [5001, 5002] });
      const put = await s.call('PUT', '/channels/201/library', { body: { videoIds: [5002, 5003, 5001] }, headers: { 'if-match': read.headers.etag as string } });
      expect(put.statusCode, put.body).toBe(200);
      expect(put.json().data).toEqual({ videoIds: [5002, 5003, 5001] });
      expect(put.headers.etag).toBe((await s.call('GET', '/channels/201/library')).headers.etag);
      expect((await rest('/channels/201')).json().data.videos.map((v: any) => v.videoTubeId)).toEqual([5002, 5003, 5001]);
      const stale = await s.call('PUT', '/channels/201/library', { body: { videoIds: [] }, headers: { 'if-match': read.headers.etag as string } });
      expect(stale.statusCode).toBe(412);
    });

    it("refuses duplicates and another owner's videos with the catalog's wording, for the library and the VOD catalog", async () => {
      for (const list of ['library', 'vod']) {
        const before = (await s.call('GET', `/channels/201/${list}`)).json().data;
        const bad = await s.call('PUT', `/channels/201/${list}`, { body: { videoIds: [5001, 6001, 5001, 999] } });
        expect(bad.statusCode).toBe(422);
        expect(bad.json().error.details).toEqual([
          { path: 'videoIds[1]', message: 'unknown video 6001' },
          { path: 'videoIds[3]', message: 'unknown video 999' },
          { path: 'videoIds[2]', message: 'duplicate video 5001' },
        ]);
        expect((await s.call('GET', `/channels/201/${list}`)).json().data).toEqual(before);
      }
      expect((await s.call('PUT', '/channels/201/vod', { body: { videoIds: ['x'] } })).json().error.details).toEqual([
        { path: 'videoIds[0]', message: 'expected number, got string' },
      ]);
    });

    it('replaces the VOD catalog', async () => {
      expect((await s.call('GET', '/channels/201/vod')).json().data).toEqual({ videoIds: [5002] });
      const put = await s.call('PUT', '/channels/201/vod', { body: { videoIds: [5003, 5002] } });
      expect(put.json().data).toEqual({ videoIds: [5003, 5002] });
      const [{ ids }] = await rows(sql`select array_agg(video_id order by position) as ids from channel_vod_videos where channel_id = 201`);
      expect(ids).toEqual([5003, 5002]);
    });
  });

  describe('vast', () => {
    it('lists and reads the settings per platform', async () => {
      const list = await s.call('GET', '/channels/201/vast');
      expect(list.json().data.items.map((v: any) => v.platform)).toEqual(['roku', 'web']);
      const web = await s.call('GET', '/channels/201/vast/web');
      expect(web.json().data).toEqual(webVast);
      expect(web.headers.etag).toBeDefined();
      const none = await s.call('GET', '/channels/201/vast/firetv');
      expect([none.statusCode, none.json().error.code]).toEqual([404, 'not_found']);
      const unknown = await s.call('GET', '/channels/201/vast/tv');
      expect(unknown.statusCode).toBe(422);
      expect(unknown.json().error.details[0].path).toBe('params.platform');
    });

    it("PUT replaces (200) or creates (201) a platform's setting, seen by the Custom vast route at once", async () => {
      const roku = await s.call('GET', '/channels/201/vast/roku');
      const replaced = await s.call('PUT', '/channels/201/vast/roku', {
        body: { ...roku.json().data, vastUrl: 'https://ads.example/roku-2', timeFrom: 6 },
        headers: { 'if-match': roku.headers.etag as string },
      });
      expect(replaced.statusCode, replaced.body).toBe(200);
      expect(replaced.json().data).toMatchObject({ platform: 'roku', vastUrl: 'https://ads.example/roku-2', timeFrom: 6 });
      await expect
        .poll(async () => (await custom('/channels/201/vast?platform=roku')).json().data, POLL)
        .toMatchObject({ Platform: 'roku', VastUrl: 'https://ads.example/roku-2', TimeFrom: 6 });
      const stale = await s.call('PUT', '/channels/201/vast/roku', { body: { vastUrl: 'https://lost.example' }, headers: { 'if-match': roku.headers.etag as string } });
      expect(stale.statusCode).toBe(412);
      const created = await s.call('PUT', '/channels/201/vast/firetv', { body: { vastUrl: 'https://ads.example/fire' } });
      expect(created.statusCode, created.body).toBe(201);
      expect(created.json().data).toEqual({
        ...webVast,
        platform: 'firetv',
        vastUrl: 'https://ads.example/fire',
        vastVersion: 1,
        skippable: false,
        adFrequency: null,
        midRollFrequency: null,
        slottable: false,
        timeFrom: null,
        timeTo: null,
        vastType: null,
        allowAdsInVod: false,
      });
      await expect.poll(async () => (await custom('/channels/201/vast?platform=firetv')).json().data.VastUrl, POLL).toBe('https://ads.example/fire');
      expect((await s.call('GET', '/channels/201/vast')).json().data.items.map((v: any) => v.platform)).toEqual(['firetv', 'roku', 'web']);
    });

    it('refuses bad settings and a platform that differs from the path', async () => {
      const bad = await s.call('PUT', '/channels/201/vast/web', { body: { vastUrl: '', timeFrom: 30, vastType: 'banner' } });
      expect(bad.statusCode).toBe(422);
      expect(bad.json().error.details).toEqual(
        expect.arrayContaining([
          { path: 'vastUrl', message: 'must not be empty' },
          { path: 'timeFrom', message: 'must be 0-23' },
        ]),
      );
      const other = await s.call('PUT', '/channels/201/vast/web', { body: { platform: 'roku', vastUrl: 'https://x.example' } });
      expect(other.json().error.details).toEqual([{ path: 'platform', message: 'must be "web" (the path\'s) or left out' }]);
      const ifNone = await s.call('PUT', '/channels/201/vast/appletv', { body: { vastUrl: 'https://x.example' }, headers: { 'if-match': '*' } });
      expect(ifNone.statusCode).toBe(412);
      expect((await s.call('GET', '/channels/201/vast/web')).json().data).toEqual(webVast);
    });

    it("DELETE removes a platform's setting; the Custom route falls back to the web row", async () => {
      expect((await s.call('DELETE', '/channels/201/vast/firetv')).statusCode).toBe(204);
      expect((await s.call('GET', '/channels/201/vast/firetv')).statusCode).toBe(404);
      expect((await s.call('DELETE', '/channels/201/vast/firetv')).statusCode).toBe(404);
      await expect.poll(async () => (await custom('/channels/201/vast?platform=firetv')).json().data.Platform, POLL).toBe('web');
    });
  });

  describe('password', () => {
    it('answers only whether there is one', async () => {
      const read = await s.call('GET', '/channels/202/password');
      expect(read.json()).toEqual({ success: true, data: { hasPassword: true } });
      expect(read.body).not.toContain('scrypt');
      expect((await s.call('GET', '/channels/201/password')).json().data).toEqual({ hasPassword: false });
    });

    it('setting one makes the channel private in the Custom channel list; clearing makes it public', async () => {
      // A channel no paid app sells, so the Custom list shows it to a caller without an app.
      const id = (await s.call('POST', '/channels', { body: { name: 'Open', url: 'open', categoryId: 1, vodVideoIds: [5001] } })).json().data.id;
      const privateOf = async () => (await custom('/users/11/channels')).json().data.find((c: any) => c.id === id)?.privateChannel;
      await expect.poll(privateOf, POLL).toBe(false);
      const read = await s.call('GET', `/channels/${id}/password`);
      const set = await s.call('PUT', `/channels/${id}/password`, { body: { password: 'open sesame' }, headers: { 'if-match': read.headers.etag as string } });
      expect(set.statusCode, set.body).toBe(200);
      expect(set.json().data).toEqual({ hasPassword: true });
      expect(set.headers.etag).toBe((await s.call('GET', `/channels/${id}/password`)).headers.etag);
      await expect.poll(privateOf, POLL).toBe(true);
      expect((await s.call('GET', `/channels/${id}`)).json().data.hasPassword).toBe(true);
      const stale = await s.call('PUT', `/channels/${id}/password`, { body: { password: 'other' }, headers: { 'if-match': read.headers.etag as string } });
      expect(stale.statusCode).toBe(412);
      expect((await s.call('PUT', `/channels/${id}/password`, { body: { password: '' } })).json().error.details).toEqual([{ path: 'password', message: 'must not be empty' }]);
      expect((await s.call('DELETE', `/channels/${id}/password`)).statusCode).toBe(204);
      await expect.poll(privateOf, POLL).toBe(false);
      expect((await s.call('DELETE', `/channels/${id}/password`)).statusCode).toBe(204);
    });

    it('a new password forgets earlier unlocks: the old password no longer unlocks, the new one does', async () => {
      const unlock = (password: string, device: string) =>
        s.t.request({ method: 'POST', url: `${CUSTOM}/getChannelToken`, payload: { channel_id: 202, password }, headers: { 'accept-platform-device-id': device } });
      expect((await unlock('letmein', 'tv-1')).statusCode).toBe(200);
      expect(await rows(sql`select device_id from channel_unlocks where channel_id = 202`)).toEqual([{ device_id: 'tv-1' }]);
      expect((await s.call('PUT', '/channels/202/password', { body: { password: 'new secret' } })).statusCode).toBe(200);
      expect(await rows(sql`select device_id from channel_unlocks where channel_id = 202`)).toEqual([]);
      expect((await unlock('letmein', 'tv-1')).statusCode).toBe(403);
      expect((await unlock('new secret', 'tv-1')).statusCode).toBe(200);
    });
  });

  describe('live streams', () => {
    let streamId: number;

    it("lists the channel's live streams with their ids", async () => {
      const list = await s.call('GET', '/channels/201/live-streams');
      expect(list.json().data.items).toEqual([
        { id: expect.any(Number), videoId: 5003, start: '2026-11-21T18:00:00.000Z', end: '2026-11-21T19:30:00.000Z', uri: 'https://live.example/1' },
      ]);
      streamId = list.json().data.items[0].id;
      const one = await s.call('GET', `/channels/201/live-streams/${streamId}`);
      expect(one.json().data).toEqual(list.json().data.items[0]);
      expect(one.headers.etag).toBeDefined();
    });

    it('POST adds one (idempotently); the others keep their ids', async () => {
      const headers = { 'idempotency-key': 'live-once' };
      const body = { videoId: 5001, start: '2026-11-21T12:00:00-05:00', end: '2026-11-21T18:00:00Z', uri: 'https://live.example/early' };
      const created = await s.call('POST', '/channels/201/live-streams', { body, headers });
      expect(created.statusCode, created.body).toBe(201);
      expect(created.json().data).toEqual({
        id: expect.any(Number),
        videoId: 5001,
        start: '2026-11-21T17:00:00.000Z',
        end: '2026-11-21T18:00:00.000Z',
        uri: 'https://live.example/early',
      });
      const again = await s.call('POST', '/channels/201/live-streams', { body, headers });
      expect(again.json()).toEqual(created.json());
      const items = (await s.call('GET', '/channels/201/live-streams')).json().data.items;
      expect(items.map((l: any) => l.id)).toEqual([created.json().data.id, streamId]);
    });

    it("refuses bad live streams in the catalog's wording", async () => {
      const backwards = await s.call('POST', '/channels/201/live-streams', { body: { videoId: 5001, start: '2026-11-21T18:00:00Z', end: '2026-11-21T17:00:00Z' } });
      expect(backwards.json().error.details).toEqual([{ path: 'end', message: 'end must be after start' }]);
      const foreign = await s.call('POST', '/channels/201/live-streams', { body: { videoId: 6001, start: '2026-11-21T18:00:00Z', end: '2026-11-21T19:00:00Z' } });
      expect(foreign.json().error.details).toEqual([{ path: 'videoId', message: 'unknown video 6001' }]);
      const patch = await s.call('PATCH', `/channels/201/live-streams/${streamId}`, { body: { end: '2026-11-21T17:59:00Z' } });
      expect(patch.json().error.details).toEqual([{ path: 'end', message: 'end must be after start' }]);
      expect((await s.call('GET', '/channels/201/live-streams')).json().data.items).toHaveLength(2);
    });

    it('PATCH ends a live stream early in place, with If-Match; REST schedules see it', async () => {
      const read = await s.call('GET', `/channels/201/live-streams/${streamId}`);
      const patched = await s.call('PATCH', `/channels/201/live-streams/${streamId}`, {
        body: { ...read.json().data, end: '2026-11-21T18:30:00Z' },
        headers: { 'if-match': read.headers.etag as string },
      });
      expect(patched.statusCode, patched.body).toBe(200);
      expect(patched.json().data).toEqual({ ...read.json().data, end: '2026-11-21T18:30:00.000Z' });
      const stale = await s.call('PATCH', `/channels/201/live-streams/${streamId}`, { body: { uri: 'x' }, headers: { 'if-match': read.headers.etag as string } });
      expect(stale.statusCode).toBe(412);
      expect((await s.call('PATCH', `/channels/201/live-streams/${streamId}`, { body: { id: streamId + 1000 } })).json().error.details).toEqual([
        { path: 'id', message: 'cannot be changed' },
      ]);
      const [row] = await rows(sql`select end_at from live_streams where id = ${streamId}`);
      expect(new Date(row.end_at).toISOString()).toBe('2026-11-21T18:30:00.000Z');
    });

    it('DELETE removes one; a live stream of another channel is not found under this one', async () => {
      const items = (await s.call('GET', '/channels/201/live-streams')).json().data.items;
      const early = items.find((l: any) => l.id !== streamId);
      expect((await s.call('GET', `/channels/202/live-streams/${streamId}`)).statusCode).toBe(404);
      expect((await s.call('DELETE', `/channels/201/live-streams/${early.id}`)).statusCode).toBe(204);
      expect((await s.call('GET', `/channels/201/live-streams/${early.id}`)).statusCode).toBe(404);
      expect((await s.call('GET', '/channels/201/live-streams')).json().data.items.map((l: any) => l.id)).toEqual([streamId]);
    });
  });

  it("another owner's channel answers 404 on every route exactly as a missing one, and nothing changes", async () => {
    const before = await rows(sql`select * from channels where id = 201`);
    const streamId = (await s.call('GET', '/channels/201/live-streams')).json().data.items[0].id;
    const routes: [string, string, unknown?][] = [
      ['GET', '/channels/ID'],
      ['PATCH', '/channels/ID', { name: 'Taken over' }],
      ['DELETE', '/channels/ID'],
      ['GET', '/channels/ID/library'],
      ['PUT', '/channels/ID/library', { videoIds: [6001] }],
      ['GET', '/channels/ID/vod'],
      ['PUT', '/channels/ID/vod', { videoIds: [] }],
      ['GET', '/channels/ID/vast'],
      ['GET', '/channels/ID/vast/web'],
      ['PUT', '/channels/ID/vast/web', { vastUrl: 'https://evil.example' }],
      ['DELETE', '/channels/ID/vast/web'],
      ['GET', '/channels/ID/password'],
      ['PUT', '/channels/ID/password', { password: 'mine now' }],
      ['DELETE', '/channels/ID/password'],
      ['GET', '/channels/ID/live-streams'],
      ['POST', '/channels/ID/live-streams', { videoId: 6001, start: '2026-11-21T18:00:00Z', end: '2026-11-21T19:00:00Z' }],
      ['GET', `/channels/ID/live-streams/${streamId}`],
      ['PATCH', `/channels/ID/live-streams/${streamId}`, { uri: 'x' }],
      ['DELETE', `/channels/ID/live-streams/${streamId}`],
    ];
    for (const [method, path, body] of routes) {
      const hers = await s.call(method, path.replace('ID', '201'), { token: s.tokens.olga, ...(body === undefined ? {} : { body }) });
      const none = await s.call(method, path.replace('ID', '999999'), { token: s.tokens.olga, ...(body === undefined ? {} : { body }) });
      expect(hers.statusCode, `${method} ${path}`).toBe(404);
      expect(hers.body, `${method} ${path}`).toBe(none.body);
      expect(hers.headers.etag).toBeUndefined();
    }
    // Her own channel with alice's live stream id: not found either.
    expect((await s.call('GET', `/channels/601/live-streams/${streamId}`, { token: s.tokens.olga })).statusCode).toBe(404);
    const reorder = await s.call('PUT', '/channels/order', { token: s.tokens.olga, body: { channelIds: [201] } });
    expect(reorder.json().error.details).toEqual([{ path: 'channelIds[0]', message: 'unknown channel 201' }]);
    expect(await rows(sql`select * from channels where id = 201`)).toEqual(before);
    expect((await s.call('GET', '/channels/201/live-streams')).json().data.items.map((l: any) => l.id)).toEqual([streamId]);
  });

  it('records each change in the audit trail, naming the resource and fields', async () => {
    const audit = await rows(sql`select action, resource, fields from studio_audit where owner_id = 11 order by id`);
    const has = (action: string, resource: string, field?: string) =>
      audit.some((r) => r.action === action && r.resource === resource && (field === undefined || r.fields.includes(field)));
    expect(has('update', 'channels/201', 'name')).toBe(true);
    expect(has('update', 'channels/201/library', 'videoIds')).toBe(true);
    expect(has('create', 'channels/201/vast/firetv')).toBe(true);
    expect(has('delete', 'channels/201/vast/firetv')).toBe(true);
    expect(has('update', 'channels/202/password', 'password')).toBe(true);
    expect(audit.some((r) => r.action === 'update' && r.fields.join() === 'order')).toBe(true);
    expect(audit.some((r) => r.resource.startsWith('channels/201/live-streams/') && r.action === 'update' && r.fields.includes('end'))).toBe(true);
    expect(await rows(sql`select 1 from studio_audit where owner_id = 16`)).toEqual([]);
  });
});
