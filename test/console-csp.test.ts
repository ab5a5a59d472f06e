// The pages a browser shows send a Content-Security-Policy and frame protection (issue 26), and
// the console and the API docs still work under them: a real Chromium opens every console screen
// and the docs page, and no policy violation is reported (a violation would be a broken page).
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWNER, smallCatalog } from './fixtures/catalog.ts';
import { consoleServer, openScreen, screenshot, type ConsoleServer } from './support/console.ts';

const SCREENS = ['Channels', 'Videos', 'Schedule', 'Programming', 'Live streams', 'Watch', 'Apps', 'Analytics', 'Import & export', 'Audit log'];

/** Collects CSP violations (the DOM event) and console errors of a page from its first script on. */
async function watch(page: Page): Promise<{ violations: () => Promise<string[]>; errors: string[] }> {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  // Browser code as text: the tests are type-checked without the DOM's types.
  await page.addInitScript({
    content: `window.__violations = []; document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(e.violatedDirective + ' ' + e.blockedURI));`,
  });
  return { violations: () => page.evaluate('window.__violations') as Promise<string[]>, errors };
}

describe('pages under their Content-Security-Policy', { timeout: 180_000 }, () => {
  let server: ConsoleServer;
  beforeAll(async () => {
    server = await consoleServer(smallCatalog(), { DOCS_ENABLED: true });
  }, 120_000);
  afterAll(() => server?.close());

  it('sends the policy and frame protection with the console, its assets, its redirects and the docs', async () => {
    const asset = /src="(\/studio\/assets\/[^"]+\.js)"/.exec(await (await fetch(`${server.origin}/studio/`)).text())![1]!;
    for (const path of ['/', '/studio', '/studio/', '/studio/channels/3', asset, '/docs', '/docs/openapi.json']) {
      const answer = await fetch(`${server.origin}${path}`, { redirect: 'manual' });
      expect(answer.headers.get('x-frame-options'), path).toBe('DENY');
      expect(answer.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(answer.headers.get('referrer-policy'), path).toBe('no-referrer');
    }
    const console = (await fetch(`${server.origin}/studio/`)).headers.get('content-security-policy') ?? '';
    expect(console).toContain("script-src 'self'");
    expect(console).toContain("frame-ancestors 'none'");
    expect(console).not.toMatch(/script-src[^;]*unsafe-inline/);
    // The Watch view's players and nothing more (issue 30): two embed origins, media over HTTPS.
    expect(console).toContain('frame-src https://www.youtube-nocookie.com https://player.vimeo.com;');
    expect(console).toContain("media-src 'self' https: blob:;");
    // The linear stream (issue 34): playlists from this origin, segments from creators' HTTPS origins.
    expect(console).toContain("connect-src 'self' https:;");
    expect(console).not.toMatch(/(frame|child)-src[^;]*(\*|https:(?!\/\/))/);
    const docs = (await fetch(`${server.origin}/docs/`)).headers.get('content-security-policy') ?? '';
    expect(docs).toContain("frame-ancestors 'none'");
    expect(docs).not.toContain('upgrade-insecure-requests');
    expect(docs).not.toMatch(/script-src[^;]*unsafe-inline/);
  });

  it('opens every console screen without a policy violation', async () => {
    const page = await (await server.context()).newPage();
    const seen = await watch(page);
    await page.goto('/studio/');
    await page.getByLabel('Username or email').fill(OWNER.username);
    await page.getByRole('textbox', { name: 'Password' }).fill(OWNER.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation', { name: 'Screens' }).waitFor();
    for (const label of SCREENS) {
      await openScreen(page, label);
      await page.getByRole('heading', { name: label }).first().waitFor();
    }
    await screenshot(page, 'csp-last-screen');
    expect(await seen.violations()).toEqual([]);
    expect(seen.errors.filter((text) => /Content Security Policy|Refused to/i.test(text))).toEqual([]);
    await page.context().close();
  });

  it('shows the API docs without a policy violation', async () => {
    const page = await (await server.context()).newPage();
    const seen = await watch(page);
    await page.goto('/docs/');
    // swagger-ui renders the whole document (470 KB) before its title: ~2 s quiet, many times
    // that while the suite's other browsers share the two cores. This test is about the policy.
    await page.locator('.swagger-ui .info .title').waitFor({ timeout: 90_000 });
    expect(await seen.violations()).toEqual([]);
    expect(seen.errors.filter((text) => /Content Security Policy|Refused to/i.test(text))).toEqual([]);
    await page.context().close();
  });
});
