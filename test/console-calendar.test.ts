// The Schedule screen's calendar in a real browser (issue 36 item 7, "Calendar and Watch"): a
// dragged block is announced by its first programme and times, never its id; a drag the API
// refuses is said next to the block, in view and focused, naming the other block by its title;
// a block's videos are reordered with the keyboard's buttons and by drag, announced and saved;
// the block form's refusal takes the focus; a block is moved with the keyboard alone (M, arrows,
// Enter; Escape cancels), announced by its title and times and stored.
import { DateTime } from 'luxon';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWNER, smallCatalog } from './fixtures/catalog.ts';
import { consoleServer, openScreen, screenshot, type ConsoleServer } from './support/console.ts';

const ZONE = 'America/New_York';
const PX = 0.7; // the week view's pixels per minute (ScheduleScreen.tsx)
const WEATHER = 'Weather "live" & <more>';

describe('Studio console: the calendar in words', { timeout: 180_000 }, () => {
  let server: ConsoleServer;
  let token: string;
  const tomorrow = DateTime.now().setZone(ZONE).plus({ days: 1 }).toISODate()!;
  const at = (wall: string) => `${tomorrow}T${wall}`;
  const block = async (startTime: string) =>
    (await server.api('GET', `/api/v1/studio/channels/201/schedules?from=${tomorrow}&to=${tomorrow}`, { token })).body.data.items.find((b: any) => b.startTime === at(startTime));

  beforeAll(async () => {
    const catalog: any = smallCatalog();
    const alice = catalog.channels.find((c: any) => c.id === 201);
    // Tomorrow: "Morning news" at 08:00 (10 min), the weather then the news at 20:00 (12 min).
    alice.schedules.push({ id: 9701, startTime: at('08:00:00'), videoIds: [5001] }, { id: 9702, startTime: at('20:00:00'), videoIds: [5002, 5001] });
    server = await consoleServer(catalog);
    token = await server.login(OWNER.username, OWNER.password);
  }, 120_000);

  afterAll(() => server?.close());

  async function openWeek(page: Page) {
    page.setDefaultTimeout(60_000);
    await openScreen(page, 'Schedule');
    await page.getByRole('combobox', { name: 'Channel' }).click();
    await page.getByRole('option', { name: /Alice News/ }).click();
    await page
      .getByLabel(/^Day \d{4}-\d\d-\d\d$/)
      .first()
      .waitFor();
    const day = page.getByLabel(`Day ${tomorrow}`, { exact: true });
    if (!(await day.isVisible())) await page.getByRole('button', { name: 'Next week' }).click();
    await day.waitFor();
  }

  /** Presses the mouse on a bar and moves it `minutes` down (up when negative); `drop` releases it. */
  async function drag(page: Page, name: RegExp, minutes: number, drop = true) {
    const bar = page.getByRole('button', { name });
    await bar.scrollIntoViewIfNeeded();
    const box = (await bar.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + 3);
    await page.mouse.down();
    for (let i = 1; i <= 6; i++) await page.mouse.move(box.x + box.width / 2, box.y + 3 + (minutes * PX * i) / 6);
    if (drop) await page.mouse.up();
  }

  it('announces a drag by the block’s programme and times, never its id', async () => {
    const page = await server.signedIn(OWNER.username, OWNER.password);
    await openWeek(page);
    const announcer = page.getByTestId('week-announcer');
    await drag(page, /^Block 08:00–08:10: Morning news, published$/, 60, false);
    await announcer.getByText(/^The 'Morning news' block \(08:00\) would start \w{3} \d+ \w{3} 09:00\.$/).waitFor({ state: 'attached' });
    await page.mouse.up();
    await announcer.getByText(/^Moved the 'Morning news' block \(08:00\) to \w{3} \d+ \w{3} 09:00\.$/).waitFor({ state: 'attached' });
    await page.getByRole('button', { name: /^Block 09:00–09:10: Morning news, published$/ }).waitFor();
    expect(await announcer.innerText()).not.toMatch(/\d{4,}|block-/);
    expect((await block('09:00:00'))?.id).toBe(9701);
    await page.context().close();
  });

  it('says a refused drag next to the block, in view and focused, naming the other block by its title and time', async () => {
    const page = await server.signedIn(OWNER.username, OWNER.password);
    await openWeek(page);
    // The 20:00 block dragged up to 09:05, over the news at 09:00-09:10.
    const evening = /^Block 20:00–20:12: Weather "live" & <more> and 1 more, published$/;
    await drag(page, evening, -(10 * 60 + 55));
    const alert = page.getByRole('alert').filter({ hasText: `Not moved: the '${WEATHER}' block (20:00)` });
    await alert
      .getByText(/^This would play .* 09:05 to 09:17, over the 'Morning news' block playing .* 09:00 to 09:10 .*Open the block to move it with "Allow overlap"\.$/)
      .waitFor();
    // Next to the block (just below its bar), in the visible area, and focused.
    const bar = (await page.getByRole('button', { name: evening }).boundingBox())!;
    const box = (await alert.boundingBox())!;
    expect(box.y - (bar.y + bar.height)).toBeGreaterThanOrEqual(0);
    expect(box.y - (bar.y + bar.height)).toBeLessThan(40);
    const viewport = page.viewportSize()!;
    expect(box.y).toBeGreaterThanOrEqual(0);
    expect(box.y + box.height).toBeLessThanOrEqual(viewport.height);
    // (String evaluations: the tests' types have no DOM.)
    expect(await page.evaluate(`document.activeElement?.getAttribute('role')`)).toBe('alert');
    expect(await page.evaluate(`document.activeElement?.textContent`)).toContain('Not moved');
    expect(await alert.innerText()).not.toMatch(/970\d/);
    await screenshot(page, 'schedule-drag-refused');
    expect((await block('20:00:00'))?.id).toBe(9702);
    await alert.getByRole('button', { name: 'Close the message' }).click();
    await alert.waitFor({ state: 'detached' });
    await page.context().close();
  });

  it("reorders a block's videos with the keyboard's buttons and by drag, announced by title and position, and saves the order", async () => {
    const page = await server.signedIn(OWNER.username, OWNER.password);
    await openWeek(page);
    await page.getByRole('button', { name: /^Block 20:00–20:12: Weather/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit block' });
    const list = dialog.getByRole('list', { name: 'Videos' });
    await list.getByText(`1. ${WEATHER}`).waitFor();
    await dialog.getByRole('button', { name: 'Move Morning news up' }).click();
    await dialog.getByRole('status').getByText('Morning news moved up to position 1 of 2.').waitFor({ state: 'attached' });
    await list.getByText('1. Morning news').waitFor();
    expect(await dialog.getByRole('button', { name: 'Move Morning news up' }).isDisabled()).toBe(true);
    // Alt+Arrow on a focused row moves it too, and the focus stays with it.
    await dialog.getByRole('button', { name: 'Drag Morning news' }).focus();
    await page.keyboard.press('Alt+ArrowDown');
    await dialog.getByRole('status').getByText('Morning news moved down to position 2 of 2.').waitFor({ state: 'attached' });
    await list.getByText('2. Morning news').waitFor();
    await page.keyboard.press('Alt+ArrowUp');
    await dialog.getByRole('status').getByText('Morning news moved up to position 1 of 2.').waitFor({ state: 'attached' });
    await list.getByText('1. Morning news').waitFor();
    await dialog.getByRole('button', { name: 'Save block' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect((await block('20:00:00')).videoIds).toEqual([5001, 5002]);

    // By drag: the weather's handle pulled above the news.
    await page.getByRole('button', { name: /^Block 20:00–20:12: Morning news and 1 more/ }).click();
    const again = page.getByRole('dialog', { name: 'Edit block' });
    const handle = again.getByRole('button', { name: `Drag ${WEATHER}` });
    const first = (await again.getByRole('button', { name: 'Drag Morning news' }).boundingBox())!;
    const from = (await handle.boundingBox())!;
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    for (let i = 1; i <= 8; i++) await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2 + ((first.y - from.y - 8) * i) / 8);
    await page.mouse.up();
    await again.getByRole('list', { name: 'Videos' }).getByText(`1. ${WEATHER}`).waitFor();
    await again.getByRole('button', { name: 'Save block' }).click();
    await again.waitFor({ state: 'detached' });
    expect((await block('20:00:00')).videoIds).toEqual([5002, 5001]);
    await page.context().close();
  });

  it("focuses the block form's refusal, which names the other block by its title", async () => {
    const page = await server.signedIn(OWNER.username, OWNER.password);
    await openWeek(page);
    await page.getByRole('button', { name: `Add a block on ${tomorrow}` }).click();
    const dialog = page.getByRole('dialog', { name: 'New block' });
    await dialog.getByLabel(`Start time (${ZONE})`).fill(at('09:05'));
    await dialog.getByLabel('Search videos').fill('Concert');
    await dialog.getByRole('button', { name: 'Add Concert' }).click();
    await dialog.getByRole('button', { name: 'Create block' }).click();
    const alert = dialog.getByRole('alert');
    await alert.getByText(/over the 'Morning news' block playing .* 09:00 to 09:10/).waitFor();
    expect(await page.evaluate(`!!document.activeElement?.querySelector('[role="alert"]')`)).toBe(true);
    await page.context().close();
  });

  it('moves a block with the keyboard alone: M picks it up, arrows move it, Escape cancels, Enter drops it; announced by title and time, stored', async () => {
    const page = await server.signedIn(OWNER.username, OWNER.password);
    await openWeek(page);
    const announcer = page.getByTestId('week-announcer');
    const said = (text: string) => announcer.getByText(text, { exact: true }).waitFor({ state: 'attached' });
    // The news, moved to 09:00 by the first test. A day right, unless tomorrow is the week's last column (Sunday).
    const lastColumn = DateTime.fromISO(tomorrow).weekday === 7;
    const target = DateTime.fromISO(tomorrow)
      .plus({ days: lastColumn ? -1 : 1 })
      .toISODate()!;
    const words = (date: string, time: string) =>
      `${new Date(`${date}T12:00:00Z`).toLocaleDateString('en-GB', { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' }).replace(',', '')} ${time}`;
    const news = page.getByRole('button', { name: /^Block 09:00–09:10: Morning news, published$/ });
    await news.scrollIntoViewIfNeeded();

    // Picked up and moved 15 minutes down, then cancelled: nothing changes.
    await news.focus();
    await page.keyboard.press('m');
    await said("Picked up the 'Morning news' block (09:00), playing 09:00 to 09:10.");
    await page.keyboard.press('ArrowDown');
    await said(`The 'Morning news' block (09:00) would start ${words(tomorrow, '09:15')}.`);
    await page.keyboard.press('Escape');
    await said("Cancelled: the 'Morning news' block (09:00) stays at 09:00 to 09:10.");
    expect((await block('09:00:00'))?.id).toBe(9701);

    // Picked up again: an hour down (four presses of 15 minutes), one up, a day across, dropped with Enter.
    await news.focus();
    await page.keyboard.press('m');
    await said("Picked up the 'Morning news' block (09:00), playing 09:00 to 09:10.");
    for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowDown');
    await said(`The 'Morning news' block (09:00) would start ${words(tomorrow, '10:00')}.`);
    await page.keyboard.press('ArrowUp');
    await said(`The 'Morning news' block (09:00) would start ${words(tomorrow, '09:45')}.`);
    await page.keyboard.press(lastColumn ? 'ArrowLeft' : 'ArrowRight');
    await said(`The 'Morning news' block (09:00) would start ${words(target, '09:45')}.`);
    await page.keyboard.press('Enter');
    await said(`Moved the 'Morning news' block (09:00) to ${words(target, '09:45')}.`);
    expect(await announcer.innerText()).not.toMatch(/\d{4,}|block-/);
    // Enter dropped the block; it did not also open the block's form.
    expect(await page.getByRole('dialog').count()).toBe(0);
    await page
      .getByLabel(`Day ${target}`, { exact: true })
      .getByRole('button', { name: /^Block 09:45–09:55: Morning news, published$/ })
      .waitFor();
    // The server stored the new start (read through the Studio API).
    const stored = await server.api('GET', `/api/v1/studio/channels/201/schedules?from=${target}&to=${target}`, { token });
    expect(stored.body.data.items.find((b: any) => b.id === 9701)?.startTime).toBe(`${target}T09:45:00`);
    expect(await block('09:00:00')).toBeUndefined();
    await page.context().close();
  });
});
