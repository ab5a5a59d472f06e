// Filler that pads on the Programming screen (issue 36 item 3), in a real browser: a slot given a
// pre-roll collection and padding to the hour, previewed unsaved (each block's filler by kind,
// the dead air that remains), then saved with those fields; and the channel's dead-air fallback.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWNER, smallCatalog } from './fixtures/catalog.ts';
import { consoleServer, openScreen, type ConsoleServer } from './support/console.ts';

describe('Studio console: filler that pads', { timeout: 180_000 }, () => {
  let server: ConsoleServer;
  let token: string;
  beforeAll(async () => {
    server = await consoleServer(smallCatalog());
    token = await server.login(OWNER.username, OWNER.password);
  }, 120_000);
  afterAll(() => server?.close());

  it('sets a pre-roll and pad-to on a slot, previews the filler rows and dead air, and saves them', async () => {
    const idents = await server.api('POST', '/api/v1/studio/collections', { token, body: { name: 'Idents', videoIds: [5002] } });
    expect(idents.status).toBe(201);
    expect((await server.api('PUT', '/api/v1/studio/channels/202/programming/filler', { token, body: { videoIds: [5002] } })).status).toBe(200);

    const page = await server.signedIn(OWNER.username, OWNER.password);
    page.setDefaultTimeout(60_000);
    await openScreen(page, 'Programming');
    await page.getByRole('combobox', { name: 'Channel' }).click();
    await page.getByRole('option', { name: /Alice Music/ }).click();

    await page.getByRole('button', { name: 'Add slot' }).click();
    const slot = page.getByRole('group', { name: 'Slot 1', exact: true });
    await slot.getByLabel('Start').fill('06:00');
    await slot.getByLabel('End').fill('07:30');
    await slot.getByLabel('Search videos').fill('Concert');
    await slot.getByRole('button', { name: 'Add Concert' }).click();
    await slot.getByRole('combobox', { name: 'Slot 1 pre-roll' }).click();
    await page.getByRole('option', { name: 'Idents', exact: true }).click();
    await slot.getByRole('combobox', { name: 'Slot 1 pad to' }).click();
    await page.getByRole('option', { name: 'Next :00', exact: true }).click();

    // 06:00: the 2-minute ident, the hour-long concert (07:02), then padding with the 2-minute
    // filler to the slot's end at 07:30 (before the next :00): 13 of them (07:28:03).
    await page.getByRole('button', { name: 'Preview' }).click();
    await page.getByText('Preview: 7 blocks, 105 videos (98 filler)').waitFor();
    await page.getByRole('cell', { name: 'pre-roll 1 · padding 13' }).first().waitFor();
    expect(await page.getByRole('cell', { name: 'pre-roll 1 · padding 13' }).count()).toBe(7);
    const deadAir = page.getByRole('table', { name: 'Dead air in the preview' });
    await deadAir.getByRole('cell', { name: 'no slot plays then' }).waitFor();
    await deadAir
      .getByRole('cell', { name: /after slot 1's videos/ })
      .first()
      .waitFor();

    await page.getByRole('button', { name: 'Save slots' }).click();
    await page.getByRole('status').getByText('Slots saved (1).').waitFor();
    const stored = (await server.api('GET', '/api/v1/studio/channels/202/programming/slots', { token })).body.data.slots;
    expect(stored).toEqual([
      { days: [1, 2, 3, 4, 5, 6, 7], start: '06:00', videoIds: [5003], order: 'inOrder', end: '07:30', preRoll: { collectionId: idents.body.data.id }, padTo: 60 },
    ]);

    // The channel's dead-air fallback, saved with the filler.
    await page.getByRole('combobox', { name: 'Dead-air fallback' }).click();
    await page.getByRole('option', { name: 'Collection: Idents', exact: true }).click();
    await page.getByRole('button', { name: 'Save filler' }).click();
    await page.getByRole('status').getByText('Filler saved (1 videos).').waitFor();
    await expect
      .poll(async () => (await server.api('GET', '/api/v1/studio/channels/202/programming/fallback', { token })).body.data)
      .toEqual({ channelId: 202, collectionId: idents.body.data.id });
  });
});
