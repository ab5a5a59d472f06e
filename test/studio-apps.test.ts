// Studio apps, one per platform: read, PUT (create, then replace whole) with If-Match, the
// import's rules and wording for bad input, write-only store credentials, DELETE refused while
// purchases are recorded, another owner's token acting only on its own apps, and each change
// seen at once by the Custom app_settings route.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JPEG_STUB, PNG_1X1 } from './fixtures/catalog.ts';
import { BACKENDS } from './support/db.ts';
import { studioTest, type StudioTest } from './support/studio.ts';

const CUSTOM = '/api/v1/services/custom';
/** The Custom routes answer from the catalog cache, which the write's NOTIFY drops (on PostgreSQL it arrives on another connection). */
const POLL = { timeout: 5_000, interval: 50 };

const SECRET = 'TOP-SECRET-7f3a';

const alice301 = {
  id: 301,
  ownerId: 11,
  platform: 'mobile',
  appName: 'Alice Mobile',
  slug: 'alice',
  about: null,
  privacyPolicyLink: null,
  isPaid: true,
  timeFormat: '12-hour',
  adLink: null,
  apiKey: null,
  theme: null,
  mobile: {
    selectionColor: '112233',
    headerFooterColor: '445566',
    backgroundColor: '778899',
    fontColor: 'aabbcc',
    copyrightPolicyLink: null,
    gdprLink: null,
    supportEmail: 'help@example.com',
    faqLink: null,
    termsLink: null,
    instagram: null,
    facebook: null,
    twitter: null,
  },
  images: { icon: JPEG_STUB, logo: PNG_1X1, logoIos: PNG_1X1 },
  storeProducts: [
    { storePlatform: 'Apple', productId: 'com.alice.monthly', displayName: 'Monthly', billingPeriod: 'Monthly', isActive: true },
    { storePlatform: 'Apple', productId: 'com.alice.yearly', displayName: 'Yearly', billingPeriod: 'Yearly', isActive: true },
    { storePlatform: 'Google', productId: 'alice_weekly', displayName: '', billingPeriod: 'Weekly', isActive: false },
  ],
  vodPpv: { isEnabled: false, accessDurationHours: 48, previewSeconds: 0, storeProducts: [] },
  configuredStores: ['apple'],
  // Which keys are set: non-secret ones with their value, secret ones only as true.
  credentialFields: { apple: { bundleId: 'com.alice', sharedSecret: true } },
  channels: [
    { channelId: 202, sorting: 1, channelNumber: null, useVastSettings: false, lastUpdateDate: null },
    { channelId: 201, sorting: 2, channelNumber: '7', useVastSettings: true, lastUpdateDate: '2026-11-01T00:00:00.000Z' },
  ],
  createdAt: '2026-03-01T00:00:00.000Z',
};

const fireTv = {
  appName: 'Alice Fire TV',
  isPaid: false,
  timeFormat: '24-hour',
  theme: { primaryColor: '102030', secondaryColor: '405060', backgroundColor: '708090', styleColor: 'a0b0c0' },
  images: { logo: PNG_1X1, backgroundImage: JPEG_STUB },
  storeProducts: [{ storePlatform: 'Amazon', productId: 'alice.fire.monthly', billingPeriod: 'Monthly' }],
  vodPpv: { isEnabled: true, accessDurationHours: 12, storeProducts: [{ storePlatform: 'Amazon', productId: 'alice.fire.ppv', billingPeriod: 'OneTime' }] },
  storeCredentials: { amazon: { sharedSecret: SECRET } },
  channels: [{ channelId: 201, sorting: 3, channelNumber: '101', useVastSettings: true }, { channelId: 202 }],
};

describe.each(BACKENDS)('Studio apps on %s', (backend) => {
  let s: StudioTest;
  beforeAll(async () => {
    s = await studioTest(backend);
  });
  afterAll(() => s.t.close());

  const custom = (url: string, headers: Record<string, string> = {}) => s.t.request({ url: `${CUSTOM}${url}`, headers });
  const appSettings = async (platformId: string) => {
    const response = await custom('/users/11/app_settings', { 'platform-id': platformId });
    return response.statusCode === 200 ? response.json().data : response.statusCode;
  };
  const rows = async (query: ReturnType<typeof sql>) => ((await s.t.database.db.execute(query)) as any).rows as any[];

  it("lists and reads the owner's apps with an ETag, credentials never shown", async () => {
    const list = await s.call('GET', '/apps');
    expect(list.statusCode).toBe(200);
    expect(list.headers.etag).toMatch(/^"[\w-]+"$/);
    expect(list.json().data.items.map((a: any) => [a.id, a.platform, a.configuredStores])).toEqual([
      [301, 'mobile', ['apple']],
      [302, 'androidtv', []],
      [303, 'roku', []],
    ]);
    const one = await s.call('GET', '/apps/mobile');
    expect(one.json().data).toEqual(alice301);
    expect(one.headers.etag).toMatch(/^"[\w-]+"$/);
    for (const body of [list.body, one.body]) {
      expect(body).not.toContain('s3cret');
      expect(body).not.toContain('storeCredentials');
    }
    expect((await s.call('GET', '/apps/androidtv')).json().data.theme).toEqual({ primaryColor: '010203', secondaryColor: '040506', styleColor: '070809' });
    for (const path of ['/apps/appletv', '/apps/nope', '/apps/MOBILE', `/apps/${'x'.repeat(60)}`]) {
      const missing = await s.call('GET', path);
      expect([missing.statusCode, missing.json()]).toEqual([404, { success: false, error: { code: 'not_found', message: 'App not found.' } }]);
    }
    // An unknown platform is 404 for a PUT and a DELETE too, whatever the body.
    expect((await s.call('PUT', '/apps/tizen', { body: { appName: 'x' } })).statusCode).toBe(404);
    expect((await s.call('PUT', '/apps/tizen', { body: { bad: 1 } })).statusCode).toBe(404);
    expect((await s.call('DELETE', '/apps/tizen')).statusCode).toBe(404);
  });

  it('PUT creates an app (201, id assigned), then replaces it whole (200); the Custom app_settings sees each at once', async () => {
    expect(await appSettings('fire-tv')).toBe(404);
    const created = await s.call('PUT', '/apps/firetv', { body: fireTv });
    expect(created.statusCode, created.body).toBe(201);
    const app = created.json().data;
    expect(app).toMatchObject({
      ownerId: 11,
      platform: 'firetv',
      appName: 'Alice Fire TV',
      timeFormat: '24-hour',
      configuredStores: ['amazon'],
      theme: fireTv.theme,
      images: { backgroundImage: JPEG_STUB, logo: PNG_1X1 },
      createdAt: '2026-11-21T15:00:00.000Z',
      vodPpv: {
        isEnabled: true,
        accessDurationHours: 12,
        previewSeconds: 0,
        storeProducts: [{ storePlatform: 'Amazon', productId: 'alice.fire.ppv', displayName: '', billingPeriod: 'OneTime', isActive: true }],
      },
      channels: [
        { channelId: 201, sorting: 3, channelNumber: '101', useVastSettings: true, lastUpdateDate: null },
        { channelId: 202, sorting: null, channelNumber: null, useVastSettings: false, lastUpdateDate: null },
      ],
    });
    expect(app.id).toBeGreaterThan(601);
    expect(created.body).not.toContain(SECRET);
    const read = await s.call('GET', '/apps/firetv');
    expect(read.json().data).toEqual(app);
    expect(read.headers.etag).toBe(created.headers.etag);
    await expect
      .poll(() => appSettings('fire-tv'), POLL)
      .toMatchObject({ app_id: String(app.id), hex1: '#102030', hex2: '#405060', hex3: '#708090', fontColor: '#a0b0c0', time_format: '24-hour' });

    // GET, edit, PUT: the read-only configuredStores goes back and is ignored; the id is kept.
    const edited = { ...read.json().data, appName: 'Alice Fire', theme: { ...fireTv.theme, primaryColor: 'ff8800' }, channels: [{ channelId: 202 }], images: {} };
    const replaced = await s.call('PUT', '/apps/firetv', { body: edited, headers: { 'if-match': read.headers.etag as string } });
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect(replaced.json().data).toMatchObject({ id: app.id, appName: 'Alice Fire', images: {}, configuredStores: ['amazon'], createdAt: app.createdAt });
    expect(replaced.json().data.channels.map((c: any) => c.channelId)).toEqual([202]);
    expect(replaced.headers.etag).not.toBe(read.headers.etag);
    await expect.poll(async () => (await appSettings('fire-tv')).hex1, POLL).toBe('#ff8800');
    expect((await appSettings('fire-tv')).app_id).toBe(String(app.id));
    const stale = await s.call('PUT', '/apps/firetv', { body: fireTv, headers: { 'if-match': read.headers.etag as string } });
    expect([stale.statusCode, stale.json().error.code]).toEqual([412, 'precondition_failed']);
    // If-Match on an app that is not there names none of its versions.
    expect((await s.call('PUT', '/apps/appletv', { body: fireTv, headers: { 'if-match': '*' } })).statusCode).toBe(412);
    expect((await s.call('GET', '/apps/appletv')).statusCode).toBe(404);
    const [audit] = await rows(sql`select action, fields from studio_audit where resource = 'apps/firetv' order by id desc limit 1`);
    expect(audit).toEqual({ action: 'update', fields: ['appName', 'channels', 'images', 'theme'] });
  });

  it('ids: a free id given for a new app is taken, a taken one refused; an existing app keeps its id', async () => {
    const body = { appName: 'Alice Apple TV', theme: { primaryColor: '111111', secondaryColor: '222222', backgroundColor: '333333', styleColor: '444444' } };
    const taken = await s.call('PUT', '/apps/appletv', { body: { ...body, id: 601 } });
    expect([taken.statusCode, taken.json().error]).toEqual([409, { code: 'id_taken', message: 'app id 601 is already in use; leave id out to have one assigned.' }]);
    const chosen = await s.call('PUT', '/apps/appletv', { body: { ...body, id: 7777 } });
    expect([chosen.statusCode, chosen.json().data.id]).toEqual([201, 7777]);
    const other = await s.call('PUT', '/apps/appletv', { body: { ...body, id: 7778 } });
    expect([other.statusCode, other.json().error.details]).toEqual([422, [{ path: 'id', message: "must be 7777 (your appletv app's) or left out" }]]);
    expect((await s.call('PUT', '/apps/appletv', { body: { ...body, id: 7777, appName: 'Same id' } })).json().data).toMatchObject({ id: 7777, appName: 'Same id' });
    expect((await s.call('GET', '/apps/appletv')).json().data.id).toBe(7777);
  });

  it("refuses bad bodies in the import's wording and changes nothing", async () => {
    const before = await s.call('GET', '/apps');
    const colour = await s.call('PUT', '/apps/firetv', { body: { ...fireTv, theme: { ...fireTv.theme, primaryColor: 'zz' } } });
    expect([colour.statusCode, colour.json().error]).toEqual([
      422,
      {
        code: 'invalid_request',
        message: 'Invalid request: theme.primaryColor: bad colour "zz"',
        details: [{ path: 'theme.primaryColor', message: 'bad colour "zz"' }],
      },
    ]);
    const android = await s.call('PUT', '/apps/androidtv', {
      body: { appName: 'A', theme: { primaryColor: '010203', secondaryColor: '040506', styleColor: '070809', backgroundColor: '000000' } },
    });
    expect([android.statusCode, android.json().error.details]).toEqual([422, [{ path: 'theme.backgroundColor', message: 'androidtv has no backgroundColor' }]]);
    const noBackground = await s.call('PUT', '/apps/firetv', { body: { ...fireTv, theme: { primaryColor: '010203', secondaryColor: '040506', styleColor: '070809' } } });
    expect(noBackground.json().error.details).toEqual([{ path: 'theme.backgroundColor', message: 'required' }]);
    const mobileTheme = await s.call('PUT', '/apps/mobile', { body: { appName: 'M', theme: fireTv.theme } });
    expect(mobileTheme.json().error.details).toEqual([{ path: 'theme', message: 'not allowed on a mobile app' }]);
    const image = await s.call('PUT', '/apps/firetv', { body: { ...fireTv, images: { logo: 'aGVsbG8=' } } });
    expect(image.json().error.details).toEqual([{ path: 'images.logo', message: 'not a PNG or JPEG image' }]);
    const products = await s.call('PUT', '/apps/firetv', { body: { ...fireTv, storeProducts: [{ storePlatform: 'Amazon', productId: 'x', billingPeriod: 'OneTime' }] } });
    expect(products.json().error.details).toEqual([{ path: 'storeProducts[0].billingPeriod', message: 'a subscription product cannot be OneTime' }]);
    // Selling on a store without its credentials: viewers would pay and the purchase could not be verified.
    const roku = { appName: 'Alice Roku', isPaid: true, storeProducts: [{ storePlatform: 'Roku', productId: 'alice.roku.monthly', billingPeriod: 'Monthly' }] };
    const rokuBefore = await s.call('GET', '/apps/roku');
    const unsold = await s.call('PUT', '/apps/roku', { body: roku });
    expect(unsold.statusCode).toBe(422);
    expect(unsold.json().error.details).toEqual([
      {
        path: 'storeProducts[0].storePlatform',
        message: 'the app sells this product on Roku, but has no Roku store credentials: add its Roku Pay API key (storeCredentials.roku) or mark the product inactive',
      },
      { path: 'isPaid', message: 'a paid roku app sells on Roku, but has no Roku store credentials: add its Roku Pay API key (storeCredentials.roku), or make the app free' },
    ]);
    const ppv = await s.call('PUT', '/apps/firetv', { body: { ...fireTv, storeCredentials: {} } });
    expect(ppv.json().error.details).toEqual([
      {
        path: 'vodPpv.storeProducts[0].storePlatform',
        message: 'the app sells this product on Amazon, but has no Amazon store credentials: add its Shared Key (storeCredentials.amazon) or mark the product inactive',
      },
    ]);
    expect((await s.call('GET', '/apps/roku')).body).toBe(rokuBefore.body); // nothing was stored
    // A paid app's inactive product needs no credentials: the mobile app's Google product is saved
    // without Google credentials throughout (storeCredentials test below).
    const platform = await s.call('PUT', '/apps/firetv', { body: { ...fireTv, platform: 'roku' } });
    expect(platform.json().error.details).toEqual([{ path: 'platform', message: 'must be "firetv" (the path\'s) or left out' }]);
    const owner = await s.call('PUT', '/apps/firetv', { body: { ...fireTv, ownerId: 16 } });
    expect(owner.json().error.details).toEqual([{ path: 'ownerId', message: 'must be 11 (your account) or left out' }]);
    const unknownField = await s.call('PUT', '/apps/firetv', { body: { ...fireTv, colour: 'red' } });
    expect(unknownField.json().error.details).toEqual([{ path: 'colour', message: 'unknown field' }]);
    // Another owner's channel is refused exactly as a channel that exists nowhere.
    const foreign = await s.call('PUT', '/apps/firetv', { body: { ...fireTv, channels: [{ channelId: 601 }] } });
    const missing = await s.call('PUT', '/apps/firetv', { body: { ...fireTv, channels: [{ channelId: 999999 }] } });
    expect([foreign.statusCode, foreign.json().error.details]).toEqual([422, [{ path: 'channels[0].channelId', message: 'unknown channel 601' }]]);
    expect(missing.body.replaceAll('999999', '601')).toBe(foreign.body);
    const twice = await s.call('PUT', '/apps/firetv', { body: { ...fireTv, channels: [{ channelId: 201 }, { channelId: 201 }] } });
    expect(twice.json().error.details).toEqual([{ path: 'channels[1].channelId', message: 'duplicate channel 201' }]);
    const after = await s.call('GET', '/apps');
    expect(after.headers.etag).toBe(before.headers.etag);
  });

  it('storeCredentials are write-only: never answered, kept by a PUT without them, replaced or cleared by one with them', async () => {
    const read = await s.call('GET', '/apps/mobile');
    const { configuredStores: _, ...entry } = read.json().data;
    const put = await s.call('PUT', '/apps/mobile', {
      body: {
        ...entry,
        storeCredentials: { apple: { bundleId: 'com.alice', sharedSecret: SECRET }, google: { serviceAccountJson: `{"key":"${SECRET}"}`, packageName: 'com.alice' } },
      },
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().data).toEqual({
      ...alice301,
      configuredStores: ['apple', 'google'],
      credentialFields: { apple: { bundleId: 'com.alice', sharedSecret: true }, google: { packageName: 'com.alice', serviceAccountJson: true } },
    });
    for (const response of [put, await s.call('GET', '/apps/mobile'), await s.call('GET', '/apps')]) {
      expect(response.body).not.toContain(SECRET);
      expect(response.body).toContain('"sharedSecret":true'); // said to be set, never its value
    }
    // GET, edit, PUT without storeCredentials: the stored ones stay.
    const again = await s.call('GET', '/apps/mobile');
    const kept = await s.call('PUT', '/apps/mobile', { body: { ...again.json().data, appName: 'Alice Mobile 2' }, headers: { 'if-match': again.headers.etag as string } });
    expect(kept.statusCode, kept.body).toBe(200);
    expect(kept.json().data).toMatchObject({ appName: 'Alice Mobile 2', configuredStores: ['apple', 'google'] });
    const stored = await rows(sql`select store, credentials from app_store_credentials where app_id = 301 order by store`);
    expect(stored).toEqual([
      { store: 'apple', credentials: { bundleId: 'com.alice', sharedSecret: SECRET } },
      { store: 'google', credentials: { serviceAccountJson: `{"key":"${SECRET}"}`, packageName: 'com.alice' } },
    ]);
    // Nor does a secret reach the audit.
    expect(JSON.stringify(await rows(sql`select * from studio_audit`))).not.toContain(SECRET);
    // Credentials a paid app sells with cannot be taken away while it sells (Apple's here).
    const stranded = await s.call('PUT', '/apps/mobile', { body: { ...entry, storeCredentials: { roku: { apiKey: SECRET } } } });
    expect(stranded.statusCode).toBe(422);
    expect(stranded.json().error.details.map((d: any) => d.path)).toEqual(['storeProducts[0].storePlatform', 'storeProducts[1].storePlatform', 'isPaid']);
    // With them: replaced whole; an empty object clears them (of an app that no longer sells).
    entry.isPaid = false;
    const replaced = await s.call('PUT', '/apps/mobile', { body: { ...entry, storeCredentials: { roku: { apiKey: SECRET } } } });
    expect(replaced.json().data.configuredStores).toEqual(['roku']);
    expect(await rows(sql`select store from app_store_credentials where app_id = 301`)).toEqual([{ store: 'roku' }]);
    const cleared = await s.call('PUT', '/apps/mobile', { body: { ...entry, storeCredentials: {} } });
    expect(cleared.json().data.configuredStores).toEqual([]);
    expect(await rows(sql`select store from app_store_credentials where app_id = 301`)).toEqual([]);
    const bad = await s.call('PUT', '/apps/mobile', { body: { ...entry, storeCredentials: { paypal: {} } } });
    expect(bad.json().error.details).toEqual([{ path: 'storeCredentials.paypal', message: 'unknown field' }]);
    // The subscription recorded against the app survives its replacement (the id stays).
    expect(await rows(sql`select app_id from subscriptions where original_transaction_id = '1000001'`)).toEqual([{ app_id: 301 }]);
  });

  it("an app cannot be saved selling without the credentials of its store, named in the store's words (issue 36 item 6)", async () => {
    const before = await s.call('GET', '/apps');
    // A paid Roku app with no products and no credentials: it sells on Roku all the same.
    const paid = await s.call('PUT', '/apps/roku', { body: { appName: 'Alice Roku', isPaid: true } });
    expect([paid.statusCode, paid.json().error.code, paid.json().error.details]).toEqual([
      422,
      'invalid_request',
      [{ path: 'isPaid', message: 'a paid roku app sells on Roku, but has no Roku store credentials: add its Roku Pay API key (storeCredentials.roku), or make the app free' }],
    ]);
    // Credentials there, but without the fields the store's verification needs.
    const google = await s.call('PUT', '/apps/androidtv', {
      body: {
        appName: 'Alice TV',
        isPaid: true,
        theme: { primaryColor: '010203', secondaryColor: '040506', styleColor: '070809' },
        storeProducts: [{ storePlatform: 'Google', productId: 'alice_monthly', billingPeriod: 'Monthly' }],
        storeCredentials: { google: { packageName: 'com.alice.tv' } },
      },
    });
    expect(google.json().error.details).toEqual([
      {
        path: 'storeProducts[0].storePlatform',
        message:
          'the app sells this product on Google, but its Google store credentials lack the Service account email and Service account private key: add them (storeCredentials.google) or mark the product inactive',
      },
      {
        path: 'isPaid',
        message:
          'a paid androidtv app sells on Google, but its Google store credentials lack the Service account email and Service account private key: add them (storeCredentials.google), or make the app free',
      },
    ]);
    const blank = await s.call('PUT', '/apps/roku', { body: { appName: 'Alice Roku', isPaid: true, storeCredentials: { roku: { apiKey: '  ', channelId: '4242' } } } });
    expect(blank.json().error.details.map((d: any) => d.message)).toEqual([
      'a paid roku app sells on Roku, but its Roku store credentials lack the Roku Pay API key: add it (storeCredentials.roku), or make the app free',
    ]);
    expect((await s.call('GET', '/apps')).headers.etag).toBe(before.headers.etag); // nothing was stored
    // With the key it saves; credentialChanges then changes one key and keeps the rest.
    const saved = await s.call('PUT', '/apps/roku', { body: { appName: 'Alice Roku', isPaid: true, storeCredentials: { roku: { apiKey: SECRET, channelId: '4242' } } } });
    expect([saved.statusCode < 300, saved.json().data.credentialFields]).toEqual([true, { roku: { apiKey: true, channelId: '4242' } }]);
    const { configuredStores: _c, credentialFields: _f, ...entry } = saved.json().data;
    const changed = await s.call('PUT', '/apps/roku', { body: { ...entry, credentialChanges: { roku: { channelId: '5151' }, apple: { bundleId: 'com.alice.roku' } } } });
    expect(changed.json().data.credentialFields).toEqual({ apple: { bundleId: 'com.alice.roku' }, roku: { apiKey: true, channelId: '5151' } });
    expect(await rows(sql`select store, credentials from app_store_credentials where app_id = ${saved.json().data.id} order by store`)).toEqual([
      { store: 'apple', credentials: { bundleId: 'com.alice.roku' } },
      { store: 'roku', credentials: { apiKey: SECRET, channelId: '5151' } },
    ]);
    const [audit] = await rows(sql`select resource, fields from studio_audit order by id desc limit 1`);
    expect(audit).toEqual({ resource: 'apps/roku', fields: ['storeCredentials'] });
    expect(JSON.stringify(await rows(sql`select * from studio_audit`))).not.toContain(SECRET);
    // Removing the key a paid app verifies with is refused; removing another store is not.
    const stripped = await s.call('PUT', '/apps/roku', { body: { ...entry, credentialChanges: { roku: { apiKey: null } } } });
    expect([stripped.statusCode, stripped.json().error.details.map((d: any) => d.path)]).toEqual([422, ['isPaid']]);
    const dropped = await s.call('PUT', '/apps/roku', { body: { ...entry, credentialChanges: { apple: null } } });
    expect(dropped.json().data.configuredStores).toEqual(['roku']);
    const badStore = await s.call('PUT', '/apps/roku', { body: { ...entry, credentialChanges: { paypal: { key: 'x' } } } });
    expect(badStore.statusCode).toBe(422);
    // Another owner can neither read these credentials' fields nor change them.
    const olga = (method: string, url: string, body?: unknown) => s.call(method, url, { token: s.tokens.olga, ...(body === undefined ? {} : { body }) });
    const read = await olga('GET', '/apps/roku');
    expect(read.body).not.toContain('5151');
    expect(read.body).not.toContain(SECRET);
    const theirs = await olga('PUT', '/apps/roku', { appName: 'Olga Roku', credentialChanges: { roku: { channelId: '6666' } } });
    expect(theirs.statusCode, theirs.body).toBeLessThan(300);
    expect(theirs.json().data.credentialFields).toEqual({ roku: { channelId: '6666' } }); // her own app's, nothing of alice's
    expect(await rows(sql`select credentials->>'channelId' as channel from app_store_credentials where app_id = ${saved.json().data.id} and store = 'roku'`)).toEqual([
      { channel: '5151' },
    ]);
    if (read.statusCode === 404) expect((await olga('DELETE', '/apps/roku')).statusCode).toBe(204);
  });

  it('DELETE is refused while purchases are recorded against the app; otherwise the app is gone everywhere at once', async () => {
    const mobile = await s.call('DELETE', '/apps/mobile');
    expect([mobile.statusCode, mobile.json().error]).toEqual([
      409,
      {
        code: 'in_use',
        message: 'Your mobile app 301 has 1 subscription and 0 PPV unlocks of viewers recorded, which deleting it would delete too; change the app with PUT /apps/mobile instead.',
      },
    ]);
    expect((await s.call('DELETE', '/apps/androidtv')).json().error.code).toBe('in_use');
    expect(await rows(sql`select count(*)::int as n from ppv_unlocks where app_id = 302`)).toEqual([{ n: 1 }]);
    expect((await appSettings('roku')).app_id).toBe('303');
    const read = await s.call('GET', '/apps/roku');
    expect((await s.call('DELETE', '/apps/roku', { headers: { 'if-match': '"stale"' } })).statusCode).toBe(412);
    const deleted = await s.call('DELETE', '/apps/roku', { headers: { 'if-match': read.headers.etag as string } });
    expect([deleted.statusCode, deleted.body]).toEqual([204, '']);
    expect((await s.call('GET', '/apps/roku')).statusCode).toBe(404);
    expect((await s.call('DELETE', '/apps/roku')).statusCode).toBe(404);
    await expect.poll(() => appSettings('roku'), POLL).toBe(404);
    expect(await rows(sql`select count(*)::int as n from apps where id = 303`)).toEqual([{ n: 0 }]);
    // Still an owner, whatever else the account has left.
    expect(await rows(sql`select account_id from studio_owners where account_id = 11`)).toEqual([{ account_id: 11 }]);
    expect((await s.call('GET', '/apps')).statusCode).toBe(200);
  });

  it("another owner's token acts on its own apps only: alice's are neither read nor changed", async () => {
    const alice = await s.call('GET', '/apps/mobile');
    const olga = (method: string, url: string, body?: unknown) => s.call(method, url, { token: s.tokens.olga, ...(body === undefined ? {} : { body }) });
    expect((await olga('GET', '/apps')).json().data.items.map((a: any) => a.id)).toEqual([601]);
    expect((await olga('GET', '/apps/mobile')).statusCode).toBe(404);
    expect((await olga('DELETE', '/apps/mobile')).statusCode).toBe(404);
    // The same If-Match as alice's app names nothing of olga's.
    expect((await s.call('PUT', '/apps/mobile', { token: s.tokens.olga, body: { appName: 'x' }, headers: { 'if-match': alice.headers.etag as string } })).statusCode).toBe(412);
    const created = await olga('PUT', '/apps/mobile', { appName: 'Olga Mobile', id: 301 });
    expect([created.statusCode, created.json().error.code]).toEqual([409, 'id_taken']);
    const own = await olga('PUT', '/apps/mobile', { appName: 'Olga Mobile', storeCredentials: { apple: { sharedSecret: 'olga' } } });
    expect(own.statusCode, own.body).toBe(201);
    expect(own.json().data).toMatchObject({ ownerId: 16, platform: 'mobile', appName: 'Olga Mobile', configuredStores: ['apple'], channels: [] });
    expect(own.json().data.id).not.toBe(301);
    const foreign = await olga('PUT', '/apps/mobile', { appName: 'Olga Mobile', channels: [{ channelId: 201 }] });
    expect(foreign.json().error.details).toEqual([{ path: 'channels[0].channelId', message: 'unknown channel 201' }]);
    expect((await olga('GET', '/apps/mobile')).json().data.id).toBe(own.json().data.id);
    expect((await olga('DELETE', '/apps/mobile')).statusCode).toBe(204);
    expect((await olga('GET', '/apps/mobile')).statusCode).toBe(404);
    const after = await s.call('GET', '/apps/mobile');
    expect(after.body).toBe(alice.body);
    expect(after.headers.etag).toBe(alice.headers.etag);
    expect((await appSettings('ios')).app_id).toBe('301');
    // A viewer and an app token have no Studio.
    expect((await s.call('GET', '/apps', { token: s.tokens.victor })).statusCode).toBe(403);
    expect((await s.call('GET', '/apps', { token: s.tokens.app })).statusCode).toBe(401);
  });
});
