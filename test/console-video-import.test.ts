// "A catalog that comes in fast" (issue 36 item 5) in a real browser: the creator pastes a
// YouTube playlist URL into Add from URLs, sees its videos as rows with their durations (from the
// Data API, as h:mm:ss), sees the one already in the library flagged with its title, and adds the
// rest; then a YouTube API that is down leaves the review usable, the duration typed by hand.
// The providers are local servers answering as their APIs document (test/support/provider-apis.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWNER, smallCatalog } from './fixtures/catalog.ts';
import { consoleServer, openScreen, screenshot, type ConsoleServer } from './support/console.ts';
import { providerApis, providerConfig, type ProviderApis } from './support/provider-apis.ts';

/** alice's video 5001 in the small catalog is YouTube abcdefghijk, "Morning news". */
const ALICES = 'abcdefghijk';

describe('Studio console: a playlist into the library', { timeout: 180_000 }, () => {
  let server: ConsoleServer;
  let apis: ProviderApis;
  let token: string;
  const videos = async () => (await server.api('GET', '/api/v1/studio/videos?per_page=500', { token })).body.data;
  beforeAll(async () => {
    apis = await providerApis();
    apis.videos.set('harbour0001', { title: 'Harbour at dawn', duration: 'PT3M33S' });
    apis.videos.set('harbour0002', { title: 'Night ferry', duration: 'PT1H2M3S' });
    apis.videos.set('harbour0003', { title: 'Town hall live', duration: 'PT0S', live: 'live' });
    apis.videos.set(ALICES, { title: 'Morning news (YouTube)', duration: 'PT10M' });
    apis.videos.set('harbour0004', { title: 'Tide tables', duration: 'PT45S' });
    apis.playlists.set('PLharbour', ['harbour0001', ALICES, 'harbour0002', 'harbour0003']);
    server = await consoleServer(smallCatalog(), providerConfig(apis));
    token = await server.login(OWNER.username, OWNER.password);
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await apis?.close();
  });

  it('pastes a playlist, sees durations and a duplicate flagged, adds the rest', async () => {
    const page = await server.signedIn(OWNER.username, OWNER.password);
    await openScreen(page, 'Videos');
    const before = (await videos()).total;
    await page.getByRole('button', { name: 'Add from URLs' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add videos from URLs' });
    await dialog.getByLabel('Video URLs, one per line').fill('https://www.youtube.com/playlist?list=PLharbour\nhttps://youtu.be/harbour0001');
    await dialog.getByRole('button', { name: 'Look up' }).click();
    const rows = dialog.getByRole('table', { name: 'Videos to add' });
    await rows.getByText('YouTube harbour0001').first().waitFor();
    await dialog.getByText('YouTube playlist PLharbour: 4 videos').waitFor();
    expect(await dialog.getByLabel('Title, line 1').inputValue()).toBe('Harbour at dawn');
    expect(await dialog.getByLabel('Duration, line 1').inputValue()).toBe('3:33');
    expect(await dialog.getByLabel('Duration, line 3').inputValue()).toBe('1:02:03');
    await rows.getByText('from YouTube playlist PLharbour').first().waitFor();
    // The video alice has: flagged with its id and title, left out unless added anyway.
    await rows.getByText('already in your videos as “Morning news” (video 5001): left out').waitFor();
    expect(await dialog.getByLabel('Title, line 2').isDisabled()).toBe(true);
    expect(await dialog.getByLabel('Add anyway, line 2').isChecked()).toBe(false);
    // The pasted URL of a video the playlist holds too: a repeat, left out.
    await rows.getByText('the same video as line 1: left out').waitFor();
    // A live stream has no duration: said, and typed in the review.
    await rows.getByText('YouTube gives no duration for a live stream or premiere (live): fill in the duration').waitFor();
    await screenshot(page, 'videos-from-playlist');
    await dialog.getByRole('button', { name: 'Add 3 videos' }).click();
    await dialog.getByText('enter the duration (seconds or 10:00)').waitFor();
    await dialog.getByLabel('Duration, line 4').fill('1:30:00');
    await dialog.getByRole('button', { name: 'Add 3 videos' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const after = await videos();
    expect(after.total).toBe(before + 3);
    const added = after.items.filter((v: any) => v.providerVideoId.startsWith('harbour'));
    expect(added.map((v: any) => [v.providerVideoId, v.title, v.durationSeconds])).toEqual([
      ['harbour0001', 'Harbour at dawn', 213],
      ['harbour0002', 'Night ferry', 3723],
      ['harbour0003', 'Town hall live', 5400],
    ]);
    // The library shows the durations the same way.
    await page.getByRole('table', { name: 'Videos' }).getByText('1:02:03').waitFor();
    await page.context().close();
  });

  it('a YouTube API that is down leaves the review usable: the row says so and the duration is typed; a duplicate added anyway', async () => {
    apis.mode.youtube = 'down';
    try {
      const page = await server.signedIn(OWNER.username, OWNER.password);
      await openScreen(page, 'Videos');
      const before = (await videos()).total;
      await page.getByRole('button', { name: 'Add from URLs' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add videos from URLs' });
      await dialog.getByLabel('Video URLs, one per line').fill('https://youtu.be/harbour0004\nhttps://www.youtube.com/playlist?list=PLharbour\nhttps://youtu.be/harbour0001');
      await dialog.getByRole('button', { name: 'Look up' }).click();
      await dialog.getByText('YouTube playlist PLharbour: YouTube did not answer: it answered 503').waitFor();
      const rows = dialog.getByRole('table', { name: 'Videos to add' });
      // oEmbed still names the video; the Data API's failure is said beside it.
      expect(await dialog.getByLabel('Title, line 1').inputValue()).toBe('Tide tables');
      await rows.getByText('YouTube did not answer: it answered 503: fill in the duration').first().waitFor();
      await rows.getByText('already in your videos as “Harbour at dawn”', { exact: false }).waitFor();
      await dialog.getByLabel('Add anyway, line 2').check();
      await dialog.getByLabel('Duration, line 1').fill('45');
      await dialog.getByLabel('Duration, line 2').fill('3:33');
      await dialog.getByRole('button', { name: 'Add 2 videos' }).click();
      await dialog.waitFor({ state: 'hidden' });
      expect((await videos()).total).toBe(before + 2);
      await page.context().close();
    } finally {
      apis.mode.youtube = 'ok';
    }
  });
});
