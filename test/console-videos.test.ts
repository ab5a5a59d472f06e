// The Videos screen in a real browser: add one, paste a list, the API's refusals beside the
// field or line they name (nothing created), search, edit, where a video is used, delete refused
// while used.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWNER, smallCatalog } from './fixtures/catalog.ts';
import { consoleServer, openScreen, screenshot, type ConsoleServer } from './support/console.ts';

describe('Studio console: videos', { timeout: 120_000 }, () => {
  let server: ConsoleServer;
  let token: string;
  const videos = async (q = '') => (await server.api('GET', `/api/v1/studio/videos?per_page=500&q=${encodeURIComponent(q)}`, { token })).body.data;
  beforeAll(async () => {
    server = await consoleServer(smallCatalog());
    token = await server.login(OWNER.username, OWNER.password);
  }, 120_000);
  afterAll(() => server?.close());

  it('adds a video through the form, and shows a refusal beside its field without creating anything', async () => {
    const page = await server.signedIn(OWNER.username, OWNER.password);
    await openScreen(page, 'Videos');
    const before = (await videos()).total;
    await page.getByRole('button', { name: 'Add video' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a video' });
    await dialog.getByLabel('Title').fill('Harbour at dawn');
    await dialog.getByLabel('Duration (seconds)').fill('-5');
    await dialog.getByLabel('Provider video id').fill('dawn123');
    await dialog.getByRole('button', { name: 'Add video' }).click();
    await dialog.getByText('must be > 0').waitFor();
    await screenshot(page, 'videos-refused');
    expect((await videos()).total).toBe(before);
    // What was typed is kept; correcting the field saves.
    expect(await dialog.getByLabel('Title').inputValue()).toBe('Harbour at dawn');
    await dialog.getByLabel('Duration (seconds)').fill('600');
    await dialog.getByRole('button', { name: 'Add video' }).click();
    await page.getByRole('table', { name: 'Videos' }).getByText('Harbour at dawn').waitFor();
    const created = (await videos('Harbour')).items;
    expect(created).toMatchObject([{ title: 'Harbour at dawn', durationSeconds: 600, providerName: 'YouTube', providerVideoId: 'dawn123' }]);
    await page.context().close();
  });

  it('pastes a list: bad lines named, nothing created; a good list creates every video', async () => {
    const page = await server.signedIn(OWNER.username, OWNER.password);
    await openScreen(page, 'Videos');
    const before = (await videos()).total;
    await page.getByRole('button', { name: 'Paste a list' }).click();
    const dialog = page.getByRole('dialog', { name: 'Paste a list of videos' });
    await dialog.getByLabel('Videos, one per line').fill('Pasted one | 10:00 | YouTube | p1\nPasted two | soon | Vimeo | p2');
    await dialog.getByRole('button', { name: 'Add videos' }).click();
    await dialog.getByText('Line 2: duration "soon" is not seconds or h:mm:ss').waitFor();
    expect((await videos()).total).toBe(before);
    await dialog.getByLabel('Videos, one per line').fill('Pasted one | 10:00 | YouTube | p1\nPasted two | 1:30 | Vimeo | p2\nPasted three | 45 | YouTube | p3');
    await dialog.getByRole('button', { name: 'Add videos' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByLabel('Search videos').fill('Pasted');
    const table = page.getByRole('table', { name: 'Videos' });
    await table.getByText('Pasted three').waitFor();
    expect((await videos('Pasted')).items.map((v: { title: string; durationSeconds: number }) => [v.title, v.durationSeconds])).toEqual([
      ['Pasted one', 600],
      ['Pasted two', 90],
      ['Pasted three', 45],
    ]);
    await screenshot(page, 'videos-search');
    await page.context().close();
  });

  it('edits a video, shows where it is used, and says why a used video cannot be deleted', async () => {
    const used = (await videos()).items.find((v: { id: number }) => v.id === 5001);
    const page = await server.signedIn(OWNER.username, OWNER.password);
    await openScreen(page, 'Videos');
    await page.getByRole('button', { name: `Edit ${used.title}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit video' });
    await dialog.getByRole('list', { name: 'Where it is used' }).waitFor();
    expect(await dialog.getByRole('list', { name: 'Where it is used' }).innerText()).toContain('Library of channel');
    await dialog.getByRole('button', { name: 'Delete video' }).click();
    await dialog.getByRole('alert').waitFor();
    expect(await dialog.getByRole('alert').innerText()).toMatch(/used/i);
    await dialog.getByLabel('Title').fill('Renamed in the console');
    await dialog.getByRole('button', { name: 'Save video' }).click();
    await page.getByRole('table', { name: 'Videos' }).getByText('Renamed in the console').waitFor();
    expect((await server.api('GET', '/api/v1/studio/videos/5001', { token })).body.data.title).toBe('Renamed in the console');
    await screenshot(page, 'videos');
    await page.context().close();
  });

  it('works at phone width', async () => {
    const page = await server.signedIn(OWNER.username, OWNER.password, { width: 390, height: 844 });
    await openScreen(page, 'Videos');
    await page.getByRole('table', { name: 'Videos' }).waitFor();
    await screenshot(page, 'videos-phone');
    await page.context().close();
  });
});
