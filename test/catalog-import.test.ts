import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { verifyPassword } from '../src/access/passwords.ts';
import { hashToken } from '../src/access/token-hash.ts';
import { exportCatalog } from '../src/catalog/export.ts';
import { importCatalog, importCatalogText } from '../src/catalog/import.ts';
import * as t from '../src/db/schema.ts';
import { OWNER, APP_TOKEN, smallCatalog } from './fixtures/catalog.ts';
import { BACKENDS, freshDatabase, type TestDatabase } from './support/db.ts';

const now = new Date('2026-11-21T12:00:00Z');
const options = { replace: false, now };

describe.each(BACKENDS)('catalog import and export on %s', (backend) => {
  const open: TestDatabase[] = [];
  const fresh = async () => {
    const database = await freshDatabase(backend);
    open.push(database);
    return database;
  };
  afterEach(async () => {
    await Promise.all(open.splice(0).map((d) => d.close()));
  });

  it('loads every entity of a valid catalog', async () => {
    const { db } = await fresh();
    const result = await importCatalog(db, smallCatalog(), options);
    expect(result).toEqual({
      ok: true,
      counts: { accounts: 3, categories: 2, languages: 1, videos: 3, channels: 3, scheduleBlocks: 3, liveStreams: 1, apps: 3, subscriptions: 1, ppvUnlocks: 1 },
    });
    const library = await db.select().from(t.channelVideos).where(eq(t.channelVideos.channelId, 201)).orderBy(t.channelVideos.position);
    expect(library.map((r) => r.videoId)).toEqual([5001, 5002]);
    const blockVideos = await db.select().from(t.scheduleBlockVideos).where(eq(t.scheduleBlockVideos.blockId, 9001)).orderBy(t.scheduleBlockVideos.position);
    expect(blockVideos.map((r) => r.videoId)).toEqual([5001, 5002, 5001]);
    const [video] = await db.select().from(t.videos).where(eq(t.videos.id, 5002));
    expect(video?.durationSeconds).toBe(120.25);
    const [block] = await db.select().from(t.scheduleBlocks).where(eq(t.scheduleBlocks.id, 9001));
    expect(block?.startLocal).toBe('2026-11-21 08:00:00');
  });

  it('stores passwords and app tokens only as hashes', async () => {
    const { db } = await fresh();
    await importCatalog(db, smallCatalog(), options);
    const [alice] = await db.select().from(t.accounts).where(eq(t.accounts.id, OWNER.id));
    expect(alice?.passwordHash).toMatch(/^scrypt:/);
    expect(await verifyPassword(OWNER.password, alice!.passwordHash)).toBe(true);
    expect(await verifyPassword('wrong', alice!.passwordHash)).toBe(false);
    const tokens = await db.select().from(t.authTokens);
    expect(tokens.map((k) => k.tokenHash)).toEqual([hashToken(APP_TOKEN)]);
    const exported = JSON.stringify(await exportCatalog(db));
    expect(exported).not.toContain(OWNER.password);
    expect(exported).not.toContain('letmein');
    expect(exported).not.toContain(APP_TOKEN);
  });

  it('keeps each image once, addressed by its content', async () => {
    const { db } = await fresh();
    await importCatalog(db, smallCatalog(), options);
    const blobs = await db.select({ sha256: t.blobs.sha256, contentType: t.blobs.contentType }).from(t.blobs);
    expect(blobs.map((b) => b.contentType).sort()).toEqual(['image/jpeg', 'image/png']);
  });

  it('exports what was imported, and export then import --replace gives the same catalog', async () => {
    const first = await fresh();
    await importCatalog(first.db, smallCatalog(), options);
    const exported = await exportCatalog(first.db);
    expect(exported.videos?.[2]?.renditions).toHaveLength(2);
    expect(exported.channels?.[0]?.schedules?.map((s) => s.startTime)).toEqual(['2026-11-18T22:00:00', '2026-11-21T08:00:00', '2026-11-21T12:00:00']);
    expect(exported.apps?.[1]?.theme).toEqual({ primaryColor: '010203', secondaryColor: '040506', styleColor: '070809' });

    const second = await fresh();
    const reimport = await importCatalog(second.db, JSON.parse(JSON.stringify(exported)), { replace: true, now: new Date('2030-01-01T00:00:00Z') });
    expect(reimport.ok).toBe(true);
    expect(await exportCatalog(second.db)).toEqual(exported);
  });

  it('merges by id: a present entity is replaced whole, an absent one is left alone', async () => {
    const { db } = await fresh();
    await importCatalog(db, smallCatalog(), options);
    const update = {
      format: 'channel-network-catalog',
      version: 1,
      videos: [{ id: 5002, ownerId: 11, title: 'Renamed', durationSeconds: 1, providerName: 'Vimeo', providerVideoId: '9' }],
      channels: [{ id: 201, ownerId: 11, name: 'Alice News 2', url: 'alice-news', categoryId: 1, videoIds: [5002], createdAt: '2026-01-01T00:00:00Z' }],
    };
    expect((await importCatalog(db, update, options)).ok).toBe(true);
    const catalog = await exportCatalog(db);
    expect(catalog.videos?.map((v) => v.title)).toEqual(['Morning news', 'Renamed', 'Concert']);
    const channel = catalog.channels?.find((c) => c.id === 201);
    expect(channel).toMatchObject({ name: 'Alice News 2', videoIds: [5002], schedules: [], vast: [], liveStreams: [], timezone: 'UTC' });
    expect(catalog.channels?.find((c) => c.id === 202)?.name).toBe('Alice Music');
  });

  it('--replace empties the catalog first', async () => {
    const { db } = await fresh();
    await importCatalog(db, smallCatalog(), options);
    const tiny = { format: 'channel-network-catalog', version: 1, categories: [{ id: 9, name: 'Only' }] };
    expect((await importCatalog(db, tiny, { replace: true, now })).ok).toBe(true);
    const catalog = await exportCatalog(db);
    expect(catalog.accounts).toEqual([]);
    expect(catalog.categories).toEqual([{ id: 9, name: 'Only' }]);
  });

  it('resolves references against the database', async () => {
    const { db } = await fresh();
    await importCatalog(db, smallCatalog(), options);
    const more = {
      format: 'channel-network-catalog',
      version: 1,
      videos: [{ id: 5004, ownerId: 11, title: 'Extra', durationSeconds: 5, providerName: 'YouTube', providerVideoId: 'x', categoryId: 2 }],
    };
    expect((await importCatalog(db, more, options)).ok).toBe(true);
    const missing = { ...more, videos: [{ ...more.videos[0], id: 5005, categoryId: 77 }] };
    expect(await importCatalog(db, missing, options)).toEqual({ ok: false, errors: ['videos[0].categoryId: unknown category 77'] });
  });

  describe('a bad file loads nothing and names the JSON path', () => {
    const cases: Array<[string, (c: any) => void, RegExp]> = [
      ['unknown reference', (c) => (c.channels[0].schedules[0].videoIds[2] = 77), /^channels\[0\]\.schedules\[0\]\.videoIds\[2\]: unknown video 77$/],
      ['duplicate id', (c) => (c.videos[1].id = 5001), /^videos\[1\]\.id: duplicate video id 5001$/],
      ['wrong type', (c) => (c.videos[0].durationSeconds = 'long'), /^videos\[0\]\.durationSeconds: /],
      ['unknown field', (c) => (c.accounts[0].pasword = 'x'), /^accounts\[0\]\.pasword: unknown field$/],
      ['invalid time zone', (c) => (c.channels[0].timezone = 'Mars/Olympus'), /^channels\[0\]\.timezone: unknown time zone "Mars\/Olympus"$/],
      ['bad colour', (c) => (c.apps[1].theme.primaryColor = '#12345'), /^apps\[1\]\.theme\.primaryColor: bad colour "#12345"$/],
      ['bad base64', (c) => (c.apps[0].images.logo = 'not base64!'), /^apps\[0\]\.images\.logo: bad base64$/],
    ];
    it.each(cases)('%s', async (_name, breakIt, expected) => {
      const { db } = await fresh();
      await importCatalog(db, smallCatalog(), options);
      const before = await exportCatalog(db);
      const broken: any = smallCatalog();
      broken.videos[0].title = 'changed, but must not land';
      breakIt(broken);
      const result = await importCatalog(db, broken, options);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.errors.some((e) => expected.test(e))).toBe(true);
      expect(await exportCatalog(db)).toEqual(before);
    });

    it('malformed and truncated JSON', async () => {
      const { db } = await fresh();
      const text = JSON.stringify(smallCatalog());
      const truncated = await importCatalogText(db, text.slice(0, 200), options);
      expect(truncated.ok).toBe(false);
      if (!truncated.ok) expect(truncated.errors[0]).toMatch(/line 1, column/);
      expect(await db.$count(t.accounts)).toBe(0);
    });

    it('an inconsistency found only by the database rolls the whole import back', async () => {
      const { db } = await fresh();
      const catalog: any = smallCatalog();
      // Another account already holds this app token: the unique index refuses it mid-import.
      catalog.accounts[1].appTokens = [{ token: APP_TOKEN, label: 'copy' }];
      const result = await importCatalog(db, catalog, options).catch((error: unknown) => error);
      expect(result).toSatisfy((r: any) => r instanceof Error || r.ok === false);
      expect(await db.$count(t.accounts)).toBe(0);
    });
  });
});
