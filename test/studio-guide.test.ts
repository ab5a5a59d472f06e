import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS } from './support/db.ts';
import { studioCatalog, studioTest, type StudioTest } from './support/studio.ts';

// Channel 201 (alice, America/New_York) plays 9001 (one-off 2026-11-21 08:00), 9002 (loopDaily
// 22:00), 9003 (unpublished, 12:00) and a live stream 2026-11-21 13:00-14:30. The Studio's guide
// preview must be exactly what the Custom API's guide gives a TV app for that channel and day.
describe.each(BACKENDS)('Studio guide preview on %s', (backend) => {
  let s: StudioTest;
  beforeAll(async () => {
    const catalog = studioCatalog();
    catalog.apps.push({ id: 304, ownerId: 11, platform: 'firetv', appName: 'Alice Fire TV', channels: [{ channelId: 201 }], createdAt: '2026-03-01T00:00:00Z' });
    s = await studioTest(backend, catalog);
  });
  afterAll(() => s.t.close());

  const custom = async (date: string, zone?: string) => {
    const response = await s.t.request({
      url: `/api/v1/services/custom/users/11/channels/video?channels_ids=201&dates=${date}&all_videos=1${zone ? `&timezone=${encodeURIComponent(zone)}` : ''}`,
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data as Array<Record<string, unknown>>;
  };

  it("answers the Custom guide's rows for the day in the request zone, or the channel's", async () => {
    for (const zone of ['Europe/Berlin', 'Asia/Tokyo', 'America/New_York']) {
      const response = await s.call('GET', `/channels/201/guide/2026-11-21?timezone=${encodeURIComponent(zone)}`);
      expect(response.statusCode, response.body).toBe(200);
      const data = response.json().data;
      expect(data).toMatchObject({ channelId: 201, date: '2026-11-21', timezone: zone, listed: true });
      const rows = await custom('2026-11-21', zone);
      expect(rows.length).toBeGreaterThan(0);
      expect(data.items).toEqual(rows);
    }
    const own = await s.call('GET', '/channels/201/guide/2026-11-21');
    expect(own.json().data.timezone).toBe('America/New_York');
    expect(own.json().data.items).toEqual(await custom('2026-11-21'));
    // The unpublished block 9003 (12:00) is not in it; the published 08:00 block and the live stream are.
    const starts = (own.json().data.items as { startDate: string }[]).map((r) => r.startDate);
    expect(starts.some((d) => d.startsWith('2026-11-21 08:00'))).toBe(true);
    expect(starts.some((d) => d.startsWith('2026-11-21 13:00'))).toBe(true);
    expect(starts.some((d) => d.startsWith('2026-11-21 12:00'))).toBe(false);
  });

  it('says when a TV app without a subscription gets no rows of the channel, and shows the owner the rows its app sells', async () => {
    // 202 is carried only by the paid mobile app 301: the Custom guide leaves it out for anyone.
    const block = await s.call('POST', '/channels/202/schedules', { body: { startTime: '2026-11-21T10:00:00', videoIds: [5003] } });
    expect(block.statusCode, block.body).toBe(201);
    const response = await s.call('GET', '/channels/202/guide/2026-11-21?timezone=UTC');
    expect(response.statusCode, response.body).toBe(200);
    const data = response.json().data;
    // Issue 30: the preview was empty; the owner now sees what the app's subscribers get.
    expect(data).toMatchObject({ channelId: 202, listed: false, soldBy: 'mobile' });
    expect(data.items).toHaveLength(1);
    expect(data.items[0].startDate).toMatch(/^2026-11-21 10:00/);
    // A locked private channel still hands out no stream in the preview.
    expect(data.items[0].streamUrl ?? '').toBe('');
    const custom202 = await s.t.request({ url: '/api/v1/services/custom/users/11/channels/video?channels_ids=202&dates=2026-11-21&timezone=UTC' });
    expect(custom202.json().data).toEqual([]);
    // The free channel 201 is listed and names no seller.
    expect((await s.call('GET', '/channels/201/guide/2026-11-21')).json().data).toMatchObject({ listed: true, soldBy: null });
  });

  it('follows an edit at once: a new block appears in the preview and in the Custom guide alike', async () => {
    const created = await s.call('POST', '/channels/201/schedules', { body: { startTime: '2026-12-03T07:00:00', videoIds: [5002] } });
    expect(created.statusCode, created.body).toBe(201);
    const preview = (await s.call('GET', '/channels/201/guide/2026-12-03?timezone=UTC')).json().data.items;
    expect(preview).toEqual(await custom('2026-12-03', 'UTC'));
    expect(preview.some((r: { startDate: string }) => r.startDate.includes('12:00'))).toBe(true);
  });

  it("refuses another owner's channel as missing, and a bad date or zone as invalid_request", async () => {
    const olgas = await s.call('GET', '/channels/601/guide/2026-11-21');
    expect(olgas.statusCode).toBe(404);
    expect(olgas.json()).toMatchObject({ success: false, error: { code: 'not_found' } });
    expect((await s.call('GET', '/channels/601/guide/2026-11-21', { token: s.tokens.olga })).statusCode).toBe(200);
    const badDate = await s.call('GET', '/channels/201/guide/2026-02-30');
    expect(badDate.statusCode).toBe(422);
    expect(badDate.json().error.code).toBe('invalid_request');
    const badZone = await s.call('GET', '/channels/201/guide/2026-11-21?timezone=Mars/Olympus');
    expect(badZone.statusCode).toBe(422);
    expect(badZone.json().error).toMatchObject({ code: 'invalid_request', details: [{ path: 'querystring.timezone', message: 'must be a valid IANA or Windows time zone id' }] });
    expect((await s.call('GET', '/channels/201/guide/2026-11-21', { token: s.tokens.victor })).statusCode).toBe(403);
  });
});
