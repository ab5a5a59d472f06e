// The creator's path as ONE browser session (issue 30, "done when"): sign in, add three videos by URL,
// make a channel, program a day, watch it (the Watch view plays the on-air programme joined in
// progress and moves to the next at its end), make an XMLTV guide key, read analytics. Along the
// way, what the issue found broken: library edits left unsaved are guarded, a new channel lands
// last, the app's saved message is in view, Roku image slots are Roku's, the guide preview of a
// sold channel is not empty, and a screen whose file fails to load offers Reload.
//
// The three videos are added by URL: two YouTube watch URLs and a Vimeo URL, looked up through
// local servers that answer as YouTube's and Vimeo's oEmbed endpoints document (YouTube gives a
// title and a thumbnail, no duration, which the creator fills in; Vimeo gives a duration too).
import { DateTime } from 'luxon';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOwner } from '../src/catalog/owners.ts';
import { consoleServer, openScreen, screenshot, signIn, type ConsoleServer } from './support/console.ts';

/** What YouTube's and Vimeo's oEmbed endpoints answer for the three URLs (by path and the url asked). */
const OEMBED: Record<string, object> = {
  '/youtube/oembed https://www.youtube.com/watch?v=dQw4w9WgXcQ': { type: 'video', title: 'Harbour at dawn', thumbnail_url: 'https://i.ytimg.com/vi/dQw4w9WgXcQ/hqdefault.jpg' },
  '/youtube/oembed https://www.youtube.com/watch?v=M7lc1UVf-VE': { type: 'video', title: 'Night ferry', thumbnail_url: 'https://i.ytimg.com/vi/M7lc1UVf-VE/hqdefault.jpg' },
  '/vimeo/oembed.json https://vimeo.com/76979871': { type: 'video', title: 'Tide tables', duration: 600, thumbnail_url: 'https://i.vimeocdn.com/video/452001751-640.jpg' },
};
const NORA = { username: 'nora', email: 'nora@example.com', password: 'a good password' };
const ZONE = 'Europe/Berlin';

describe("Studio console: a creator's first hour, start to finish", { timeout: 300_000 }, () => {
  let server: ConsoleServer;
  let page: Page;
  let providers: Server;
  beforeAll(async () => {
    providers = createServer((request, response) => {
      const asked = new URL(request.url ?? '/', 'http://x');
      const answer = OEMBED[`${asked.pathname} ${asked.searchParams.get('url')}`];
      if (!answer) return response.writeHead(404).end('Not Found');
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    });
    await new Promise<void>((resolve) => providers.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(providers.address() as AddressInfo).port}`;
    // The test clock: the Watch view's /now requests carry X-Test-Now, so "now" is tomorrow morning.
    server = await consoleServer(
      { format: 'channel-network-catalog', version: 1 },
      { CHANNELNET_TEST_CLOCK: true, OEMBED_YOUTUBE_URL: `${origin}/youtube/oembed`, OEMBED_VIMEO_URL: `${origin}/vimeo/oembed.json` },
    );
    expect((await createOwner(server.database.db, { ...NORA, publicUrl: 'nora' }, new Date())).ok).toBe(true);
    page = await (await server.context()).newPage();
    page.setDefaultTimeout(30_000);
    // The page's own clock, to jump to a programme's end without waiting for it.
    await page.clock.install({ time: new Date() });
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    providers?.close();
  });

  it('signs in, adds videos, makes a channel, programs a day, watches it, makes a guide key and reads analytics', async () => {
    const tomorrow = DateTime.now().setZone(ZONE).plus({ days: 1 }).toISODate()!;
    await signIn(page, NORA.username, NORA.password);
    await page.getByRole('navigation', { name: 'Screens' }).waitFor();

    // Three videos, by URL: what the providers said is filled in, the YouTube durations by hand.
    await openScreen(page, 'Videos');
    await page.getByRole('button', { name: 'Add from URLs' }).click();
    const fromUrls = page.getByRole('dialog', { name: 'Add videos from URLs' });
    await fromUrls.getByLabel('Video URLs, one per line').fill('https://www.youtube.com/watch?v=dQw4w9WgXcQ\nhttps://vimeo.com/76979871\nhttps://youtu.be/M7lc1UVf-VE');
    await fromUrls.getByRole('button', { name: 'Look up' }).click();
    const found = fromUrls.getByRole('table', { name: 'Videos to add' });
    await found.getByText('Vimeo 76979871').waitFor();
    expect([
      await fromUrls.getByLabel('Title, line 1').inputValue(),
      await fromUrls.getByLabel('Title, line 2').inputValue(),
      await fromUrls.getByLabel('Duration, line 2').inputValue(),
    ]).toEqual(['Harbour at dawn', 'Tide tables', '10:00']);
    await fromUrls.getByLabel('Duration, line 1').fill('30:00');
    await fromUrls.getByLabel('Duration, line 3').fill('15:00');
    await fromUrls.getByRole('button', { name: 'Add 3 videos' }).click();
    await fromUrls.waitFor({ state: 'hidden' });
    await page.getByRole('table', { name: 'Videos' }).getByText('Night ferry').waitFor();
    const added = (await server.api('GET', '/api/v1/studio/videos?per_page=50', { token: await server.login(NORA.username, NORA.password) })).body.data.items;
    expect(added.map((v: any) => [v.title, v.providerName, v.providerVideoId, v.durationSeconds])).toEqual([
      ['Harbour at dawn', 'YouTube', 'dQw4w9WgXcQ', 1800],
      ['Tide tables', 'Vimeo', '76979871', 600],
      ['Night ferry', 'YouTube', 'M7lc1UVf-VE', 900],
    ]);

    // A channel, its category made in place.
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

    // The library: leaving with an unsaved order asks first; staying keeps it; Save order saves.
    await page.getByRole('tab', { name: 'Library' }).click();
    await page.getByLabel('Add a video to the library').click();
    await page.getByRole('option', { name: /Harbour at dawn/ }).click();
    await page.getByText('Unsaved changes').waitFor();
    const asked: string[] = [];
    page.once('dialog', (dialog) => {
      asked.push(dialog.message());
      void dialog.dismiss();
    });
    await page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name: 'Videos', exact: true }).click();
    await page.getByRole('button', { name: 'Save order' }).waitFor();
    expect(asked).toEqual(['You have unsaved changes on this screen. Leave without saving them?']);
    expect(page.url()).toContain(`#/channels/${channelId}`);
    await page.getByRole('button', { name: 'Save order' }).click();
    await page.getByText('Saved.').waitFor();

    // A second channel lands last in app order (it used to land second).
    const token = await server.login(NORA.username, NORA.password);
    const second = await server.api('POST', '/api/v1/studio/channels', {
      token,
      body: { name: 'Nora Second', url: 'nora-second', categoryId: (await server.api('GET', '/api/v1/studio/categories', { token })).body.data.items[0].id, timezone: ZONE },
    });
    expect(second.status, second.text).toBe(201);
    await openScreen(page, 'Channels');
    const order = page.getByRole('list', { name: 'Channels in app order' }).getByRole('listitem');
    await order.nth(1).getByText('Nora Second').waitFor();
    await order.first().getByText('Nora Harbour').waitFor();

    // A day programmed: tomorrow 08:00, the three videos in one block.
    await page.goto(`/studio/#/schedule/${channelId}`);
    await page.getByRole('button', { name: 'Previous week' }).waitFor();
    await page
      .getByLabel(/^Day \d{4}-\d\d-\d\d$/)
      .first()
      .waitFor();
    const add = page.getByRole('button', { name: `Add a block on ${tomorrow}` });
    if (!(await add.isVisible())) await page.getByRole('button', { name: 'Next week' }).click();
    await add.click();
    const block = page.getByRole('dialog', { name: 'New block' });
    await block.getByLabel(`Start time (${ZONE})`).fill(`${tomorrow}T08:00`);
    for (const [search, title] of [
      ['Harbour', 'Harbour at dawn'],
      ['Tide', 'Tide tables'],
      ['Night', 'Night ferry'],
    ]) {
      await block.getByLabel('Search videos').fill(search!);
      await block.getByRole('button', { name: `Add ${title}` }).click();
    }
    await block.getByRole('button', { name: 'Create block' }).click();
    // Named by its times and videos, never its id.
    await page.getByRole('button', { name: 'Block 08:00–08:55: Harbour at dawn and 2 more, published' }).waitFor();

    // Watch it tomorrow at 08:05: Harbour at dawn, 5 minutes in; at 08:30 Tide tables follows.
    const at = (wall: string) => DateTime.fromISO(`${tomorrow}T${wall}`, { zone: ZONE }).toUTC().toISO({ suppressMilliseconds: true })!;
    let serverNow = at('08:05:00');
    let nowRequests = 0;
    await page.route('**/api/v1/studio/channels/*/now', (route) => {
      nowRequests++;
      return route.continue({ headers: { ...route.request().headers(), 'x-test-now': serverNow } });
    });
    // The players' own sites are not reached from the test: a stub page stands in for each.
    for (const origin of ['https://www.youtube-nocookie.com/**', 'https://player.vimeo.com/**'])
      await page.route(origin, (route) => route.fulfill({ contentType: 'text/html', body: '<p>player</p>' }));
    await openScreen(page, 'Watch');
    await page.getByLabel('On air now').getByText('Harbour at dawn').waitFor();
    const youtube = page.locator('iframe[title="Harbour at dawn (YouTube player)"]');
    expect(await youtube.getAttribute('src')).toBe('https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?start=300&autoplay=1&rel=0&enablejsapi=1');
    await page.getByText(/^Next: Tide tables, .* at 08:30/).waitFor();
    await screenshot(page, 'watch');
    // Asked once, then not every second: again after at most 15 minutes (a schedule edited
    // meanwhile shows), and at the programme's end (08:30), when the next one plays.
    const asked1 = nowRequests;
    await page.clock.fastForward(14 * 60_000);
    expect(nowRequests).toBe(asked1);
    serverNow = at('08:20:00');
    await page.clock.fastForward(61_000);
    await expect.poll(() => nowRequests).toBe(asked1 + 1);
    serverNow = at('08:30:05');
    const tide = page.getByLabel('On air now').getByText('Tide tables');
    for (let minute = 0; minute < 12 && !(await tide.isVisible()); minute++) await page.clock.fastForward(60_000);
    await tide.waitFor();
    expect(nowRequests).toBe(asked1 + 2);
    expect(await page.locator('iframe[title="Tide tables (Vimeo player)"]').getAttribute('src')).toBe('https://player.vimeo.com/video/76979871?autoplay=1#t=5s');
    // After the block: nothing on air, and when the next thing starts (nothing more here).
    serverNow = at('09:30:00');
    await page.goto(`/studio/#/watch/${channelId}`);
    await page.reload();
    await page.getByText('Nothing is on air on Nora Harbour now').waitFor();

    // A paid Roku app carrying the channel: its image slots are Roku's; the saved message is in view.
    await page.goto('/studio/#/apps/roku');
    await page.getByRole('button', { name: 'Create the roku app' }).click();
    await page.getByLabel('App name').fill('Nora on Roku');
    await page.getByLabel('Channel store artwork (HD)').waitFor();
    expect(await page.getByLabel('iOS logo').count()).toBe(0);
    await page.getByLabel('Carry Nora Harbour').check();
    await page.getByLabel('Paid app (viewers subscribe)').check();
    // A paid app sells on its store: it is saved only with the store's key (issue 36 item 6).
    await page.getByRole('group', { name: 'Roku Pay credentials' }).getByLabel('Roku Pay API key', { exact: true }).fill('nora-roku-pay-key');
    await page.getByRole('button', { name: 'Save app' }).click();
    const saved = page.getByRole('status').getByText('App saved.');
    await saved.waitFor();
    const box = (await saved.boundingBox())!;
    expect(box.y).toBeGreaterThanOrEqual(0);
    expect(box.y + box.height).toBeLessThanOrEqual(800);

    // Its XMLTV guide key: made, shown once, the URL works; revoked, it answers 404.
    await page.getByRole('button', { name: 'Make a guide key' }).click();
    const url = (await page.getByLabel('New guide URL', { exact: true }).textContent())!.trim();
    expect(url).toMatch(/\/api\/v1\/rest\/epg\/[^/]+\.xml$/);
    const guide = await server.api('GET', new URL(url).pathname);
    expect(guide.status).toBe(200);
    expect(guide.text).toContain('Nora Harbour');
    await screenshot(page, 'apps-guide-key');
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByText(/This app has a guide key since/).waitFor();
    await page.getByRole('button', { name: 'Revoke the guide key' }).click();
    await page.getByText('Guide key revoked').waitFor();
    expect((await server.api('GET', new URL(url).pathname)).status).toBe(404);

    // The guide preview of the now sold channel still shows its rows, with a note why.
    // Tomorrow's week (on a Sunday, tomorrow is in the next one).
    await page.goto(`/studio/#/schedule/${channelId}/${tomorrow}`);
    await page.getByText('Your roku app sells this channel').waitFor();
    await page.getByRole('combobox', { name: 'Guide day' }).click();
    await page.getByRole('option', { name: tomorrow, exact: true }).click();
    await page.getByRole('table', { name: 'Guide rows' }).getByText('Harbour at dawn').waitFor();

    // Analytics: a screen whose file does not arrive offers Reload instead of a blank page.
    await page.route('**/studio/assets/AnalyticsScreen-*.js', (route) => route.abort());
    await openScreen(page, 'Analytics');
    await page.getByRole('alert').getByText('The Analytics screen could not be loaded').waitFor();
    await page.getByRole('navigation', { name: 'Screens' }).waitFor();
    await screenshot(page, 'screen-failed-to-load');
    await page.unroute('**/studio/assets/AnalyticsScreen-*.js');
    await page.getByRole('button', { name: 'Reload' }).click();
    await page.getByRole('main').getByRole('heading', { name: 'Analytics', level: 2 }).waitFor();
    expect(await page.title()).toBe('Analytics · channelnet Studio');
    expect(await page.getByRole('alert').count()).toBe(0);
  });
});
