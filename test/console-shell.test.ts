// The console's frame in a real browser: served at /studio (/ redirects there), sign-in of an
// owner, a viewer told the console is for owners, wrong passwords in words, sign-out, and the
// navigation at phone width.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWNER, VIEWER, smallCatalog } from './fixtures/catalog.ts';
import { consoleServer, openScreen, screenshot, signIn, type ConsoleServer } from './support/console.ts';

describe('Studio console: frame and sign-in', { timeout: 120_000 }, () => {
  let server: ConsoleServer;
  beforeAll(async () => {
    server = await consoleServer(smallCatalog());
  }, 120_000);
  afterAll(() => server?.close());

  it('serves the console at /studio/ and redirects / there', async () => {
    const root = await fetch(`${server.origin}/`, { redirect: 'manual' });
    expect(root.status).toBe(302);
    expect(root.headers.get('location')).toBe('/studio/');
    const page = await fetch(`${server.origin}/studio/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root">');
    // A screen's deep link is the same page (the console routes on the client).
    expect((await fetch(`${server.origin}/studio/anything/here`)).status).toBe(200);
  });

  it('signs an owner in, shows every screen in the navigation, and signs out', async () => {
    const page = await server.signedIn(OWNER.username, OWNER.password);
    const nav = page.getByRole('navigation', { name: 'Screens' });
    for (const label of ['Channels', 'Videos', 'Schedule', 'Live streams', 'Apps', 'Analytics', 'Import & export', 'Audit log']) {
      await expect(nav.getByRole('link', { name: label, exact: true }).isVisible()).resolves.toBe(true);
    }
    await screenshot(page, 'shell');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await page.context().close();
  });

  it('tells a viewer the console is for owners, and a wrong password in words', async () => {
    const page = await (await server.context()).newPage();
    await signIn(page, VIEWER.username, VIEWER.password);
    await page.getByRole('alert').getByText('The Studio is for channel owners').waitFor();
    await signIn(page, OWNER.username, 'wrong password');
    await page.getByRole('alert').getByText('Wrong username or password.').waitFor();
    expect(await page.getByRole('navigation', { name: 'Screens' }).count()).toBe(0);
    await screenshot(page, 'sign-in-refused');
    await page.context().close();
  });

  it('opens screens from a menu at phone width', async () => {
    const page = await server.signedIn(OWNER.username, OWNER.password, { width: 390, height: 844 });
    await openScreen(page, 'Videos');
    await page.getByRole('heading', { name: 'Videos' }).waitFor();
    expect(page.url()).toContain('#/videos');
    await screenshot(page, 'shell-phone');
    await page.context().close();
  });
});
