// Two service processes on one PostgreSQL behave as one: every piece of state is in the database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importCatalog } from '../src/catalog/import.ts';
import { OWNER, smallCatalog } from './fixtures/catalog.ts';
import { freshDatabase, type TestDatabase } from './support/db.ts';
import { startServerProcess, type ServerProcess } from './support/processes.ts';

describe.runIf(process.env.TEST_DATABASE_URL)('several instances on one PostgreSQL', () => {
  let database: TestDatabase;
  let a: ServerProcess;
  let b: ServerProcess;
  beforeAll(async () => {
    database = await freshDatabase('postgres');
    await importCatalog(database.db, smallCatalog(), { replace: false, now: new Date() });
    const env = { DATABASE_URL: database.url!, DEMO_ON_EMPTY: 'false' };
    [a, b] = await Promise.all([startServerProcess(env), startServerProcess(env)]);
  });
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await database?.close();
  });

  const rest = (server: ServerProcess, path: string, init: RequestInit = {}) =>
    fetch(`${server.url}/api/v1/rest${path}`, { ...init, headers: { 'content-type': 'application/json', ...init.headers } });
  const login = (server: ServerProcess, password: string) => rest(server, '/auth/login', { method: 'POST', body: JSON.stringify({ username: 'alice', password }) });
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  it('a token issued by one works on the other, and a logout on one revokes on both', async () => {
    const token = ((await (await login(a, OWNER.password)).json()) as any).data.authToken;
    expect((await rest(b, '/channels', { headers: bearer(token) })).status).toBe(200);
    expect((await rest(b, '/auth/logout', { method: 'POST', headers: bearer(token) })).status).toBe(200);
    expect((await rest(a, '/channels', { headers: bearer(token) })).status).toBe(401);
  });

  it('favorites written through one are read through the other', async () => {
    const token = ((await (await login(b, OWNER.password)).json()) as any).data.authToken;
    expect((await rest(a, '/favorites/202', { method: 'POST', headers: bearer(token) })).status).toBe(200);
    const listed = (await (await rest(b, '/favorites', { headers: bearer(token) })).json()) as any;
    expect(listed.data.map((f: { channelTubeId: number }) => f.channelTubeId)).toContain(202);
  });

  it('the failed-login limit is shared: failures on both count together', async () => {
    for (const server of [a, b, a, b, a]) expect((await login(server, 'wrong')).status).toBe(401);
    const blocked = await login(b, OWNER.password);
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)('channelnet serve --workers', () => {
  it('runs N workers on one port and stops them all on SIGTERM', async () => {
    const database = await freshDatabase('postgres');
    try {
      const server = await startServerProcess({ DATABASE_URL: database.url!, DEMO_ON_EMPTY: 'false' }, ['--workers', '2']);
      const answers = await Promise.all(Array.from({ length: 8 }, () => fetch(`${server.url}/readyz`)));
      expect(answers.every((r) => r.status === 200)).toBe(true);
      expect(await server.stop()).toBe(0);
    } finally {
      await database.close();
    }
  });

  it('refuses --workers on the embedded database', async () => {
    await expect(startServerProcess({ DATA_DIR: 'memory://' }, ['--workers', '2'])).rejects.toThrow(/--workers needs DATABASE_URL/);
  });
});
