// The Analytics screen in a real browser: heartbeats posted as players post them show up as the
// concurrency chart's peak, in the watch-time tables, in viewers now and in the sessions table and
// its CSV download. Assertions read text; the charts' pixels are only in the screenshots.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWNER, smallCatalog } from './fixtures/catalog.ts';
import { consoleServer, downloadedText, openScreen, screenshot, type ConsoleServer } from './support/console.ts';

describe('Studio console: analytics', { timeout: 120_000 }, () => {
  let server: ConsoleServer;
  beforeAll(async () => {
    server = await consoleServer(smallCatalog());
    // Three players on Alice News, one heartbeat each, now (the server runs on the real clock).
    for (const device of ['tv-1', 'tv-2', 'phone-1']) {
      const source = device.startsWith('tv') ? 'roku_app' : 'mobile_app_on_ios';
      const posted = await server.api('POST', '/api/v1/activity', { body: { source, action: 'play_channel', client_id: 11, user_id: device, channel_id: 201 } });
      expect(posted.status, posted.text).toBe(200);
    }
  }, 120_000);
  afterAll(() => server?.close());

  it('draws the heartbeats: peak, viewers now, watch time per channel and platform, sessions and CSV', async () => {
    const page = await server.signedIn(OWNER.username, OWNER.password);
    await page.goto('/studio/#/analytics');
    await page.getByRole('combobox', { name: 'Time zone' }).fill('UTC');
    await page.getByLabel('Concurrency summary').getByText(/^Peak 3 viewers at \d\d:\d\d\.$/).waitFor();
    await page.getByLabel('Viewers now').getByText('3').waitFor();
    const perChannel = page.getByRole('table', { name: 'Watch time per channel' });
    await perChannel.getByText('Alice News').waitFor();
    const perPlatform = page.getByRole('table', { name: 'Watch time per platform' });
    await perPlatform.getByText('roku_app').waitFor();
    await perPlatform.getByText('mobile_app_on_ios').waitFor();
    const sessions = page.getByRole('table', { name: 'Sessions' });
    await sessions.getByText('phone-1').waitFor();
    expect(await sessions.getByText('watching').count()).toBe(3);
    await screenshot(page, 'analytics');
    const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
    const csv = await downloadedText(file);
    expect(csv.split('\n')[0]).toMatch(/source/i);
    for (const device of ['tv-1', 'tv-2', 'phone-1']) expect(csv).toContain(device);
    await page.context().close();
  });

  it('says a bad zone in words and works at phone width', async () => {
    const page = await server.signedIn(OWNER.username, OWNER.password, { width: 390, height: 844 });
    await openScreen(page, 'Analytics');
    await page.getByRole('combobox', { name: 'Time zone' }).fill('Nowhere/City');
    await page.getByText('Choose a real day and a time zone').waitFor();
    await page.getByRole('combobox', { name: 'Time zone' }).fill('UTC');
    await page.getByLabel('Concurrency summary').waitFor();
    await screenshot(page, 'analytics-phone');
    await page.context().close();
  });
});
