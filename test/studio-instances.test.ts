// Two service processes on one PostgreSQL: a Studio write through one is seen by the other's
// REST, Custom and legacy answers, each read (and cached) there before the write. The other
// process learns of the write by the NOTIFY its transaction sent; that arrives on its listening
// connection a moment after the commit, so its reads are polled for briefly (bounded) and the
// lag is measured, not assumed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importCatalog } from '../src/catalog/import.ts';
import { OWNER, smallCatalog } from './fixtures/catalog.ts';
import { freshDatabase, type TestDatabase } from './support/db.ts';
import { startServerProcess, type ServerProcess } from './support/processes.ts';

const POLL = { timeout: 5_000, interval: 20 };

describe.runIf(process.env.TEST_DATABASE_URL)('Studio writes across two instances on one PostgreSQL', () => {
  let database: TestDatabase;
  let a: ServerProcess;
  let b: ServerProcess;
  let token: string;
  beforeAll(async () => {
    database = await freshDatabase('postgres');
    await importCatalog(database.db, smallCatalog(), { replace: false, now: new Date() });
    // Load shedding off (it answers 503 while an event loop lags, as a process just started on a
    // loaded machine does): this test is about what the second instance hears, not about load.
    const env = { DATABASE_URL: database.url!, DEMO_ON_EMPTY: 'false', MAX_EVENT_LOOP_DELAY_MS: '0' };
    [a, b] = await Promise.all([startServerProcess(env), startServerProcess(env)]);
    const login = await fetch(`${a.url}/api/v1/rest/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: OWNER.username, password: OWNER.password }),
    });
    const answer = { status: login.status, body: (await login.json()) as any };
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    token = answer.body.data.authToken;
  }, 120_000);
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await database?.close();
  });

  const bearer = () => ({ authorization: `Bearer ${token}`, 'content-type': 'application/json' });
  const studio = (server: ServerProcess, method: string, path: string, body: unknown) =>
    fetch(`${server.url}/api/v1/studio${path}`, { method, headers: bearer(), body: JSON.stringify(body) });
  const restTitles = async (server: ServerProcess) => {
    const response = await fetch(`${server.url}/api/v1/rest/channels`, { headers: bearer() });
    const body = (await response.json()) as any;
    if (!Array.isArray(body.data)) throw new Error(`REST channels answered ${response.status}: ${JSON.stringify(body).slice(0, 300)}`);
    return (body.data as any[]).find((c) => c.channelTubeId === 201).videos.map((v: any) => v.title);
  };
  const customVast = async (server: ServerProcess) => ((await (await fetch(`${server.url}/api/v1/services/custom/channels/201/vast?platform=roku`)).json()) as any).data?.VastUrl;
  const legacyVast = async (server: ServerProcess) => ((await (await fetch(`${server.url}/WebServices/VastService.asmx/GetVastSettings?channelId=201`)).json()) as any)?.VastUrl;

  it("a write on one instance is in the other's REST, Custom and legacy answers, each cached there before", async () => {
    // Warm the other instance's caches.
    expect(await restTitles(b)).toContain('Morning news');
    expect(await customVast(b)).toBe('https://ads.example/roku');
    expect(await legacyVast(b)).toBe('https://ads.example/web');

    const started = performance.now();
    expect((await studio(a, 'PATCH', '/videos/5001', { title: 'Evening news' })).status).toBe(200);
    expect((await studio(a, 'PUT', '/channels/201/vast/roku', { vastUrl: 'https://ads.example/roku-2' })).status).toBe(200);
    expect((await studio(a, 'PUT', '/channels/201/vast/web', { vastUrl: 'https://ads.example/web-2' })).status).toBe(200);
    const written = performance.now();

    await expect.poll(() => restTitles(b), POLL).toContain('Evening news');
    await expect.poll(() => customVast(b), POLL).toBe('https://ads.example/roku-2');
    await expect.poll(() => legacyVast(b), POLL).toBe('https://ads.example/web-2');
    // The writing instance itself answers with the change on its very next read, no wait.
    expect(await restTitles(a)).toContain('Evening news');
    expect(await customVast(a)).toBe('https://ads.example/roku-2');
    expect(await legacyVast(a)).toBe('https://ads.example/web-2');
    console.log(`studio write -> other instance: writes took ${(written - started).toFixed(0)} ms, seen ${(performance.now() - written).toFixed(0)} ms after the last write`);
  });
});
