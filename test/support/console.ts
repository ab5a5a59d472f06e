// The Studio console end to end: a real channelnet on PGlite listening on a local port, and
// Debian's Chromium driven by playwright-core (never a downloaded browser). With
// CONSOLE_SCREENSHOTS=1, screenshots go to test-results/console/ (not committed) for a human to
// look at; tests assert visible text.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { chromium, type Browser, type BrowserContext, type Download, type Locator, type Page } from 'playwright-core';
import { buildApp } from '../../src/app.ts';
import { allowStoredOrigins } from '../../src/catalog/fields.ts';
import { importCatalog } from '../../src/catalog/import.ts';
import type { Config } from '../../src/config.ts';
import { expect, inject } from 'vitest';
import { CHROMIUM, CHROMIUM_ARGS } from './chromium.ts';
import { freshDatabase, type TestDatabase } from './db.ts';

export const SCREENSHOTS = path.resolve('test-results', 'console');

export interface ConsoleServer {
  app: FastifyInstance;
  database: TestDatabase;
  /** http://127.0.0.1:port */
  origin: string;
  browser: Browser;
  /** A new browser context (its own sign-in) at 1280x800 unless a viewport is given. */
  context(viewport?: { width: number; height: number }): Promise<BrowserContext>;
  /** A page of a new context, signed in as `username` and showing the console. */
  signedIn(username: string, password: string, viewport?: { width: number; height: number }): Promise<Page>;
  /** Calls an API of the server as a client would (the tests' side door to check answers). */
  api(method: string, url: string, options?: { token?: string; body?: unknown; headers?: Record<string, string> }): Promise<{ status: number; body: any; text: string }>;
  login(username: string, password: string): Promise<string>;
  close(): Promise<void>;
}

export async function consoleServer(catalog: unknown, config: Partial<Config> = {}): Promise<ConsoleServer> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium); .ci/run does`);
  const database = await freshDatabase('pglite');
  allowStoredOrigins(config.MEDIA_FETCH_ALLOW_ORIGINS ?? []); // imported as the app will hold it
  const imported = await importCatalog(database.db, catalog, { replace: false, now: new Date() });
  if (!imported.ok) throw new Error(`test catalog invalid:\n${imported.errors.join('\n')}`);
  const app = await buildApp({ database, config: { LOG_LEVEL: 'silent', RATE_LIMIT_ENABLED: false, MAX_EVENT_LOOP_DELAY_MS: 0, ...config } });
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  const origin = address.replace('localhost', '127.0.0.1');
  // The run's shared Chromium when the global set-up started one (closing a connected browser
  // only disconnects); otherwise one of this file's own.
  const endpoint = inject('browserEndpoint');
  const browser = endpoint ? await chromium.connect(endpoint) : await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
  mkdirSync(SCREENSHOTS, { recursive: true });

  const api: ConsoleServer['api'] = async (method, url, options = {}) => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${origin}${url}`, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
    const text = await response.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    return { status: response.status, body, text };
  };

  // An action that cannot happen fails in 20 s with playwright's call log, within the test's 30 s.
  const context = async (viewport = { width: 1280, height: 800 }) => {
    const created = await browser.newContext({ viewport, baseURL: origin });
    created.setDefaultTimeout(20_000);
    return created;
  };

  return {
    app,
    database,
    origin,
    browser,
    context,
    api,
    async login(username, password) {
      const { status, body } = await api('POST', '/api/v1/rest/auth/login', { body: { username, password } });
      if (status !== 200) throw new Error(`login of ${username}: ${status}`);
      return body.data.authToken as string;
    },
    async signedIn(username, password, viewport) {
      const page = await (await context(viewport)).newPage();
      await signIn(page, username, password);
      await page.getByRole('navigation', { name: 'Screens' }).waitFor();
      return page;
    },
    // Each step is bounded: on a loaded CI machine Chromium's exit or a socket it left half-open
    // once held this for the whole hook timeout (60 s) after every test had passed.
    async close() {
      await settles(browser.close(), 15_000);
      const closing = app.close();
      if (!(await settles(closing, 10_000))) {
        app.server.closeAllConnections();
        await settles(closing, 10_000);
      }
      await settles(database.close(), 10_000);
    },
  };
}

/** Whether `work` settled (resolved or rejected) within `ms`; never throws. */
async function settles(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  const done = work.then(
    () => true as const,
    () => true as const,
  );
  try {
    return await Promise.race([done, late]);
  } finally {
    clearTimeout(timer);
  }
}

export async function signIn(page: Page, username: string, password: string): Promise<void> {
  await page.goto('/studio/');
  await page.getByLabel('Username or email').fill(username);
  await page.getByRole('textbox', { name: 'Password' }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/**
 * With CONSOLE_SCREENSHOTS=1, saves a screenshot for people (test-results/console/<name>.png);
 * tests never compare pixels, so a run without it (CI) spends no Chromium time on them.
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  if (process.env['CONSOLE_SCREENSHOTS'] !== '1') return;
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

/** Opens a screen from the navigation, as a person would. */
export async function openScreen(page: Page, label: string): Promise<void> {
  // At phone width the navigation sits behind the menu button.
  const menu = page.getByRole('button', { name: 'Menu' });
  if (await menu.isVisible()) await menu.click();
  await page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name: label, exact: true }).click();
}

/** A download's text. saveAs works with the run's shared (connected) browser, where path() does not. */
export async function downloadedText(download: Download): Promise<string> {
  const dir = mkdtempSync(path.join(tmpdir(), 'channelnet-download-'));
  try {
    const file = path.join(dir, 'download');
    await download.saveAs(file);
    return readFileSync(file, 'utf8');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * What "works at phone width" means, asserted: the page does not scroll sideways, and each named
 * element lies within the viewport's width (visible, not cut off at the right).
 */
export async function expectFitsWidth(page: Page, ...within: Locator[]): Promise<void> {
  const { scrollWidth, width } = (await page.evaluate('({ scrollWidth: document.documentElement.scrollWidth, width: window.innerWidth })')) as {
    scrollWidth: number;
    width: number;
  };
  expect(scrollWidth, `the page is ${scrollWidth} px wide in a ${width} px viewport`).toBeLessThanOrEqual(width);
  for (const element of within) {
    const box = await element.boundingBox();
    expect(box, 'the element is laid out').not.toBeNull();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(width + 0.5);
  }
}
