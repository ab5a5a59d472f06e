// A new creator's whole path through the Studio console (issue 36, "Done when"), in a real
// Chromium, one page session from the invite to the money: invited, a YouTube playlist imported,
// two collections, a channel programmed for a week (pre-roll and padding previewed before saving,
// then applied and seen in the calendar), a paid Roku app selling a subscription, one purchase
// verified through the fake Roku Pay, and its price read in Analytics → Trends. The steps are
// `it`s run in order on one server and one page: each needs what the one before made.
// The server runs on the real clock (the browser sends no X-Test-Now): dates are read from it.
import { DateTime } from 'luxon';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWNER, smallCatalog } from './fixtures/catalog.ts';
import { consoleServer, openScreen, screenshot, type ConsoleServer } from './support/console.ts';
import { ROKU_KEY, rokuTransaction, startStores, type Stores } from './support/entitlements.ts';
import { providerApis, providerConfig, type ProviderApis } from './support/provider-apis.ts';

const NORA = { username: 'nora', email: 'nora@example.com', password: 'nora password' };
const SKU = 'nora.roku.monthly';
const ROKU_CHANNEL = '4242'; // the Roku channel id the fake store's transactions name
const DAY = 86_400_000;

/** Picks a choice of a segmented control by its visible label. */
const segment = (page: Page, label: string) => page.locator('label', { hasText: new RegExp(`^${label}$`) }).click();

describe("Studio console: a new creator's path, invite to revenue", { timeout: 180_000 }, () => {
  let server: ConsoleServer;
  let apis: ProviderApis;
  let stores: Stores;
  let page: Page; // nora's, from the invite on
  let token: string; // nora's, for the checks made through the API
  const api = async (url: string) => (await server.api('GET', url, { token })).body.data;
  const tomorrow = DateTime.now().setZone('UTC').plus({ days: 1 }).toISODate()!;

  beforeAll(async () => {
    apis = await providerApis();
    apis.videos.set('harbour0001', { title: 'Harbour episode 1', duration: 'PT25M' });
    apis.videos.set('harbour0002', { title: 'Harbour episode 2', duration: 'PT24M30S' });
    apis.videos.set('harbour0003', { title: 'Harbour ident', duration: 'PT1M' });
    apis.videos.set('harbour0004', { title: 'Harbour promo', duration: 'PT2M' });
    apis.playlists.set('PLharbour', ['harbour0001', 'harbour0002', 'harbour0003', 'harbour0004']);
    stores = await startStores();
    server = await consoleServer(smallCatalog(), { ...providerConfig(apis), ...stores.config });
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await apis?.close();
    await stores?.close();
  });

  it('1. is invited: alice makes an invite link, nora opens it, chooses a sign-in and lands signed in', async () => {
    const owner = await server.signedIn(OWNER.username, OWNER.password);
    await openScreen(owner, 'Invites');
    await owner.getByLabel('Note (whom it is for)').fill('for Nora');
    await owner.getByRole('button', { name: 'Create invite link' }).click();
    const link = (await owner.getByLabel('New invite link', { exact: true }).textContent())!.trim();
    expect(link).toMatch(new RegExp(`^${server.origin}/studio/invite/[\\w-]{43}$`));
    await owner.context().close();

    page = await (await server.context()).newPage();
    page.setDefaultTimeout(60_000);
    await page.goto(link);
    await page.getByRole('heading', { name: 'Accept your invitation', level: 1 }).waitFor();
    await page.getByLabel('Username').fill(NORA.username);
    await page.getByLabel('Email').fill(NORA.email);
    await page.getByRole('textbox', { name: 'Password' }).fill(NORA.password);
    await page.getByRole('button', { name: 'Create my account' }).click();
    await page.getByRole('main').getByRole('heading', { name: 'Channels', level: 2 }).waitFor();
    await page.getByText(NORA.username, { exact: true }).first().waitFor();
    token = await server.login(NORA.username, NORA.password);
    expect((await api('/api/v1/studio/channels')).items).toEqual([]);
    await screenshot(page, 'creator-1-invited');
  });

  it('2. imports a YouTube playlist in Videos → Add from URLs, durations filled from the Data API', async () => {
    await openScreen(page, 'Videos');
    await page.getByRole('button', { name: 'Add from URLs' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add videos from URLs' });
    await dialog.getByLabel('Video URLs, one per line').fill('https://www.youtube.com/playlist?list=PLharbour');
    await dialog.getByRole('button', { name: 'Look up' }).click();
    await dialog.getByText('YouTube playlist PLharbour: 4 videos').waitFor();
    const durations = await Promise.all([1, 2, 3, 4].map((line) => dialog.getByLabel(`Duration, line ${line}`).inputValue()));
    expect(durations).toEqual(['25:00', '24:30', '1:00', '2:00']);
    expect(await dialog.getByLabel('Title, line 3').inputValue()).toBe('Harbour ident');
    await screenshot(page, 'creator-2-playlist');
    await dialog.getByRole('button', { name: 'Add 4 videos' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('table', { name: 'Videos' }).getByText('24:30').waitFor();
    const videos = (await api('/api/v1/studio/videos?per_page=500')).items as { title: string; durationSeconds: number }[];
    expect(videos.map((v) => [v.title, v.durationSeconds])).toEqual([
      ['Harbour episode 1', 1500],
      ['Harbour episode 2', 1470],
      ['Harbour ident', 60],
      ['Harbour promo', 120],
    ]);
  });

  it('3. builds two collections: idents picked by hand, short clips by a duration rule', async () => {
    await openScreen(page, 'Collections');
    await page.getByText('No collections yet.').waitFor();
    await page.getByRole('button', { name: 'New collection' }).click();
    let form = page.getByRole('form', { name: 'New collection' });
    await form.getByLabel('Name').fill('Idents');
    await form.getByLabel('Search videos').fill('ident');
    await form.getByRole('button', { name: 'Add Harbour ident' }).click();
    await form.getByRole('button', { name: 'Save collection' }).click();
    await form.getByRole('status').getByText("Collection 'Idents' saved.").waitFor();
    await page.getByRole('button', { name: 'Close' }).click();

    await page.getByRole('button', { name: 'New collection' }).click();
    form = page.getByRole('form', { name: 'New collection' });
    await form.getByLabel('Name').fill('Short clips');
    await form.getByLabel('Every video matching rules').check();
    await form.getByLabel('At most (minutes)').fill('3');
    await form.getByRole('button', { name: 'Save collection' }).click();
    await form.getByRole('status').getByText("Collection 'Short clips' saved.").waitFor();
    await page.getByRole('button', { name: 'Close' }).click();
    await page.getByRole('table', { name: 'Collections' }).getByText('Short clips').waitFor();
    const made = (await api('/api/v1/studio/collections')) as { name: string; kind: string; videoIds: number[] }[];
    expect(made.map((c) => [c.name, c.kind, c.videoIds.length])).toEqual([
      ['Idents', 'manual', 1],
      ['Short clips', 'smart', 2], // the ident and the promo: 3 minutes or less
    ]);
    await screenshot(page, 'creator-3-collections');
  });

  it('4. creates a channel, programs a week with a pre-roll and pad-to :30, previews unsaved, applies, and sees the blocks in the calendar', async () => {
    await openScreen(page, 'Channels');
    await page.getByRole('button', { name: 'New channel' }).click();
    const dialog = page.getByRole('dialog', { name: 'New channel' });
    await dialog.getByLabel('Name').fill('Harbour TV');
    await dialog.getByLabel('URL slug').fill('harbour-tv');
    await dialog.getByRole('combobox', { name: 'Category' }).click();
    await page.getByRole('option').first().click();
    await dialog.getByLabel('Time zone').fill('UTC'); // the calendar's days and hours are then UTC's
    await dialog.getByRole('button', { name: 'Create channel' }).click();
    await page.getByRole('heading', { name: 'Harbour TV' }).waitFor();

    await openScreen(page, 'Programming');
    await page.getByRole('combobox', { name: 'Channel' }).click();
    await page.getByRole('option', { name: /Harbour TV/ }).click();
    await page.getByRole('button', { name: 'Add slot' }).click();
    const slot = page.getByRole('group', { name: 'Slot 1', exact: true });
    await slot.getByLabel('Start').fill('18:00');
    await slot.getByLabel('End').fill('19:00');
    await slot.getByLabel('Search videos').fill('episode 1');
    await slot.getByRole('button', { name: 'Add Harbour episode 1' }).click();
    await slot.getByRole('combobox', { name: 'Slot 1 pre-roll' }).click();
    await page.getByRole('option', { name: 'Idents', exact: true }).click();
    await slot.getByRole('combobox', { name: 'Slot 1 pad to' }).click();
    await page.getByRole('option', { name: 'Next :00/:30', exact: true }).click();
    // Padding plays the channel's filler: the rules collection.
    await page.getByRole('combobox', { name: 'Filler plays' }).click();
    await page.getByRole('option', { name: 'Collection: Short clips' }).click();

    // Nothing saved yet: the preview is of the plan as edited, and says so.
    await page.getByText('Preview and Apply use the slots and filler as edited above, not yet saved.').waitFor();
    await page.getByRole('button', { name: 'Preview' }).click();
    // 18:00: the 1-minute ident, the 25-minute episode (18:26), then padding to 18:30.
    await page.getByText(/^Preview: 7 blocks, \d+ videos \([1-9]\d* filler\)/).waitFor();
    const rows = page.getByRole('table', { name: 'Preview of the generated blocks' });
    await rows
      .getByRole('cell', { name: /^pre-roll 1 · padding \d+$/ })
      .first()
      .waitFor();
    expect(await rows.getByRole('cell', { name: /^pre-roll 1 · padding \d+$/ }).count()).toBe(7);
    // Each block's first video (the pre-roll, from a collection the saved plan does not name) by its title.
    await rows.getByRole('cell', { name: 'Harbour ident' }).first().waitFor();
    expect(await rows.getByRole('cell', { name: /^Video #\d+$/ }).count()).toBe(0);
    const channelId = (await api('/api/v1/studio/channels')).items[0].id as number;
    expect((await api(`/api/v1/studio/channels/${channelId}/programming/slots`)).slots).toEqual([]);
    await screenshot(page, 'creator-4-preview');

    await page.getByRole('button', { name: 'Apply', exact: true }).click();
    await page.getByText('Applied: 7 blocks written, 0 removed.').waitFor();
    // Saved too, so the plan stays for next week (and leaving the screen asks nothing).
    await page.getByRole('button', { name: 'Save slots' }).click();
    await page.getByRole('status').getByText('Slots saved (1).').waitFor();
    await page.getByRole('button', { name: 'Save filler' }).click();
    await page.getByRole('status').getByText("Filler saved (the collection 'Short clips').").waitFor();
    const blocks = (await api(`/api/v1/studio/channels/${channelId}/schedules`)).items as { startTime: string }[];
    expect(blocks).toHaveLength(7);
    expect(blocks[0]!.startTime).toBe(`${tomorrow}T18:00:00`);

    await openScreen(page, 'Schedule');
    await page.getByRole('combobox', { name: 'Channel' }).click();
    await page.getByRole('option', { name: /Harbour TV/ }).click();
    await page
      .getByLabel(/^Day \d{4}-\d\d-\d\d$/)
      .first()
      .waitFor();
    const day = page.getByLabel(`Day ${tomorrow}`, { exact: true });
    if (!(await day.isVisible())) await page.getByRole('button', { name: 'Next week' }).click();
    const bar = page.getByRole('button', { name: /^Block 18:00–/ }).first();
    await bar.waitFor();
    // Padded to 18:30, then "Fill gaps with filler" (on by default) fills to the slot's end.
    expect(await bar.getAttribute('aria-label')).toMatch(/^Block 18:00–19:00: Harbour ident and \d+ more, published$/);
    await screenshot(page, 'creator-4-calendar');
  });

  it('5. sells a subscription: a paid Roku app with its Roku Pay credentials and a product; a purchase verified through Roku Pay', async () => {
    await openScreen(page, 'Apps');
    await page.getByRole('tab', { name: 'Roku' }).click();
    await page.getByRole('button', { name: 'Create the roku app' }).click();
    await page.getByLabel('App name').fill('Harbour TV');
    await page.getByLabel('Paid app (viewers subscribe)').check();
    await page.getByRole('button', { name: 'Add a product to subscription products' }).click();
    await page.getByRole('combobox', { name: 'Store of product 1' }).click();
    await page.getByRole('option', { name: 'Roku', exact: true }).click();
    await page.getByLabel('Product id 1').fill(SKU);
    await page.getByLabel('Display name 1').fill('Harbour monthly');
    // A new product sells monthly unless the creator picks otherwise (it once defaulted to weekly).
    expect(await page.getByRole('combobox', { name: 'Period of product 1' }).inputValue()).toBe('Monthly');
    const roku = page.getByRole('group', { name: 'Roku Pay credentials' });
    await roku.getByLabel('Roku Pay API key', { exact: true }).fill(ROKU_KEY);
    await roku.getByLabel('Channel ID', { exact: true }).fill(ROKU_CHANNEL);
    await page.getByLabel('Carry Harbour TV').check();
    await page.getByRole('button', { name: 'Save app' }).click();
    await page.getByRole('status').getByText('App saved.', { exact: false }).waitFor();
    await screenshot(page, 'creator-5-app');
    expect(await api('/api/v1/studio/apps/roku')).toMatchObject({
      isPaid: true,
      storeProducts: [{ storePlatform: 'Roku', productId: SKU, billingPeriod: 'Monthly' }],
      credentialFields: { roku: { apiKey: true, channelId: ROKU_CHANNEL } },
    });

    // The console has no price field: a product's price is what the store reports with each
    // purchase. A viewer's Roku device buys it (6.49 USD); the app posts the receipt to the Custom
    // API's verify route, as a player does (no console screen does this: it is the viewer's side).
    const transaction = rokuTransaction('nora-r-1', SKU, new Date(Date.now() + 30 * DAY), { amount: 6.49, currency: 'USD', channelId: ROKU_CHANNEL });
    stores.roku.records.set('nora-r-1', transaction);
    const { userId } = (await server.api('POST', '/api/v1/rest/auth/login', { body: { username: NORA.username, password: NORA.password } })).body.data;
    const verified = await server.api('POST', `/api/v1/services/custom/users/${userId}/apps/subscription/verify`, {
      headers: { 'platform-id': 'roku', 'device-id': 'living-room-roku' },
      body: { store_platform: 'Roku', product_id: SKU, receipt_data: 'nora-r-1' },
    });
    expect(verified.status, verified.text).toBe(200);
    expect(verified.body.data).toMatchObject({ ok: true, entitled: true });
    expect(stores.roku.calls()).toBe(1);
  });

  it('6. reads the revenue in money in Analytics → Trends', async () => {
    await openScreen(page, 'Analytics');
    await segment(page, 'Trends');
    await page.getByRole('combobox', { name: 'Time zone' }).fill('UTC');
    await segment(page, '7 days');
    const usd = page.getByRole('group', { name: 'Revenue in USD' });
    await usd.getByText('$6.49', { exact: true }).waitFor();
    await usd.getByText(/1 sale/).waitFor();
    await page.getByRole('group', { name: /^New subscriptions: 1,/ }).waitFor();
    await page
      .getByRole('table', { name: 'Revenue per product' })
      .getByRole('row', { name: new RegExp(`Roku ${SKU.replaceAll('.', '\\.')} Subscription \\$6\\.49 USD 1 0 \\$6\\.49`) })
      .waitFor();
    await screenshot(page, 'creator-6-revenue');
    await page.context().close();
  });
});
