// The Apps screen in a real browser: a theme colour changed shows on the mock TV before saving and
// in the Custom app_settings answer after; a bad colour is refused beside its field and changes
// nothing; an app created for a platform that had none; app tokens shown once and revoked.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWNER, smallCatalog } from './fixtures/catalog.ts';
import { consoleServer, expectFitsWidth, openScreen, screenshot, type ConsoleServer } from './support/console.ts';

describe('Studio console: apps', { timeout: 120_000 }, () => {
  let server: ConsoleServer;
  let token: string;
  const appSettings = async () => (await server.api('GET', '/api/v1/services/custom/users/11/app_settings', { headers: { 'platform-id': 'android-tv' } })).text;
  const studioApp = async (platform: string) => (await server.api('GET', `/api/v1/studio/apps/${platform}`, { token })).body.data;
  beforeAll(async () => {
    server = await consoleServer(smallCatalog());
    token = await server.login(OWNER.username, OWNER.password);
  }, 120_000);
  afterAll(() => server?.close());

  it("changes a TV app's primary colour: the preview at once, app_settings after saving", async () => {
    const page = await server.signedIn(OWNER.username, OWNER.password);
    await openScreen(page, 'Apps');
    await page.getByRole('tab', { name: 'Android TV' }).click();
    const preview = page.getByRole('figure', { name: 'TV preview' });
    await preview.getByText('Primary #010203').waitFor();
    expect(await appSettings()).toMatch(/010203/i);
    await page.getByLabel('Primary colour', { exact: true }).fill('#ff8800');
    await preview.getByText('Primary #ff8800').waitFor();
    await screenshot(page, 'apps-tv-preview');
    await page.getByRole('button', { name: 'Save app' }).click();
    await page.getByText('App saved.').waitFor();
    expect(await appSettings()).toMatch(/ff8800/i);
    expect((await studioApp('androidtv')).theme.primaryColor).toBe('ff8800');
    await page.context().close();
  });

  it('refuses a bad colour beside its field and changes nothing; the typed value stays', async () => {
    const page = await server.signedIn(OWNER.username, OWNER.password);
    await page.goto('/studio/#/apps/mobile');
    const before = await studioApp('mobile');
    await page.getByRole('figure', { name: 'Phone preview' }).waitFor();
    await page.getByLabel('Selection colour', { exact: true }).fill('#12zz45');
    await page.getByRole('button', { name: 'Save app' }).click();
    await page.getByText('Not saved').waitFor();
    await screenshot(page, 'apps-refused');
    await page.getByText('bad colour "12zz45"').waitFor();
    expect(await page.getByLabel('Selection colour', { exact: true }).inputValue()).toBe('#12zz45');
    expect(await studioApp('mobile')).toEqual(before);
    await page.context().close();
  });

  it('creates the app of a platform that had none, carrying a channel with its number', async () => {
    const page = await server.signedIn(OWNER.username, OWNER.password);
    await page.goto('/studio/#/apps/firetv');
    await page.getByRole('button', { name: 'Create the firetv app' }).click();
    await page.getByLabel('App name').fill('Alice Fire');
    await page.getByLabel('Carry Alice News').check();
    await page.getByLabel('Channel number of Alice News').fill('12');
    await page.getByRole('button', { name: 'Save app' }).click();
    await page.getByText('App saved.').waitFor();
    const app = await studioApp('firetv');
    expect(app).toMatchObject({ appName: 'Alice Fire', theme: { primaryColor: '6f1ab1', backgroundColor: '101010' } });
    expect(app.channels).toMatchObject([{ channelId: 201, channelNumber: '12' }]);
    await page.context().close();
  });

  it('creates an app token shown once, lists it without the secret, and revokes it', async () => {
    const page = await server.signedIn(OWNER.username, OWNER.password);
    await openScreen(page, 'Apps');
    await page.getByLabel('New token label').fill('Living room Roku');
    await page.getByRole('button', { name: 'Create token' }).click();
    const dialog = page.getByRole('dialog', { name: 'Your new app token' });
    const secret = (await dialog.getByLabel('New app token').innerText()).trim();
    expect(secret).toMatch(/^[0-9a-f-]{36}$/i);
    await screenshot(page, 'apps-token');
    await dialog.getByRole('button', { name: 'Done' }).click();
    const table = page.getByRole('table', { name: 'App tokens' });
    await table.getByText('Living room Roku').waitFor();
    expect(await page.content()).not.toContain(secret);
    const listed = (await server.api('GET', '/api/v1/studio/app-tokens', { token })).body.data.items;
    expect(listed.map((t: { label: string }) => t.label)).toContain('Living room Roku');
    await page.getByRole('button', { name: 'Revoke Living room Roku' }).click();
    // Revoked, it stays listed with when, and can no longer be revoked.
    await page.getByRole('button', { name: 'Revoke Living room Roku' }).waitFor({ state: 'detached' });
    await table.getByText('Living room Roku').waitFor();
    const after = (await server.api('GET', '/api/v1/studio/app-tokens', { token })).body.data.items as { label: string; revokedAt: string | null }[];
    expect(after.find((t) => t.label === 'Living room Roku')?.revokedAt).toEqual(expect.any(String));
    await page.context().close();
  });

  it('shows the store notification URL of each store the app has credentials for', async () => {
    const page = await server.signedIn(OWNER.username, OWNER.password);
    await openScreen(page, 'Apps');
    await page.getByRole('tab', { name: 'Mobile' }).click();
    const urls = page.getByLabel('Store notification URLs');
    await urls.waitFor();
    expect(await urls.textContent()).toContain(`${server.origin}/api/v1/stores/apple/301`);
    await page.context().close();
  });

  it("has one form per store, fields in the store's words, secrets only said to be set; a paid app without its store's key is refused", async () => {
    const page = await server.signedIn(OWNER.username, OWNER.password);
    await page.goto('/studio/#/apps/mobile');
    const apple = page.getByRole('group', { name: 'Apple App Store credentials' });
    expect(await apple.getByLabel('Bundle ID').inputValue()).toBe('com.alice');
    await apple.getByText('Set', { exact: true }).waitFor(); // the app-specific shared secret
    expect(await apple.getByLabel('App-specific shared secret', { exact: true }).inputValue()).toBe('');
    expect(await page.content()).not.toContain('s3cret');
    // Google: the service account's JSON key file fills its fields; the package name is typed.
    const google = page.getByRole('group', { name: 'Google Play credentials' });
    const key = {
      type: 'service_account',
      client_email: 'play@alice.iam.gserviceaccount.com',
      private_key: '-----BEGIN PRIVATE KEY-----\nPLAY-KEY\n-----END PRIVATE KEY-----\n',
      private_key_id: 'k1',
    };
    await google.getByLabel('Service account JSON key').fill(JSON.stringify(key));
    expect(await google.getByLabel('Service account email').inputValue()).toBe('play@alice.iam.gserviceaccount.com');
    await google.getByLabel('Package name').fill('com.alice.play');
    await screenshot(page, 'apps-store-forms');
    await page.getByRole('button', { name: 'Save app' }).click();
    await page.getByText('App saved.').waitFor();
    expect((await studioApp('mobile')).credentialFields).toEqual({
      apple: { bundleId: 'com.alice', sharedSecret: true },
      google: { clientEmail: 'play@alice.iam.gserviceaccount.com', privateKey: true, privateKeyId: 'k1', packageName: 'com.alice.play' },
    });
    expect(await page.content()).not.toContain('PLAY-KEY');
    // A paid Roku app cannot be saved without its Roku Pay API key; with it, it can.
    await page.goto('/studio/#/apps/roku');
    await page.getByLabel('Paid app (viewers subscribe)').check();
    await page.getByRole('button', { name: 'Save app' }).click();
    await page.getByText('Not saved').waitFor();
    await page.getByText(/has no Roku store credentials: add its Roku Pay API key/).waitFor();
    expect((await studioApp('roku')).isPaid).toBe(false);
    await page.getByRole('group', { name: 'Roku Pay credentials' }).getByLabel('Roku Pay API key', { exact: true }).fill('ROKU-KEY-123');
    await page.getByRole('button', { name: 'Save app' }).click();
    await page.getByText('App saved.').waitFor();
    expect(await studioApp('roku')).toMatchObject({ isPaid: true, credentialFields: { roku: { apiKey: true } } });
    expect(await page.content()).not.toContain('ROKU-KEY-123');
    await page.context().close();
  });

  it('works at phone width', async () => {
    const page = await server.signedIn(OWNER.username, OWNER.password, { width: 390, height: 844 });
    await page.goto('/studio/#/apps/mobile');
    await page.getByRole('figure', { name: 'Phone preview' }).waitFor();
    await expectFitsWidth(page, page.getByRole('figure', { name: 'Phone preview' }));
    await screenshot(page, 'apps-phone');
    await page.context().close();
  });
});
