// Accessibility of every console screen in a real Chromium (issue 30, items 6 and 7), with no
// extra package: every control has an accessible name (read from Chromium's own accessibility
// tree through playwright's aria snapshot, so names are computed as a screen reader gets them),
// one h1, a title naming the screen, and no sideways scroll at phone width (375 px). Then the
// skip link, a dialog's first focus and its named close button, and named pagination arrows.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWNER, smallCatalog } from './fixtures/catalog.ts';
import { consoleServer, openScreen, screenshot, type ConsoleServer } from './support/console.ts';

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
      const out = [...document.querySelectorAll(document.querySelector('main') ? 'main *' : 'body *')].filter((e) => e.getClientRects().length > 0 && e.getBoundingClientRect().right > window.innerWidth + 1 && !inScroller(e)).map((e) => e.tagName + '.' + String(e.className).slice(0, 60));
      const walker = document.createTreeWalker(document.querySelector('main') || document.body, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const range = document.createRange();
        range.selectNodeContents(n);
        if (range.getBoundingClientRect().right > window.innerWidth + 1 && !inScroller(n)) out.push(JSON.stringify(n.textContent.slice(0, 40)));
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
