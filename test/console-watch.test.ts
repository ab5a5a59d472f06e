// The Watch screen in a real browser when a programme's stream fails (issue 36 item 7): an HLS
// playlist that answers 404 and a media file that is not one each say what failed in words, in
// place of a silent black player, and the first offers to play the next programme now.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWNER, smallCatalog } from './fixtures/catalog.ts';
import { consoleServer, screenshot, type ConsoleServer } from './support/console.ts';

describe('Studio console: Watch when a stream fails', { timeout: 180_000 }, () => {
  let server: ConsoleServer;
  let media: Server;

  beforeAll(async () => {
    // The creator's media host, on this machine: a playlist that answers 404, and a "film" that is text.
    media = createServer((request, response) => {
      response.setHeader('access-control-allow-origin', '*');
      if (request.url === '/film.mp4') response.writeHead(200, { 'content-type': 'video/mp4' }).end('this is not a film');
      else response.writeHead(404, { 'content-type': 'text/plain' }).end('not here');
    });
    await new Promise<void>((resolve) => media.listen(0, '127.0.0.1', resolve));
    const host = `http://127.0.0.1:${(media.address() as AddressInfo).port}`;
    const catalog: any = smallCatalog();
    // An hour-long programme on air since a minute ago, then a second one (UTC wall times).
    catalog.videos.push(
      { id: 5101, ownerId: 11, title: 'Lost playlist', durationSeconds: 3600, providerName: 'Custom', providerVideoId: 'lost', categoryId: 1, streamUrl: `${host}/lost.m3u8` },
      { id: 5102, ownerId: 11, title: 'Not a film', durationSeconds: 3600, providerName: 'Custom', providerVideoId: 'not-a-film', categoryId: 1, streamUrl: `${host}/film.mp4` },
    );
    const start = DateTime.utc().minus({ minutes: 1 }).toFormat("yyyy-MM-dd'T'HH:mm:ss");
    catalog.channels.push({
      id: 204,
      ownerId: 11,
      name: 'Broken TV',
      url: 'broken-tv',
      categoryId: 1,
      timezone: 'UTC',
      videoIds: [5101, 5102],
      schedules: [{ id: 9204, startTime: start, videoIds: [5101, 5102] }],
      createdAt: '2026-01-01T00:00:00Z',
    });
    // The operator allows that origin (plain HTTP on this machine) for creators' media.
    server = await consoleServer(catalog, { MEDIA_FETCH_ALLOW_ORIGINS: [host] });
  }, 120_000);

  afterAll(async () => {
    await server?.close();
    await new Promise((resolve) => media?.close(resolve));
  });

  it('says a 404 playlist in words, offers the next programme, and says that media failing too', async () => {
    const page = await server.signedIn(OWNER.username, OWNER.password);
    page.setDefaultTimeout(60_000);
    await page.goto('/studio/#/watch/204');
    await page.getByLabel('On air now').getByText('Lost playlist').waitFor();
    const failed = page.getByRole('alert').filter({ hasText: 'Lost playlist cannot play' });
    await failed.getByText(/^The video's playlist was not found \(404\) at its address/).waitFor();
    await screenshot(page, 'watch-failed-playlist');

    await failed.getByRole('button', { name: 'Play the next programme: Not a film' }).click();
    await page
      .getByRole('status')
      .getByText(/^Playing the next programme now, ahead of its time: Not a film \(on air at \d\d:\d\d\)$/)
      .waitFor();
    const media = page.getByRole('alert').filter({ hasText: 'Not a film cannot play' });
    await media.getByText(/^The video's address answered nothing this browser can play/).waitFor();
    // Nothing further is known to offer.
    expect(await media.getByRole('button').count()).toBe(0);
    await screenshot(page, 'watch-failed-media');
    await page.context().close();
  });
});
