import { describe, expect, it } from 'vitest';
import { EMPTY_EXISTING, parseCatalogText, validateCatalog, type ExistingCatalog } from '../src/catalog/validate.ts';
import type { Catalog } from '../src/catalog/format.ts';

const PNG = 'iVBORw0KGgo='; // the 8-byte PNG signature
const JPEG = '/9j/4A==';
const HASH = 'scrypt:16384:8:1:c2FsdHNhbHQ=:aGFzaGhhc2hoYXNoaGFzaA==';
const GUID = '0f8fad5b-d9cb-469f-a165-70867728950e';

/** A small valid catalog; each call returns a fresh copy that tests may alter. */
function sample(): any {
  return {
    format: 'channel-network-catalog',
    version: 1,
    accounts: [
      {
        id: 1,
        username: 'Owner',
        email: 'owner@example.com',
        password: 'secret',
        publicUrl: 'owner',
        appTokens: [{ token: GUID }],
        favorites: [{ channelId: 10, favoritedAt: '2026-01-01T00:00:00Z' }],
      },
      { id: 2, username: 'viewer', email: 'viewer@example.com', passwordHash: HASH, publicUrl: 'viewer' },
    ],
    categories: [{ id: 1, name: 'News' }],
    languages: [{ id: 1, name: 'English', code: 'en' }],
    videos: [
      { id: 100, ownerId: 1, title: 'One', durationSeconds: 60.5, providerName: 'YouTube', providerVideoId: 'a', categoryId: 1 },
      {
        id: 101,
        ownerId: 1,
        title: 'Two',
        durationSeconds: 30,
        providerName: 'Custom',
        providerVideoId: 'b',
        renditions: [{ url: 'https://media.example/1.mp4', width: 1280, height: 720, expiresUtc: '2026-12-01T00:00:00+01:00' }],
      },
    ],
    channels: [
      {
        id: 10,
        ownerId: 1,
        name: 'News',
        url: 'news',
        categoryId: 1,
        languageId: 1,
        timezone: 'Europe/Berlin',
        videoIds: [100, 101],
        vodVideoIds: [101],
        vast: [
          { platform: 'web', vastUrl: 'https://ads.example/web' },
          { platform: 'roku', vastUrl: 'https://ads.example/roku', vastType: 'fullscreen' },
        ],
        roku: { addedToRoku: true, lastUpdateDate: null },
        schedules: [{ id: 9001, startTime: '2026-11-21T08:00:00', videoIds: [100, 101, 100] }],
        liveStreams: [{ videoId: 100, start: '2026-11-21T18:00:00Z', end: '2026-11-21T19:30:00.5+01:00' }],
      },
    ],
    apps: [
      {
        id: 50,
        ownerId: 1,
        platform: 'roku',
        appName: 'News TV',
        apiKey: GUID,
        adLink: 'https://ads.example/app',
        theme: { primaryColor: '1a2b3c', secondaryColor: '1A2B3C', backgroundColor: '000000', styleColor: 'ffffff' },
        images: { logo: PNG, icon: JPEG },
        storeProducts: [{ storePlatform: 'Roku', productId: 'monthly', billingPeriod: 'Monthly' }],
        vodPpv: { isEnabled: true, storeProducts: [{ storePlatform: 'Roku', productId: 'ppv', billingPeriod: 'OneTime' }] },
        storeCredentials: { roku: { apiKey: 'k', sandbox: true } },
        channels: [{ channelId: 10, channelNumber: '1' }],
      },
      { id: 51, ownerId: 1, platform: 'androidtv', appName: 'News Android', theme: { primaryColor: '111111', secondaryColor: '222222', styleColor: '333333' } },
      {
        id: 52,
        ownerId: 1,
        platform: 'mobile',
        appName: 'News Mobile',
        mobile: { selectionColor: '111111', headerFooterColor: '222222', backgroundColor: '333333', fontColor: '444444' },
      },
    ],
    entitlements: {
      subscriptions: [{ appId: 50, deviceId: 12345, viewerId: null, storePlatform: 'Roku', productId: 'monthly', originalTransactionId: 't1', status: 'active', expiresUtc: null }],
      ppvUnlocks: [
        { appId: 50, videoId: 100, channelId: 10, deviceId: null, viewerId: 2, storePlatform: 'Roku', productId: 'ppv', transactionId: 'p1', expiresUtc: '2026-11-23T00:00:00Z' },
      ],
    },
  };
}

function errorsOf(input: unknown, existing: ExistingCatalog = EMPTY_EXISTING): string[] {
  const result = validateCatalog(input, existing);
  if (result.ok) throw new Error('expected the catalog to be rejected');
  return result.errors;
}

function validOf(input: unknown, existing: ExistingCatalog = EMPTY_EXISTING): Catalog {
  const result = validateCatalog(input, existing);
  if (!result.ok) throw new Error(`unexpected errors:\n${result.errors.join('\n')}`);
  return result.catalog;
}

function existingWith(parts: Partial<ExistingCatalog>): ExistingCatalog {
  return { ...EMPTY_EXISTING, ...parts };
}

describe('validateCatalog: a valid catalog', () => {
  it('accepts the sample and applies defaults', () => {
    const c = validOf(sample());
    const [account] = c.accounts;
    expect(account).toMatchObject({ status: 'active', servicePlanActive: true, branding: null, fullName: null });
    expect(account?.appTokens[0]).toEqual({ token: GUID, label: '' });
    const channel = c.channels[0]!;
    expect(channel).toMatchObject({ order: 0, guideMode: 'default', password: null, passwordHash: null, createdAt: null, deleted: false });
    expect(channel.vast[0]).toEqual({
      platform: 'web',
      vastUrl: 'https://ads.example/web',
      vastVersion: 1,
      skippable: false,
      adFrequency: null,
      midRollFrequency: null,
      slottable: false,
      timeFrom: null,
      timeTo: null,
      vastType: null,
      allowAdsInVod: false,
    });
    expect(channel.schedules[0]).toMatchObject({ published: true, loopDaily: false });
    expect(channel.liveStreams[0]?.uri).toBe('');
    expect(c.videos[0]).toMatchObject({ thumbnailUrl: '', description: null, isPrivate: false, renditions: [] });
    expect(c.apps[0]).toMatchObject({ timeFormat: '12-hour', isPaid: false, createdAt: null });
    expect(c.apps[0]?.storeProducts[0]).toMatchObject({ displayName: '', isActive: true });
    expect(c.apps[0]?.vodPpv).toMatchObject({ accessDurationHours: 48, previewSeconds: 0 });
    expect(c.apps[0]?.channels[0]).toEqual({ channelId: 10, sorting: null, channelNumber: '1', useVastSettings: false, lastUpdateDate: null });
    expect(c.apps[1]?.theme?.backgroundColor).toBeNull();
    expect(c.apps[2]?.mobile?.twitter).toBeNull();
    expect(c.apps[2]?.vodPpv).toEqual({ isEnabled: false, accessDurationHours: 48, previewSeconds: 0, storeProducts: [] });
    expect(c.entitlements.subscriptions[0]?.deviceId).toBe('12345');
  });

  it('accepts a minimal file: every list is optional', () => {
    const c = validOf({ format: 'channel-network-catalog', version: 1 });
    expect(c.accounts).toEqual([]);
    expect(c.entitlements).toEqual({ subscriptions: [], ppvUnlocks: [] });
  });

  it('channel timezone defaults to UTC', () => {
    const input = sample();
    delete input.channels[0].timezone;
    expect(validOf(input).channels[0]?.timezone).toBe('UTC');
  });
});

describe('validateCatalog: what a creator gets wrong (issue 30)', () => {
  it("keeps the spec's rules for a catalog file (0-second videos, any provider, any slug) but refuses a URL as a YouTube or Vimeo id", () => {
    const input = sample();
    // catalog-format.md: durationSeconds >= 0, providerName any string, url any slug; the
    // Studio's own bodies are stricter (STUDIO_*_RULES, test/studio-validation.test.ts).
    input.videos[0].durationSeconds = 0;
    input.videos[0].providerName = 'Dailymotion';
    input.channels[0].url = 'Retro Cartoons!';
    input.channels[0].password = 'ab';
    input.apps[1].slug = '-news';
    expect(validOf(input).videos[0]!.durationSeconds).toBe(0);
    input.videos.push({ id: 102, ownerId: 1, title: 'Three', durationSeconds: 5, providerName: 'YouTube', providerVideoId: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=3' });
    expect(errorsOf(input)).toEqual(['videos[2].providerVideoId: a YouTube video id, not a URL: this URL\'s id is "dQw4w9WgXcQ"']);
    input.videos[2].providerName = 'Vimeo';
    input.videos[2].providerVideoId = 'vimeo.com/1 2';
    expect(errorsOf(input)).toEqual(['videos[2].providerVideoId: bad Vimeo video id "vimeo.com/1 2" (want letters, digits, - and _, at most 64; or send the URL as url)']);
  });

  it('refuses a long name and a duplicate channel number', () => {
    const input = sample();
    input.channels[0].name = 'n'.repeat(300);
    input.channels.push({ id: 11, ownerId: 1, name: 'X', url: 'x', categoryId: 1 });
    input.apps[0].channels.push({ channelId: 11, channelNumber: ' 1 ' });
    expect(errorsOf(input)).toEqual(['channels[0].name: must be at most 200 characters']);
    input.channels[0].name = 'Retro';
    expect(errorsOf(input)).toEqual(['apps[0].channels[1].channelNumber: number "1" is already channel 10\'s in this app']);
  });
});

describe('validateCatalog: shape errors', () => {
  it('rejects a wrong format and version and a non-object root', () => {
    expect(errorsOf({ format: 'other', version: 2 })).toEqual(['format: expected "channel-network-catalog", got "other"', 'version: expected 1, got 2']);
    expect(errorsOf([])).toEqual(['(root): expected object, got array']);
  });

  it('reports a wrong type', () => {
    const input = sample();
    input.videos[0].durationSeconds = '60';
    expect(errorsOf(input)).toEqual(['videos[0].durationSeconds: expected number, got string']);
  });

  it('reports a missing required field', () => {
    const input = sample();
    delete input.videos[1].title;
    expect(errorsOf(input)).toEqual(['videos[1].title: required']);
  });

  it('reports a non-integer or non-positive id', () => {
    const input = sample();
    input.categories[0].id = 1.5;
    input.languages[0].id = 0;
    expect(errorsOf(input)).toEqual(['categories[0].id: expected integer, got 1.5', 'languages[0].id: must be an integer > 0']);
  });

  it('reports an unknown field by name, at any depth', () => {
    const input = sample();
    input.accounts[0].pasword = 'x';
    input.channels[0].vast[0].vastURL = 'x';
    input.extra = true;
    expect(errorsOf(input)).toEqual(['accounts[0].pasword: unknown field', 'channels[0].vast[0].vastURL: unknown field', 'extra: unknown field']);
  });

  it('rejects an invalid time zone', () => {
    const input = sample();
    input.channels[0].timezone = 'Europe/Atlantis';
    expect(errorsOf(input)).toEqual(['channels[0].timezone: unknown time zone "Europe/Atlantis"']);
  });

  it('rejects bad colours but accepts either case', () => {
    const input = sample();
    input.apps[0].theme.primaryColor = '#12345';
    input.apps[2].mobile.fontColor = '12345g';
    expect(errorsOf(input)).toEqual(['apps[0].theme.primaryColor: bad colour "#12345"', 'apps[2].mobile.fontColor: bad colour "12345g"']);
  });

  it('tells bad base64 from bytes that are not an image', () => {
    const input = sample();
    input.apps[0].images.logo = 'iVBORw0KGgo'; // padding missing
    input.apps[0].images.icon = 'aGVsbG8='; // "hello"
    input.apps[0].images.image1 = 'iVBO Rw0KGgo=';
    expect(errorsOf(input)).toEqual(['apps[0].images.logo: bad base64', 'apps[0].images.icon: not a PNG or JPEG image', 'apps[0].images.image1: bad base64']);
  });

  it('rejects an unknown image role', () => {
    const input = sample();
    input.apps[0].images.banner = PNG;
    expect(errorsOf(input)).toEqual(['apps[0].images.banner: unknown field']);
  });

  it('requires a zone on instants', () => {
    const input = sample();
    input.channels[0].liveStreams[0].start = '2026-11-21T18:00:00';
    input.accounts[0].favorites[0].favoritedAt = 'yesterday';
    expect(errorsOf(input)).toEqual([
      'accounts[0].favorites[0].favoritedAt: bad instant "yesterday"',
      'channels[0].liveStreams[0].start: instant needs Z or an offset: "2026-11-21T18:00:00"',
    ]);
  });

  it('requires a live stream to end after it starts', () => {
    const input = sample();
    input.channels[0].liveStreams[0].end = '2026-11-21T19:00:00+01:00';
    expect(errorsOf(input)).toEqual(['channels[0].liveStreams[0].end: end must be after start']);
  });

  it('rejects an impossible or zoned wall time', () => {
    const input = sample();
    input.channels[0].schedules[0].startTime = '2026-02-30T10:00:00';
    input.channels[0].schedules.push({ id: 9002, startTime: '2026-11-21T08:00:00Z', videoIds: [100] });
    input.channels[0].schedules.push({ id: 9003, startTime: '2026-11-21T24:00:00', videoIds: [100] });
    expect(errorsOf(input)).toEqual([
      'channels[0].schedules[0].startTime: no such date/time "2026-02-30T10:00:00"',
      'channels[0].schedules[1].startTime: bad wall time "2026-11-21T08:00:00Z" (want yyyy-MM-ddTHH:mm:ss, no offset)',
      'channels[0].schedules[2].startTime: no such date/time "2026-11-21T24:00:00"',
    ]);
  });

  it('requires exactly one of password and passwordHash on an account', () => {
    const input = sample();
    input.accounts[0].passwordHash = HASH;
    delete input.accounts[1].passwordHash;
    expect(errorsOf(input)).toEqual(['accounts[0]: password and passwordHash are both set; give exactly one', 'accounts[1]: password or passwordHash is required']);
  });

  it('checks the passwordHash format and channel password exclusivity', () => {
    const input = sample();
    input.accounts[1].passwordHash = 'bcrypt:abc';
    input.channels[0].password = 'pw-1';
    input.channels[0].passwordHash = HASH;
    expect(errorsOf(input)).toEqual([
      'accounts[1].passwordHash: bad password hash (want scrypt:N:r:p:salt:hash, base64)',
      'channels[0]: password and passwordHash are both set; give at most one',
    ]);
  });

  it('rejects a backgroundColor on an androidtv theme and requires it elsewhere', () => {
    const input = sample();
    input.apps[1].theme.backgroundColor = '000000';
    delete input.apps[0].theme.backgroundColor;
    expect(errorsOf(input)).toEqual(['apps[0].theme.backgroundColor: required', 'apps[1].theme.backgroundColor: androidtv has no backgroundColor']);
  });

  it('enforces the per-platform app fields', () => {
    const input = sample();
    input.apps[2].theme = { primaryColor: '111111', secondaryColor: '222222', backgroundColor: '333333', styleColor: '444444' };
    input.apps[1].adLink = 'https://ads.example';
    input.apps[1].mobile = input.apps[2].mobile;
    expect(errorsOf(input)).toEqual(['apps[1].mobile: only allowed on a mobile app', 'apps[1].adLink: only allowed on a roku app', 'apps[2].theme: not allowed on a mobile app']);
  });

  it('checks billing periods of subscription and PPV products', () => {
    const input = sample();
    input.apps[0].storeProducts[0].billingPeriod = 'OneTime';
    input.apps[0].vodPpv.storeProducts[0].billingPeriod = 'Yearly';
    expect(errorsOf(input)).toEqual([
      'apps[0].storeProducts[0].billingPeriod: a subscription product cannot be OneTime',
      'apps[0].vodPpv.storeProducts[0].billingPeriod: a PPV product must be OneTime',
    ]);
  });

  it('requires a device or a viewer on an entitlement', () => {
    const input = sample();
    input.entitlements.subscriptions[0].deviceId = null;
    expect(errorsOf(input)).toEqual(['entitlements.subscriptions[0]: deviceId and viewerId cannot both be null']);
  });

  it('rejects bad enum values and out-of-range numbers', () => {
    const input = sample();
    input.channels[0].vast[0].platform = 'tv';
    input.channels[0].vast[1].timeFrom = 24;
    expect(errorsOf(input)).toEqual([
      'channels[0].vast[0].platform: expected one of "web", "roku", "mobile", "firetv", "appletv", "androidtv", got "tv"',
      'channels[0].vast[1].timeFrom: must be 0-23',
    ]);
  });

  it('rejects an app token that is not a GUID and one with both forms', () => {
    const input = sample();
    input.accounts[0].appTokens = [{ token: 'abc' }, { token: GUID, tokenHash: 'a'.repeat(64) }];
    expect(errorsOf(input)).toEqual(['accounts[0].appTokens[0].token: bad GUID "abc"', 'accounts[0].appTokens[1]: token and tokenHash are both set; give exactly one']);
  });
});

describe('validateCatalog: references and uniqueness', () => {
  it('reports unknown videos, categories, owners and channels', () => {
    const input = sample();
    input.channels[0].schedules[0].videoIds[2] = 77;
    input.channels[0].categoryId = 9;
    input.videos[0].ownerId = 5;
    input.apps[0].channels[0].channelId = 11;
    input.accounts[0].favorites[0].channelId = 12;
    input.entitlements.ppvUnlocks[0].appId = 99;
    expect(errorsOf(input)).toEqual([
      'accounts[0].favorites[0].channelId: unknown channel 12',
      'videos[0].ownerId: unknown account 5',
      'channels[0].categoryId: unknown category 9',
      'channels[0].schedules[0].videoIds[2]: unknown video 77',
      'apps[0].channels[0].channelId: unknown channel 11',
      'entitlements.ppvUnlocks[0].appId: unknown app 99',
    ]);
  });

  it('reports duplicate ids at the duplicate', () => {
    const input = sample();
    input.videos.push({ ...input.videos[0], providerVideoId: 'c' });
    input.channels.push({ id: 20, ownerId: 1, name: 'Two', url: 'two', categoryId: 1, schedules: [{ id: 9001, startTime: '2026-11-21T08:00:00', videoIds: [100] }] });
    expect(errorsOf(input)).toEqual(['videos[2].id: duplicate video id 100', 'channels[1].schedules[0].id: duplicate schedule block id 9001']);
  });

  it('rejects repeats in a library, duplicate vast platforms and duplicate favorites', () => {
    const input = sample();
    input.channels[0].videoIds.push(100);
    input.channels[0].vast[1].platform = 'web';
    input.accounts[0].favorites.push({ channelId: 10, favoritedAt: '2026-01-02T00:00:00Z' });
    expect(errorsOf(input)).toEqual([
      'accounts[0].favorites[1].channelId: duplicate favorite channel 10',
      'channels[0].videoIds[2]: duplicate video 100',
      'channels[0].vast[1].platform: duplicate vast platform "web"',
    ]);
  });

  it('requires favorites and app channels to belong to their account', () => {
    const input = sample();
    input.accounts[1].favorites = [{ channelId: 10, favoritedAt: '2026-01-01T00:00:00Z' }];
    input.apps[0].ownerId = 2;
    expect(errorsOf(input)).toEqual([
      'accounts[1].favorites[0].channelId: channel 10 is not owned by account 2',
      'apps[0].channels[0].channelId: channel 10 is not owned by account 2',
    ]);
  });

  it('compares usernames, emails and slugs case-insensitively within the file', () => {
    const input = sample();
    input.accounts[1].username = 'OWNER';
    input.accounts[1].email = 'Owner@Example.com';
    expect(errorsOf(input)).toEqual(['accounts[1].username: duplicate username "OWNER"', 'accounts[1].email: duplicate email "Owner@Example.com"']);
  });

  it('rejects duplicate app tokens, a token matching a token hash, and two apps per platform', () => {
    const input = sample();
    input.accounts[1].appTokens = [{ token: GUID.toUpperCase(), label: 'tv' }];
    input.apps[2].platform = 'roku';
    delete input.apps[2].mobile;
    expect(errorsOf(input)).toEqual(['accounts[1].appTokens[0].token: duplicate app token', 'apps[2].platform: owner 1 already has a roku app in this file']);
  });

  it('resolves references against the database', () => {
    const input = sample();
    input.videos[0].categoryId = 7;
    input.channels[0].schedules[0].videoIds = [500];
    input.channels[0].ownerId = 3;
    input.apps = [];
    input.accounts[0].favorites = [{ channelId: 30, favoritedAt: '2026-01-01T00:00:00Z' }];
    input.entitlements = { subscriptions: [{ ...sample().entitlements.subscriptions[0], appId: 60 }] };
    const existing = existingWith({
      accounts: [{ id: 3, username: 'db', email: 'db@example.com', publicUrl: 'db' }],
      categoryIds: new Set([7]),
      videoIds: new Set([500]),
      channels: [{ id: 30, ownerId: 1, url: 'old' }],
      apps: [{ id: 60, ownerId: 3, platform: 'roku' }],
    });
    expect(validOf(input, existing).channels[0]?.ownerId).toBe(3);
    expect(errorsOf(input)).toContain('channels[0].ownerId: unknown account 3');
  });

  it('checks uniqueness against database rows with other ids only', () => {
    const input = sample();
    const existing = existingWith({
      accounts: [
        { id: 1, username: 'viewer', email: 'x@example.com', publicUrl: 'x' }, // replaced by the file
        { id: 7, username: 'OWNER', email: 'y@example.com', publicUrl: 'VIEWER' },
      ],
      channels: [
        { id: 10, ownerId: 1, url: 'news' },
        { id: 11, ownerId: 1, url: 'news' },
        { id: 12, ownerId: 2, url: 'news' },
      ],
      apps: [
        { id: 50, ownerId: 1, platform: 'roku' },
        { id: 61, ownerId: 1, platform: 'androidtv' },
      ],
    });
    expect(errorsOf(input, existing)).toEqual([
      'accounts[0].username: username "Owner" already used by account 7',
      'accounts[1].publicUrl: publicUrl "viewer" already used by account 7',
      'channels[0].url: url "news" already used by channel 11 of owner 1',
      'apps[1].platform: owner 1 already has androidtv app 61',
    ]);
  });

  it('rejects a schedule block id held by a channel outside the file', () => {
    const input = sample();
    const existing = existingWith({
      scheduleBlocks: [{ id: 9001, channelId: 44 }],
    });
    expect(errorsOf(input, existing)).toEqual(['channels[0].schedules[0].id: schedule block 9001 already belongs to channel 44']);
    const replaced = existingWith({ scheduleBlocks: [{ id: 9001, channelId: 10 }] });
    expect(validateCatalog(input, replaced).ok).toBe(true);
  });

  it('rejects duplicate store products and entitlement transactions', () => {
    const input = sample();
    input.apps[0].storeProducts.push({ storePlatform: 'Roku', productId: 'monthly', billingPeriod: 'Yearly' });
    input.apps[0].vodPpv.storeProducts.push({ storePlatform: 'Roku', productId: 'ppv2', billingPeriod: 'OneTime' });
    input.entitlements.subscriptions.push({ ...input.entitlements.subscriptions[0], deviceId: 'other' });
    expect(errorsOf(input)).toEqual([
      'apps[0].storeProducts[1].productId: duplicate product "monthly" for store Roku',
      'apps[0].vodPpv.storeProducts[1].storePlatform: more than one PPV product for store Roku',
      'entitlements.subscriptions[1].originalTransactionId: duplicate transaction "t1" for app 50 on Roku',
    ]);
  });
});

describe('validateCatalog: several errors at once', () => {
  it('reports every shape error in one pass, including object-level rules', () => {
    const input = sample();
    input.accounts[0].id = 2.5;
    input.accounts[0].passwordHash = HASH;
    input.channels[0].timezone = 'Nowhere';
    input.apps[1].theme.backgroundColor = 'zzzzzz';
    expect(errorsOf(input)).toEqual([
      'accounts[0].id: expected integer, got 2.5',
      'accounts[0]: password and passwordHash are both set; give exactly one',
      'channels[0].timezone: unknown time zone "Nowhere"',
      'apps[1].theme.backgroundColor: bad colour "zzzzzz"',
      'apps[1].theme.backgroundColor: androidtv has no backgroundColor',
    ]);
  });

  it('reports every reference error in one pass', () => {
    const input = sample();
    input.channels[0].videoIds = [1, 2];
    input.channels[0].languageId = 8;
    input.entitlements.ppvUnlocks[0].viewerId = 9;
    expect(errorsOf(input)).toEqual([
      'channels[0].languageId: unknown language 8',
      'channels[0].videoIds[0]: unknown video 1',
      'channels[0].videoIds[1]: unknown video 2',
      'entitlements.ppvUnlocks[0].viewerId: unknown account 9',
    ]);
  });
});

describe('parseCatalogText', () => {
  it('parses JSON and tolerates a UTF-8 byte order mark', () => {
    expect(parseCatalogText('\uFEFF{"version": 1}')).toEqual({ ok: true, value: { version: 1 } });
  });

  it('reports a syntax error with line and column', () => {
    expect(parseCatalogText('{\n  "format": "x",\n  "version": 1,,\n}')).toEqual({
      ok: false,
      errors: ["(root): JSON syntax error at line 3, column 16: unexpected ',', expected a property name in double quotes"],
    });
    expect(parseCatalogText('{\r\n  "a": tru\r\n}')).toEqual({
      ok: false,
      errors: ["(root): JSON syntax error at line 2, column 8: unexpected 't'"],
    });
  });

  it('reports a truncated file', () => {
    expect(parseCatalogText('{\n  "accounts": [\n    { "id": 1')).toEqual({
      ok: false,
      errors: ["(root): JSON syntax error at line 3, column 14: unexpected end of input, expected ',' or '}' (file truncated?)"],
    });
    expect(parseCatalogText('')).toEqual({
      ok: false,
      errors: ['(root): JSON syntax error at line 1, column 1: unexpected end of input (file truncated?)'],
    });
  });

  it('reports trailing text after the document', () => {
    expect(parseCatalogText('{}\n{}')).toEqual({
      ok: false,
      errors: ['(root): JSON syntax error at line 2, column 1: unexpected text after the JSON value'],
    });
  });
});
