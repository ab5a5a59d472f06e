// The Collections screen in a real browser, one page session: a collection of picked videos and
// one of rules; a slot of the Programming screen set to play the picked one, its preview playing
// it; then deleting that collection refused in words (a slot plays it), and the rules one deleted.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWNER, smallCatalog } from './fixtures/catalog.ts';
import { consoleServer, openScreen, screenshot, type ConsoleServer } from './support/console.ts';

describe('Studio console: collections', { timeout: 180_000 }, () => {
  let server: ConsoleServer;
  let token: string;
  beforeAll(async () => {
    server = await consoleServer(smallCatalog());
    token = await server.login(OWNER.username, OWNER.password);
  }, 120_000);
  afterAll(() => server?.close());

  /** What document.activeElement is, in words: its tag and accessible name (aria-label, its label, or its text). */
  const focused = (page: Page) =>
    page.evaluate(
      `(() => { const e = document.activeElement; if (!e) return ''; return e.tagName + ' ' + (e.getAttribute('aria-label') || (e.labels && e.labels[0] ? e.labels[0].textContent : '') || e.textContent || '').trim().slice(0, 60); })()`,
    ) as Promise<string>;
  const collections = async () =>
    (await server.api('GET', '/api/v1/studio/collections', { token })).body.data as { id: number; name: string; kind: string; videoIds: number[]; rules: object | null }[];

  it('makes a picked and a rules collection, plays one from a slot, and refuses to delete it while the slot plays it', async () => {
    const page = await server.signedIn(OWNER.username, OWNER.password);
    page.setDefaultTimeout(60_000);
    await openScreen(page, 'Collections');
    await page.getByRole('heading', { name: 'Collections' }).waitFor();
    await page.getByText('No collections yet.').waitFor();

    await page.getByRole('button', { name: 'New collection' }).click();
    let form = page.getByRole('form', { name: 'New collection' });
    await form.getByLabel('Name').fill('Evening music');
    await form.getByLabel('Search videos').fill('Concert');
    await form.getByRole('button', { name: 'Add Concert' }).click();
    await form.getByRole('button', { name: 'Save collection' }).click();
    await form.getByRole('status').getByText("Collection 'Evening music' saved.").waitFor();
    // Closed by keyboard, the form goes with its Close button: the focus returns to the button
    // that opened it (it fell to the page).
    await page.getByRole('button', { name: 'Close' }).focus();
    await page.keyboard.press('Enter');
    await form.waitFor({ state: 'detached' });
    await expect.poll(() => focused(page)).toBe('BUTTON New collection');

    await page.getByRole('button', { name: 'New collection' }).click();
    form = page.getByRole('form', { name: 'New collection' });
    await form.getByLabel('Name').fill('Short clips');
    await form.getByLabel('Every video matching rules').check();
    await form.getByLabel('At most (minutes)').fill('11');
    await form.getByRole('button', { name: 'Save collection' }).click();
    await form.getByRole('status').getByText("Collection 'Short clips' saved.").waitFor();
    // A name taken, whatever its case, is said beside the name and nothing is stored.
    await page.getByRole('button', { name: 'Close' }).click();
    await page.getByRole('button', { name: 'New collection' }).click();
    form = page.getByRole('form', { name: 'New collection' });
    await form.getByLabel('Name').fill('short CLIPS');
    await form.getByLabel('Search videos').fill('Concert');
    await form.getByRole('button', { name: 'Add Concert' }).click();
    await form.getByRole('button', { name: 'Save collection' }).click();
    await form.getByText("you already have a collection named 'short CLIPS'").waitFor();
    // Closing a form not saved asks first (nothing is lost by a stray click); accepted, it closes.
    const asked = new Promise<string>((resolve) =>
      page.once('dialog', (d) => {
        resolve(d.message());
        void d.accept();
      }),
    );
    await page.getByRole('button', { name: 'Close' }).click();
    expect(await asked).toContain('unsaved changes');
    await form.waitFor({ state: 'detached' });
    const made = await collections();
    expect(made.map((c) => [c.name, c.kind, c.videoIds])).toEqual([
      ['Evening music', 'manual', [5003]],
      ['Short clips', 'smart', [5001, 5002]],
    ]);
    expect(made[1]!.rules).toEqual({ maxSeconds: 660 });
    await page.getByRole('table', { name: 'Collections' }).getByRole('cell', { name: 'Rules' }).waitFor();
    await screenshot(page, 'collections');

    // A slot of Alice Music plays 'Evening music': its preview plays the concert.
    await openScreen(page, 'Programming');
    await page.getByRole('combobox', { name: 'Channel' }).click();
    await page.getByRole('option', { name: /Alice Music/ }).click();
    await page.getByRole('button', { name: 'Add slot' }).click();
    const slot = page.getByRole('group', { name: 'Slot 1', exact: true });
    await slot.getByLabel('Start').fill('06:00');
    await slot.getByLabel('End').fill('08:00');
    await slot.getByRole('combobox', { name: 'Plays' }).click();
    await page.getByRole('option', { name: 'Collection: Evening music' }).click();
    expect(await slot.getByLabel('Search videos').count()).toBe(0);
    await page.getByRole('button', { name: 'Save slots' }).click();
    await page.getByRole('status').getByText('Slots saved (1).').waitFor();
    const id = made[0]!.id;
    expect((await server.api('GET', '/api/v1/studio/channels/202/programming/slots', { token })).body.data.slots).toEqual([
      { days: [1, 2, 3, 4, 5, 6, 7], start: '06:00', videoIds: [], order: 'inOrder', end: '08:00', collectionId: id },
    ]);
    // The filler plays the rules collection (short clips): two hours of concerts leave nothing to fill.
    await page.getByRole('combobox', { name: 'Filler plays' }).click();
    await page.getByRole('option', { name: 'Collection: Short clips' }).click();
    expect(await page.getByLabel('Filler videos').count()).toBe(0);
    await page.getByRole('button', { name: 'Save filler' }).click();
    await page.getByRole('status').getByText("Filler saved (the collection 'Short clips').").waitFor();
    await page.getByRole('button', { name: 'Preview' }).click();
    await page.getByText('Preview: 7 blocks, 14 videos (0 filler)').waitFor();

    // Back on Collections: the slot is named; deleting the collection it plays is refused in words.
    await openScreen(page, 'Collections');
    await page.getByRole('cell', { name: 'channel 202, every day 06:00' }).waitFor();
    await page.getByRole('button', { name: 'Edit Evening music' }).click();
    form = page.getByRole('form', { name: 'Edit collection Evening music' });
    await form.getByText('Played by slot 1 of channel 202 (every day 06:00).').waitFor();
    await form.getByRole('button', { name: 'Delete collection' }).click();
    await form.getByText("This collection is still played by slot 1 (every day 06:00) of channel 202's programming: give them other videos first.").waitFor();
    await page.getByRole('button', { name: 'Close' }).focus();
    await page.keyboard.press('Enter');
    await form.waitFor({ state: 'detached' });
    await expect.poll(() => focused(page)).toBe('BUTTON Edit Evening music');
    // 'Short clips' fills channel 202: refused too, until the filler is its own list again.
    await page.getByRole('button', { name: 'Edit Short clips' }).click();
    form = page.getByRole('form', { name: 'Edit collection Short clips' });
    await form.getByRole('button', { name: 'Delete collection' }).click();
    await form.getByText('This collection is still played by the filler of channel 202: give them other videos first.').waitFor();
    expect((await server.api('PUT', '/api/v1/studio/channels/202/programming/filler', { token, body: { videoIds: [] } })).status).toBe(200);
    await page.getByRole('button', { name: 'Close' }).click();
    await page.getByRole('button', { name: 'Edit Short clips' }).click();
    await page.getByRole('form', { name: 'Edit collection Short clips' }).getByRole('button', { name: 'Delete collection' }).click();
    await expect.poll(async () => (await collections()).map((c) => c.name)).toEqual(['Evening music']);
    await page.getByRole('button', { name: 'Edit Short clips' }).waitFor({ state: 'detached' });
  });

  it('makes a random slot among two collections with their weights', async () => {
    const made = await server.api('POST', '/api/v1/studio/collections', { token, body: { name: 'Weather only', rules: { titleContains: 'weather' } } });
    expect(made.status).toBe(201);
    const page = await server.signedIn(OWNER.username, OWNER.password);
    page.setDefaultTimeout(60_000);
    await openScreen(page, 'Programming');
    await page.getByRole('combobox', { name: 'Channel' }).click();
    await page.getByRole('option', { name: /Alice News/ }).click();
    await page.getByRole('button', { name: 'Add slot' }).click();
    const slot = page.getByRole('group', { name: 'Slot 1', exact: true });
    await slot.getByLabel('Start').fill('09:00');
    await slot.getByRole('combobox', { name: 'Plays' }).click();
    await page.getByRole('option', { name: 'Random among collections' }).click();
    await slot.getByRole('combobox', { name: 'Slot 1: random among' }).click({ force: true });
    await page.getByRole('option', { name: 'Evening music' }).click();
    await page.getByRole('option', { name: 'Weather only' }).click();
    await page.keyboard.press('Escape');
    await slot.getByLabel('Weight of Weather only').fill('3');
    await page.getByRole('button', { name: 'Save slots' }).click();
    await page.getByRole('status').getByText('Slots saved (1).').waitFor();
    const evening = (await collections()).find((c) => c.name === 'Evening music')!.id;
    expect((await server.api('GET', '/api/v1/studio/channels/201/programming/slots', { token })).body.data.slots).toEqual([
      {
        days: [1, 2, 3, 4, 5, 6, 7],
        start: '09:00',
        videoIds: [],
        order: 'inOrder',
        collections: [
          { collectionId: evening, weight: 1 },
          { collectionId: made.body.data.id, weight: 3 },
        ],
      },
    ]);
  });
});
