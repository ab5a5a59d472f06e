import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VIEWER } from './fixtures/catalog.ts';
import type { TestApp } from './support/app.ts';
import { bearer, customClient, customTestApp, failureOf, invalidWith } from './support/custom.ts';
import { BACKENDS } from './support/db.ts';

const video = (query: string) => `/users/11/channels/video?${query}`;
const brief = (rows: any[]) => rows.map((r) => [r.customId, r.startDate, r.endDate]);

/** Channel 201 (New York) on 2026-11-21 in its own zone. */
const NEWS_DAY = [
  ['201-5001-1', '2026-11-21 08:00:00', '2026-11-21 08:10:00'],
  ['201-5002-1', '2026-11-21 08:10:00', '2026-11-21 08:12:00'],
  ['201-5001-2', '2026-11-21 08:12:00', '2026-11-21 08:22:01'],
  ['201-5003-1', '2026-11-21 13:00:00', '2026-11-21 14:30:00'],
  ['201-5002-2', '2026-11-21 22:00:00', '2026-11-21 22:02:00'],
];

describe.each(BACKENDS)('Custom API schedules on %s', (backend) => {
  let t: TestApp;
  const { get, login } = customClient(() => t);
  beforeAll(async () => {
    t = await customTestApp(backend);
  });
  afterAll(() => t.close());

  describe('channels/video', () => {
    it('answers the published rows of a channel-day in the channel zone, with stable occurrence ids', async () => {
      const response = await get(video('channels_ids=201&dates=2026-11-21'));
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(brief(body.data)).toEqual(NEWS_DAY);
      expect(body.data[0]).toEqual({
        customId: '201-5001-1',
        id: '201-5001-1',
        videoTubeId: 5001,
        userId: 11,
        title: 'Morning news',
        providerVideoId: 'abcdefghijk',
        channelId: 201,
        duration: 600,
        timeDuration: '0h. 10min',
        startDate: '2026-11-21 08:00:00',
        endDate: '2026-11-21 08:10:00',
        providerName: 'YouTube',
        durationInDate: '08:00 AM - 08:10 AM',
        thumbnail: 'https://img.example/1.jpg',
        streamUrl: 'https://media.example/morning.m3u8',
        isVod: false,
      });
      expect(body.data[3]).toMatchObject({
        videoTubeId: 5003,
        duration: 5400,
        timeDuration: '1h. 30min',
        durationInDate: '01:00 PM - 02:30 PM',
        streamUrl: 'https://live.example/1',
      });
      expect(body.meta).toEqual({ current_page: 1, from: 1, last_page: 1, path: expect.stringMatching(/\/users\/11\/channels\/video$/), per_page: 50, to: 5, total: 5 });
      expect(body.links).toEqual({ first: expect.stringContaining('page=1'), last: expect.stringContaining('page=1'), prev: null, next: null });
      expect(await get(video('channels_ids=201&dates=2026-11-21'))).toMatchObject({ body: response.body });
    });

    it('accepts the three date forms, collapses duplicates and sorts the days', async () => {
      for (const dates of ['20261121', '20261121235959', '2026-11-21,20261121,20261121000000', ',2026-11-21,']) {
        expect(brief((await get(video(`channels_ids=201&dates=${dates}`))).json().data)).toEqual(NEWS_DAY);
      }
      const twoDays = (await get(video('channels_ids=201&dates=2026-11-22,2026-11-21'))).json().data;
      expect(brief(twoDays)).toEqual([...NEWS_DAY, ['201-5002-1', '2026-11-22 22:00:00', '2026-11-22 22:02:00']]);
    });

    it('renders in the request zone: query, header, Windows id; the query wins over the header', async () => {
      const utcDay = [
        ['201-5002-1', '2026-11-21 03:00:00', '2026-11-21 03:02:00'],
        ['201-5001-1', '2026-11-21 13:00:00', '2026-11-21 13:10:00'],
        ['201-5002-2', '2026-11-21 13:10:00', '2026-11-21 13:12:00'],
        ['201-5001-2', '2026-11-21 13:12:00', '2026-11-21 13:22:01'],
        ['201-5003-1', '2026-11-21 18:00:00', '2026-11-21 19:30:00'],
      ];
      expect(brief((await get(video('channels_ids=201&dates=2026-11-21&timezone=UTC'))).json().data)).toEqual(utcDay);
      expect(brief((await get(video('channels_ids=201&dates=2026-11-21'), { timezone: 'Etc/UTC' })).json().data)).toEqual(utcDay);
      expect(brief((await get(video('channels_ids=201&dates=2026-11-21&timezone=UTC'), { timezone: 'Asia/Tokyo' })).json().data)).toEqual(utcDay);
      for (const zone of ['Eastern Standard Time', 'eastern standard time']) {
        expect(brief((await get(video('channels_ids=201&dates=2026-11-21'), { timezone: zone })).json().data)).toEqual(NEWS_DAY);
      }
      const labelled = (await get(video(`channels_ids=201&dates=2026-11-21&timezone=${encodeURIComponent('Eastern Standard Time')}`))).json().data;
      expect(labelled[0].durationInDate).toBe('08:00 AM - 08:10 AM');
    });

    it('lists channels in the order asked, ignores unknown, deleted and other owners channels', async () => {
      const rows = (await get(video('channels_ids=202,201,201,999,203,401&dates=2026-11-21'))).json().data;
      expect(rows.map((r: any) => r.customId)).toEqual(['202-5003-1', '202-5004-1', ...NEWS_DAY.map((r) => r[0])]);
      expect((await get(video('channels_ids=401,99999999999&dates=2026-11-21'))).json()).toMatchObject({ data: [], meta: { total: 0, last_page: 1, from: null, to: null } });
    });

    it('withholds the stream URLs of a private channel that is not unlocked', async () => {
      const rows = (await get(video('channels_ids=202&dates=2026-11-21'))).json().data;
      expect(rows.map((r: any) => [r.customId, r.streamUrl])).toEqual([
        ['202-5003-1', null],
        ['202-5004-1', null],
      ]);
    });

    it('pages in the Laravel shape; per_page is capped at 2,000 (docs/security.md: What an owner may build), defaults to 50; all_videos=1 is one page of every row', async () => {
      const page = (query: string) => get(video(`channels_ids=201,202&dates=2026-11-21&${query}`));
      const second = (await page('per_page=3&page=2')).json();
      expect(second.data.map((r: any) => r.customId)).toEqual(['201-5003-1', '201-5002-2', '202-5003-1']);
      expect(second.meta).toMatchObject({ current_page: 2, from: 4, to: 6, last_page: 3, per_page: 3, total: 7 });
      expect(second.links.prev).toMatch(/page=1$/);
      expect(second.links.next).toContain('channels_ids=201%2C202');
      expect(second.links.next).toMatch(/per_page=3&page=3$/);
      const beyond = (await page('per_page=3&page=9')).json();
      expect([beyond.data, beyond.meta.from, beyond.meta.to, beyond.links.next, beyond.links.prev]).toEqual([[], null, null, null, expect.stringMatching(/page=3$/)]);
      expect((await page('per_page=100000')).json().meta).toMatchObject({ per_page: 2000, total: 7, last_page: 1 });
      // What the Android TV template asks (StrimmApi.kt getVideosByChannel): every row, one page.
      const all = (await page('per_page=3&page=2&all_videos=1')).json();
      expect([all.data.length, all.meta.current_page, all.meta.last_page, all.meta.total]).toEqual([7, 1, 1, 7]);
      expect((await page('per_page=')).json().meta.per_page).toBe(50);
    });

    it('refuses bad channels_ids, dates, pages and zones 422', async () => {
      const cases: [string, string[]][] = [
        ['dates=2026-11-21', ['channels_ids']],
        ['channels_ids=&dates=2026-11-21', ['channels_ids']],
        ['channels_ids=,,&dates=2026-11-21', ['channels_ids']],
        ['channels_ids=abc&dates=2026-11-21', ['channels_ids']],
        ['channels_ids=201&dates=0000-01-01', ['dates']],
        ['channels_ids=201;202&dates=2026-11-21', ['channels_ids']],
        ['channels_ids=-1&dates=2026-11-21', ['channels_ids']],
        ['channels_ids=1.5&dates=2026-11-21', ['channels_ids']],
        ['channels_ids=201', ['dates']],
        ['channels_ids=201&dates=', ['dates']],
        ...['2026-11-31', '2026/11/21', '21-11-2026', '20261121246000', '2026112', 'today', '2026-11-21T10:00:00', '2026-11-21,nope'].map((d): [string, string[]] => [
          `channels_ids=201&dates=${d}`,
          ['dates'],
        ]),
        ['channels_ids=201&dates=2026-11-21&page=0', ['page']],
        ['channels_ids=201&dates=2026-11-21&page=-3', ['page']],
        ['channels_ids=201&dates=2026-11-21&page=abc', ['page']],
        ['channels_ids=201&dates=2026-11-21&per_page=0', ['per_page']],
        ['channels_ids=201&dates=2026-11-21&timezone=Not/AZone', ['timezone']],
        ['channels_ids=201&dates=2026-11-21&timezone=Atlantis Standard Time', ['timezone']],
        ['page=0&per_page=0', ['channels_ids', 'dates', 'page', 'per_page']],
      ];
      for (const [query, fields] of cases) {
        const response = await get(video(query));
        expect([query, response.statusCode, response.json()]).toEqual([query, 422, invalidWith(...fields)]);
      }
      const day = (i: number) => new Date(Date.UTC(2026, 0, 1 + i)).toISOString().slice(0, 10);
      // 31 distinct days at most; repeats do not count.
      const repeated = Array.from({ length: 40 }, (_, i) => day(i % 31)).join(',');
      expect((await get(video(`channels_ids=201&dates=${repeated}`))).statusCode).toBe(200);
      const tooMany = Array.from({ length: 32 }, (_, i) => day(i)).join(',');
      expect((await get(video(`channels_ids=201&dates=${tooMany}`))).json()).toEqual(invalidWith('dates'));
      const unknownZone = await get(video('channels_ids=201&dates=2026-11-21'), { timezone: 'Mars Standard Time' });
      expect(unknownZone.json()).toEqual(invalidWith('timezone'));
    });

    it('gates a paid app: 403 without a subscription, rows with one (device or viewer)', async () => {
      const refused = await get(video('channels_ids=201&dates=2026-11-21'), { 'platform-id': 'ios' });
      expect([refused.statusCode, refused.json()]).toEqual([403, failureOf(403, 'subscription_required')]);
      const allowed = await get(video('channels_ids=201,204&dates=2026-11-21'), { 'platform-id': 'ios', 'device-id': 'device-1' });
      // 204 is not assigned to the mobile app: ignored.
      expect(brief(allowed.json().data)).toEqual(NEWS_DAY);
      const viewer = await login('victor', VIEWER.password);
      expect((await get(video('channels_ids=201&dates=2026-11-21'), { platform: 'mobile', ...bearer(viewer) })).statusCode).toBe(200);
      // Free fire-tv app: no gate.
      expect((await get(video('channels_ids=204&dates=2026-11-21'), { 'platform-id': 'fire-tv' })).json().data.map((r: any) => r.customId)).toEqual(['204-5004-1']);
    });
  });

  describe('live', () => {
    const live = (channel: number | string, query = '', headers = {}, now?: string) => get(`/users/11/channels/${channel}/live${query}`, headers, now);

    it('answers the live streams of the current UTC date by default, in UTC', async () => {
      const response = await live(204);
      expect([response.statusCode, response.json()]).toEqual([
        200,
        {
          data: [
            {
              videoTubeId: 5004,
              channelId: '204',
              startDate: '2026-11-21 20:00:00',
              endDate: '2026-11-21 21:00:00',
              description: 'Tonight',
              timeDuration: '1h. 0min',
              isPrivate: false,
              IsRRated: true,
              isRemovedByProvider: false,
              isRestrictedByProvider: false,
              providerVideoId: 'live-1',
              thumbnail: '',
              title: 'Live show',
              uri: 'https://live.example/2',
              providerName: 'Custom',
              live: false,
            },
          ],
        },
      ]);
      expect((await live(204, '', {}, '2026-11-21T20:30:00Z')).json().data[0].live).toBe(true);
      expect((await live(204, '', {}, '2026-11-22T00:30:00Z')).json()).toEqual({ data: [] });
    });

    it('takes a date in any accepted form and renders in the request zone', async () => {
      expect((await live(201, '?date=2026-11-21&timezone=America/New_York')).json().data[0]).toMatchObject({ startDate: '2026-11-21 13:00:00', channelId: '201' });
      expect((await live(201, '?date=20261121', { timezone: 'Eastern Standard Time' })).json().data[0].endDate).toBe('2026-11-21 14:30:00');
      expect((await live(201, '?date=2026-11-20')).json()).toEqual({ data: [] });
    });

    it('blanks the uri of a locked private channel', async () => {
      expect((await live(202)).json().data.map((l: any) => [l.videoTubeId, l.uri])).toEqual([[5004, '']]);
    });

    it('refuses bad dates 422, unknown channels 404 and unentitled paid-app viewers 403', async () => {
      for (const date of ['2026-02-30', 'tomorrow', '2026-11-21,2026-11-22']) {
        expect((await live(201, `?date=${date}`)).json()).toEqual(invalidWith('date'));
      }
      for (const id of [401, 203, 999, 'abc', '99999999999']) {
        const response = await live(id);
        expect([response.statusCode, response.json()]).toEqual([404, failureOf(404, 'Channel not found')]);
      }
      expect((await live(201, '', { 'platform-id': 'ios' })).statusCode).toBe(403);
      expect((await live(201, '', { 'platform-id': 'ios', 'device-id': 'device-1' })).statusCode).toBe(200);
    });
  });
});
