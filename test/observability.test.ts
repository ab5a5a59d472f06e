import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importCatalog } from '../src/catalog/import.ts';
import { buildApp } from '../src/app.ts';
import { loggerOptions } from '../src/observability/logger.ts';
import { APP_TOKEN, OWNER, smallCatalog } from './fixtures/catalog.ts';
import { freshDatabase, type TestDatabase } from './support/db.ts';

describe('logs and metrics', () => {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  let database: TestDatabase;
  let app: Awaited<ReturnType<typeof buildApp>>;
  beforeAll(async () => {
    database = await freshDatabase('pglite');
    await importCatalog(database.db, smallCatalog(), { replace: false, now: new Date() });
    app = await buildApp({
      database,
      config: { CHANNELNET_TEST_CLOCK: false, LOG_LEVEL: 'info', LOG_REQUESTS: true },
      logger: { ...loggerOptions('info'), stream },
    });
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  it('writes JSON lines with a request id, and never a password, token or store secret', async () => {
    const login = await app.inject({ method: 'POST', url: '/api/v1/rest/auth/login', payload: { username: 'alice', password: OWNER.password } });
    const token = login.json().data.authToken;
    const response = await app.inject({ url: '/api/v1/rest/channels', headers: { authorization: `Bearer ${token}`, 'x-request-id': 'lb-1234' } });
    expect(response.headers['x-request-id']).toBe('lb-1234');
    await app.inject({ url: '/api/v1/rest/favorites', headers: { authorization: `Bearer ${APP_TOKEN}` } });
    // An invitation's one-time token (in the console's path) and the operator's secret (a header).
    await app.inject({ url: '/studio/invite/invite-token-in-path-0123456789abcdefghijklmn' });
    await app.inject({ method: 'POST', url: '/api/v1/studio/operator/owners', headers: { 'x-channelnet-operator': 'operator-secret-value' }, payload: {} });
    app.log.info({ app: { storeCredentials: { apple: { sharedSecret: 's3cret-value' } } }, receipt_data: 'MIIT-receipt' }, 'verification');
    const text = lines.join('\n');
    for (const secret of [OWNER.password, token, APP_TOKEN, 's3cret-value', 'MIIT-receipt', 'invite-token-in-path', 'operator-secret-value']) expect(text).not.toContain(secret);
    expect(text).toContain('/studio/invite/[redacted]');
    expect(text).toContain('[redacted]');
    const requestLines = lines.map((l) => JSON.parse(l)).filter((l) => l.req);
    expect(requestLines.length).toBeGreaterThan(0);
    expect(requestLines.some((l) => l.reqId === 'lb-1234')).toBe(true);
    for (const l of lines.map((x) => JSON.parse(x)).filter((x) => x.res || x.req)) expect(l.reqId).toEqual(expect.any(String));
  });

  it('exposes request counts, latency and database metrics at /metrics', async () => {
    await app.inject('/healthz');
    const response = await app.inject('/metrics');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/plain');
    expect(response.body).toMatch(/channelnet_http_requests_total\{method="GET",route="\/healthz",status="200"\} \d+/);
    expect(response.body).toContain('channelnet_http_request_duration_seconds_bucket');
    expect(response.body).toMatch(/channelnet_db_query_duration_seconds_count\{outcome="ok"\} [1-9]/);
    expect(response.body).toContain('channelnet_heartbeats_total');
  });
});
