// Bearer checks from memory (issue 35, item 2; src/access/bearer-cache.ts), from the attacker's
// side too: two app instances on one PostgreSQL database, the second on its own connection whose
// queries are counted. A warm signed-in read asks the database nothing for its token; a logout on
// one instance ends the token on the other through the change channel; a flood of made-up tokens
// costs a query per new one at most and pushes no real one out.
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { importCatalog } from '../src/catalog/import.ts';
import { openDatabase, type DatabaseHandle } from '../src/db/connect.ts';
import { OWNER, smallCatalog, VIEWER } from './fixtures/catalog.ts';
import { freshDatabase, type TestDatabase } from './support/db.ts';

const REST = '/api/v1/rest';
const CUSTOM = '/api/v1/services/custom';
// No load shedding: on a busy machine it would answer a login 503, which is not what is tested here.
const config = { CHANNELNET_TEST_CLOCK: false, LOG_LEVEL: 'silent', LOG_REQUESTS: false, RATE_LIMIT_ENABLED: false, MAX_EVENT_LOOP_DELAY_MS: 0 } as const;

describe.runIf(process.env.TEST_DATABASE_URL)('Bearer checks kept in memory, two instances on PostgreSQL', () => {
  let database: TestDatabase;
  let counted: DatabaseHandle;
  let queries = 0;
  let a: FastifyInstance;
  let b: FastifyInstance;
  beforeAll(async () => {
    database = await freshDatabase('postgres');
    await importCatalog(database.db, smallCatalog(), { replace: false, now: new Date() });
    counted = await openDatabase({ databaseUrl: database.url!, poolSize: 2, onQuery: () => void queries++ });
    a = await buildApp({ database, config, logger: false });
    b = await buildApp({ database: counted, config, logger: false });
    await Promise.all([a.ready(), b.ready()]);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await counted?.close();
    await database?.close();
  });

  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  const login = async (app: FastifyInstance, username = OWNER.username, password = OWNER.password) => {
    const answer = await app.inject({ method: 'POST', url: `${REST}/auth/login`, payload: { username, password } });
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.json().data.authToken as string;
  };
  const status = async (app: FastifyInstance, token: string, url = `${REST}/channels`) => (await app.inject({ url, headers: bearer(token) })).statusCode;
  const queriesOf = async (work: () => Promise<unknown>) => {
    const before = queries;
    await work();
    return queries - before;
  };

  it('checks a token once, then answers its warm reads and their 304s without a query', async () => {
    const token = await login(a);
    expect(await status(b, token)).toBe(200);
    const warm = await b.inject({ url: `${REST}/channels`, headers: bearer(token) });
    expect(await queriesOf(async () => expect(await status(b, token)).toBe(200))).toBe(0);
    const etag = warm.headers.etag as string;
    expect(await queriesOf(async () => expect((await b.inject({ url: `${REST}/channels`, headers: { ...bearer(token), 'if-none-match': etag } })).statusCode).toBe(304))).toBe(0);
  });

  it('a logout on one instance ends the token on the other (NOTIFY), and on itself at once', async () => {
    const token = await login(a);
    expect([await status(a, token), await status(b, token)]).toEqual([200, 200]);
    expect((await a.inject({ method: 'POST', url: `${REST}/auth/logout`, headers: bearer(token) })).statusCode).toBe(200);
    expect(await status(a, token)).toBe(401);
    await expect.poll(() => status(b, token)).toBe(401);
    // A Custom refresh revokes too (the viewer's own token).
    const custom = (await a.inject({ method: 'POST', url: `${CUSTOM}/auth/login`, payload: { email: VIEWER.email, password: VIEWER.password } })).json().data
      .access_token as string;
    expect(await status(b, custom, `${CUSTOM}/auth/me`)).toBe(200);
    expect((await a.inject({ method: 'POST', url: `${CUSTOM}/auth/refresh`, headers: bearer(custom) })).statusCode).toBe(200);
    await expect.poll(() => status(b, custom, `${CUSTOM}/auth/me`)).toBe(401);
  });

  it('a flood of made-up tokens costs a query per new one at most, twice none, and evicts no real token', async () => {
    const token = await login(a);
    expect(await status(b, token)).toBe(200);
    const made = Array.from({ length: 300 }, () => randomUUID());
    const first = await queriesOf(async () => {
      for (const t of made) expect(await status(b, t)).toBe(401);
    });
    expect(first).toBeLessThanOrEqual(made.length);
    expect(
      await queriesOf(async () => {
        for (const t of made.slice(0, 50)) expect(await status(b, t)).toBe(401);
      }),
    ).toBe(0);
    // The real token is still kept: its read asks nothing.
    expect(await queriesOf(async () => expect(await status(b, token)).toBe(200))).toBe(0);
  });

  it('a token revoked in the Studio (an owner change) ends on the other instance', async () => {
    const created = await a.inject({ method: 'POST', url: '/api/v1/studio/app-tokens', headers: bearer(await login(a)), payload: { label: 'Roku build' } });
    expect(created.statusCode, created.body).toBe(201);
    const { token, id } = created.json().data as { token: string; id: number };
    expect(await status(b, token)).toBe(200);
    const owner = await login(a);
    expect((await a.inject({ method: 'DELETE', url: `/api/v1/studio/app-tokens/${id}`, headers: bearer(owner) })).statusCode).toBe(204);
    await expect.poll(() => status(b, token)).toBe(401);
  });
});
