// Every limit answers in its group's envelope, can be raised, and can be turned off.
import { afterEach, describe, expect, it } from 'vitest';
import { OWNER, smallCatalog } from './fixtures/catalog.ts';
import { testApp, type TestApp } from './support/app.ts';

const REST = '/api/v1/rest';

describe('limits', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });
  const login = (app: TestApp, address: string) =>
    app.request({ method: 'POST', url: `${REST}/auth/login`, payload: { username: 'alice', password: OWNER.password }, remoteAddress: address });

  it('limits login attempts per address with 429, Retry-After and the REST envelope', async () => {
    t = await testApp('pglite', smallCatalog(), { RATE_LIMIT_ENABLED: true, RATE_LIMIT_LOGIN_MAX: 2 });
    expect((await login(t, '10.1.0.1')).statusCode).toBe(200);
    expect((await login(t, '10.1.0.1')).statusCode).toBe(200);
    const limited = await login(t, '10.1.0.1');
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.json()).toEqual({ success: false, error: { code: 'too_many_requests', message: expect.any(String) } });
    expect((await login(t, '10.1.0.2')).statusCode).toBe(200);
  });

  it('limits every other REST route per address', async () => {
    t = await testApp('pglite', smallCatalog(), { RATE_LIMIT_ENABLED: true, RATE_LIMIT_MAX: 3 });
    const token = (await login(t, '10.2.0.1')).json().data.authToken;
    const get = () => t!.request({ url: `${REST}/favorites`, headers: { authorization: `Bearer ${token}` }, remoteAddress: '10.2.0.9' });
    for (let i = 0; i < 3; i++) expect((await get()).statusCode).toBe(200);
    const limited = await get();
    expect([limited.statusCode, limited.json().error.code]).toEqual([429, 'too_many_requests']);
  });

  it('turns off', async () => {
    t = await testApp('pglite', smallCatalog(), { RATE_LIMIT_ENABLED: false, RATE_LIMIT_LOGIN_MAX: 1 });
    for (let i = 0; i < 3; i++) expect((await login(t, '10.3.0.1')).statusCode).toBe(200);
  });

  it('refuses a REST body over the limit with 413 in the envelope', async () => {
    t = await testApp('pglite', smallCatalog(), { BODY_LIMIT_REST: 1024 });
    const response = await t.request({ method: 'POST', url: `${REST}/auth/login`, payload: { username: 'alice', password: 'x'.repeat(2000) } });
    expect([response.statusCode, response.json().error.code]).toEqual([413, 'payload_too_large']);
  });

  it('sheds load with 503 in the group envelope when the database pool is saturated', async () => {
    t = await testApp('pglite', smallCatalog(), { MAX_DB_POOL_WAITING: 1 });
    t.database.poolStats = () => ({ size: 10, total: 10, idle: 0, waiting: 50 });
    const rest = await t.request({ url: `${REST}/channels` });
    expect([rest.statusCode, rest.headers['retry-after'], rest.json()]).toEqual([
      503,
      '5',
      { success: false, error: { code: 'service_unavailable', message: expect.any(String) } },
    ]);
    const legacy = await t.request({ url: '/WebServices/VastService.asmx/GetVastSettings?channelId=201' });
    expect([legacy.statusCode, legacy.headers['content-type']]).toEqual([503, 'text/plain; charset=utf-8']);
  });
});

describe('legacy limits', () => {
  it('rate-limits the Legacy Web Services per address with a plain-text 429', async () => {
    const t = await testApp('pglite', smallCatalog(), { RATE_LIMIT_ENABLED: true, RATE_LIMIT_MAX: 2 });
    const get = () => t.request({ url: '/WebServices/VastService.asmx/GetVastSettings?channelId=201', remoteAddress: '10.4.0.1' });
    for (let i = 0; i < 2; i++) expect((await get()).statusCode).toBe(200);
    const limited = await get();
    expect([limited.statusCode, limited.headers['content-type'], limited.body]).toEqual([429, 'text/plain; charset=utf-8', 'Too Many Requests\r\n']);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    await t.close();
  });

  it('answers a plain-text 503 while the database is unreachable', async () => {
    const t = await testApp('pglite', smallCatalog());
    await t.database.close();
    const response = await t.request({ url: '/WebServices/VastService.asmx/GetVastSettings?channelId=201' });
    expect([response.statusCode, response.body, response.headers['retry-after']]).toEqual([503, 'Server Too Busy\r\n', '5']);
    await t.close();
  });
});

describe('activity limits', () => {
  const heartbeat = (t: TestApp, userId: string) =>
    t.request({
      method: 'POST',
      url: '/api/v1/activity',
      payload: { source: 'roku_app', action: 'play_channel', client_id: 11, user_id: userId, channel_id: 201 },
      remoteAddress: '10.5.0.1',
    });

  it('rate-limits activity per device with a bare { message } 429', async () => {
    const t = await testApp('pglite', smallCatalog(), { RATE_LIMIT_ENABLED: true, RATE_LIMIT_ACTIVITY_MAX: 2 });
    for (let i = 0; i < 2; i++) expect((await heartbeat(t, 'device-a')).statusCode).toBe(200);
    const limited = await heartbeat(t, 'device-a');
    expect([limited.statusCode, Object.keys(limited.json())]).toEqual([429, ['message']]);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Another device behind the same address is not affected.
    expect((await heartbeat(t, 'device-b')).statusCode).toBe(200);
    const metrics = (await t.request({ url: '/metrics' })).body;
    expect(metrics).toMatch(/channelnet_heartbeats_total\{result="accepted"\} [1-9]/);
    expect(metrics).toMatch(/channelnet_heartbeats_total\{result="rejected"\} [1-9]/);
    expect(metrics).toMatch(/channelnet_watch_sessions_open \d+/);
    expect(metrics).toMatch(/channelnet_programme_credit_backlog \d+/);
    expect(metrics).toMatch(/channelnet_programme_sessions_credited_total \d+/);
    await t.close();
  });

  it('refuses an activity body over BODY_LIMIT_ACTIVITY with 413 { message }', async () => {
    const t = await testApp('pglite', smallCatalog(), { BODY_LIMIT_ACTIVITY: 2048 });
    const response = await t.request({
      method: 'POST',
      url: '/api/v1/activity',
      payload: { source: 'roku_app', action: 'play_channel', channel_id: 201, payload: 'x'.repeat(4096) },
    });
    expect([response.statusCode, response.json()]).toEqual([413, { message: 'The request body may not be larger than 2 KiB.' }]);
    await t.close();
  });
});
