import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { BACKENDS, freshDatabase, type TestDatabase } from './support/db.ts';

const config = { CHANNELNET_TEST_CLOCK: false, LOG_LEVEL: 'silent', LOG_REQUESTS: false } as const;

describe.each(BACKENDS)('health and clock on %s', (backend) => {
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.close().catch(() => undefined);
    database = undefined;
  });

  it('answers /healthz and /readyz, and /readyz turns 503 when the database is gone', async () => {
    database = await freshDatabase(backend);
    const app = await buildApp({ database, config });
    expect((await app.inject('/healthz')).json()).toEqual({ status: 'ok' });
    const ready = await app.inject('/readyz');
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ok', database: backend });
    await database.close();
    const gone = await app.inject('/readyz');
    expect(gone.statusCode).toBe(503);
    expect(gone.json()).toEqual({ status: 'unavailable', database: backend });
    await app.close();
  });
});

describe('test clock', () => {
  const withClock = async (testClock: boolean) => {
    const database = await freshDatabase('pglite');
    const app = await buildApp({ database, config: { ...config, CHANNELNET_TEST_CLOCK: testClock }, clock: () => new Date('2026-01-01T00:00:00Z') });
    app.get('/now', async (request) => ({ now: request.now.toISOString() }));
    return { app, database };
  };

  it('X-Test-Now sets the time of the request when the test clock is on', async () => {
    const { app, database } = await withClock(true);
    const response = await app.inject({ url: '/now', headers: { 'x-test-now': '2026-11-21T08:30:00+01:00' } });
    expect(response.json()).toEqual({ now: '2026-11-21T07:30:00.000Z' });
    const without = await app.inject('/now');
    expect(without.json()).toEqual({ now: '2026-01-01T00:00:00.000Z' });
    const junk = await app.inject({ url: '/now', headers: { 'x-test-now': 'yesterday' } });
    expect(junk.json()).toEqual({ now: '2026-01-01T00:00:00.000Z' });
    await app.close();
    await database.close();
  });

  it('X-Test-Now is ignored without CHANNELNET_TEST_CLOCK', async () => {
    const { app, database } = await withClock(false);
    const response = await app.inject({ url: '/now', headers: { 'x-test-now': '2026-11-21T08:30:00Z' } });
    expect(response.json()).toEqual({ now: '2026-01-01T00:00:00.000Z' });
    await app.close();
    await database.close();
  });
});
