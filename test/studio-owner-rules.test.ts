// Issue 26, from an owner who attacks the others: the shared category and language lists cannot
// be flooded or shadowed, the operator's isVerified and subscriberCount cannot be set, and the
// Studio import says nothing about which usernames, e-mails or slugs other accounts hold. Each
// request's status, what it changed (nothing), and its CPU cost.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importCatalog } from '../src/catalog/import.ts';
import { MAX_ADDED_PER_OWNER } from '../src/editing/reference-data.ts';
import { cpuOf } from './fuzz/property.ts';
import { BACKENDS } from './support/db.ts';
import { studioTest, type StudioTest } from './support/studio.ts';
import { expectCpuUnder } from './support/cpu-bounds.ts';

const OWNER_CPU_MS = 2_000;
const DOC = { format: 'channel-network-catalog', version: 1 } as const;

describe.each(BACKENDS)('owner rules on %s', (backend) => {
  let s: StudioTest;
  beforeAll(async () => {
    s = await studioTest(backend);
  });
  afterAll(() => s.t.close());

  const rows = async (query: ReturnType<typeof sql>) => ((await s.t.database.db.execute(query)) as any).rows as any[];
  const olga = (method: string, url: string, body?: unknown) => cpuOf(() => s.call(method, url, { token: s.tokens.olga, ...(body === undefined ? {} : { body }) }));
  const reference = async () => ({ categories: await rows(sql`select * from categories order by id`), languages: await rows(sql`select * from languages order by id`) });

  describe('shared categories and languages', () => {
    it('an owner adds at most 20 of each; the 21st is refused, changing nothing', async () => {
      for (let i = 0; i < MAX_ADDED_PER_OWNER; i++) {
        const { result } = await olga('POST', '/categories', { name: `Olga ${i}` });
        expect(result.statusCode, result.body).toBe(201);
        expect((await olga('POST', '/languages', { name: `Olga ${i}`, code: `o${i}` })).result.statusCode).toBe(201);
      }
      const before = await reference();
      for (const [url, body] of [
        ['/categories', { name: 'One too many' }],
        ['/languages', { name: 'One too many', code: 'x1' }],
      ] as const) {
        const { result, cpuMs } = await olga('POST', url, body);
        expect(result.statusCode).toBe(422);
        expect(result.json().error).toMatchObject({ code: 'invalid_request', details: [{ path: '(root)', message: expect.stringContaining(`at most ${MAX_ADDED_PER_OWNER}`) }] });
        expectCpuUnder(cpuMs, OWNER_CPU_MS);
      }
      expect(await reference()).toEqual(before);
      // Another owner's allowance is her own.
      expect((await s.call('POST', '/categories', { body: { name: 'Alice adds one' } })).statusCode).toBe(201);
    });

    it('no second entry under an existing name or language code, whatever the case and blanks', async () => {
      const before = await reference();
      const shadow = await s.call('POST', '/categories', { body: { name: '  nEWS ' } });
      expect([shadow.statusCode, shadow.json().error.details]).toEqual([
        422,
        [{ path: 'name', message: 'name "  nEWS " is taken by category 1 (shared by every owner; use that one)' }],
      ]);
      const code = await s.call('POST', '/languages', { body: { name: 'Englisch', code: 'EN' } });
      expect([code.statusCode, code.json().error.details]).toEqual([422, [{ path: 'code', message: 'code "EN" is taken by language 1 (shared by every owner; use that one)' }]]);
      expect(await reference()).toEqual(before);
    });

    it('the Studio import is held to the same rules: no flood, no shadow, no rename', async () => {
      const before = await reference();
      const many = Array.from({ length: 30 }, (_, i) => ({ id: 800 + i, name: `Flood ${i}` }));
      const flood = await cpuOf(() => s.call('POST', '/import', { body: { ...DOC, categories: many } }));
      expect(flood.result.statusCode).toBe(422);
      // Alice added one already: 19 more fit, so the 20th of the file is the first refused.
      expect(flood.result.json().error.details).toEqual([{ path: 'categories[19]', message: expect.stringContaining('19 more allowed for you') }]);
      expectCpuUnder(flood.cpuMs, OWNER_CPU_MS);
      const shadow = await s.call('POST', '/import', {
        body: {
          ...DOC,
          categories: [
            { id: 900, name: 'music' },
            { id: 901, name: 'Fresh' },
            { id: 902, name: 'FRESH' },
          ],
        },
      });
      expect(shadow.json().error.details).toEqual([
        { path: 'categories[0].name', message: 'name "music" is taken by category 2 (shared by every owner; use that one)' },
        { path: 'categories[2].name', message: 'name "FRESH" is taken by category 901 of this request (shared by every owner; use that one)' },
      ]);
      const rename = await olga('POST', '/import', { ...DOC, categories: [{ id: 1, name: 'Olga says' }] });
      expect(rename.result.json().error.details).toEqual([{ path: 'categories[0].name', message: expect.stringContaining('cannot be changed here') }]);
      expect(await reference()).toEqual(before);
      // Renaming or deleting has no route at all.
      expect((await olga('PATCH', '/categories/1', { name: 'x' })).result.statusCode).toBe(404);
      expect((await olga('DELETE', '/languages/1')).result.statusCode).toBe(404);
    });

    it("an owner's import adds new ones within the allowance; the operator's import is not limited", async () => {
      const added = await s.call('POST', '/import', { body: { ...DOC, categories: [{ id: 950, name: 'Imported' }] } });
      expect(added.statusCode, added.body).toBe(200);
      expect(await rows(sql`select created_by from categories where id = 950`)).toEqual([{ created_by: 11 }]);
      const operator = { ...DOC, categories: Array.from({ length: 40 }, (_, i) => ({ id: 3000 + i, name: `Operator ${i}` })) };
      expect((await importCatalog(s.t.database.db, operator, { replace: false, now: new Date() })).ok).toBe(true);
    });
  });

  describe("isVerified and subscriberCount are the operator's", () => {
    const stored = async () => rows(sql`select id, is_verified, subscriber_count from channels where owner_id = 16 order by id`);

    it('a create, a PATCH or an import that would change them is refused at the field; the values stay', async () => {
      await s.t.database.db.execute(sql`update channels set is_verified = true, subscriber_count = 500 where id = 601`);
      const before = await stored();
      const create = await olga('POST', '/channels', { name: 'Fake', url: 'fake-verified', categoryId: 1, isVerified: true, subscriberCount: 10_000_000 });
      expect(create.result.statusCode).toBe(422);
      expect(create.result.json().error.details.map((d: any) => d.path)).toEqual(['isVerified', 'subscriberCount']);
      expectCpuUnder(create.cpuMs, OWNER_CPU_MS);
      const patch = await olga('PATCH', '/channels/601', { subscriberCount: 999_999 });
      expect([patch.result.statusCode, patch.result.json().error.details]).toEqual([
        422,
        [{ path: 'subscriberCount', message: 'set by the operator (catalog import), not through the Studio; leave it out (it is 500)' }],
      ]);
      const unverify = await olga('PATCH', '/channels/601', { isVerified: false });
      expect(unverify.result.statusCode).toBe(422);
      const exported = (await olga('GET', '/export')).result.json();
      const changed = { ...exported, channels: exported.channels.map((c: any) => ({ ...c, subscriberCount: 1_000_000 })) };
      const imported = await olga('POST', '/import', changed);
      expect([imported.result.statusCode, imported.result.json().error.details]).toEqual([
        422,
        [{ path: 'channels[0].subscriberCount', message: expect.stringContaining('set by the operator') }],
      ]);
      expect(await stored()).toEqual(before);
    });

    it('leaving them out or repeating them is fine: an export imports back, a PATCH of other fields keeps them', async () => {
      const before = await stored();
      const exported = (await olga('GET', '/export')).result.json();
      expect((await olga('POST', '/import', exported)).result.statusCode).toBe(200);
      const without = { ...exported, channels: exported.channels.map(({ isVerified: _v, subscriberCount: _c, ...c }: any) => c) };
      expect((await olga('POST', '/import', without)).result.statusCode).toBe(200);
      const read = (await olga('GET', '/channels/601')).result.json().data;
      const { hasPassword: _h, ...same } = read;
      expect((await olga('PATCH', '/channels/601', { ...same, name: 'Olga renamed' })).result.statusCode).toBe(200);
      const created = await olga('POST', '/channels', { name: 'Plain', url: 'olga-plain', categoryId: 1, isVerified: false, subscriberCount: 0 });
      expect(created.result.statusCode, created.result.body).toBe(201);
      expect((await stored()).filter((c) => c.id === 601)).toEqual(before.filter((c) => c.id === 601));
    });
  });

  describe('the Studio import says nothing about other accounts', () => {
    it("another account's username, e-mail or slug gets the same answer as one nobody holds", async () => {
      const account = (await olga('GET', '/export')).result.json().accounts[0];
      const accountsBefore = await rows(sql`select * from accounts order by id`);
      const probes: Array<[string, string, string]> = [
        ['username', 'alice', 'nobody-at-all'],
        ['username', 'BOB', 'NOBODY'],
        ['email', 'victor@example.com', 'nobody@example.com'],
        ['publicUrl', 'alice-tv', 'nobody-slug'],
      ];
      for (const [field, held, free] of probes) {
        const a = await olga('POST', '/import', { ...DOC, accounts: [{ ...account, [field]: held }] });
        const b = await olga('POST', '/import', { ...DOC, accounts: [{ ...account, [field]: free }] });
        expect(a.result.statusCode, field).toBe(422);
        expect(a.result.body.replace(held, 'X'), field).toBe(b.result.body.replace(free, 'X'));
        expect(a.result.body).not.toMatch(/another account|already|in use/);
        expectCpuUnder(a.cpuMs, OWNER_CPU_MS);
      }
      // Only the caller's account may appear: another's id and an id nobody has, the same answer.
      const bob = await olga('POST', '/import', { ...DOC, accounts: [{ ...account, id: 13 }] });
      const none = await olga('POST', '/import', { ...DOC, accounts: [{ ...account, id: 9_999_998 }] });
      expect(bob.result.statusCode).toBe(422);
      expect(bob.result.body.replace('13', 'N')).toBe(none.result.body.replace('9999998', 'N'));
      expect(await rows(sql`select * from accounts order by id`)).toEqual(accountsBefore);
    });
  });
});
