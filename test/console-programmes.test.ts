// Programme analytics on the Analytics screen in a real browser: players watching a channel now
// show up in the Programmes table (with the programme on air) and in the channel-day curve's
// table of programmes on air. Assertions read text; the chart's pixels are only in the screenshot.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWNER, smallCatalog } from './fixtures/catalog.ts';
import { consoleServer, screenshot, type ConsoleServer } from './support/console.ts';

/** The fixture plus a UTC channel that plays Concert (an hour) around the clock, every day. */
function programmeCatalog() {
  const catalog: any = smallCatalog();
  catalog.channels.push({
    id: 206,
    ownerId: 11,
    name: 'Alice Concerts',
    url: 'alice-concerts',
    categoryId: 2,
    timezone: 'UTC',
    order: 0,
    videoIds: [5003],
    schedules: [{ id: 9601, startTime: '2026-01-01T00:00:00', loopDaily: true, videoIds: Array.from({ length: 24 }, () => 5003) }],
    createdAt: '2026-01-01T00:00:00Z',
  });
  // And one with nothing scheduled ever: whoever watches it watches dead air.
  catalog.channels.push({ id: 207, ownerId: 11, name: 'Alice Blank', url: 'alice-blank', categoryId: 2, timezone: 'UTC', createdAt: '2026-01-01T00:00:00Z' });
  return catalog;
}

describe('Studio console: programme analytics', { timeout: 120_000 }, () => {
  let server: ConsoleServer;
  beforeAll(async () => {
    server = await consoleServer(programmeCatalog());
    // Three players on Alice Concerts now (the server runs on the real clock).
    for (const device of ['tv-1', 'tv-2', 'phone-1']) {
      const posted = await server.api('POST', '/api/v1/activity', {
        body: { source: 'roku_app', action: 'play_channel', client_id: device.length, user_id: device, channel_id: 206 },
      });
      expect(posted.status, posted.text).toBe(200);
    }
    const dark = await server.api('POST', '/api/v1/activity', { body: { source: 'roku_app', action: 'play_channel', client_id: 9, channel_id: 207 } });
    expect(dark.status, dark.text).toBe(200);
  }, 120_000);
  afterAll(() => server?.close());

  it('lists the programme watched and draws the channel day with what was on air', async () => {
    const page = await server.signedIn(OWNER.username, OWNER.password);
    await page.goto('/studio/#/analytics');
    await page.getByRole('combobox', { name: 'Time zone' }).fill('UTC');
    const programmes = page.getByRole('table', { name: 'Programmes' });
    const concert = programmes.getByRole('row', { name: /Concert/ });
    await concert.waitFor();
    // Programme, watch time (one heartbeat each: no length yet), sessions, viewers (distinct devices:
    // client_id 4, 4 and 7 on roku_app), average; the peak depends on how far apart the posts landed.
    expect((await concert.getByRole('cell').allInnerTexts()).slice(0, 5)).toEqual(['Concert', '0 s', '3', '2', '0 min']);
    // The blank channel's viewer is in the list as that channel's dead air (issue 36 item 3), a row of its own that names no video.
    const deadAir = programmes.getByRole('row', { name: /Dead air/ });
    const cells = await deadAir.getByRole('cell').allInnerTexts();
    // The badge is written in capitals by its style.
    expect(cells[0]).toMatch(/^Dead air\s+Nothing scheduled on Alice Blank$/i);
    expect(cells.slice(1, 4)).toEqual(['0 s', '1', '1']);
    expect(await deadAir.getByRole('link').count()).toBe(0);
    await page.getByRole('combobox', { name: 'Channel' }).click();
    await page.getByRole('option', { name: 'Alice Concerts' }).click();
    const onAir = page.getByRole('table', { name: 'Programmes on air' });
    // Back-to-back showings of one programme read as one stretch of the day.
    await onAir.getByRole('cell', { name: 'Concert' }).waitFor();
    expect(await onAir.getByRole('row').allInnerTexts()).toHaveLength(2);
    await page.getByText("in the channel's time zone, UTC.").waitFor();
    await screenshot(page, 'analytics-programmes');
    await page.context().close();
  });
});
