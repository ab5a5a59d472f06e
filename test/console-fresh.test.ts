// The issue's "done": a creator with nothing but an owner login (made with `channelnet owner
// create`'s function on an empty database) builds a channel with a video, a block tomorrow at
// 08:00 and a Roku app through the console alone, and the apps then see it: the Custom channel
// list and guide a Roku device reads, and the REST schedule.
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOwner } from '../src/catalog/owners.ts';
import { dayBounds, wallToMs } from '../web/src/screens/schedule/geometry.ts';
import { consoleServer, openScreen, screenshot, type ConsoleServer } from './support/console.ts';

const NORA = { username: 'nora', email: 'nora@example.com', password: 'a good password' };
const ZONE = 'Europe/Berlin';
const PX = 0.7; // the week view's pixels per minute (ScheduleScreen.tsx)

describe('Studio console: a fresh installation, built without a file', { timeout: 180_000 }, () => {
  let server: ConsoleServer;
  beforeAll(async () => {
    server = await consoleServer({ format: 'channel-network-catalog', version: 1 });
    const created = await createOwner(server.database.db, { ...NORA, publicUrl: 'nora' }, new Date());
    expect(created.ok).toBe(true);
  }, 120_000);
  afterAll(() => server?.close());

  it('signs in, creates a category, a channel, a video, a block tomorrow at 08:00 and a Roku app; the apps see them', async () => {
    const page = await server.signedIn(NORA.username, NORA.password);
    page.setDefaultTimeout(30_000);
    await openScreen(page, 'Channels');
    await page.getByText('No channels yet').waitFor();

    // A video first (a block needs one).
    await openScreen(page, 'Videos');
    await page.getByRole('button', { name: 'Add video' }).click();
    const videoDialog = page.getByRole('dialog', { name: 'Add a video' });
    await videoDialog.getByLabel('Title').fill('Harbour at dawn');
    await videoDialog.getByLabel('Duration (h:mm:ss or seconds)').fill('30:00');
    await videoDialog.getByLabel('Provider video id').fill('dQw4w9WgXcQ');
    await videoDialog.getByRole('button', { name: 'Add video' }).click();
    await page.getByRole('table', { name: 'Videos' }).getByText('Harbour at dawn').waitFor();

    // A channel, with the installation's first category made in place.
    await openScreen(page, 'Channels');
    await page.getByRole('button', { name: 'New channel' }).click();
    const channelDialog = page.getByRole('dialog', { name: 'New channel' });
    await channelDialog.getByLabel('Name').fill('Nora Harbour');
    await channelDialog.getByLabel('URL slug').fill('nora-harbour');
    await channelDialog.getByRole('button', { name: 'New category' }).click();
    await page.getByLabel('New category name').fill('Nature');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await channelDialog.getByRole('combobox', { name: 'Time zone' }).fill(ZONE);
    await channelDialog.getByRole('button', { name: 'Create channel' }).click();
    await page.getByRole('heading', { name: 'Nora Harbour' }).waitFor();
    const channelId = Number(/#\/channels\/(\d+)/.exec(page.url())![1]);

    // Its library, then a block tomorrow at 08:00 clicked in the week view.
    await page.getByRole('tab', { name: 'Library' }).click();
    await page.getByLabel('Add a video to the library').click();
    await page.getByRole('option', { name: /Harbour at dawn/ }).click();
    await page.getByRole('button', { name: 'Save order' }).click();
    await page.getByText('Saved.').waitFor();
    // And its VOD catalog: the apps list channels with a schedule today or VOD (the block is tomorrow).
    await page.getByRole('tab', { name: 'VOD catalog' }).click();
    await page.getByLabel('Add a video to the VOD catalog').click();
    await page.getByRole('option', { name: /Harbour at dawn/ }).click();
    await page.getByRole('button', { name: 'Save order' }).click();
    await page.getByText('Saved.').waitFor();
    await page.getByRole('button', { name: 'Schedule', exact: true }).click();
    const tomorrow = DateTime.now().setZone(ZONE).plus({ days: 1 }).toISODate()!;
    const day = page.getByLabel(`Day ${tomorrow}`, { exact: true });
    await page.getByRole('button', { name: 'Previous week' }).waitFor();
    await page
      .getByLabel(/^Day \d{4}-\d\d-\d\d$/)
      .first()
      .waitFor();
    if (!(await day.isVisible())) await page.getByRole('button', { name: 'Next week' }).click();
    const minutes = (wallToMs(`${tomorrow}T08:00`, ZONE) - dayBounds(tomorrow, ZONE).start) / 60_000;
    await day.click({ position: { x: 8, y: minutes * PX + 3 } });
    const blockDialog = page.getByRole('dialog', { name: 'New block' });
    await blockDialog.getByLabel('Search videos').fill('Harbour');
    await blockDialog.getByRole('button', { name: 'Add Harbour at dawn' }).click();
    await blockDialog.getByRole('button', { name: 'Create block' }).click();
    await page.getByRole('button', { name: /^Block 08:00–08:30: Harbour at dawn, published$/ }).waitFor();

    // A Roku app carrying the channel.
    await page.goto('/studio/#/apps/roku');
    await page.getByRole('button', { name: 'Create the roku app' }).click();
    await page.getByLabel('App name').fill('Nora on Roku');
    await page.getByLabel('Carry Nora Harbour').check();
    await page.getByLabel('Channel number of Nora Harbour').fill('1');
    await page.getByRole('button', { name: 'Save app' }).click();
    await page.getByText('App saved.').waitFor();
    await screenshot(page, 'fresh-app');

    // What the apps see on their next request.
    const roku = { 'Platform-Id': 'roku', 'Device-Id': 'fresh-roku', timezone: ZONE };
    const list = await server.api('GET', '/api/v1/services/custom/users/nora/channels', { headers: roku });
    expect(list.status, list.text).toBe(200);
    expect(JSON.stringify(list.body)).toContain('Nora Harbour');
    const guide = await server.api('GET', `/api/v1/services/custom/users/nora/channels/video?channels_ids=${channelId}&dates=${tomorrow}`, { headers: roku });
    expect(guide.status, guide.text).toBe(200);
    expect(guide.body.data.some((row: { startDate: string; title: string }) => row.startDate === `${tomorrow} 08:00:00` && row.title === 'Harbour at dawn')).toBe(true);
    const token = await server.login(NORA.username, NORA.password);
    const schedule = await server.api('GET', `/api/v1/rest/channels/${channelId}/schedules?date=${tomorrow}`, { token });
    expect(schedule.body.data.schedules.map((s: { startTime: string }) => s.startTime)).toContain(`${tomorrow}T08:00:00`);
    const settings = await server.api('GET', '/api/v1/services/custom/users/nora/app_settings', { headers: roku });
    expect(settings.status, settings.text).toBe(200);
    expect(JSON.stringify(settings.body)).toContain('Nora on Roku');
    await page.context().close();
  });
});
