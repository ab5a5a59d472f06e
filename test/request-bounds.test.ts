// Issue 12, items 1 and 3, from the attacker's side: requests whose work has no bound, dates at
// the edge of the accepted range, and zone spellings that used to be kept for ever.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWNER } from './fixtures/catalog.ts';
import type { TestApp } from './support/app.ts';
import { customClient, customTestApp, invalidWith } from './support/custom.ts';
import { BACKENDS } from './support/db.ts';

const video = (query: string) => `/users/11/channels/video?${query}`;

describe.each(BACKENDS)('request bounds on %s', (backend) => {
  let t: TestApp;
  const { get } = customClient(() => t);
  beforeAll(async () => {
    t = await customTestApp(backend);
  });
  afterAll(() => t.close());

  it('refuses channels/video dates more than 31 days apart (the two-minute freeze)', async () => {
    const freeze = await get(video('channels_ids=201,202,204,205,206&dates=1900-01-02,9998-12-30'));
    expect(freeze.statusCode).toBe(422);
    expect(freeze.json()).toEqual(invalidWith('dates'));
    expect(freeze.json().data.errors.dates[0]).toMatch(/31 days/);
    expect((await get(video('channels_ids=201&dates=2026-11-01,2026-12-02'))).statusCode).toBe(422);
    expect((await get(video('channels_ids=201&dates=2026-11-01,2026-12-01'))).statusCode).toBe(200);
  });

  it('refuses more channel-days than the cap, naming channels_ids', async () => {
    const ids = Array.from({ length: 40 }, (_, i) => 1000 + i).join(',');
    const dates = Array.from({ length: 31 }, (_, i) => `2026-11-${String(i + 1).padStart(2, '0')}`)
      .slice(0, 30)
      .join(',');
    const tooMany = await get(video(`channels_ids=${ids}&dates=${dates}`));
    expect(tooMany.statusCode).toBe(422);
    expect(tooMany.json()).toEqual(invalidWith('channels_ids'));
    expect(tooMany.json().data.errors.channels_ids[0]).toMatch(/500 channel-days/);
  });

  it('answers the first and last accepted dates in the most extreme zones, never a 500', async () => {
    for (const zone of ['Etc/GMT+12', 'Etc/GMT-14', 'Pacific/Kiritimati', 'UTC', 'America/New_York']) {
      for (const date of ['1900-01-01', '9998-12-31']) {
        const custom = await get(video(`channels_ids=201,204&dates=${date}&timezone=${encodeURIComponent(zone)}`));
        expect(custom.statusCode, `${date} ${zone}`).toBe(200);
        const live = await get(`/users/11/channels/204/live?date=${date}&timezone=${encodeURIComponent(zone)}`);
        expect(live.statusCode, `live ${date} ${zone}`).toBe(200);
      }
    }
    const rest = await t.request({ method: 'POST', url: '/api/v1/rest/auth/login', payload: { username: OWNER.username, password: OWNER.password } });
    const token = rest.json().data.authToken as string;
    for (const date of ['1900-01-01', '9998-12-31']) {
      const day = await t.request({ method: 'GET', url: `/api/v1/rest/channels/201/schedules?date=${date}`, headers: { authorization: `Bearer ${token}` } });
      expect(day.statusCode, date).toBe(200);
    }
  });

  it('resolves zone spellings to the canonical IANA name, and refuses names of nothing', async () => {
    // The pagination links repeat the query as sent; the rows are what the zone decides.
    const canonical = (await get(video('channels_ids=201&dates=2026-11-21&timezone=America/New_York'))).json().data;
    expect(canonical.length).toBeGreaterThan(0);
    for (const spelling of ['aMeRiCa/new_york', 'AMERICA/NEW_YORK', 'eastern standard time']) {
      const response = await get(video(`channels_ids=201&dates=2026-11-21&timezone=${encodeURIComponent(spelling)}`));
      expect(response.statusCode, spelling).toBe(200);
      expect(response.json().data, spelling).toEqual(canonical);
    }
    for (const junk of ['America/New_Yorkx', 'Mars/Olympus', 'UTC+99', '../../etc']) {
      expect(await get(video(`channels_ids=201&dates=2026-11-21&timezone=${encodeURIComponent(junk)}`))).toMatchObject({ statusCode: 422 });
    }
  });
});
