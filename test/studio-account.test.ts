// Studio account-level resources: app tokens (shown once, kept as hashes, listed, revoked; a
// revoked one no longer authenticates), the branding the Custom settings route answers, and the
// shared reference data (categories, languages: list and create). Another owner's token acts on
// its own account only.
import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JPEG_STUB, PNG_1X1 } from './fixtures/catalog.ts';
import { BACKENDS } from './support/db.ts';
import { OLGA, studioTest, type StudioTest } from './support/studio.ts';

const REST = '/api/v1/rest';
const CUSTOM = '/api/v1/services/custom';
/** The Custom routes answer from the catalog cache, which the write's NOTIFY drops (on PostgreSQL it arrives on another connection). */
const POLL = { timeout: 5_000, interval: 50 };
const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const aliceBranding = {
  title: 'Alice TV',
  hex1: 'ff0000',
  hex2: '00ff00',
  hex3: '0000ff',
  fontColor: 'ffffff',
  headerBackground: null,
  faq: null,
  privacyPolicy: null,
  logoHeader: PNG_1X1,
  logoAndroid: PNG_1X1,
  useVastSettings: true,
};

describe.each(BACKENDS)('Studio account resources on %s', (backend) => {
  let s: StudioTest;
  beforeAll(async () => {
    s = await studioTest(backend);
  });
  afterAll(() => s.t.close());

  const rows = async (query: ReturnType<typeof sql>) => ((await s.t.database.db.execute(query)) as any).rows as any[];
  const restChannels = (token: string, now?: string) => s.t.request({ url: `${REST}/channels`, headers: { authorization: `Bearer ${token}` }, ...(now ? { now } : {}) });
  const settings = async (owner = 11) => (await s.t.request({ url: `${CUSTOM}/users/${owner}/settings` })).json().data;
  const olga = (method: string, url: string, body?: unknown) => s.call(method, url, { token: s.tokens.olga, ...(body === undefined ? {} : { body }) });

  describe('app tokens', () => {
    let created: { id: number; token: string };

    it('lists live app tokens without the token or its hash', async () => {
      const list = await s.call('GET', '/app-tokens');
      expect(list.statusCode).toBe(200);
      expect(list.headers.etag).toMatch(/^"[\w-]+"$/);
      expect(list.json().data).toEqual({ items: [{ id: expect.any(Number), label: 'Roku archive', createdAt: '2026-11-21T15:00:00.000Z', lastUsedAt: null, revokedAt: null }] });
      expect(list.body).not.toContain(s.tokens.app);
      expect(list.body).not.toContain(createHash('sha256').update(s.tokens.app).digest('hex'));
      // Olga has none; the sign-in tokens of the tests are sessions, never listed.
      expect((await olga('GET', '/app-tokens')).json().data.items).toEqual([]);
    });

    it('creates a token shown once, stored as its hash, that authenticates at once; its use is recorded', async () => {
      const post = await s.call('POST', '/app-tokens', { body: { label: 'Fire TV build' } });
      expect(post.statusCode, post.body).toBe(201);
      const data = post.json().data;
      expect(data).toEqual({
        id: expect.any(Number),
        label: 'Fire TV build',
        createdAt: '2026-11-21T15:00:00.000Z',
        lastUsedAt: null,
        revokedAt: null,
        token: expect.stringMatching(GUID),
      });
      created = { id: data.id, token: data.token };
      const [stored] = await rows(sql`select token_hash, kind, expires_at, revoked_at from auth_tokens where id = ${created.id}`);
      expect(stored).toEqual({ token_hash: createHash('sha256').update(created.token).digest('hex'), kind: 'app', expires_at: null, revoked_at: null });
      expect(JSON.stringify(await rows(sql`select * from auth_tokens`))).not.toContain(created.token);
      expect(JSON.stringify(await rows(sql`select * from studio_idempotency`))).not.toContain(created.token);
      const list = await s.call('GET', '/app-tokens');
      expect(list.json().data.items.map((t: any) => t.label)).toEqual(['Roku archive', 'Fire TV build']);
      expect(list.body).not.toContain(created.token);
      const one = await s.call('GET', `/app-tokens/${created.id}`);
      expect(one.json().data).toEqual({ id: created.id, label: 'Fire TV build', createdAt: '2026-11-21T15:00:00.000Z', lastUsedAt: null, revokedAt: null });
      expect(one.headers.etag).toBe(post.headers.etag);
      // It reaches what a TV app calls (REST), never the Studio.
      expect((await restChannels(created.token, '2026-11-21T16:00:00Z')).statusCode).toBe(200);
      expect((await s.call('GET', '/app-tokens', { token: created.token })).statusCode).toBe(401);
      expect((await s.call('GET', `/app-tokens/${created.id}`)).json().data.lastUsedAt).toBe('2026-11-21T16:00:00.000Z');
      // A label is optional (the catalog's default), and bounded.
      const unlabelled = await s.call('POST', '/app-tokens', { body: {} });
      expect([unlabelled.statusCode, unlabelled.json().data.label]).toEqual([201, '']);
      expect((await s.call('POST', '/app-tokens', { body: { label: 'x'.repeat(201) } })).statusCode).toBe(422);
      expect((await s.call('POST', '/app-tokens', { body: { label: 'x', token: created.token } })).json().error.details).toEqual([{ path: 'token', message: 'unknown field' }]);
      expect((await s.call('DELETE', `/app-tokens/${unlabelled.json().data.id}`)).statusCode).toBe(204);
    });

    it('a retried create (same Idempotency-Key) makes one token and does not show it again', async () => {
      const headers = { 'idempotency-key': 'token-once' };
      const first = await s.call('POST', '/app-tokens', { body: { label: 'Once' }, headers });
      const again = await s.call('POST', '/app-tokens', { body: { label: 'Once' }, headers });
      expect(first.statusCode).toBe(201);
      expect(first.json().data.token).toMatch(GUID);
      const { token: _, ...withoutToken } = first.json().data;
      expect([again.statusCode, again.json().data]).toEqual([201, withoutToken]);
      expect(again.headers.etag).toBe(first.headers.etag);
      expect((await s.call('GET', '/app-tokens')).json().data.items.filter((t: any) => t.label === 'Once')).toHaveLength(1);
      await s.call('DELETE', `/app-tokens/${first.json().data.id}`);
    });

    it("revokes with If-Match: the token stops authenticating on REST and stays listed as revoked; another owner's ids are 404", async () => {
      const mine = `/app-tokens/${created.id}`;
      // Olga cannot read or revoke alice's token: answered exactly as an id that exists nowhere.
      for (const method of ['GET', 'DELETE']) {
        const hers = await olga(method, mine);
        const none = await olga(method, '/app-tokens/999999');
        expect([hers.statusCode, hers.body]).toEqual([404, none.body]);
        expect(hers.json().error).toEqual({ code: 'not_found', message: 'App token not found.' });
      }
      expect((await restChannels(created.token)).statusCode).toBe(200);
      // A sign-in token's id is not an app token.
      const [session] = await rows(sql`select id::int as id from auth_tokens where account_id = 11 and kind = 'session' limit 1`);
      expect((await s.call('DELETE', `/app-tokens/${session.id}`)).statusCode).toBe(404);
      const read = await s.call('GET', mine);
      expect((await s.call('DELETE', mine, { headers: { 'if-match': '"stale"' } })).statusCode).toBe(412);
      const revoked = await s.call('DELETE', mine, { headers: { 'if-match': read.headers.etag as string } });
      expect([revoked.statusCode, revoked.body]).toEqual([204, '']);
      expect((await restChannels(created.token)).statusCode).toBe(401);
      const items = (await s.call('GET', '/app-tokens')).json().data.items;
      expect(items.filter((t: any) => t.revokedAt === null).map((t: any) => t.label)).toEqual(['Roku archive']);
      expect(items.find((t: any) => t.id === created.id)).toMatchObject({ label: 'Fire TV build', revokedAt: '2026-11-21T15:00:00.000Z' });
      expect((await s.call('GET', mine)).json().data.revokedAt).toBe('2026-11-21T15:00:00.000Z');
      // Revoking it again changes nothing and audits nothing.
      const audited = (await s.call('GET', '/audit')).json().data.items.length;
      expect((await s.call('DELETE', mine)).statusCode).toBe(204);
      expect((await s.call('GET', '/audit')).json().data.items.length).toBe(audited);
      const [row] = await rows(sql`select revoked_at from auth_tokens where id = ${created.id}`);
      expect(new Date(row.revoked_at).toISOString()).toBe('2026-11-21T15:00:00.000Z');
      // The fixture's token still works.
      expect((await restChannels(s.tokens.app)).statusCode).toBe(200);
    });

    it("anyone holding an app token may revoke it through logout (the spec): the owner's audit says so, with the caller's address, and the token stays listed as revoked", async () => {
      const made = (await s.call('POST', '/app-tokens', { body: { label: 'Shipped in the Roku build' } })).json().data;
      const versionBefore = (await rows(sql`select slice_version from accounts where id = 11`))[0].slice_version;
      const logout = await s.t.request({ method: 'POST', url: `${REST}/auth/logout`, headers: { authorization: `Bearer ${made.token}`, 'x-forwarded-for': '203.0.113.9' } });
      expect(logout.statusCode).toBe(200);
      expect((await restChannels(made.token)).statusCode).toBe(401);
      const [entry] = (await s.call('GET', '/audit')).json().data.items;
      expect(entry).toMatchObject({ action: 'delete', resource: `app-tokens/${made.id}`, fields: ['revokedAt'], actorId: 11, address: expect.any(String) });
      expect(entry.address.length).toBeGreaterThan(0);
      expect((await s.call('GET', `/app-tokens/${made.id}`)).json().data.revokedAt).toBe('2026-11-21T15:00:00.000Z');
      // The owner's export lists live app tokens: its version moved with the revocation.
      expect((await rows(sql`select slice_version from accounts where id = 11`))[0].slice_version).not.toBe(versionBefore);
      // A sign-in token's logout is the viewer's own business: no audit entry.
      const count = (await s.call('GET', '/audit')).json().data.items.length;
      const login = await s.t.request({ method: 'POST', url: `${REST}/auth/login`, payload: { username: OLGA.username, password: OLGA.password } });
      expect(login.statusCode, login.body).toBe(200);
      const olgaLogout = await s.t.request({ method: 'POST', url: `${REST}/auth/logout`, headers: { authorization: `Bearer ${login.json().data.authToken}` } });
      expect(olgaLogout.statusCode).toBe(200);
      expect((await s.call('GET', '/audit')).json().data.items.length).toBe(count);
    });
  });

  describe('branding', () => {
    it('reads the branding in the catalog shape with an ETag', async () => {
      const read = await s.call('GET', '/branding');
      expect(read.statusCode).toBe(200);
      expect(read.json().data).toEqual(aliceBranding);
      expect(read.headers.etag).toMatch(/^"[\w-]+"$/);
      expect((await olga('GET', '/branding')).json().data).toBeNull();
    });

    it('PUT replaces it whole with If-Match; the Custom settings route answers the change at once; tokens and favorites stay', async () => {
      const tokensBefore = await rows(sql`select id, revoked_at from auth_tokens where account_id = 11 order by id`);
      const read = await s.call('GET', '/branding');
      const put = await s.call('PUT', '/branding', {
        body: { title: 'Alice Network', hex1: '123456', logoHeader: JPEG_STUB, faq: 'https://alice.example/faq' },
        headers: { 'if-match': read.headers.etag as string },
      });
      expect(put.statusCode, put.body).toBe(200);
      const branding = {
        title: 'Alice Network',
        hex1: '123456',
        hex2: null,
        hex3: null,
        fontColor: null,
        headerBackground: null,
        faq: 'https://alice.example/faq',
        privacyPolicy: null,
        logoHeader: JPEG_STUB,
        logoAndroid: null,
        useVastSettings: false,
      };
      expect(put.json().data).toEqual(branding);
      expect(put.headers.etag).toBe((await s.call('GET', '/branding')).headers.etag);
      await expect
        .poll(() => settings(), POLL)
        .toEqual({
          user_id: 11,
          title: 'Alice Network',
          hex1: '#123456',
          hex2: '',
          hex3: '',
          fontColor: '',
          header_background: '',
          FAQ: 'https://alice.example/faq',
          PrivacyPolicy: '',
          logo_header: JPEG_STUB,
          logo_android: '',
          useVastSettings: false,
        });
      const stale = await s.call('PUT', '/branding', { body: { title: 'Lost' }, headers: { 'if-match': read.headers.etag as string } });
      expect([stale.statusCode, stale.json().error.code]).toEqual([412, 'precondition_failed']);
      expect(await rows(sql`select id, revoked_at from auth_tokens where account_id = 11 order by id`)).toEqual(tokensBefore);
      expect(await rows(sql`select channel_id from favorites where account_id = 11`)).toEqual([{ channel_id: 201 }]);
    });

    it("refuses bad branding in the import's wording and changes nothing", async () => {
      const before = await s.call('GET', '/branding');
      const bad = await s.call('PUT', '/branding', { body: { hex1: 'zz', logoAndroid: 'aGVsbG8=', colour: 1 } });
      expect(bad.statusCode).toBe(422);
      expect(bad.json().error.details).toEqual(
        expect.arrayContaining([
          { path: 'hex1', message: 'bad colour "zz"' },
          { path: 'logoAndroid', message: 'not a PNG or JPEG image' },
          { path: 'colour', message: 'unknown field' },
        ]),
      );
      expect((await s.call('PUT', '/branding', { body: null as never })).statusCode).toBe(422);
      const after = await s.call('GET', '/branding');
      expect(after.headers.etag).toBe(before.headers.etag);
    });

    it('DELETE clears it (Custom settings falls back to the account name); a PUT then creates it again', async () => {
      const read = await s.call('GET', '/branding');
      expect((await s.call('DELETE', '/branding', { headers: { 'if-match': '"stale"' } })).statusCode).toBe(412);
      const cleared = await s.call('DELETE', '/branding', { headers: { 'if-match': read.headers.etag as string } });
      expect([cleared.statusCode, cleared.body]).toEqual([204, '']);
      const none = await s.call('GET', '/branding');
      expect([none.statusCode, none.json().data]).toEqual([200, null]);
      expect(none.headers.etag).toMatch(/^"[\w-]+"$/);
      await expect.poll(async () => (await settings()).hex1, POLL).toBe('');
      expect((await settings()).title).toBe('Alice TV');
      expect((await s.call('DELETE', '/branding')).statusCode).toBe(204);
      expect(await rows(sql`select count(*)::int as n from brandings where account_id = 11`)).toEqual([{ n: 0 }]);
      const created = await s.call('PUT', '/branding', { body: aliceBranding, headers: { 'if-match': none.headers.etag as string } });
      expect([created.statusCode, created.json().data]).toEqual([201, aliceBranding]);
      await expect.poll(async () => (await settings()).hex1, POLL).toBe('#ff0000');
    });

    it("another owner's PUT changes its own branding only", async () => {
      const alice = await s.call('GET', '/branding');
      const put = await olga('PUT', '/branding', { title: 'Olga TV', hex1: 'abcdef' });
      expect(put.statusCode, put.body).toBe(201);
      await expect.poll(async () => (await settings(16)).hex1, POLL).toBe('#abcdef');
      expect((await settings()).hex1).toBe('#ff0000');
      const after = await s.call('GET', '/branding');
      expect([after.body, after.headers.etag]).toEqual([alice.body, alice.headers.etag]);
      expect((await olga('DELETE', '/branding')).statusCode).toBe(204);
      expect((await s.call('GET', '/branding')).body).toBe(alice.body);
    });
  });

  describe('categories and languages', () => {
    it('lists all (shared by every owner) with an ETag, creates with an assigned or a free chosen id; a new one is usable at once', async () => {
      const list = await s.call('GET', '/categories');
      expect([list.statusCode, list.json().data]).toEqual([
        200,
        {
          items: [
            { id: 1, name: 'News' },
            { id: 2, name: 'Music' },
          ],
        },
      ]);
      expect(list.headers.etag).toMatch(/^"[\w-]+"$/);
      const sports = await s.call('POST', '/categories', { body: { name: 'Sports' } });
      expect([sports.statusCode, sports.json().data]).toEqual([201, { id: 10_000_000, name: 'Sports' }]);
      expect(sports.headers.etag).toMatch(/^"[\w-]+"$/);
      const kids = await olga('POST', '/categories', { id: 50, name: 'Kids' });
      expect([kids.statusCode, kids.json().data]).toEqual([201, { id: 50, name: 'Kids' }]);
      const taken = await s.call('POST', '/categories', { body: { id: 1, name: 'Again' } });
      expect([taken.statusCode, taken.json().error]).toEqual([409, { code: 'id_taken', message: 'category id 1 is already in use; leave id out to have one assigned.' }]);
      const nameless = await s.call('POST', '/categories', { body: { id: 60 } });
      expect([nameless.statusCode, nameless.json().error.details]).toEqual([422, [{ path: 'name', message: 'required' }]]);
      expect((await s.call('POST', '/categories', { body: { name: 'x', parent: 1 } })).json().error.details).toEqual([{ path: 'parent', message: 'unknown field' }]);
      const after = await s.call('GET', '/categories');
      expect(after.json().data.items).toEqual([
        { id: 1, name: 'News' },
        { id: 2, name: 'Music' },
        { id: 50, name: 'Kids' },
        { id: 10_000_000, name: 'Sports' },
      ]);
      expect(after.headers.etag).not.toBe(list.headers.etag);
      expect((await olga('GET', '/categories')).body).toBe(after.body);
      // Olga's choice of 50 did not move the sequence: alice's next category is the one after Sports.
      const next = await s.call('POST', '/categories', { body: { name: 'Film' } });
      expect(next.json().data.id).toBe(10_000_001);
      // A channel can name the new category at once.
      const channel = await s.call('POST', '/channels', { body: { name: 'Alice Sports', url: 'alice-sports', categoryId: 10_000_000 } });
      expect(channel.statusCode, channel.body).toBe(201);
    });

    it('a retried category create (same Idempotency-Key) creates one', async () => {
      const headers = { 'idempotency-key': 'category-once' };
      const first = await s.call('POST', '/categories', { body: { name: 'Once' }, headers });
      const again = await s.call('POST', '/categories', { body: { name: 'Once' }, headers });
      expect(first.statusCode).toBe(201);
      expect(again.body).toBe(first.body);
      expect((await s.call('GET', '/categories')).json().data.items.filter((c: any) => c.name === 'Once')).toHaveLength(1);
      const other = await s.call('POST', '/categories', { body: { name: 'Twice' }, headers });
      expect([other.statusCode, other.json().error.code]).toEqual([422, 'idempotency_key_reused']);
    });

    it('languages: list, create (code required), a taken id refused', async () => {
      expect((await s.call('GET', '/languages')).json().data).toEqual({ items: [{ id: 1, name: 'English', code: 'en' }] });
      const french = await s.call('POST', '/languages', { body: { name: 'French', code: 'fr' } });
      expect([french.statusCode, french.json().data]).toEqual([201, { id: 10_000_000, name: 'French', code: 'fr' }]);
      const chosen = await olga('POST', '/languages', { id: 40, name: 'German', code: 'de' });
      expect(chosen.json().data).toEqual({ id: 40, name: 'German', code: 'de' });
      const codeless = await s.call('POST', '/languages', { body: { name: 'Italian' } });
      expect([codeless.statusCode, codeless.json().error.details]).toEqual([422, [{ path: 'code', message: 'required' }]]);
      expect((await s.call('POST', '/languages', { body: { id: 40, name: 'x', code: 'x' } })).statusCode).toBe(409);
      expect((await s.call('GET', '/languages')).json().data.items.map((l: any) => l.code)).toEqual(['en', 'de', 'fr']);
      // No change or delete: others' channels may name them.
      expect((await s.call('PATCH', '/languages/1', { body: { name: 'x' } })).statusCode).toBe(404);
      expect((await s.call('DELETE', '/categories/1')).statusCode).toBe(404);
    });
  });
});
