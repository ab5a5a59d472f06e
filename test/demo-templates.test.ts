// Issue 30, item 7: both shipped templates pointed at the demo catalog. The Roku template (no
// purchase flow) loads its guide from the demo's free Roku app; Northwind's Roku app stays paid
// (the purchase flow's); the Android TV template's search answers on /mobile.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoCatalog, LUMEN_ROKU_API_KEY } from '../src/demo/catalog.ts';
import { TEST_NOW, testApp, type TestApp } from './support/app.ts';
import { BACKENDS } from './support/db.ts';

const ROKU = '/api/v1/services/roku';
const NORTHWIND = 101;

describe.each(BACKENDS)('the demo with the shipped templates on %s', (backend) => {
  let t: TestApp;
  const get = (url: string) => t.request({ method: 'GET', url });
  beforeAll(async () => {
    t = await testApp(backend, demoCatalog(new Date(TEST_NOW)), { COMPAT_ROUTES: ['mobile', 'roku'] });
  }, 120_000);
  afterAll(() => t?.close());

  it("the Roku template loads its guide from the free Roku app: settings, channels, today's programmes", async () => {
    const settings = await get(`${ROKU}/settings/${LUMEN_ROKU_API_KEY}`);
    expect(settings.statusCode, settings.body).toBe(200);
    const userId = settings.json().UserId;
    const channels = await get(`${ROKU}/users/${userId}/channels?limit=100`);
    expect(channels.statusCode, channels.body).toBe(200);
    const ids = channels.json().data.map((c: any) => c.id);
    expect(ids.length).toBeGreaterThan(0);
    const guide = await get(`${ROKU}/users/${userId}/channels/video?channel_ids=${ids.join(',')}&dates=${TEST_NOW.slice(0, 10)}`);
    expect(guide.statusCode, guide.body).toBe(200);
    expect(guide.json().length).toBeGreaterThan(0);
  });

  it("Northwind's Roku app stays paid: the template without a purchase flow is refused", async () => {
    expect((await get(`${ROKU}/users/${NORTHWIND}/channels?limit=100`)).statusCode).toBe(403);
  });

  it("the Android TV template's search answers on /mobile and stays 404 on /custom", async () => {
    const query = 'key_word=news&channel_skip=0&channel_take=10&video_skip=0&video_take=10&timezone=UTC';
    // Lumen's mobile app is free: its channels and videos are searched without a subscription.
    const lumen = await get(`/api/v1/services/mobile/users/103/search?${query.replace('news', 'a')}`);
    expect(lumen.statusCode, lumen.body).toBe(200);
    expect(lumen.json().data[0].videos_count).toBeGreaterThan(0);
    expect((await get(`/api/v1/services/custom/users/103/search?${query}`)).statusCode).toBe(404);
  });
});
