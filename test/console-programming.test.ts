// The Programming screen in a real browser, one page session: a slot plan made with weekday
// boxes, a picked start time and a playlist; a filler list; a preview of the next week; apply
// (the blocks reach the Studio's schedule list); a day copied over three dates with the
// template dialog; and one undo reversing that copy.
import { DateTime } from 'luxon';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWNER, smallCatalog } from './fixtures/catalog.ts';
import { consoleServer, openScreen, screenshot, type ConsoleServer } from './support/console.ts';

describe('Studio console: programming', { timeout: 180_000 }, () => {
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
  const blocks = async () => (await server.api('GET', '/api/v1/studio/channels/202/schedules', { token })).body.data.items as { startTime: string; videoIds: number[] }[];

  it('plans slots, previews, applies, copies a day with a template and undoes the copy', async () => {
    const page = await server.signedIn(OWNER.username, OWNER.password);
    page.setDefaultTimeout(60_000);
    await openScreen(page, 'Programming');
    await page.getByRole('heading', { name: 'Programming' }).waitFor();
    await page.getByRole('combobox', { name: 'Channel' }).click();
    await page.getByRole('option', { name: /Alice Music/ }).click();

    await page.getByRole('button', { name: 'Add slot' }).click();
    const slot = page.getByRole('group', { name: 'Slot 1', exact: true });
    await slot.getByLabel('Start').fill('06:00');
    await slot.getByLabel('End').fill('18:00');
    await slot.getByText('the same day').waitFor();
    await slot.getByLabel('Search videos').fill('Concert');
    await slot.getByRole('button', { name: 'Add Concert' }).click();
    // An off-air slot: no playlist, no end.
    await page.getByRole('button', { name: 'Add slot' }).click();
    const dark = page.getByRole('group', { name: 'Slot 2', exact: true });
    await dark.getByLabel('Start').fill('20:00');
    await dark.getByLabel('Off air').check();
    expect(await dark.getByLabel('Search videos').count()).toBe(0);
    expect(await dark.getByLabel('End').count()).toBe(0);
    // A filler pick not yet saved survives saving the slots (it was dropped on a channel's first save).
    await page.getByLabel('Search videos').last().fill('Weather');
    await page
      .getByRole('button', { name: /^Add Weather/ })
      .last()
      .click();
    await page.getByRole('button', { name: 'Save slots' }).click();
    await page.getByRole('status').getByText('Slots saved (2).').waitFor();
    // Unsaved, the filler asks before the screen is left; dismissed, the screen stays.
    const asked = new Promise<string>((resolve) =>
      page.once('dialog', (d) => {
        resolve(d.message());
        void d.dismiss();
      }),
    );
    await openScreen(page, 'Videos');
    expect(await asked).toContain('unsaved changes');
    await page.getByRole('button', { name: 'Save filler' }).click();
    await page.getByRole('status').getByText('Filler saved (1 videos).').waitFor();
    await expect
      .poll(async () => (await server.api('GET', '/api/v1/studio/channels/202/programming', { token })).body.data)
      .toMatchObject({
        slots: [
          { days: [1, 2, 3, 4, 5, 6, 7], start: '06:00', videoIds: [5003], order: 'inOrder', end: '18:00' },
          { days: [1, 2, 3, 4, 5, 6, 7], start: '20:00', videoIds: [], order: 'inOrder', offAir: true },
        ],
        fillerVideoIds: [5002],
      });

    // The default range: tomorrow to a week from today, seven 06:00-18:00 slots of 12 one-hour concerts.
    await page.getByRole('button', { name: 'Preview' }).click();
    await page.getByText('Preview: 7 blocks, 84 videos (0 filler)').waitFor();
    await page.getByRole('cell', { name: '12 h of 12 h' }).first().waitFor();
    // An unsaved end previews as edited, and says so; put back, the saved plan previews again.
    await slot.getByLabel('End').fill('12:00');
    await page.getByText('Preview and Apply use the slots and filler as edited above, not yet saved.').waitFor();
    await page.getByRole('button', { name: 'Preview' }).click();
    await page.getByText('Preview: 7 blocks, 42 videos (0 filler)').waitFor();
    await slot.getByLabel('End').fill('18:00');
    expect(await page.getByText('not yet saved').count()).toBe(0);
    await page.getByRole('button', { name: 'Preview' }).click();
    await page.getByText('Preview: 7 blocks, 84 videos (0 filler)').waitFor();
    await screenshot(page, 'programming-preview');
    // Someone changes the schedule after the preview: apply (sent with the previewed schedule's
    // ETag) is refused in words and writes nothing; previewed again, it applies.
    const far = DateTime.now().setZone('UTC').plus({ days: 60 }).toISODate()!;
    const other = await server.api('POST', '/api/v1/studio/channels/202/schedules', { token, body: { startTime: `${far}T12:00:00`, videoIds: [5002] } });
    expect(other.status).toBe(201);
    await page.getByRole('button', { name: 'Apply', exact: true }).click();
    await page.getByRole('alert').getByText('Someone else changed this since you opened it').waitFor();
    expect(await blocks()).toHaveLength(1);
    await server.api('DELETE', `/api/v1/studio/channels/202/schedules/${other.body.data.id}`, { token });
    await page.getByRole('button', { name: 'Preview' }).click();
    await page.getByText('Preview: 7 blocks, 84 videos (0 filler)').waitFor();
    await page.getByRole('button', { name: 'Apply', exact: true }).click();
    await page.getByText('Applied: 7 blocks written, 0 removed.').waitFor();
    const tomorrow = DateTime.now().setZone('UTC').plus({ days: 1 }).toISODate()!;
    expect((await blocks()).map((b) => b.startTime)[0]).toBe(`${tomorrow}T06:00:00`);
    expect(await blocks()).toHaveLength(7);

    await page.getByRole('button', { name: 'Copy a day or week…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Copy a day or a week' });
    await dialog.getByLabel('Day').fill(tomorrow);
    const plus = (days: number) => DateTime.fromISO(tomorrow).plus({ days }).toISODate()!;
    await dialog.getByLabel('To dates from').fill(plus(9));
    await dialog.getByLabel('To dates until').fill(plus(11));
    await dialog.getByRole('button', { name: 'Copy' }).click();
    await page.getByText('Copied: 3 blocks written.').waitFor();
    expect(await blocks()).toHaveLength(10);

    await page.getByRole('button', { name: 'Undo last copy (3 blocks)' }).click();
    await page.getByText('Undone: the last programming write was reversed.').waitFor();
    expect(await blocks()).toHaveLength(7);
    await page.getByRole('button', { name: 'Nothing to undo' }).waitFor();

    // Buttons that remove what they sit on keep the focus in the form, pressed by keyboard (it fell
    // to the page): a chosen video's Remove moves it to the next one's Remove, else the previous
    // one's, else the search; a slot's Remove to the next slot's first field, else the previous
    // slot's, else Add slot.
    await slot.getByLabel('Search videos').fill('Morning');
    await slot.getByRole('button', { name: 'Add Morning news' }).click();
    await slot.getByLabel('Search videos').fill('Weather');
    await slot.getByRole('button', { name: /^Add Weather/ }).click();
    await slot.getByText('(3 chosen)').waitFor();
    const press = async (button: Locator) => {
      await button.focus();
      await page.keyboard.press('Enter');
    };
    await press(slot.getByRole('button', { name: 'Remove Concert' }));
    await expect.poll(() => focused(page)).toBe('BUTTON Remove Morning news');
    await press(slot.getByRole('button', { name: /^Remove Weather/ }));
    await expect.poll(() => focused(page)).toBe('BUTTON Remove Morning news');
    await press(slot.getByRole('button', { name: 'Remove Morning news' }));
    await expect.poll(() => focused(page)).toBe('INPUT Search videos');
    await page.getByRole('button', { name: 'Add slot' }).click();
    await page.getByRole('group', { name: 'Slot 3', exact: true }).getByLabel('Start').fill('22:00');
    await press(page.getByRole('button', { name: 'Remove slot 2' }));
    await expect.poll(() => focused(page)).toBe('INPUT Mon');
    await expect.poll(() => page.evaluate('document.activeElement.closest("[role=group][aria-label]").getAttribute("aria-label")')).toBe('Slot 2');
    expect(await page.getByRole('group', { name: 'Slot 2', exact: true }).getByLabel('Start').inputValue()).toBe('22:00');
    await press(page.getByRole('button', { name: 'Remove slot 2' }));
    await expect
      .poll(() => page.evaluate('document.activeElement.closest("[role=group][aria-label]")?.getAttribute("aria-label") + " " + document.activeElement.labels?.[0]?.textContent'))
      .toBe('Slot 1 Mon');
    await press(page.getByRole('button', { name: 'Remove slot 1' }));
    await expect.poll(() => focused(page)).toBe('BUTTON Add slot');
  });
});
