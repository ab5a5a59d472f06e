// Accessibility of every console screen in a real Chromium (issue 30, items 6 and 7), with no
// extra package: every control has an accessible name (read from Chromium's own accessibility
// tree through playwright's aria snapshot, so names are computed as a screen reader gets them),
// one h1, a title naming the screen, and no sideways scroll at phone width (375 px). Then the
// skip link, a dialog's first focus and its named close button, and named pagination arrows.
// Then the same checks on the states issue 36 added (a slot with rolls and its preview, the
// collection editors, a paid app's store forms, Trends with revenue, the dead-air row, Add from
// URLs' review, the block form's reorder controls) and where the focus lands after their actions.
import { DateTime } from 'luxon';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subscriptions, verificationAttempts } from '../src/db/schema.ts';
import { OWNER, smallCatalog } from './fixtures/catalog.ts';
import { consoleServer, openScreen, screenshot, type ConsoleServer } from './support/console.ts';
import { providerApis, providerConfig, type ProviderApis } from './support/provider-apis.ts';

const SCREENS = ['Channels', 'Videos', 'Schedule', 'Programming', 'Collections', 'Live streams', 'Watch', 'Apps', 'Analytics', 'Import & export', 'Audit log', 'Invites'];
const CONTROLS = 'button|link|textbox|searchbox|combobox|checkbox|switch|radio|tab|slider|spinbutton|menuitem|option';
/** An aria snapshot line of a control with no name: `- button`, `- checkbox [checked]`, `- link:`. */
const UNNAMED = new RegExp(`^\\s*- (${CONTROLS})( \\[[^\\]]*\\])*:?\\s*$`);

/** What one screen breaks: unnamed controls, h1 count, title, sideways scroll. Browser code as text (tests have no DOM types). */
async function problemsOf(page: Page, label: string): Promise<string[]> {
  const snapshot = await page.locator('body').ariaSnapshot();
  const unnamed = snapshot.split('\n').filter((line) => UNNAMED.test(line));
  const facts = (await page.evaluate(`({
    h1: [...document.querySelectorAll('h1')].filter((h) => h.getClientRects().length > 0).length,
    title: document.title,
    scrollWidth: document.documentElement.scrollWidth,
    width: window.innerWidth,
    // Content beyond the right edge outside a part that scrolls by itself (a table's scroll container): elements and text alike.
    wide: (() => {
      const inScroller = (e) => e.parentElement && e.parentElement.closest('.mantine-TableScrollContainer-scrollContainer, .mantine-ScrollArea-viewport');
      // Text only a screen reader reads (a live region): inside a 1 px box that hides its overflow.
      const unseen = (e) => {
        for (let a = e.parentElement; a; a = a.parentElement) if (a.getBoundingClientRect().width <= 1 && getComputedStyle(a).overflow === 'hidden') return true;
        return false;
      };
      // The screen, and an open dialog (a portal outside main, whose own overflow scrolls it sideways).
      const roots = document.querySelector('main') ? [document.querySelector('main'), ...document.querySelectorAll('[role="dialog"]')] : [document.body];
      const out = roots.flatMap((root) => [...root.querySelectorAll('*')]).filter((e) => e.getClientRects().length > 0 && e.getBoundingClientRect().right > window.innerWidth + 1 && !inScroller(e) && !unseen(e)).map((e) => e.tagName + '.' + String(e.className).slice(0, 60));
      for (const root of roots) {
        const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
        for (let n = walker.nextNode(); n; n = walker.nextNode()) {
          const range = document.createRange();
          range.selectNodeContents(n);
          if (range.getBoundingClientRect().right > window.innerWidth + 1 && !inScroller(n) && !unseen(n)) out.push(JSON.stringify(n.textContent.slice(0, 40)));
        }
      }
      return out.slice(0, 5);
    })(),
  })`)) as { h1: number; title: string; scrollWidth: number; width: number; wide: string[] };
  const problems = unnamed.map((line) => `${label}: a control without a name: ${line.trim()}`);
  if (facts.h1 !== 1) problems.push(`${label}: ${facts.h1} h1 elements`);
  if (facts.title !== `${label} · channelnet Studio`) problems.push(`${label}: title "${facts.title}"`);
  if (facts.scrollWidth > facts.width || facts.wide.length > 0)
    problems.push(`${label}: scrolls sideways at ${facts.width} px (${facts.scrollWidth} px wide: ${facts.wide.join(', ')})`);
  return problems;
}

async function everyScreen(page: Page, suffix: string): Promise<string[]> {
  const problems: string[] = [];
  for (const label of SCREENS) {
    await openScreen(page, label);
    await page.getByRole('main').getByRole('heading', { name: label, level: 2 }).waitFor();
    // Each screen's reads settle (no loader left) before it is judged.
    await page.waitForFunction(`!document.querySelector('main [aria-label^="Loading"]')`, undefined, { timeout: 15_000 }).catch(() => undefined);
    await page.waitForFunction(`document.title.startsWith(${JSON.stringify(label)})`);
    problems.push(...(await problemsOf(page, label)));
    if (suffix) await screenshot(page, `a11y-${label.toLowerCase().replace(/\W+/g, '-')}${suffix}`);
  }
  return problems;
}

describe('Studio console: accessibility of every screen', { timeout: 240_000 }, () => {
  let server: ConsoleServer;
  let page: Page;
  beforeAll(async () => {
    server = await consoleServer(smallCatalog());
    page = await server.signedIn(OWNER.username, OWNER.password);
  }, 120_000);
  afterAll(() => server?.close());

  it('names every control, has one h1 and a title per screen at 1280 px', async () => {
    expect(await everyScreen(page, '')).toEqual([]);
  });

  it('has a skip link first, a dialog focused on its first field with a named close button, and named page arrows', async () => {
    await openScreen(page, 'Videos');
    // The skip link is the first stop of the keyboard on a fresh page and moves the focus to the screen.
    await page.reload();
    await page.getByRole('main').getByRole('heading', { name: 'Videos', level: 2 }).waitFor();
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement.textContent')).toBe('Skip to content');
    await page.keyboard.press('Enter');
    expect(await page.evaluate('document.activeElement.tagName + " " + document.activeElement.getAttribute("aria-label")')).toBe('MAIN Videos');
    expect(page.url()).toContain('#/videos');
    // Moving to another screen by its link puts the focus on that screen's heading, not on the link left.
    await page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name: 'Channels' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate('document.activeElement.tagName + " " + document.activeElement.textContent')).toBe('H2 Channels');
    await openScreen(page, 'Videos');

    await page.getByRole('button', { name: 'Add video' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a video' });
    await dialog.getByRole('button', { name: 'Close dialog' }).waitFor();
    await page.waitForFunction(`document.activeElement && document.activeElement.tagName === 'INPUT'`);
    expect(await page.evaluate('document.activeElement.labels[0].textContent')).toMatch(/^Title/);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });

    // Pagination: enough videos for two pages, then the arrows by name.
    const token = await server.login(OWNER.username, OWNER.password);
    const many = Array.from({ length: 60 }, (_, i) => ({
      title: `Paged ${i}`,
      durationSeconds: 60,
      providerName: 'YouTube',
      providerVideoId: `paged${String(i).padStart(5, '0')}`,
    }));
    expect((await server.api('POST', '/api/v1/studio/videos', { token, body: many })).status).toBe(201);
    await page.reload();
    await page.getByRole('button', { name: 'Next page' }).click();
    await page.getByRole('button', { name: 'Page 2' }).waitFor();
    await page.getByRole('button', { name: 'Previous page' }).waitFor();
  });

  // A channel's Linear output tab (issue 34; needs the server's GET /studio/channels/{id}/linear):
  // its settings, ladder, coverage and player addresses, at 1280 px and at phone width.
  it("names every control of a channel's Linear output tab, with no sideways scroll at phone width", async () => {
    const problems: string[] = [];
    for (const [viewer, suffix] of [
      [page, ''],
      [await server.signedIn(OWNER.username, OWNER.password, { width: 375, height: 812 }), '-375'],
    ] as const) {
      await viewer.goto('/studio/#/channels/201');
      await viewer.getByRole('tab', { name: 'Linear output' }).click();
      await viewer.getByRole('form', { name: 'Linear output settings' }).waitFor();
      await viewer.getByRole('heading', { name: 'Player addresses' }).waitFor();
      problems.push(...(await problemsOf(viewer, 'Channels')).map((p) => `Linear output${suffix}: ${p}`));
      await screenshot(viewer, `a11y-linear-output${suffix}`);
      if (suffix) await viewer.context().close();
    }
    expect(problems).toEqual([]);
  });

  it('names every control of the invitation screen (an invite link, signed out), with one h1, its title and no sideways scroll', async () => {
    const token = await server.login(OWNER.username, OWNER.password);
    const { body } = await server.api('POST', '/api/v1/studio/invites', { token, body: {} });
    const problems: string[] = [];
    for (const viewport of [
      { width: 1280, height: 800 },
      { width: 375, height: 812 },
    ]) {
      const stranger = await (await server.context(viewport)).newPage();
      await stranger.goto(body.data.path);
      await stranger.getByRole('heading', { name: 'Accept your invitation' }).waitFor();
      problems.push(...(await problemsOf(stranger, 'Invitation')));
      await screenshot(stranger, `a11y-invitation${viewport.width === 375 ? '-375' : ''}`);
      await stranger.context().close();
    }
    expect(problems).toEqual([]);
  });

  it('scrolls no screen sideways at phone width (375 px), and every control is still named there', async () => {
    const phone = await server.signedIn(OWNER.username, OWNER.password, { width: 375, height: 812 });
    expect(await everyScreen(phone, '-375')).toEqual([]);
    await phone.context().close();
  });
  it('a sign-in lasts across tabs (a new tab takes it from an open one), and a sign-out ends it in every tab', async () => {
    const first = await server.signedIn(OWNER.username, OWNER.password);
    await openScreen(first, 'Videos');
    const second = await first.context().newPage();
    await second.goto('/studio/#/channels');
    await second.getByRole('main').getByRole('heading', { name: 'Channels', level: 2 }).waitFor();
    expect(await second.getByLabel('Username or email').count()).toBe(0);
    await second.getByRole('button', { name: 'Sign out' }).click();
    await second.getByLabel('Username or email').waitFor();
    await first.getByLabel('Username or email').waitFor();
    // A tab opened now, with no tab signed in, asks for the sign-in.
    const third = await first.context().newPage();
    await third.goto('/studio/');
    await third.getByLabel('Username or email').waitFor();
    await first.context().close();
  });
});

// The states issue 36 added to the screens, each opened as a creator reaches it (its data set
// through the Studio API, as the console tests do) and judged by problemsOf at 1280 px and at
// 375 px: the Programming screen's slot with rolls and pad-to and its preview of unsaved slots;
// a collection's editor, picked and rules; a paid app's four store forms, all set, with a product
// per store; Trends with revenue in two currencies; the programme list's dead-air row; Add from
// URLs' review of a playlist with a duplicate flagged; the calendar's block form with its
// reorder controls. Where a screen says where the focus goes after an action, that too.
describe('Studio console: accessibility of the screens issue 36 added', { timeout: 240_000 }, () => {
  let server: ConsoleServer;
  let apis: ProviderApis;
  let token: string;
  const tomorrow = DateTime.now().setZone('America/New_York').plus({ days: 1 }).toISODate()!; // Alice News's zone
  /** What document.activeElement is, in words: its tag and accessible name (aria-label, its label, or its text). */
  const focused = (page: Page) =>
    page.evaluate(
      `(() => { const e = document.activeElement; if (!e) return ''; return e.tagName + ' ' + (e.getAttribute('aria-label') || (e.labels && e.labels[0] ? e.labels[0].textContent : '') || e.textContent || '').trim().slice(0, 60); })()`,
    ) as Promise<string>;

  beforeAll(async () => {
    apis = await providerApis();
    apis.videos.set('harbour0001', { title: 'Harbour at dawn', duration: 'PT3M33S' });
    apis.videos.set('harbour0002', { title: 'Night ferry', duration: 'PT1H2M3S' });
    apis.videos.set('harbour0003', { title: 'Town hall live', duration: 'PT0S', live: 'live' });
    apis.videos.set('abcdefghijk', { title: 'Morning news (YouTube)', duration: 'PT10M' }); // alice's 5001
    apis.playlists.set('PLharbour', ['harbour0001', 'abcdefghijk', 'harbour0002', 'harbour0003']);
    server = await consoleServer(smallCatalog(), providerConfig(apis));
    token = await server.login(OWNER.username, OWNER.password);
    const call = async (method: string, url: string, body: unknown, status = 200) => {
      const answer = await server.api(method, `/api/v1/studio${url}`, { token, body });
      expect(answer.status, answer.text).toBe(status);
      return answer.body.data;
    };

    // Collections: one picked by hand, one of rules.
    const idents = await call('POST', '/collections', { name: 'Idents', videoIds: [5002, 5001] }, 201);
    const clips = await call(
      'POST',
      '/collections',
      { name: 'Short clips', rules: { categoryIds: [1], providerNames: ['YouTube', 'Vimeo'], maxSeconds: 660, titleContains: 'e' } },
      201,
    );
    // Alice Music (202): 06:00-07:45, the news and the hour-long concert with every roll, padded to the hour; the filler; no fallback (dead air shows).
    await call('PUT', '/channels/202/programming/slots', {
      slots: [
        {
          days: [1, 2, 3, 4, 5, 6, 7],
          start: '06:00',
          end: '07:45',
          videoIds: [5001, 5003],
          order: 'inOrder',
          preRoll: { collectionId: idents.id },
          midRoll: { collectionId: idents.id },
          postRoll: { collectionId: clips.id },
          padTo: 60,
        },
      ],
    });
    await call('PUT', '/channels/202/programming/filler', { videoIds: [5002] });

    // The mobile app (paid): credentials of all four stores and a product sold on each.
    const mobile = await call('GET', '/apps/mobile', undefined);
    await call('PUT', '/apps/mobile', {
      ...mobile,
      isPaid: true,
      storeProducts: [
        { storePlatform: 'Apple', productId: 'com.alice.monthly', displayName: 'Monthly', billingPeriod: 'Monthly', isActive: true },
        { storePlatform: 'Google', productId: 'alice_weekly', displayName: 'Weekly', billingPeriod: 'Weekly', isActive: true },
        { storePlatform: 'Amazon', productId: 'alice.amazon.yearly', displayName: 'Yearly', billingPeriod: 'Yearly', isActive: true },
        { storePlatform: 'Roku', productId: 'alice.roku.monthly', displayName: 'Roku monthly', billingPeriod: 'Monthly', isActive: false },
      ],
      credentialChanges: {
        apple: {
          bundleId: 'com.alice',
          issuerId: '57246542-96fe-1a63-e053-0824d011072a',
          keyId: '2X9R4HXF34',
          privateKey: '-----BEGIN PRIVATE KEY-----\nP8\n-----END PRIVATE KEY-----',
          appAppleId: '1234567890',
        },
        google: {
          packageName: 'com.alice.play',
          clientEmail: 'play@alice.iam.gserviceaccount.com',
          privateKey: '-----BEGIN PRIVATE KEY-----\nPLAY\n-----END PRIVATE KEY-----\n',
          privateKeyId: 'k1',
        },
        amazon: { sharedSecret: 'amazon-shared-key', snsTopicArn: 'arn:aws:sns:us-east-1:123456789012:alice-appstore-notifications', appPackageName: 'com.alice.amazon' },
        roku: { apiKey: 'ROKU-KEY-123', channelId: '4242' },
      },
    });

    // Revenue today in dollars (Roku) and euros (Apple, with a refund), as the purchase flows record it.
    const { db } = server.database;
    const now = new Date();
    await db.insert(subscriptions).values([
      { appId: 303, storePlatform: 'Roku', productId: 'alice.roku.monthly', originalTransactionId: 'r-1', status: 'active', updatedAt: now },
      { appId: 301, storePlatform: 'Apple', productId: 'com.alice.yearly', originalTransactionId: 'a-1', status: 'active', updatedAt: now },
    ]);
    const sale = { outcome: 'valid', granted: true, at: now, route: 'subscription_verify' } as const;
    await db.insert(verificationAttempts).values([
      {
        ...sale,
        appId: 303,
        storePlatform: 'Roku',
        originalTransactionId: 'r-1',
        transactionId: 'r-1',
        priceMicros: 4_990_000,
        priceCurrency: 'USD',
        priceProductId: 'alice.roku.monthly',
      },
      {
        ...sale,
        appId: 301,
        storePlatform: 'Apple',
        originalTransactionId: 'a-1',
        transactionId: 'a-1',
        priceMicros: 59_990_000,
        priceCurrency: 'EUR',
        priceProductId: 'com.alice.yearly',
      },
      {
        ...sale,
        appId: 301,
        storePlatform: 'Apple',
        originalTransactionId: 'a-1',
        transactionId: 'a-2',
        priceMicros: 59_990_000,
        priceCurrency: 'EUR',
        priceProductId: 'com.alice.yearly',
      },
      {
        ...sale,
        appId: 301,
        storePlatform: 'Apple',
        originalTransactionId: 'a-1',
        transactionId: 'a-2',
        priceMicros: 59_990_000,
        priceCurrency: 'EUR',
        priceProductId: 'com.alice.yearly',
        route: 'notification',
        outcome: 'refunded',
        granted: false,
      },
    ]);
    // A player on Alice Music, which has nothing scheduled: the programme list's dead-air row.
    const posted = await server.api('POST', '/api/v1/activity', { body: { source: 'roku_app', action: 'play_channel', client_id: 9, user_id: 'tv-dark', channel_id: 202 } });
    expect(posted.status, posted.text).toBe(200);
    // Tomorrow on Alice News at 20:00: the weather, then the news (the calendar's block to reorder).
    await call('POST', '/channels/201/schedules', { startTime: `${tomorrow}T20:00:00`, videoIds: [5002, 5001] }, 201);
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await apis?.close();
  });

  /**
   * The problems of one state of a screen (screen `label`, state `name`) at 1280 px and at 375 px,
   * each in a new sign-in brought to the state by `reach`; a screenshot of each.
   */
  async function stateProblems(name: string, label: string, reach: (page: Page) => Promise<void>): Promise<string[]> {
    const problems: string[] = [];
    for (const [viewport, suffix] of [
      [{ width: 1280, height: 800 }, ''],
      [{ width: 375, height: 812 }, '-375'],
    ] as const) {
      const page = await server.signedIn(OWNER.username, OWNER.password, viewport);
      page.setDefaultTimeout(30_000);
      try {
        await reach(page);
        problems.push(...(await problemsOf(page, label)).map((p) => `${name}${suffix}: ${p}`));
        await screenshot(page, `a11y-${name}${suffix}`);
      } finally {
        await page.context().close();
      }
    }
    return problems;
  }

  it('Programming: a slot with pre-, mid- and post-roll and pad-to, the dead-air fallback picker, and the preview of unsaved slots with roles and dead air', async () => {
    const problems = await stateProblems('programming-preview', 'Programming', async (page) => {
      await page.goto('/studio/#/programming/202');
      const slot = page.getByRole('group', { name: 'Slot 1', exact: true });
      for (const [roll, value] of [
        ['pre-roll', 'Idents'],
        ['mid-roll', 'Idents'],
        ['post-roll', 'Short clips'],
        ['pad to', 'Next :00'],
      ])
        await expect.poll(() => slot.getByRole('combobox', { name: `Slot 1 ${roll}` }).inputValue()).toBe(value);
      await page.getByRole('combobox', { name: 'Dead-air fallback' }).waitFor();
      // Unsaved: the slot ends at 07:50, previewed as edited.
      await slot.getByLabel('End').fill('07:50');
      await page.getByText('Preview and Apply use the slots and filler as edited above, not yet saved.').waitFor();
      await page.getByRole('button', { name: 'Preview' }).click();
      const blocks = page.getByRole('table', { name: 'Preview of the generated blocks' });
      await blocks
        .getByRole('cell', { name: /^pre-roll \d+ · .*post-roll \d+/ })
        .first()
        .waitFor();
      await page.getByRole('table', { name: 'Dead air in the preview' }).getByRole('cell', { name: 'no slot plays then' }).first().waitFor();
    });
    expect(problems).toEqual([]);
  });

  it("Collections: a picked collection's editor and a rules collection's editor", async () => {
    const problems: string[] = [];
    for (const [name, form, field] of [
      ['Idents', 'Edit collection Idents', 'Search videos'],
      ['Short clips', 'Edit collection Short clips', 'Title contains'],
    ] as const) {
      problems.push(
        ...(await stateProblems(`collection-${name.toLowerCase().replace(/\W+/g, '-')}`, 'Collections', async (page) => {
          await openScreen(page, 'Collections');
          await page.getByRole('button', { name: `Edit ${name}` }).click();
          const editor = page.getByRole('form', { name: form });
          await editor.getByLabel(field).waitFor();
          if (name === 'Idents') await editor.getByText('2. Morning news', { exact: false }).waitFor();
          else expect(await editor.getByLabel('At most (minutes)').inputValue()).toBe('11');
        })),
      );
    }
    expect(problems).toEqual([]);
  });

  it("Apps: a paid app's forms of the four stores, each set, and its products with a billing period", async () => {
    const problems = await stateProblems('apps-store-forms', 'Apps', async (page) => {
      await page.goto('/studio/#/apps/mobile');
      for (const store of ['Apple App Store', 'Google Play', 'Amazon Appstore', 'Roku Pay']) {
        const form = page.getByRole('group', { name: `${store} credentials` });
        await form.getByText('(configured)').waitFor();
        await form.getByRole('button', { name: `Remove all ${store} credentials` }).waitFor();
      }
      expect(await page.getByLabel('Paid app (viewers subscribe)').isChecked()).toBe(true);
      expect(await page.getByRole('combobox', { name: 'Period of product 3' }).inputValue()).toBe('Yearly');
      expect(await page.getByRole('combobox', { name: 'Store of product 4' }).inputValue()).toBe('Roku');
      // A secret's Remove button goes once pressed: the focus moves to the secret's field, not to the page.
      const amazon = page.getByRole('group', { name: 'Amazon Appstore credentials' });
      await amazon.getByRole('button', { name: 'Remove the Shared Key (Amazon Appstore)' }).click();
      await amazon.getByText(/Will be removed/).waitFor();
      await expect.poll(() => focused(page)).toBe('INPUT Shared Key');
    });
    expect(problems).toEqual([]);
  });

  it('Analytics: Trends with revenue in two currencies (the chart, its currency control, the tables), and the programme list with its dead-air row', async () => {
    const problems = await stateProblems('analytics-trends-revenue', 'Analytics', async (page) => {
      await page.goto('/studio/#/analytics/trends');
      await page.getByRole('group', { name: 'Revenue in USD' }).getByText('$4.99', { exact: true }).waitFor();
      await page.getByRole('group', { name: 'Revenue in EUR' }).getByText('€59.99', { exact: true }).waitFor();
      await page.getByRole('img', { name: /^Net revenue per day in EUR, / }).waitFor();
      await page.getByRole('radiogroup', { name: 'Chart currency' }).waitFor();
      await page
        .getByRole('table', { name: 'Revenue per product' })
        .getByRole('row', { name: /Apple com\.alice\.yearly/ })
        .waitFor();
    });
    problems.push(
      ...(await stateProblems('analytics-dead-air', 'Analytics', async (page) => {
        await page.goto('/studio/#/analytics');
        await page
          .getByRole('table', { name: 'Programmes', exact: true })
          .getByRole('row', { name: /Dead air/ })
          .waitFor();
      })),
    );
    expect(problems).toEqual([]);
  });

  it("Videos: Add from URLs' review of a playlist, a duplicate flagged with Add anyway; the dialog opens on its field", async () => {
    const problems = await stateProblems('videos-from-urls-review', 'Videos', async (page) => {
      await openScreen(page, 'Videos');
      await page.getByRole('button', { name: 'Add from URLs' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add videos from URLs' });
      const urls = dialog.getByLabel('Video URLs, one per line');
      // A dialog opens on its first field (main.tsx).
      await expect.poll(() => focused(page)).toBe('TEXTAREA Video URLs, one per line');
      await urls.fill('https://www.youtube.com/playlist?list=PLharbour\nhttps://youtu.be/harbour0001');
      // Look up and Back replace the view with the button pressed: the focus goes to the review's
      // table, and back to the URLs, not to the page.
      await dialog.getByRole('button', { name: 'Look up' }).click();
      const rows = dialog.getByRole('table', { name: 'Videos to add' });
      await rows.waitFor();
      await expect.poll(() => focused(page)).toBe('TABLE Videos to add');
      await dialog.getByRole('button', { name: 'Back' }).click();
      await expect.poll(() => focused(page)).toBe('TEXTAREA Video URLs, one per line');
      await dialog.getByRole('button', { name: 'Look up' }).click();
      await rows.getByText('already in your videos as “Morning news” (video 5001): left out').waitFor();
      await dialog.getByLabel('Add anyway, line 2').waitFor();
      await rows.getByText('the same video as line 1: left out').waitFor();
    });
    expect(problems).toEqual([]);
  });

  it("Schedule: the calendar's block form with its reorder controls; a move by the buttons keeps the focus with the row", async () => {
    const problems = await stateProblems('schedule-block-reorder', 'Schedule', async (page) => {
      await page.goto('/studio/#/schedule/201');
      const day = page.getByLabel(`Day ${tomorrow}`, { exact: true });
      await page
        .getByLabel(/^Day \d{4}-\d\d-\d\d$/)
        .first()
        .waitFor();
      if (!(await day.isVisible())) await page.getByRole('button', { name: 'Next week' }).click();
      await page.getByRole('button', { name: /^Block 20:00–20:12: Weather/ }).click();
      const dialog = page.getByRole('dialog', { name: 'Edit block' });
      const list = dialog.getByRole('list', { name: 'Videos' });
      await list.getByText('1. Weather', { exact: false }).waitFor();
      // Moved to the top, its up button is disabled: the focus goes to the row's other button, not
      // to the page (a disabled button drops it); from there the keyboard moves it back.
      await dialog.getByRole('button', { name: 'Move Morning news up' }).click();
      await list.getByText('1. Morning news').waitFor();
      await expect.poll(() => focused(page)).toBe('BUTTON Move Morning news down');
      await page.keyboard.press('Enter');
      await list.getByText('2. Morning news').waitFor();
      await expect.poll(() => focused(page)).toBe('BUTTON Move Morning news up');
    });
    expect(problems).toEqual([]);
  });
});
