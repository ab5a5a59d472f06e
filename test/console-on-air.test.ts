// The Schedule screen in a real browser when a live stream preempts a block: the preempted part
// is shaded on the week (from the Studio's on-air answer) and a warning says how the guide, the
// XMLTV export and analytics will see it.
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWNER, smallCatalog } from './fixtures/catalog.ts';
import { consoleServer, openScreen, screenshot, type ConsoleServer } from './support/console.ts';
import { wallToMs } from '../web/src/screens/schedule/geometry.ts';

const ZONE = 'America/New_York';

describe('Studio console: a live stream over a block', { timeout: 180_000 }, () => {
  let server: ConsoleServer;
  const tomorrow = DateTime.now().setZone(ZONE).plus({ days: 1 }).toISODate()!;
  const at = (wall: string) => `${tomorrow}T${wall}`;

  beforeAll(async () => {
    const catalog: any = smallCatalog();
    const alice = catalog.channels.find((c: any) => c.id === 201);
    // Tomorrow 13:00: eight times 5001 ("Morning news", 600.5 s), 13:00-14:20; "Concert" live 13:30-14:00.
    alice.schedules.push({ id: 9901, startTime: at('13:00:00'), videoIds: Array(8).fill(5001) });
    alice.liveStreams.push({
      videoId: 5003,
      start: new Date(wallToMs(at('13:30:00'), ZONE)).toISOString(),
      end: new Date(wallToMs(at('14:00:00'), ZONE)).toISOString(),
      uri: 'https://live.example/town-hall',
    });
    server = await consoleServer(catalog);
  }, 120_000);
  afterAll(() => server?.close());

  it('shades what the block loses and says how guides, the XMLTV export and analytics see it', async () => {
    const page = await server.signedIn(OWNER.username, OWNER.password);
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
    const warning = page.getByText(/^The '.*' block \(\d\d:\d\d\) loses 13:30/);
    await warning.waitFor();
    await page.getByText('Live streams preempt scheduled programmes').waitFor();
    expect(await warning.innerText()).toContain(
      "The 'Morning news' block (13:00) loses 13:30-14:00 to live stream 'Concert'; guides, the XMLTV export and analytics show the stream, then the block from 14:00 ('Morning news' joined in progress).",
    );
    // The shaded pieces: one per entry the stream covers (13:30:00-13:30:01 is one of them).
    const shades = day.getByRole('img', { name: /^Preempted / });
    await shades.first().waitFor();
    expect(await shades.count()).toBe(4);
    await screenshot(page, 'schedule-preempted');
    await page.context().close();
  });
});
