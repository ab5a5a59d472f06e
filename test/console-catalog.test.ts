// Import & export and the audit log in a real browser: the export is the owner's slice as a file;
// a changed file is checked (what it would write), refused in words with paths when wrong (nothing
// changed), imported when right; the audit log then lists the change, newest first.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWNER, smallCatalog } from './fixtures/catalog.ts';
import { consoleServer, downloadedText, openScreen, screenshot, type ConsoleServer } from './support/console.ts';

describe('Studio console: import, export and audit', { timeout: 120_000 }, () => {
  let server: ConsoleServer;
  let token: string;
  const channel = async (id: number) => (await server.api('GET', `/api/v1/studio/channels/${id}`, { token })).body.data;
  beforeAll(async () => {
    server = await consoleServer(smallCatalog());
    token = await server.login(OWNER.username, OWNER.password);
  }, 120_000);
  afterAll(() => server?.close());

  it('exports the slice, refuses a wrong file in words, imports a changed one, and audits it', async () => {
    const page = await server.signedIn(OWNER.username, OWNER.password);
    await openScreen(page, 'Import & export');
    const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export catalog' }).click()]);
    const exported = JSON.parse(await downloadedText(file));
    await page.getByText(/^Exported \d+ channels/).waitFor();
    const listed = (await server.api('GET', '/api/v1/studio/channels?deleted=1', { token })).body.data.items;
    expect(exported.channels.map((c: { id: number }) => c.id).sort()).toEqual(listed.map((c: { id: number }) => c.id).sort());
    expect(JSON.stringify(exported)).not.toContain('letmein');

    // A wrong file: a bad zone and an unknown video; refused with paths, nothing changed.
    const wrong = structuredClone(exported);
    wrong.channels[0].timezone = 'Mars/Olympus';
    wrong.channels[0].videoIds.push(987654);
    const paste = page.getByLabel('Or paste the catalog');
    await paste.fill(JSON.stringify(wrong));
    await page.getByRole('button', { name: 'Check file' }).click();
    const refusal = page.getByRole('alert').filter({ hasText: 'cannot be imported' });
    await refusal
      .getByText(/channels\[0\]|channels\.0/)
      .first()
      .waitFor();
    expect(await refusal.innerText()).toContain('Mars/Olympus');
    expect(await page.getByRole('button', { name: 'Import' }).isDisabled()).toBe(true);
    await screenshot(page, 'catalog-refused');

    // A right file: one channel renamed; checked, then imported.
    const right = structuredClone(exported);
    const renamed = right.channels.find((c: { id: number }) => c.id === 201);
    renamed.name = 'Alice News Tonight';
    await paste.fill(JSON.stringify(right));
    await page.getByRole('button', { name: 'Check file' }).click();
    await page.getByRole('table', { name: 'What the import would write' }).waitFor();
    expect((await channel(201)).name).toBe('Alice News');
    await page.getByRole('button', { name: 'Import' }).click();
    await page.getByRole('table', { name: 'What was imported' }).waitFor();
    expect((await channel(201)).name).toBe('Alice News Tonight');
    await screenshot(page, 'catalog');

    await openScreen(page, 'Audit log');
    const audit = page.getByRole('table', { name: 'Audit log' });
    await audit.getByText('name').first().waitFor();
    const entries = (await server.api('GET', '/api/v1/studio/audit', { token })).body.data.items;
    expect(entries.length).toBeGreaterThan(0);
    expect(await audit.innerText()).toContain(entries[0].resource);
    await screenshot(page, 'audit');
    await page.context().close();
  });

  it('pages the audit log with Older and Newest', async () => {
    for (let i = 0; i < 55; i++) {
      const response = await server.api('PATCH', '/api/v1/studio/videos/5001', { token, body: { title: `Title ${i}` } });
      expect(response.status).toBe(200);
    }
    const page = await server.signedIn(OWNER.username, OWNER.password, { width: 390, height: 844 });
    await page.goto('/studio/#/audit');
    const audit = page.getByRole('table', { name: 'Audit log' });
    await audit.waitFor();
    const firstPage = await audit.innerText();
    await page.getByRole('button', { name: 'Older' }).click();
    await expect.poll(async () => (await audit.innerText()) !== firstPage).toBe(true);
    await page.getByRole('button', { name: 'Newest' }).click();
    await expect.poll(async () => audit.innerText()).toBe(firstPage);
    await screenshot(page, 'audit-phone');
    await page.context().close();
  });
});
