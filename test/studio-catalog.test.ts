import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blobReader, exportApps, exportChannels } from '../src/catalog/export.ts';
import { APP_TOKEN } from './fixtures/catalog.ts';
import { BACKENDS } from './support/db.ts';
import { studioTest, type StudioTest } from './support/studio.ts';

const DOC = { format: 'channel-network-catalog', version: 1 } as const;
const newVideo = { id: 7001, ownerId: 11, title: 'Imported', durationSeconds: 95, providerName: 'YouTube', providerVideoId: 'imp1' };
const newChannel = { id: 701, ownerId: 11, name: 'Imported channel', url: 'imported', categoryId: 1, videoIds: [7001], createdAt: '2026-11-01T00:00:00Z' };

describe.each(BACKENDS)('Studio export, import and audit on %s', (backend) => {
  let s: StudioTest;
  beforeAll(async () => {
    s = await studioTest(backend);
  });
  afterAll(() => s.t.close());

  const rest = (url: string, token = s.tokens.alice) => s.t.request({ url: `/api/v1/rest${url}`, headers: { authorization: `Bearer ${token}` } });
  const restChannels = async () => (await rest('/channels')).body;
  const exported = async (token = s.tokens.alice) => {
    const response = await s.call('GET', '/export', { token });
    expect(response.statusCode, response.body).toBe(200);
    return response;
  };
  const importing = (body: unknown, options: { query?: string; token?: string; headers?: Record<string, string> } = {}) =>
    s.call('POST', `/import${options.query ?? ''}`, { body, ...(options.token ? { token: options.token } : {}), ...(options.headers ? { headers: options.headers } : {}) });
  const rows = async <T>(query: ReturnType<typeof sql>) => ((await s.t.database.db.execute(query)) as unknown as { rows: T[] }).rows;
  const auditCount = async () => (await rows<{ n: number }>(sql`select count(*)::int as n from studio_audit`))[0]!.n;
  /** What an export leaves out, as stored. */
  const secrets = async () => {
    const db = s.t.database.db;
    const channels = await exportChannels(db, { ownerId: 11 });
    const apps = await exportApps(db, await blobReader(db), { ownerId: 11 });
    return {
      channels: channels.map((c) => [c.id, c.passwordHash]),
      apps: apps.map((a) => [a.id, a.storeCredentials]),
      account: await rows(sql`select password_hash from accounts where id = 11`),
      tokens: await rows(sql`select id::int, token_hash, label, created_at, revoked_at from auth_tokens where account_id = 11 and kind = 'app' order by id`),
    };
  };
  const olgaSlice = async () => (await exported(s.tokens.olga)).body;

  it('an export kept for the owner is served again only while nothing in it changed', async () => {
    const first = await exported();
    const again = await exported();
    expect([again.headers.etag, again.body]).toEqual([first.headers.etag, first.body]);
    // A Studio write (its slice version moves) and a shared category (its tag reads them) are both in the next export.
    expect((await s.call('PATCH', '/videos/5001', { body: { title: 'Kept no more' } })).statusCode).toBe(200);
    const renamed = await exported();
    expect(renamed.headers.etag).not.toBe(first.headers.etag);
    expect(renamed.json().videos.find((v: any) => v.id === 5001).title).toBe('Kept no more');
    await rows(sql`insert into categories (id, name) values (77, 'Weather')`);
    const withCategory = await exported();
    expect(withCategory.json().categories).toContainEqual({ id: 77, name: 'Weather' });
    await rows(sql`delete from categories where id = 77`);
    expect((await s.call('PATCH', '/videos/5001', { body: { title: first.json().videos.find((v: any) => v.id === 5001).title } })).statusCode).toBe(200);
  });

  it("exports the caller's slice as a catalog document to download, with no secret in it", async () => {
    const response = await exported();
    expect(response.headers['content-disposition']).toBe('attachment; filename="channelnet-owner-11-2026-11-21.json"');
    expect(response.headers.etag).toMatch(/^"/);
    const doc = response.json();
    expect(Object.keys(doc)).toEqual(['format', 'version', 'accounts', 'categories', 'languages', 'videos', 'channels', 'apps']);
    expect(doc).toMatchObject(DOC);
    expect(doc.accounts.map((a: any) => a.id)).toEqual([11]);
    expect(doc.accounts[0]).not.toHaveProperty('passwordHash');
    expect(doc.accounts[0]).not.toHaveProperty('appTokens');
    expect(doc.accounts[0].favorites).toEqual([{ channelId: 201, favoritedAt: '2026-11-20T10:00:00.000Z' }]);
    expect(doc.categories).toEqual([
      { id: 1, name: 'News' },
      { id: 2, name: 'Music' },
    ]);
    expect(doc.languages).toEqual([{ id: 1, name: 'English', code: 'en' }]);
    expect(doc.videos.map((v: any) => v.id)).toEqual([5001, 5002, 5003]);
    expect(doc.channels.map((c: any) => c.id)).toEqual([201, 202, 203]);
    expect(doc.apps.map((a: any) => a.id)).toEqual([301, 302, 303]);
    for (const c of doc.channels) expect(c).not.toHaveProperty('passwordHash');
    for (const a of doc.apps) expect(a).not.toHaveProperty('storeCredentials');
    // Channel 202 has a password and app 301 store credentials; neither leaves the service.
    expect((await secrets()).channels).toContainEqual([202, expect.stringMatching(/^scrypt:/)]);
    expect(response.body).not.toContain('scrypt:');
    expect(response.body).not.toContain('s3cret');
    expect(response.body).not.toContain('tokenHash');
    expect(response.body).not.toContain('subscriptions');
    // Olga's export holds hers only.
    const hers = JSON.parse(await olgaSlice());
    expect([hers.accounts.map((a: any) => a.id), hers.videos.map((v: any) => v.id), hers.channels.map((c: any) => c.id), hers.apps.map((a: any) => a.id)]).toEqual([
      [16],
      [6001],
      [601],
      [601],
    ]);
  });

  it('viewers and app tokens get no export', async () => {
    expect((await s.call('GET', '/export', { token: s.tokens.victor })).statusCode).toBe(403);
    expect((await s.call('GET', '/export', { token: s.tokens.app })).statusCode).toBe(401);
  });

  it('imports its own export: accepted, and nothing visible or secret changes', async () => {
    const before = await exported();
    const channels = await restChannels();
    const stored = await secrets();
    const audits = await auditCount();
    const response = await importing(before.json());
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({
      success: true,
      data: {
        dryRun: false,
        counts: { accounts: 1, categories: 2, languages: 1, videos: 3, channels: 3, scheduleBlocks: 3, liveStreams: 1, apps: 3, subscriptions: 0, ppvUnlocks: 0 },
      },
    });
    expect(await restChannels()).toBe(channels);
    expect((await exported()).body).toBe(before.body);
    expect(await secrets()).toEqual(stored);
    expect(await auditCount()).toBe(audits);
    // The app token still signs in; alice's password too.
    expect((await rest('/channels', APP_TOKEN)).statusCode).toBe(200);
    const login = await s.t.request({ method: 'POST', url: '/api/v1/rest/auth/login', payload: { username: 'alice', password: 'correct horse' } });
    expect(login.statusCode).toBe(200);
  });

  it('refuses an If-Match that names an older export', async () => {
    const etag = (await exported()).headers.etag as string;
    expect((await importing({ ...DOC }, { headers: { 'if-match': etag } })).statusCode).toBe(200);
    const patched = await s.call('PATCH', '/videos/5003', { body: { description: 'changed since the export' } });
    expect(patched.statusCode).toBe(200);
    const stale = await importing({ ...DOC }, { headers: { 'if-match': etag } });
    expect(stale.statusCode).toBe(412);
    expect(stale.json().error.code).toBe('precondition_failed');
  });

  it('a dry run checks and changes nothing', async () => {
    const audits = await auditCount();
    const dry = await importing({ ...DOC, videos: [newVideo], channels: [newChannel] }, { query: '?dryRun=1' });
    expect(dry.statusCode, dry.body).toBe(200);
    expect(dry.json().data).toMatchObject({ dryRun: true, counts: { videos: 1, channels: 1 } });
    expect((await s.call('GET', '/videos/7001')).statusCode).toBe(404);
    expect(await restChannels()).not.toContain('Imported channel');
    expect(await auditCount()).toBe(audits);
    const bad = await importing({ ...DOC, videos: [{ ...newVideo, ownerId: 16 }] }, { query: '?dryRun=1' });
    expect(bad.statusCode).toBe(422);
  });

  it('a file with one bad item loads nothing', async () => {
    const audits = await auditCount();
    const bad = await importing({ ...DOC, videos: [newVideo, { ...newVideo, id: 7002, durationSeconds: -1 }], channels: [newChannel] });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().error).toMatchObject({ code: 'invalid_request', details: [{ path: 'videos[1].durationSeconds', message: 'must be >= 0' }] });
    const badRef = await importing({ ...DOC, videos: [newVideo], channels: [{ ...newChannel, videoIds: [7001, 6001] }] });
    expect(badRef.statusCode).toBe(422);
    expect(badRef.json().error.details).toEqual([{ path: 'channels[0].videoIds[1]', message: 'unknown video 6001' }]);
    expect((await s.call('GET', '/videos/7001')).statusCode).toBe(404);
    expect(await auditCount()).toBe(audits);
  });

  it('creates a new video and channel, visible on the REST API at once and audited', async () => {
    const response = await importing({ ...DOC, videos: [newVideo], channels: [newChannel] });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data.counts).toMatchObject({ videos: 1, channels: 1, accounts: 0 });
    expect((await s.call('GET', '/videos/7001')).json().data).toMatchObject({ title: 'Imported', ownerId: 11 });
    expect(await restChannels()).toContain('Imported channel');
    const audit = (await s.call('GET', '/audit?limit=2')).json().data.items;
    expect(audit.map((e: any) => [e.action, e.resource])).toEqual([
      ['create', 'channels/701'],
      ['create', 'videos/7001'],
    ]);
    expect(audit[0]).toMatchObject({ actorId: 11, at: '2026-11-21T15:00:00.000Z' });
    expect(audit[0].fields).toContain('videoIds');
  });

  it('refuses entities of another owner, at their paths', async () => {
    const response = await importing({ ...DOC, videos: [{ ...newVideo, id: 7003, ownerId: 16 }] });
    expect(response.statusCode).toBe(422);
    expect(response.json().error.details).toEqual([{ path: 'videos[0].ownerId', message: 'must be 11 (your account)' }]);
    const theirs = await importing({
      ...DOC,
      channels: [{ ...newChannel, id: 702, ownerId: 16, url: 'x', videoIds: [] }],
      apps: [
        { id: 702, ownerId: 16, platform: 'firetv', appName: 'x', theme: { primaryColor: '000000', secondaryColor: '000000', backgroundColor: '000000', styleColor: '000000' } },
      ],
    });
    expect(theirs.json().error.details.map((d: any) => d.path)).toEqual(['channels[0].ownerId', 'apps[0].ownerId']);
    expect((await s.call('GET', '/videos/7003')).statusCode).toBe(404);
    // Olga's token cannot bring alice's entities into her slice either.
    const olga = await importing({ ...DOC, videos: [{ ...newVideo, id: 5001 }] }, { token: s.tokens.olga });
    expect(olga.statusCode).toBe(422);
    expect(olga.json().error.details).toEqual(expect.arrayContaining([{ path: 'videos[0].ownerId', message: 'must be 16 (your account)' }]));
  });

  it("refuses ids of another owner's rows without saying whose, and leaves them unchanged", async () => {
    const hers = await olgaSlice();
    const body = {
      ...DOC,
      videos: [{ ...newVideo, id: 6001 }],
      channels: [{ ...newChannel, id: 601, url: 'olga-one', videoIds: [], schedules: [{ id: 9601, startTime: '2026-11-22T10:00:00', videoIds: [5001] }] }],
      apps: [
        {
          id: 601,
          ownerId: 11,
          platform: 'firetv',
          appName: 'Not yours',
          theme: { primaryColor: '000000', secondaryColor: '000000', backgroundColor: '000000', styleColor: '000000' },
        },
      ],
    };
    const response = await importing(body);
    expect(response.statusCode).toBe(422);
    expect(response.json().error.details).toEqual([
      { path: 'videos[0].id', message: 'video id 6001 is already in use; choose another id' },
      { path: 'channels[0].id', message: 'channel id 601 is already in use; choose another id' },
      { path: 'apps[0].id', message: 'app id 601 is already in use; choose another id' },
      { path: 'channels[0].schedules[0].id', message: 'schedule block id 9601 is already in use; choose another id' },
    ]);
    expect(response.body).not.toMatch(/olga|\b16\b/i);
    expect(await olgaSlice()).toBe(hers);
    const channel = await rest('/channels/601', s.tokens.olga);
    expect(channel.json().data).toMatchObject({ name: 'Olga channel' });
  });

  it('shares categories and languages: new ones created, equal ones accepted, changed ones refused', async () => {
    const changed = await importing({ ...DOC, categories: [{ id: 1, name: 'Politics' }], languages: [{ id: 1, name: 'English', code: 'EN' }] });
    expect(changed.statusCode).toBe(422);
    expect(changed.json().error.details.map((d: any) => d.path)).toEqual(['categories[0].name', 'languages[0].code']);
    const added = await importing({
      ...DOC,
      categories: [
        { id: 1, name: 'News' },
        { id: 3, name: 'Sport' },
      ],
      videos: [{ ...newVideo, id: 7010, categoryId: 3 }],
    });
    expect(added.statusCode, added.body).toBe(200);
    expect(JSON.parse((await exported()).body).categories).toEqual([
      { id: 1, name: 'News' },
      { id: 2, name: 'Music' },
      { id: 3, name: 'Sport' },
    ]);
  });

  it("takes only the caller's own account, keeps its password, tokens, status and plan, and its names (which say nothing of other accounts)", async () => {
    const stored = await secrets();
    const account = JSON.parse((await exported()).body).accounts[0];
    const other = await importing({ ...DOC, accounts: [{ id: 13, username: 'bob2', email: 'bob2@example.com', publicUrl: 'bob2' }] });
    expect(other.statusCode).toBe(422);
    expect(other.json().error.details).toEqual([{ path: 'accounts[0].id', message: 'only your own account (11) can be imported here' }]);
    // Another account's names and names nobody holds get the same answer: names cannot change here.
    const taken = await importing({ ...DOC, accounts: [{ ...account, username: 'BOB', email: 'victor@example.com' }] });
    const free = await importing({ ...DOC, accounts: [{ ...account, username: 'nobody-has-this', email: 'nobody@example.com' }] });
    expect(taken.json().error.details).toEqual([
      { path: 'accounts[0].username', message: 'cannot be changed here; the operator changes it' },
      { path: 'accounts[0].email', message: 'cannot be changed here; the operator changes it' },
    ]);
    expect([free.statusCode, free.body]).toEqual([taken.statusCode, taken.body]);
    const plan = await importing({ ...DOC, accounts: [{ ...account, servicePlanActive: false, status: 'locked' }] });
    expect(plan.json().error.details.map((d: any) => d.path)).toEqual(['accounts[0].status', 'accounts[0].servicePlanActive']);
    // An app token is one key space with every account's sign-ins: another's is refused, not taken over.
    const token = await importing({ ...DOC, accounts: [{ ...account, appTokens: [{ token: s.tokens.victor, label: 'stolen' }] }] });
    expect(token.json().error.details).toEqual([{ path: 'accounts[0].appTokens[0].token', message: 'app token already in use' }]);
    const renamed = await importing({ ...DOC, accounts: [{ ...account, fullName: 'Alice Renamed' }] });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(await secrets()).toEqual(stored);
    expect(JSON.parse((await exported()).body).accounts[0].fullName).toBe('Alice Renamed');
    expect((await s.call('GET', '/audit?limit=1')).json().data.items[0]).toMatchObject({ action: 'update', resource: 'account', fields: ['fullName'] });
    const entitlements = await importing({
      ...DOC,
      entitlements: {
        subscriptions: [],
        ppvUnlocks: [
          {
            appId: 302,
            videoId: 5002,
            channelId: null,
            deviceId: 'd',
            viewerId: null,
            storePlatform: 'Google',
            productId: 'alice_ppv',
            transactionId: 'GPA.2',
            expiresUtc: '2026-11-22T00:00:00Z',
          },
        ],
      },
    });
    expect(entitlements.statusCode).toBe(422);
    expect(entitlements.json().error.details.map((d: any) => d.path)).toEqual(['entitlements.ppvUnlocks']);
  });

  it('keeps write-only fields a file leaves out and changes those it gives', async () => {
    const doc = JSON.parse((await exported()).body);
    const music = doc.channels.find((c: any) => c.id === 202);
    const response = await importing({ ...DOC, channels: [{ ...music, name: 'Alice Music 2' }] });
    expect(response.statusCode, response.body).toBe(200);
    expect((await secrets()).channels).toContainEqual([202, expect.stringMatching(/^scrypt:/)]);
    const cleared = await importing({ ...DOC, channels: [{ ...music, password: null }], apps: [{ ...doc.apps[0], storeCredentials: {} }] });
    expect(cleared.statusCode, cleared.body).toBe(200);
    const after = await secrets();
    expect(after.channels).toContainEqual([202, null]);
    expect(after.apps).toContainEqual([301, {}]);
  });

  it('lists the audit newest first, a page at a time', async () => {
    for (const [i, time] of ['2026-11-21T16:00:00Z', '2026-11-21T17:00:00Z', '2026-11-21T18:00:00Z'].entries()) {
      const patched = await s.call('PATCH', '/videos/5002', { body: { title: `Weather ${i}` }, now: time });
      expect(patched.statusCode).toBe(200);
    }
    const first = await s.call('GET', '/audit?limit=2');
    expect(first.statusCode).toBe(200);
    const page = first.json().data;
    expect(page.items.map((e: any) => e.at)).toEqual(['2026-11-21T18:00:00.000Z', '2026-11-21T17:00:00.000Z']);
    expect(page.items[0]).toEqual({
      id: expect.any(Number),
      at: '2026-11-21T18:00:00.000Z',
      actorId: 11,
      action: 'update',
      resource: 'videos/5002',
      fields: ['title'],
      address: expect.any(String),
    });
    expect(page.next).toBe(page.items[1].id);
    const second = (await s.call('GET', `/audit?limit=2&before=${page.next}`)).json().data;
    expect(second.items[0].at).toBe('2026-11-21T16:00:00.000Z');
    expect(second.items[0].id).toBeLessThan(page.next);
    // Walking every page visits every entry once, ids strictly descending, and ends with next null.
    const ids: number[] = [];
    let url = '/audit?limit=3';
    for (let guard = 0; guard < 100; guard++) {
      const data = (await s.call('GET', url)).json().data;
      ids.push(...data.items.map((e: any) => e.id));
      if (data.next === null) break;
      url = `/audit?limit=3&before=${data.next}`;
    }
    expect(ids).toHaveLength(await (async () => (await rows<{ n: number }>(sql`select count(*)::int as n from studio_audit where owner_id = 11`))[0]!.n)());
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
    // Olga sees her own trail only (she changed nothing).
    expect((await s.call('GET', '/audit', { token: s.tokens.olga })).json().data).toEqual({ items: [], next: null });
    expect((await s.call('GET', '/audit?limit=0')).statusCode).toBe(422);
  });
});
