// Owners without a catalog file: `channelnet owner create` and the rules behind it.
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOwner, slugOf } from '../src/catalog/owners.ts';
import { verifyPassword } from '../src/access/passwords.ts';
import { importCatalog } from '../src/catalog/import.ts';
import { isOwner } from '../src/data/owners.ts';
import { smallCatalog } from './fixtures/catalog.ts';
import { BACKENDS, freshDatabase, type TestDatabase } from './support/db.ts';
import { runChannelnet, startServerProcess } from './support/processes.ts';

const NOW = new Date('2026-11-21T15:00:00Z');
const owner = { username: 'Nora', email: 'nora@example.com', password: 'long enough' };

describe.each(BACKENDS)('owner accounts on %s', (backend) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await freshDatabase(backend);
    await importCatalog(database.db, smallCatalog(), { replace: false, now: NOW });
  });
  afterAll(() => database.close());

  const accounts = async () => ((await database.db.execute('select id, username, public_url, password_hash from accounts order by id' as never)) as any).rows;

  it("creates an owner with the accounts sequence's next id (from 10,000,000 up) and a slug of the username", async () => {
    const result = await createOwner(database.db, owner, NOW);
    expect(result).toEqual({ ok: true, id: 10_000_000 });
    const row = (await accounts()).find((a: any) => a.id === 10_000_000);
    expect(row).toMatchObject({ username: 'Nora', public_url: 'nora' });
    expect(await verifyPassword('long enough', row.password_hash)).toBe(true);
    expect(await isOwner(database.db, 10_000_000)).toBe(true);
  });

  it('keeps a chosen --id only in 1..9,999,999; a choice does not move the next assigned id', async () => {
    const before = await accounts();
    for (const id of [10_000_001, 2_147_483_647, 2_147_483_648, 0, -1, 1.5]) {
      const refused = await createOwner(database.db, { ...owner, username: `c${id}`, email: `c${String(id).replace('.', '')}@example.com`, id }, NOW);
      expect(refused.ok, String(id)).toBe(false);
      expect((refused as { errors: string[] }).errors[0], String(id)).toMatch(/^id: /);
    }
    expect(await accounts()).toEqual(before);
    expect(await createOwner(database.db, { ...owner, username: 'legacy', email: 'legacy@example.com', id: 9_999_999 }, NOW)).toEqual({ ok: true, id: 9_999_999 });
    expect(await createOwner(database.db, { ...owner, username: 'next', email: 'next@example.com' }, NOW)).toEqual({ ok: true, id: 10_000_001 });
  });

  it('refuses taken names case-insensitively, bad emails and short passwords, creating nothing', async () => {
    const before = await accounts();
    expect(await createOwner(database.db, { ...owner, username: 'ALICE', email: 'NORA@example.com' }, NOW)).toEqual({
      ok: false,
      errors: expect.arrayContaining([
        expect.stringMatching(/^username: username "ALICE" already used by account 11$/),
        'email: email "NORA@example.com" already used by account 10000000',
      ]),
    });
    const bad = await createOwner(database.db, { username: 'x', email: 'not-an-email', password: 'short' }, NOW);
    expect(bad).toEqual({ ok: false, errors: ['email: bad email "not-an-email"', 'password: must be at least 8 characters'] });
    expect(await createOwner(database.db, { ...owner, username: 'n2', email: 'n2@example.com', id: 11 }, NOW)).toMatchObject({
      ok: false,
      errors: ['id: account id 11 is already in use'],
    });
    expect(await accounts()).toEqual(before);
  });

  it('tells owners from viewers: an account owning a channel is one, a viewer is not', async () => {
    expect(await isOwner(database.db, 11)).toBe(true);
    expect(await isOwner(database.db, 12)).toBe(false);
  });

  it('slugs usernames', () => {
    expect(slugOf('Dana Whitfield!')).toBe('dana-whitfield');
    expect(slugOf('---')).toBe('owner');
  });
});

const channelnet = runChannelnet;

describe('channelnet owner create on a fresh installation', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'channelnet-owner-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads the password from stdin; the owner signs in and manages an empty network through the Studio API', async () => {
    // Load shedding off: right after a start on a loaded machine the first requests may be shed (503), which is not what this test is about.
    const env = { DATA_DIR: join(dir, 'data'), DEMO_ON_EMPTY: 'false', MAX_EVENT_LOOP_DELAY_MS: '0' };
    const args = ['owner', 'create', '--username', 'nora', '--email', 'nora@example.com', '--password-stdin', '--full-name', 'Nora N'];
    const created = await channelnet(args, env, 'a good password\n');
    expect(created.stderr).toBe('');
    expect(created.stdout).toBe('owner created: id 10000000, username nora\n');
    const again = await channelnet(args, env, 'a good password\n');
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('username: username "nora" already used by account 10000000');
    const server = await startServerProcess(env);
    try {
      const login = await fetch(`${server.url}/api/v1/rest/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'nora', password: 'a good password' }),
      });
      const token = ((await login.json()) as any).data.authToken;
      const videos = await fetch(`${server.url}/api/v1/studio/videos`, { headers: { authorization: `Bearer ${token}` } });
      expect(videos.status).toBe(200);
      expect(((await videos.json()) as any).data).toMatchObject({ items: [], total: 0 });

      // While the server holds the embedded database, `owner create` goes through it (issue 36 item 8).
      const link = join(env.DATA_DIR, 'channelnet.operator.json');
      expect(statSync(link).mode & 0o777).toBe(0o600);
      const through = await channelnet(['owner', 'create', '--username', 'omar', '--email', 'omar@example.com', '--password-stdin'], env, 'omar password\n');
      expect([through.code, through.stdout]).toEqual([0, 'owner created: id 10000001, username omar\n']);
      expect(through.stderr).toMatch(/creating the owner through it/);
      const omar = await fetch(`${server.url}/api/v1/rest/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'omar', password: 'omar password' }),
      });
      expect(omar.status).toBe(200);
      // Refusals in the same words as without a server, nothing created.
      const refused = await channelnet(['owner', 'create', '--username', 'NORA', '--email', 'bad', '--password', 'short'], env);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('owner create failed; nothing was created:\n  email: bad email "bad"\n  password: must be at least 8 characters\n');
      // The route answers only with the secret, as an unknown path otherwise.
      const post = (headers: Record<string, string>) =>
        fetch(`${server.url}/api/v1/studio/operator/owners`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...headers },
          body: JSON.stringify({ username: 'eve', email: 'eve@example.com', password: 'eve password' }),
        });
      for (const headers of [
        {},
        { 'x-channelnet-operator': 'guess' } as Record<string, string>,
        { 'x-channelnet-operator': `${JSON.parse(readFileSync(link, 'utf8')).secret}x` },
      ]) {
        const answer = await post(headers);
        expect([answer.status, ((await answer.json()) as any).error.code]).toEqual([404, 'not_found']);
      }
    } finally {
      await server.stop();
    }
    expect(existsSync(join(env.DATA_DIR, 'channelnet.operator.json'))).toBe(false);
    // Three processes on a fresh data directory (each opens PGlite; the first creates and migrates
    // it): 23 s on an idle 2-core machine, past 30 s among the other test files.
  }, 120_000);

  it('refuses a missing password source with a usage error', async () => {
    const result = await channelnet(['owner', 'create', '--username', 'x', '--email', 'x@example.com'], { DATA_DIR: join(dir, 'data2') }, '');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('owner create needs --password-stdin');
  });
});
