// The Channels screen in a real browser: create a channel (a refused zone shown beside its field,
// nothing created), reorder by keyboard drag, the library edited by search and drag, a password
// set (never shown), VAST per platform, delete and restore; each checked through the public APIs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWNER, smallCatalog } from './fixtures/catalog.ts';
import { consoleServer, expectFitsWidth, openScreen, screenshot, type ConsoleServer } from './support/console.ts';

describe('Studio console: channels', { timeout: 120_000 }, () => {
  let server: ConsoleServer;
  let token: string;
  const channels = async () => (await server.api('GET', '/api/v1/studio/channels?per_page=500', { token })).body.data.items as Array<{ id: number; name: string; order: number }>;
  beforeAll(async () => {
    server = await consoleServer(smallCatalog());
    token = await server.login(OWNER.username, OWNER.password);
  }, 120_000);
  afterAll(() => server?.close());

  it('creates a channel through the form; a bad zone is refused beside its field and creates nothing', async () => {
    const page = await server.signedIn(OWNER.username, OWNER.password);
    await openScreen(page, 'Channels');
    const before = (await channels()).length;
    await page.getByRole('button', { name: 'New channel' }).click();
    const dialog = page.getByRole('dialog', { name: 'New channel' });
    await dialog.getByLabel('Name').fill('Harbour Live');
    await dialog.getByLabel('URL slug').fill('harbour-live');
    await dialog.getByRole('combobox', { name: 'Category' }).click();
    await page.getByRole('option', { name: 'Music' }).click();
    await dialog.getByLabel('Time zone').fill('Mars/Olympus');
    await dialog.getByRole('button', { name: 'Create channel' }).click();
    await dialog
      .getByText(/time zone|zone/i)
      .last()
      .waitFor();
    const zoneError = await dialog.locator('.mantine-InputWrapper-error').allInnerTexts();
    expect(zoneError.join(' ')).toMatch(/Mars\/Olympus/);
    expect((await channels()).length).toBe(before);
    await screenshot(page, 'channels-refused');
    await dialog.getByLabel('Time zone').fill('Europe/Lisbon');
    await dialog.getByRole('button', { name: 'Create channel' }).click();
    await page.getByRole('heading', { name: 'Harbour Live' }).waitFor();
    const created = (await channels()).find((c) => c.name === 'Harbour Live');
    expect(created).toMatchObject({ url: 'harbour-live', categoryId: 2, timezone: 'Europe/Lisbon' });
    // The apps see it: REST's channel list of the owner.
    const listed = await server.api('GET', '/api/v1/rest/channels', { token });
    expect(JSON.stringify(listed.body)).toContain('Harbour Live');
    await page.context().close();
  });

  it('reorders channels by keyboard drag and saves the order', async () => {
    const page = await server.signedIn(OWNER.username, OWNER.password);
    await openScreen(page, 'Channels');
    const list = page.getByRole('list', { name: 'Channels in app order' });
    await list.waitFor();
    const first = (await channels())[0]!;
    const second = (await channels())[1]!;
    // As a keyboard user does it, waiting for what a screen reader would announce at each step.
    await page.getByRole('button', { name: `Drag ${first.name}` }).focus();
    await page.keyboard.press('Space');
    await page.getByText(`${first.name} is at position 1 of`).waitFor({ state: 'attached' });
    await page.keyboard.press('ArrowDown');
    await page.getByText(`${first.name} is at position 2 of`).waitFor({ state: 'attached' });
    await page.keyboard.press('Space');
    await expect.poll(async () => (await channels()).slice(0, 2).map((c) => c.id)).toEqual([second.id, first.id]);
    // The buttons do the same, for whoever prefers them.
    await page.getByRole('button', { name: `Move ${first.name} up` }).click();
    await expect.poll(async () => (await channels()).slice(0, 2).map((c) => c.id)).toEqual([first.id, second.id]);
    await screenshot(page, 'channels');
    await page.context().close();
  });

  it('edits the library by search and order, sets a password and a VAST tag, deletes and restores', async () => {
    const page = await server.signedIn(OWNER.username, OWNER.password);
    await page.goto('/studio/#/channels/202');
    await page.getByRole('heading', { name: 'Alice Music' }).waitFor();
    await page.getByRole('tab', { name: 'Library' }).click();
    await page.getByLabel('Add a video to the library').fill('');
    await page.getByLabel('Add a video to the library').click();
    await page.getByRole('option').first().click();
    await page.getByRole('button', { name: 'Save order' }).click();
    await page.getByText('Saved.').waitFor();
    const library = (await server.api('GET', '/api/v1/studio/channels/202/library', { token })).body.data.videoIds as number[];
    expect(library.length).toBe(2);
    await screenshot(page, 'channel-library');

    await page.getByRole('tab', { name: 'Password' }).click();
    await page.getByText('This channel is locked with a password.').waitFor();
    await page.getByLabel('New password').fill('new secret');
    await page.getByRole('button', { name: 'Set password' }).click();
    await page.getByText('Password set.').waitFor();
    expect((await server.api('GET', '/api/v1/studio/channels/202/password', { token })).body.data).toEqual({ hasPassword: true });
    expect(await page.content()).not.toContain('new secret');

    await page.getByRole('tab', { name: 'VAST' }).click();
    await page.getByLabel('VAST URL (roku)').fill('https://ads.example.com/vast.xml');
    await page.getByRole('button', { name: 'Save VAST for roku' }).click();
    await page.getByRole('table', { name: 'VAST settings' }).getByText('https://ads.example.com/vast.xml').waitFor();
    expect((await server.api('GET', '/api/v1/studio/channels/202/vast/roku', { token })).body.data.vastUrl).toBe('https://ads.example.com/vast.xml');

    await page.getByRole('button', { name: 'Delete channel' }).click();
    await page.getByRole('button', { name: 'Restore channel' }).waitFor();
    expect((await server.api('GET', '/api/v1/studio/channels/202', { token })).body.data.deleted).toBe(true);
    await page.getByRole('button', { name: 'Restore channel' }).click();
    await page.getByRole('button', { name: 'Delete channel' }).waitFor();
    expect((await server.api('GET', '/api/v1/studio/channels/202', { token })).body.data.deleted).toBe(false);
    await page.context().close();
  });

  it('works at phone width', async () => {
    const page = await server.signedIn(OWNER.username, OWNER.password, { width: 390, height: 844 });
    await openScreen(page, 'Channels');
    await page.getByRole('list', { name: 'Channels in app order' }).waitFor();
    await expectFitsWidth(page, page.getByRole('list', { name: 'Channels in app order' }));
    await screenshot(page, 'channels-phone');
    await page.context().close();
  });
});
