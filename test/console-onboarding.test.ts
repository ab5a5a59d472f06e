// Onboarding in the console, in a real Chromium (issue 36, item 8): an owner makes an invite link
// on the Invites screen, a stranger opens it in another browser, chooses a sign-in and lands in an
// empty Studio of their own; the used link is then refused in words. With SIGNUP=open the sign-in
// screen offers "Create an account". Moving to another screen puts the focus on its heading.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWNER, smallCatalog } from './fixtures/catalog.ts';
import { consoleServer, openScreen, screenshot, type ConsoleServer } from './support/console.ts';

const focused = `(() => { const e = document.activeElement; return e ? e.tagName + ' ' + (e.textContent ?? '').trim() : ''; })()`;

describe('Studio console: invites and focus', { timeout: 120_000 }, () => {
  let server: ConsoleServer;
  beforeAll(async () => {
    server = await consoleServer(smallCatalog());
  }, 120_000);
  afterAll(() => server?.close());

  it('an owner makes an invite link; a stranger opens it, becomes an owner of their own, and the link is then refused in words', async () => {
    const owner = await server.signedIn(OWNER.username, OWNER.password);
    await openScreen(owner, 'Invites');
    await owner.getByRole('main').getByRole('heading', { name: 'Invites', level: 2 }).waitFor();
    await owner.getByLabel('Note (whom it is for)').fill('for Nora');
    await owner.getByRole('button', { name: 'Create invite link' }).click();
    const shown = owner.getByLabel('New invite link', { exact: true });
    await shown.waitFor();
    const link = (await shown.textContent())!.trim();
    expect(link).toMatch(new RegExp(`^${server.origin}/studio/invite/[\\w-]{43}$`));
    await screenshot(owner, 'invites-link');
    await owner.getByRole('button', { name: 'Done' }).click();
    const table = owner.getByRole('table', { name: 'Invites' });
    await table.getByText('for Nora').waitFor();
    await table.getByText('open').waitFor();

    // A stranger: another browser context, no sign-in.
    const stranger = await (await server.context()).newPage();
    await stranger.goto(link);
    const heading = stranger.getByRole('heading', { name: 'Accept your invitation', level: 1 });
    await heading.waitFor();
    // (Polled from here: the console's CSP forbids the page the eval a polling waitForFunction needs.)
    await expect.poll(() => stranger.evaluate(focused)).toBe('H1 Accept your invitation');
    // Refusals beside their fields, as owner create words them; nothing is made.
    await stranger.getByLabel('Username').fill('alice');
    await stranger.getByLabel('Email').fill('nora@example.com');
    await stranger.getByRole('textbox', { name: 'Password' }).fill('short');
    await stranger.getByRole('button', { name: 'Create my account' }).click();
    await stranger.getByText('must be at least 8 characters').waitFor();
    await stranger.getByRole('textbox', { name: 'Password' }).fill('nora password');
    await stranger.getByRole('button', { name: 'Create my account' }).click();
    await stranger.getByText('username "alice" is already taken').waitFor();
    await screenshot(stranger, 'invite-refused');
    await stranger.getByLabel('Username').fill('nora');
    await stranger.getByRole('button', { name: 'Create my account' }).click();
    await stranger.getByRole('navigation', { name: 'Screens' }).waitFor();
    await stranger.getByRole('main').getByRole('heading', { name: 'Channels', level: 2 }).waitFor();
    // The token left the address bar; the new owner has nothing of alice's.
    expect(stranger.url()).not.toContain('/invite/');
    await stranger.getByText('nora', { exact: true }).first().waitFor();
    const token = await server.login('nora', 'nora password');
    expect((await server.api('GET', '/api/v1/studio/channels', { token })).body.data.items).toEqual([]);
    await screenshot(stranger, 'invite-accepted');

    // The link again, in a third browser: refused in words, nothing made.
    const late = await (await server.context()).newPage();
    await late.goto(link);
    await late.getByLabel('Username').fill('mallory');
    await late.getByLabel('Email').fill('mallory@example.com');
    await late.getByRole('textbox', { name: 'Password' }).fill('mallory password');
    await late.getByRole('button', { name: 'Create my account' }).click();
    await late.getByRole('alert').getByText('This invite link was already used. Ask the owner who sent it for a new one.').waitFor();
    expect((await server.api('POST', '/api/v1/rest/auth/login', { body: { username: 'mallory', password: 'mallory password' } })).status).toBe(401);
    await screenshot(late, 'invite-used');

    // The inviter sees it used.
    await owner.reload();
    await owner.getByRole('table', { name: 'Invites' }).getByText('used').waitFor();
    for (const page of [owner, stranger, late]) await page.context().close();
  });

  it("moves the focus to the new screen's heading on navigation", async () => {
    const page = await server.signedIn(OWNER.username, OWNER.password);
    await page.getByRole('main').getByRole('heading', { name: 'Channels', level: 2 }).waitFor();
    for (const label of ['Videos', 'Invites', 'Audit log']) {
      await openScreen(page, label);
      await expect.poll(() => page.evaluate(focused)).toBe(`H2 ${label}`);
    }
    // By the keyboard too: a link of the navigation, Enter.
    await page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name: 'Channels' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate(focused)).toBe('H2 Channels');
    await page.context().close();
  });
});

describe('Studio console: sign-up where the operator allows it', { timeout: 120_000 }, () => {
  let server: ConsoleServer;
  beforeAll(async () => {
    server = await consoleServer(smallCatalog(), { SIGNUP: 'open' });
  }, 120_000);
  afterAll(() => server?.close());

  it('offers "Create an account" on the sign-in screen, and the new owner is signed in', async () => {
    const page = await (await server.context()).newPage();
    await page.goto('/studio/');
    await page.getByRole('button', { name: 'Create an account' }).click();
    await page.getByRole('heading', { name: 'Create an account', level: 1 }).waitFor();
    await page.getByLabel('Username').fill('vera');
    await page.getByLabel('Email').fill('vera@example.com');
    await page.getByRole('textbox', { name: 'Password' }).fill('vera password');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('navigation', { name: 'Screens' }).waitFor();
    await page.getByRole('main').getByRole('heading', { name: 'Channels', level: 2 }).waitFor();
    await screenshot(page, 'signup');
    await page.context().close();
  });
});

describe('Studio console: no sign-up by default', { timeout: 120_000 }, () => {
  let server: ConsoleServer;
  beforeAll(async () => {
    server = await consoleServer(smallCatalog());
  }, 120_000);
  afterAll(() => server?.close());

  it('shows no "Create an account" with SIGNUP=invite', async () => {
    const page = await (await server.context()).newPage();
    // The mode is asked when the screen opens: wait for that answer before looking.
    const asked = page.waitForResponse((r) => r.url().endsWith('/api/v1/studio/onboarding'));
    await page.goto('/studio/');
    expect((await (await asked).json()).data).toEqual({ signup: 'invite' });
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(await page.getByRole('button', { name: 'Create an account' }).count()).toBe(0);
    await page.context().close();
  });
});
