// The Analytics screen in a real browser: heartbeats posted as players post them show up as the
// concurrency chart's peak, in the watch-time tables, in viewers now and in the sessions table and
// its CSV download. Assertions read text; the charts' pixels are only in the screenshots.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subscriptions, verificationAttempts, ppvUnlocks } from '../src/db/schema.ts';
import { OWNER } from './fixtures/catalog.ts';
import type { Page } from 'playwright-core';
import { consoleServer, downloadedText, expectFitsWidth, openScreen, screenshot, type ConsoleServer } from './support/console.ts';
import { OLGA, studioCatalog } from './support/studio.ts';

/** Picks a choice of a segmented control by its visible label. */
const segment = (page: Page, label: string) => page.locator('label', { hasText: new RegExp(`^${label}$`) }).click();

describe('Studio console: analytics', { timeout: 120_000 }, () => {
  let server: ConsoleServer;
  beforeAll(async () => {
    server = await consoleServer(studioCatalog()); // alice's network, and olga's (another owner)
    // Three players on Alice News, one heartbeat each, now (the server runs on the real clock).
    for (const device of ['tv-1', 'tv-2', 'phone-1']) {
      const source = device.startsWith('tv') ? 'roku_app' : 'mobile_app_on_ios';
      const posted = await server.api('POST', '/api/v1/activity', { body: { source, action: 'play_channel', client_id: 11, user_id: device, channel_id: 201 } });
      expect(posted.status, posted.text).toBe(200);
    }
    // A Roku subscription verified and a PPV bought today, as the purchase flows record them.
    const { db } = server.database;
    const now = new Date();
    await db.insert(subscriptions).values({ appId: 303, storePlatform: 'Roku', productId: 'p', originalTransactionId: 'r-1', status: 'active', updatedAt: now });
    await db.insert(verificationAttempts).values({
      appId: 303,
      storePlatform: 'Roku',
      route: 'subscription_verify',
      originalTransactionId: 'r-1',
      transactionId: 'r-1',
      outcome: 'valid',
      granted: true,
      at: now,
      priceMicros: 4_990_000,
      priceCurrency: 'USD',
      priceProductId: 'alice.roku.monthly',
    });
    await db.insert(ppvUnlocks).values({
      appId: 302,
      videoId: 5002,
      storePlatform: 'Google',
      productId: 'alice_ppv',
      transactionId: 'GPA.9',
      deviceId: 'd',
      createdAt: now,
      expiresAt: new Date(now.getTime() + 86_400_000),
    });
  }, 120_000);
  afterAll(() => server?.close());

  it('draws the heartbeats: peak, viewers now, watch time per channel and platform, sessions and CSV', async () => {
    const page = await server.signedIn(OWNER.username, OWNER.password);
    await page.goto('/studio/#/analytics');
    await page.getByRole('combobox', { name: 'Time zone' }).fill('UTC');
    await page
      .getByLabel('Concurrency summary')
      .getByText(/^Peak 3 viewers at \d\d:\d\d\.$/)
      .waitFor();
    await page.getByLabel('Viewers now').getByText('3').waitFor();
    const perChannel = page.getByRole('table', { name: 'Watch time per channel' });
    await perChannel.getByText('Alice News').waitFor();
    const perPlatform = page.getByRole('table', { name: 'Watch time per platform' });
    // Platforms by the names a creator reads (the chart's labels too), not the API's source values.
    await perPlatform.getByText('Roku', { exact: true }).waitFor();
    await perPlatform.getByText('iOS app', { exact: true }).waitFor();
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
    await expectFitsWidth(page, page.getByText('Choose a real day and a time zone'));
    await page.getByRole('combobox', { name: 'Time zone' }).fill('UTC');
    await page.getByLabel('Concurrency summary').waitFor();
    await expectFitsWidth(page, page.getByLabel('Concurrency summary'), page.getByRole('combobox', { name: 'Time zone' }));
    await screenshot(page, 'analytics-phone');
    await page.context().close();
  });

  it('Trends: a range of days with the change, filters, purchases, CSV of each, at phone width too', async () => {
    const page = await server.signedIn(OWNER.username, OWNER.password);
    await openScreen(page, 'Analytics');
    await segment(page, 'Trends');
    await page.getByRole('combobox', { name: 'Time zone' }).fill('UTC');
    await segment(page, '7 days');
    // Today's three devices, none in the 7 days before.
    await page.getByRole('group', { name: 'Unique devices: 3, none in the previous 7 days' }).waitFor();
    await page.getByRole('group', { name: 'Sessions: 3, none in the previous 7 days' }).waitFor();
    await page.getByRole('table', { name: 'Viewing per platform' }).getByText('iOS app').waitFor();
    await page.getByRole('img', { name: /^Unique devices and watch hours per day/ }).waitFor();
    await page.getByRole('combobox', { name: 'Platform' }).click();
    await page.getByRole('option', { name: 'Roku', exact: true }).click();
    await page.getByRole('group', { name: /^Unique devices: 2,/ }).waitFor();
    // Subscriptions and purchases.
    await page.getByRole('group', { name: 'New subscriptions: 1, none in the previous 7 days' }).waitFor();
    // The catalog's own unlock was made at import, today, too.
    await page.getByRole('group', { name: /^Pay-per-view purchases: 2,/ }).waitFor();
    const today = new Date().toISOString().slice(0, 10);
    await page.getByRole('table', { name: 'Subscriptions and purchases per day' }).getByText(today).waitFor();
    await screenshot(page, 'analytics-trends');
    const [viewing] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download viewing CSV' }).click()]);
    const lines = (await downloadedText(viewing)).trim().split(/\r?\n/);
    expect([lines[0], lines.length, lines.at(-1)]).toEqual(['day,uniqueDevices,sessions,watchSeconds', 8, `${today},2,2,0`]);
    // Revenue per day drawn above the revenue tables: the Roku sale's dollars, one bar a day of the 7
    // (the Google unlocks have no price: said under the chart, not drawn).
    const revenue = page.getByRole('img', { name: /^Net revenue per day in USD, / });
    await revenue.waitFor();
    expect(await revenue.getAttribute('aria-label')).toMatch(/: \$4\.99 in all$/);
    expect([await revenue.getAttribute('data-points'), await revenue.getAttribute('data-series')]).toEqual(['7', '1']);
    expect(await revenue.locator('.u-legend .u-series').allInnerTexts()).toEqual([expect.any(String), expect.stringContaining('Net revenue (USD)')]);
    await page.getByText(/2 sales with no price reported, not drawn\./).waitFor();
    expect(await page.getByRole('radiogroup', { name: 'Chart currency' }).count()).toBe(0);
    const [sales] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download purchases CSV' }).click()]);
    const purchases = (await downloadedText(sales)).trim().split(/\r?\n/);
    // The day's counts, then its money: dollars, and the two sales without a price counted apart.
    expect([purchases[0], purchases.length, purchases.at(-1)]).toEqual([
      'day,newSubscriptions,renewals,subscriptionRefunds,ppvPurchases,ppvRefunds,revenueUSD,salesPriceUnknown,refundsPriceUnknown',
      8,
      `${today},1,0,0,2,0,4.99,2,0`,
    ]);
    // A custom range: two days ending today.
    await segment(page, 'Custom');
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    await page.getByRole('textbox', { name: 'From', exact: true }).fill(yesterday);
    await page.getByRole('textbox', { name: 'To', exact: true }).fill(today);
    await page.getByText(`${yesterday} to ${today} (2 days, UTC)`).waitFor();
    // At phone width nothing scrolls sideways and the chart is redrawn to the width.
    await page.setViewportSize({ width: 390, height: 844 });
    await segment(page, '90 days');
    await page.getByRole('group', { name: /^Unique devices: 2,/ }).waitFor();
    // The revenue chart redrawn for the 90 days.
    await page
      .getByRole('img', { name: /^Net revenue per day in USD, / })
      .and(page.locator('[data-points="90"]'))
      .waitFor();
    expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
    await screenshot(page, 'analytics-trends-phone');
    await page.context().close();
  });

  it('Trends: revenue per currency, day, store and product, refunds netted, the unknown apart (issue 36 item 6)', async () => {
    // An Apple subscription in euros today and a refund of it; the Roku sale above is in dollars;
    // the Google PPV unlocks report no price.
    const { db } = server.database;
    const now = new Date();
    await db.insert(subscriptions).values({ appId: 301, storePlatform: 'Apple', productId: 'com.alice.monthly', originalTransactionId: 'a-1', status: 'active', updatedAt: now });
    const apple = {
      appId: 301,
      storePlatform: 'Apple' as const,
      originalTransactionId: 'a-1',
      transactionId: 'a-1',
      priceMicros: 5_990_000,
      priceCurrency: 'EUR',
      priceProductId: 'com.alice.monthly',
    };
    await db.insert(verificationAttempts).values([
      { ...apple, route: 'subscription_verify', outcome: 'valid', granted: true, at: new Date(now.getTime() - 1000) },
      { ...apple, transactionId: 'a-2', route: 'subscription_status', outcome: 'valid', granted: true, at: now },
      { ...apple, transactionId: 'a-2', route: 'notification', outcome: 'refunded', granted: false, at: now },
    ]);
    const page = await server.signedIn(OWNER.username, OWNER.password);
    await openScreen(page, 'Analytics');
    await segment(page, 'Trends');
    await page.getByRole('combobox', { name: 'Time zone' }).fill('UTC');
    await segment(page, '7 days');
    const usd = page.getByRole('group', { name: 'Revenue in USD' });
    await usd.getByText('$4.99', { exact: true }).waitFor();
    const eur = page.getByRole('group', { name: 'Revenue in EUR' });
    await eur.getByText('€5.99', { exact: true }).waitFor(); // bought and renewed, the renewal refunded
    await eur.getByText(/2 sales, 1 refund/).waitFor();
    await page.getByRole('group', { name: 'Revenue in Price unknown' }).getByText('2 sales', { exact: true }).waitFor();
    const products = page.getByRole('table', { name: 'Revenue per product' });
    await products.getByRole('row', { name: /Roku alice\.roku\.monthly Subscription \$4\.99 USD 1 0 \$4\.99/ }).waitFor();
    await products.getByRole('row', { name: /Apple com\.alice\.monthly Subscription €5\.99 EUR 2 1 €5\.99/ }).waitFor();
    await products.getByRole('row', { name: /Google alice_ppv Pay-per-view unknown Price unknown 2 0 unknown/ }).waitFor();
    // The chart draws the main currency (euros: more sales and refunds), the dollars one click away.
    const chart = page.getByRole('img', { name: /^Net revenue per day in EUR, .*: €5\.99 in all$/ });
    await chart.waitFor();
    expect(await chart.getAttribute('data-points')).toBe('7');
    await page.getByText(/Also sold in USD: pick it above/).waitFor();
    await screenshot(page, 'analytics-revenue');
    await page.getByRole('radiogroup', { name: 'Chart currency' }).locator('label', { hasText: /^USD$/ }).click();
    const dollars = page.getByRole('img', { name: /^Net revenue per day in USD, .*: \$4\.99 in all$/ });
    await dollars.waitFor();
    expect(await dollars.locator('.u-legend .u-series').allInnerTexts()).toEqual([expect.any(String), expect.stringContaining('Net revenue (USD)')]);
    // Another owner's console shows none of it.
    await page.context().close();
    const other = await server.signedIn(OLGA.username, OLGA.password);
    await openScreen(other, 'Analytics');
    await segment(other, 'Trends');
    await other.getByText(/^No sales in this range or the previous \d+ days\.$/).waitFor();
    const html = await other.content();
    for (const word of ['$4.99', '€5.99', 'alice.roku.monthly', 'com.alice.monthly']) expect(html).not.toContain(word);
    await other.context().close();
  });
});
