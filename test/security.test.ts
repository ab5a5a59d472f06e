// Issue 12 hardening, from the attacker's side: forged client addresses, locked accounts' tokens,
// the public TV archive app token, failed-login lockouts and enumeration, activity floods.
import { notifyCatalogChange } from '../src/cache/changes.ts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { throttleKeys } from '../src/access/login.ts';
import { loadConfig } from '../src/config.ts';
import { APP_TOKEN, OWNER, smallCatalog } from './fixtures/catalog.ts';
import { testApp, type TestApp } from './support/app.ts';
import { BACKENDS } from './support/db.ts';

const REST = '/api/v1/rest';
const CUSTOM = '/api/v1/services/custom';
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** The fixture plus accounts that the tests lock or attack. */
function catalog() {
  const c: any = smallCatalog();
  c.accounts.push(
    { id: 20, username: 'lockme', email: 'lockme@example.com', password: 'pw-lockme', publicUrl: 'lockme' },
    { id: 21, username: 'victim', email: 'victim@example.com', password: 'pw-victim', publicUrl: 'victim' },
    { id: 22, username: 'known', email: 'known@example.com', password: 'pw-known', publicUrl: 'known' },
    { id: 23, username: 'ceiling', email: 'ceiling@example.com', password: 'pw-ceiling', publicUrl: 'ceiling' },
  );
  return c;
}

describe.each(BACKENDS)('tokens and failed logins on %s', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp(backend, catalog());
  });
  afterAll(() => t.close());

  const restLogin = (username: string, password: string, address: string, now?: string) =>
    t.request({ method: 'POST', url: `${REST}/auth/login`, payload: { username, password }, remoteAddress: address, now });
  const customLogin = (email: string, password: string, address: string, now?: string) =>
    t.request({ method: 'POST', url: `${CUSTOM}/auth/login`, payload: { email, password }, remoteAddress: address, now });

  describe('a locked or not activated account', () => {
    it('loses its live tokens on both APIs, and refresh issues nothing', async () => {
      for (const status of ['locked', 'not_activated']) {
        await t.database.db.execute(sql`update accounts set status = 'active' where id = 20`);
        const rest = (await restLogin('lockme', 'pw-lockme', '10.20.0.1')).json().data.authToken;
        const custom = (await customLogin('lockme', 'pw-lockme', '10.20.0.1')).json().data.access_token;
        expect((await t.request({ url: `${REST}/channels`, headers: bearer(rest) })).statusCode).toBe(200);
        expect((await t.request({ url: `${CUSTOM}/auth/me`, headers: bearer(custom) })).statusCode).toBe(200);

        // As an import does (every change): a status changed by hand in the database shows within
        // TOKEN_CACHE_SECONDS, or at once with this notice (docs/security.md: Tokens).
        await t.database.db.transaction(async (tx) => {
          await tx.execute(sql`update accounts set status = ${status} where id = 20`);
          await notifyCatalogChange(tx, 'all');
        });
        await expect.poll(async () => (await t.request({ url: `${REST}/channels`, headers: bearer(rest) })).statusCode).toBe(401);
        const channels = await t.request({ url: `${REST}/channels`, headers: bearer(rest) });
        expect([channels.statusCode, channels.json().error.code]).toEqual([401, 'unauthorized']);
        for (const token of [rest, custom]) {
          expect((await t.request({ url: `${CUSTOM}/auth/me`, headers: bearer(token) })).statusCode).toBe(401);
          const refresh = await t.request({ method: 'POST', url: `${CUSTOM}/auth/refresh`, headers: bearer(token) });
          expect([refresh.statusCode, refresh.json().data.access_token]).toEqual([401, undefined]);
        }
      }
    });
  });

  describe('the TV archive app token (public: it ships in every copy of the app)', () => {
    it('reads the catalog but is refused on analytics and on the Custom account routes', async () => {
      expect((await t.request({ url: `${REST}/channels`, headers: bearer(APP_TOKEN) })).statusCode).toBe(200);
      expect((await t.request({ url: `${REST}/apps/roku`, headers: bearer(APP_TOKEN) })).statusCode).not.toBe(401);
      for (const path of ['summary', 'sessions', 'concurrency']) {
        const analytics = await t.request({ url: `${REST}/analytics/${path}`, headers: bearer(APP_TOKEN) });
        expect([analytics.statusCode, analytics.json().error.code]).toEqual([401, 'unauthorized']);
      }
      expect((await t.request({ url: `${CUSTOM}/auth/me`, headers: bearer(APP_TOKEN) })).statusCode).toBe(401);
      expect((await t.request({ url: `${CUSTOM}/users/11/app/favorites`, headers: bearer(APP_TOKEN) })).statusCode).toBe(401);
      // An account token still reads analytics.
      const owner = (await restLogin('alice', OWNER.password, '10.21.0.1')).json().data.authToken;
      expect((await t.request({ url: `${REST}/analytics/summary`, headers: bearer(owner) })).statusCode).toBe(200);
    });

    it('cannot be refreshed away: refresh is refused and the token keeps working', async () => {
      const refresh = await t.request({ method: 'POST', url: `${CUSTOM}/auth/refresh`, headers: bearer(APP_TOKEN) });
      expect([refresh.statusCode, refresh.json().data.access_token]).toEqual([401, undefined]);
      expect((await t.request({ url: `${REST}/channels`, headers: bearer(APP_TOKEN) })).statusCode).toBe(200);
    });
  });

  describe('failed logins', () => {
    it("an attacker's failures block the attacker, not the victim at another address (REST and Custom)", async () => {
      const now = '2026-11-22T09:00:00Z';
      for (let i = 0; i < 6; i++) await restLogin('victim', 'guess', '10.66.0.1', now);
      for (let i = 0; i < 6; i++) await customLogin('victim@example.com', 'guess', '10.66.0.2', now);
      expect((await restLogin('victim', 'pw-victim', '10.66.0.1', now)).statusCode).toBe(429);
      expect((await customLogin('victim', 'pw-victim', '10.66.0.1', now)).statusCode).toBe(429);
      expect((await customLogin('victim@example.com', 'pw-victim', '10.66.0.2', now)).statusCode).toBe(429);
      expect((await restLogin('victim', 'pw-victim', '10.0.0.77', now)).statusCode).toBe(200);
      const form = await t.request({
        method: 'POST',
        url: `${CUSTOM}/auth/login`,
        payload: 'email=victim&password=pw-victim',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        remoteAddress: '10.0.0.78',
        now,
      });
      expect(form.statusCode).toBe(200);
    });

    it('answers unknown and known names identically, before and past the limits', async () => {
      const now = '2026-11-22T10:00:00Z';
      const strip = (headers: Record<string, unknown>) => {
        const { date: _d, 'x-request-id': _r, ...rest } = headers;
        return rest;
      };
      for (const attempt of [restLogin, customLogin]) {
        const answers = async (name: string, address: string) => {
          const seen = [];
          for (let i = 0; i < 7; i++) {
            const r = await attempt(name, 'guess', address, now);
            seen.push([r.statusCode, r.body, strip(r.headers)]);
          }
          return seen;
        };
        const known = await answers('known', attempt === restLogin ? '10.67.0.1' : '10.67.0.2');
        const unknown = await answers('no-such-user', attempt === restLogin ? '10.67.0.3' : '10.67.0.4');
        expect(known.map((a) => a[0])).toEqual([401, 401, 401, 401, 401, 429, 429]);
        expect(unknown).toEqual(known);
      }
    });

    it('caps one name across many addresses (the distributed-guessing ceiling)', async () => {
      const now = new Date('2026-11-22T11:00:00Z');
      // 99 failures from elsewhere within the window, as 20 addresses x 5 would leave them.
      await t.database.db.execute(sql`insert into login_throttles (key, failures, window_started_at) values (${throttleKeys('ceiling', 'x').name}, 99, ${now})`);
      expect((await restLogin('ceiling', 'guess', '10.68.0.1', now.toISOString())).statusCode).toBe(401);
      expect((await restLogin('ceiling', 'pw-ceiling', '10.68.0.2', now.toISOString())).statusCode).toBe(429);
      expect((await restLogin('ceiling', 'pw-ceiling', '10.68.0.2', '2026-11-22T11:15:01Z')).statusCode).toBe(200);
    });

    it('prunes spent counters as failures arrive, so rotated names do not pile up', async () => {
      const now = new Date('2026-11-22T12:00:00Z');
      const old = new Date(now.getTime() - 16 * 60_000);
      for (let i = 0; i < 15; i++) {
        await t.database.db.execute(sql`insert into login_throttles (key, failures, window_started_at) values (${`login:spent-${i}`}, 3, ${old})`);
      }
      const stillBlocked = new Date(now.getTime() + 60_000);
      await t.database.db.execute(sql`insert into login_throttles (key, failures, window_started_at, blocked_until) values ('login:blocked', 5, ${old}, ${stillBlocked})`);
      const count = async (where: ReturnType<typeof sql>) => {
        const result: any = await t.database.db.execute(sql`select count(*)::int as n from login_throttles where ${where}`);
        return (result.rows ?? result)[0].n;
      };
      const spent = sql`window_started_at < ${new Date(now.getTime() - 15 * 60_000)} and (blocked_until is null or blocked_until <= ${now})`;
      const before = await count(spent);
      expect(before).toBeGreaterThanOrEqual(15);
      await restLogin('rotated-name', 'guess', '10.69.0.1', now.toISOString());
      expect(await count(spent)).toBe(before - 10);
      expect(await count(sql`key = 'login:blocked'`)).toBe(1);
    });
  });
});

describe.each(BACKENDS)('activity limits on %s', (backend) => {
  it('rotating user_id from one address meets the per-address limit on both paths together, in the activity envelope', async () => {
    const t = await testApp(backend, smallCatalog(), { RATE_LIMIT_ENABLED: true, RATE_LIMIT_ACTIVITY_ADDRESS_MAX: 3, RATE_LIMIT_ACTIVITY_MAX: 2 });
    const paths = ['/api/v1/activity', '/api/v1/services/custom/activity'];
    const heartbeat = (userId: string, address: string, path: string) =>
      t.request({
        method: 'POST',
        url: path,
        remoteAddress: address,
        payload: { source: 'roku_app', action: 'play_channel', client_id: 11, user_id: userId, channel_id: 201 },
      });
    for (let i = 0; i < 3; i++) expect((await heartbeat(`forged-${i}`, '10.5.1.1', paths[i % 2]!)).statusCode).toBe(200);
    const limited = await heartbeat('forged-3', '10.5.1.1', paths[1]!);
    expect([limited.statusCode, Object.keys(limited.json())]).toEqual([429, ['message']]);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Another address is not affected; one device is limited across both paths too.
    expect((await heartbeat('device-d', '10.5.1.2', paths[0]!)).statusCode).toBe(200);
    expect((await heartbeat('device-d', '10.5.1.2', paths[1]!)).statusCode).toBe(200);
    const device = await heartbeat('device-d', '10.5.1.2', paths[0]!);
    expect([device.statusCode, Object.keys(device.json())]).toEqual([429, ['message']]);
    expect([device.headers['retry-after'], device.headers['x-ratelimit-limit'], device.headers['x-ratelimit-remaining']]).toEqual([expect.stringMatching(/^\d+$/), '2', '0']);
    const stored = await t.database.db.execute(sql`select count(*)::int as n from activity_events`);
    expect((stored as any).rows?.[0]?.n ?? (stored as any)[0]?.n).toBe(5);
    await t.close();
  });
});

describe('client addresses behind proxies (TRUST_PROXY)', () => {
  /** Login attempts with an unreadable body: counted by the per-address limit, no password work. */
  const probe = (t: TestApp, socket: string, forwardedFor?: string) =>
    t.request({
      method: 'POST',
      url: `${REST}/auth/login`,
      payload: {},
      remoteAddress: socket,
      headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor },
    });
  const withProxies = (value: string) =>
    testApp('pglite', smallCatalog(), { RATE_LIMIT_ENABLED: true, RATE_LIMIT_LOGIN_MAX: 2, TRUST_PROXY: loadConfig({ TRUST_PROXY: value }).TRUST_PROXY });

  it('reads TRUST_PROXY as a hop count or a list, and refuses true by name', () => {
    expect(loadConfig({}).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '2' }).TRUST_PROXY).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 192.168.1.5,loopback, fd00::/8' }).TRUST_PROXY).toEqual(['10.0.0.0/8', '192.168.1.5', 'loopback', 'fd00::/8']);
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(/TRUST_PROXY: `true` would trust/);
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.0/33' })).toThrow(/TRUST_PROXY: not a hop count, address or CIDR: 10.0.0.0\/33/);
    expect(() => loadConfig({ TRUST_PROXY: 'lb.example' })).toThrow(/TRUST_PROXY/);
  });

  it('with 1, the address the proxy appended counts, whatever the client wrote before it', async () => {
    const t = await withProxies('1');
    for (let i = 0; i < 2; i++) expect((await probe(t, '10.9.0.1', `6.6.6.${i}, 203.0.113.5`)).statusCode).toBe(400);
    expect((await probe(t, '10.9.0.1', '6.6.6.99, 203.0.113.5')).statusCode).toBe(429);
    expect((await probe(t, '10.9.0.1', '203.0.113.6')).statusCode).toBe(400);
    await t.close();
  });

  it('with a list, only listed proxies are skipped; a client connecting directly cannot forge', async () => {
    const t = await withProxies('10.9.0.0/16');
    for (let i = 0; i < 2; i++) expect((await probe(t, '10.9.0.1', `6.6.6.${i}, 203.0.113.5, 10.9.0.7`)).statusCode).toBe(400);
    expect((await probe(t, '10.9.0.2', '203.0.113.5')).statusCode).toBe(429);
    // Direct from an unlisted address: its X-Forwarded-For is ignored.
    for (let i = 0; i < 2; i++) expect((await probe(t, '198.51.100.9', `203.0.113.${50 + i}`)).statusCode).toBe(400);
    expect((await probe(t, '198.51.100.9', '203.0.113.99')).statusCode).toBe(429);
    await t.close();
  });
});
