import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWNER, VIEWER } from './fixtures/catalog.ts';
import type { TestApp } from './support/app.ts';
import { BASE, bearer, customClient, customTestApp, failureOf, invalidWith } from './support/custom.ts';
import { BACKENDS } from './support/db.ts';

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const JSON_TYPE = { 'content-type': 'application/json' };
const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const tokenShape = { data: { access_token: expect.stringMatching(GUID), token_type: 'bearer', expires_in: 3600 } };

describe.each(BACKENDS)('Custom API auth and favorites on %s', (backend) => {
  let t: TestApp;
  const { get, post, login } = customClient(() => t);
  beforeAll(async () => {
    t = await customTestApp(backend);
  });
  afterAll(() => t.close());

  const loginAt = (payload: unknown, address: string, headers = {}, now?: string) =>
    t.request({ method: 'POST', url: `${BASE}/auth/login`, payload: payload as any, headers, remoteAddress: address, now });

  describe('login', () => {
    it('answers a token by email or username, as JSON or as a form (Android TV)', async () => {
      for (const email of ['alice', 'ALICE', 'Alice@Example.com']) {
        const response = await loginAt({ email, password: OWNER.password }, '10.1.0.1');
        expect([response.statusCode, response.json()]).toEqual([200, tokenShape]);
      }
      const form = await loginAt(`email=${encodeURIComponent('victor@example.com')}&password=${encodeURIComponent(VIEWER.password)}`, '10.1.0.1', FORM);
      expect([form.statusCode, form.json()]).toEqual([200, tokenShape]);
    });

    it('refuses wrong credentials 401, locked and unconfirmed accounts 403', async () => {
      const wrong = await loginAt({ email: 'alice', password: 'nope' }, '10.1.1.1');
      expect([wrong.statusCode, wrong.json()]).toEqual([401, failureOf(401, 'Invalid credentials.')]);
      expect((await loginAt({ email: 'nobody', password: 'x' }, '10.1.1.1')).statusCode).toBe(401);
      const locked = await loginAt({ email: 'locked', password: 'pw-locked' }, '10.1.1.2');
      expect([locked.statusCode, locked.json()]).toEqual([403, failureOf(403, 'Your account is locked.')]);
      const pending = await loginAt('email=pending&password=pw-pending', '10.1.1.2', FORM);
      expect([pending.statusCode, pending.json()]).toEqual([403, failureOf(403, 'Your account is not activated.')]);
    });

    it('throttles: 429 with Retry-After after 5 failures on one name from one address; other addresses still log in', async () => {
      const start = '2026-11-21T09:00:00Z';
      for (let i = 0; i < 5; i++) expect((await loginAt({ email: 'dora', password: 'bad' }, '10.1.2.1', {}, start)).statusCode).toBe(401);
      const blocked = await loginAt({ email: 'dora', password: 'pw-dora' }, '10.1.2.1', {}, '2026-11-21T09:01:00Z');
      expect([blocked.statusCode, blocked.json(), blocked.headers['retry-after']]).toEqual([429, failureOf(429, expect.any(String)), '840']);
      expect((await loginAt({ email: 'dora', password: 'pw-dora' }, '10.1.3.1', {}, '2026-11-21T09:01:00Z')).statusCode).toBe(200);
      expect((await loginAt({ email: 'dora', password: 'pw-dora' }, '10.1.2.1', {}, '2026-11-21T09:16:00Z')).statusCode).toBe(200);
    });

    it('answers malformed and incomplete bodies 422, never 500', async () => {
      const cases: [unknown, Record<string, string>, string[]][] = [
        ['{"email":', JSON_TYPE, ['body']],
        ['', JSON_TYPE, ['email', 'password']],
        ['[1,2]', JSON_TYPE, ['email', 'password']],
        ['"text"', JSON_TYPE, ['email', 'password']],
        [{ email: 5, password: 'x' }, {}, ['email']],
        [{ email: 'alice' }, {}, ['password']],
        [{ email: '', password: '' }, {}, ['email', 'password']],
        ['email=alice', FORM, ['password']],
        ['%%%=&&&', FORM, ['email', 'password']],
        ['hello', { 'content-type': 'text/plain' }, ['body']],
        [{ email: 'a'.repeat(400), password: 'x' }, {}, ['email']],
      ];
      for (const [payload, headers, fields] of cases) {
        const response = await loginAt(payload, '10.1.4.1', headers);
        expect([response.statusCode, response.json()]).toEqual([422, invalidWith(...fields)]);
      }
    });
  });

  describe('Bearer routes', () => {
    it('me answers the account, names falling back to the username', async () => {
      const me = await get('/auth/me', bearer(await login('alice', OWNER.password)));
      expect(me.json()).toEqual({ data: { id: 11, full_name: 'Alice Example', public_name: 'Alice TV', publicUrl: 'alice-tv', email: 'Alice@Example.com' } });
      const victor = await get('/auth/me', bearer(await login('victor', VIEWER.password)));
      expect(victor.json().data).toEqual({ id: 12, full_name: 'victor', public_name: 'victor', publicUrl: 'victor', email: 'victor@example.com' });
    });

    it('refresh revokes the token sent and answers a new one in the login shape', async () => {
      const first = await login('alice', OWNER.password);
      const refreshed = await post('/auth/refresh', undefined, bearer(first));
      expect([refreshed.statusCode, refreshed.json()]).toEqual([200, tokenShape]);
      const second = refreshed.json().data.access_token;
      expect(second).not.toBe(first);
      expect((await get('/auth/me', bearer(first))).statusCode).toBe(401);
      expect((await get('/auth/me', bearer(second))).statusCode).toBe(200);
      expect((await post('/auth/refresh', undefined, bearer(first))).statusCode).toBe(401);
    });

    it('logout revokes; tokens are shared with REST both ways', async () => {
      const token = await login('alice', OWNER.password);
      expect((await t.request({ url: '/api/v1/rest/channels', headers: bearer(token) })).statusCode).toBe(200);
      const out = await post('/auth/logout', undefined, bearer(token));
      expect([out.statusCode, out.json()]).toEqual([200, { data: { message: expect.any(String) } }]);
      expect((await get('/auth/me', bearer(token))).statusCode).toBe(401);
      expect((await t.request({ url: '/api/v1/rest/channels', headers: bearer(token) })).statusCode).toBe(401);
      const rest = await t.request({ method: 'POST', url: '/api/v1/rest/auth/login', payload: { username: 'alice', password: OWNER.password } });
      expect((await get('/auth/me', bearer(rest.json().data.authToken))).json().data.id).toBe(11);
    });

    it('a Custom token expires after 3600 seconds', async () => {
      const token = (await loginAt({ email: 'alice', password: OWNER.password }, '10.1.5.1', {}, '2026-11-21T10:00:00Z')).json().data.access_token;
      expect((await get('/auth/me', bearer(token), '2026-11-21T10:59:59Z')).statusCode).toBe(200);
      expect((await get('/auth/me', bearer(token), '2026-11-21T11:00:00Z')).statusCode).toBe(401);
    });

    it('refuses a missing, malformed, unknown or non-Bearer token with 401 Unauthenticated.', async () => {
      const routes: [string, string][] = [
        ['POST', '/auth/refresh'],
        ['GET', '/auth/me'],
        ['POST', '/auth/logout'],
        ['GET', '/users/11/app/favorites'],
        ['POST', '/users/11/channels/201/app/favorite/add'],
        ['POST', '/users/11/channels/201/app/favorite/remove'],
      ];
      const headers = [{}, { authorization: 'Bearer nope' }, { authorization: 'Basic abc' }, bearer(crypto.randomUUID())];
      for (const [method, url] of routes) {
        for (const h of headers) {
          const response = await t.request({ method: method as 'GET', url: `${BASE}${url}`, headers: h });
          expect([response.statusCode, response.json()]).toEqual([401, failureOf(401, 'Unauthenticated.')]);
        }
      }
    });
  });

  describe('favorites', () => {
    let viewer: string;
    beforeAll(async () => {
      viewer = await login('victor', VIEWER.password);
    });

    it('adds and removes idempotently, lists most recent first with marked', async () => {
      expect((await get('/users/11/app/favorites', bearer(viewer))).json()).toEqual({ data: [] });
      const add = (id: number, now: string) => post(`/users/alice-tv/channels/${id}/app/favorite/add`, undefined, bearer(viewer), now);
      for (const [id, now] of [
        [201, '2026-11-21T10:00:00Z'],
        [204, '2026-11-21T11:00:00Z'],
        [201, '2026-11-21T12:00:00Z'],
      ] as const) {
        const response = await add(id, now);
        expect([response.statusCode, response.json()]).toEqual([200, { data: { message: 'Success' } }]);
      }
      const list = (await get('/users/11/app/favorites', bearer(viewer))).json().data;
      expect(list.map((c: any) => c.id)).toEqual([204, 201]);
      expect(list[1]).toEqual({
        id: 201,
        categoryId: 1,
        userId: 11,
        name: 'Alice News',
        url: 'alice-news',
        pictureUrl: '',
        isWhiteLabeled: 0,
        playLiveFirst: false,
        privateChannel: false,
        isVerified: false,
        liveAvailable: true,
        guideMode: 'default',
        keepGuideOpened: 0,
        vodAvailable: true,
        scheduleAvailable: true,
        marked: true,
      });
      for (let i = 0; i < 2; i++) {
        const removed = await post('/users/11/channels/204/app/favorite/remove', undefined, bearer(viewer));
        expect([removed.statusCode, removed.json()]).toEqual([200, { data: { message: 'Success' } }]);
      }
      expect((await get('/users/11/app/favorites', bearer(viewer))).json().data.map((c: any) => c.id)).toEqual([201]);
    });

    it('shares the store with REST favorites', async () => {
      const owner = await login('alice', OWNER.password);
      expect((await get('/users/11/app/favorites', bearer(owner))).json().data.map((c: any) => c.id)).toEqual([201]);
      await post('/users/11/channels/202/app/favorite/add', undefined, bearer(owner));
      const rest = await t.request({ url: '/api/v1/rest/favorites', headers: bearer(owner) });
      expect(rest.json().data.map((f: any) => f.channelTubeId)).toEqual([202, 201]);
    });

    it('refuses channels that are missing, deleted or not the owner {id}; unknown owners', async () => {
      for (const id of ['401', '203', '999999', 'abc', '99999999999999999999']) {
        for (const action of ['add', 'remove']) {
          const response = await post(`/users/11/channels/${id}/app/favorite/${action}`, undefined, bearer(viewer));
          expect([response.statusCode, response.json()]).toEqual([404, failureOf(404, 'Channel not found')]);
        }
      }
      for (const url of ['/users/nobody/app/favorites', '/users/999/channels/201/app/favorite/add']) {
        const method = url.endsWith('add') ? 'POST' : 'GET';
        const response = await t.request({ method, url: `${BASE}${url}`, headers: bearer(viewer) });
        expect([response.statusCode, response.json()]).toEqual([404, failureOf(404, 'User is required')]);
      }
      // dora's favorites list under alice's app shows only alice's channels.
      expect((await get('/users/16/app/favorites', bearer(viewer))).json()).toEqual({ data: [] });
    });
  });

  describe('envelope', () => {
    it('answers unknown routes and methods 404 in the envelope; activity still answers', async () => {
      for (const [method, url] of [
        ['GET', '/nope'],
        ['DELETE', '/auth/login'],
        ['GET', '/users/11'],
        ['PUT', '/users/11/settings'],
        ['GET', ''],
      ] as const) {
        const response = await t.request({ method, url: `${BASE}${url}` });
        expect([response.statusCode, response.json()]).toEqual([404, failureOf(404, 'Not found.')]);
      }
      const activity = await post('/activity', { source: 'roku_app', action: 'login', user_id: 'viewer-1' });
      expect([activity.statusCode, activity.json()]).toEqual([200, { message: 'Success' }]);
      const wrongMethod = await get('/activity');
      expect(wrongMethod.statusCode).toBe(405);
      expect((await post('/activity/extra', {})).json()).toEqual({ message: 'Not Found' });
    });

    it('refuses an oversized body 413 in the envelope', async () => {
      const response = await post('/auth/login', { email: 'alice', password: 'x'.repeat(1100 * 1024) });
      expect([response.statusCode, response.json()]).toEqual([413, failureOf(413, expect.any(String))]);
    });
  });
});

describe('Custom API faults', () => {
  it('answers a fault 500 Server error. and an unreachable database 503, in the envelope, without details', async () => {
    const t = await customTestApp('pglite');
    await t.database.db.execute(sql`drop table brandings`);
    const fault = await t.request({ url: `${BASE}/users/11/settings` });
    expect([fault.statusCode, fault.json()]).toEqual([500, failureOf(500, 'Server error.')]);
    await t.database.close();
    for (const url of ['/users/11/settings', '/users/11/channels', '/token_by_video/5003']) {
      const response = await t.request({ url: `${BASE}${url}` });
      expect([response.statusCode, response.headers['retry-after'], response.json()]).toEqual([503, '5', failureOf(503, expect.any(String))]);
    }
    await t.app.close();
  });

  it('answers the login rate limit 429 in the envelope', async () => {
    const t = await customTestApp('pglite', { RATE_LIMIT_ENABLED: true, RATE_LIMIT_LOGIN_MAX: 1 });
    const attempt = () => t.request({ method: 'POST', url: `${BASE}/auth/login`, payload: { email: 'alice', password: OWNER.password }, remoteAddress: '10.7.0.1' });
    expect((await attempt()).statusCode).toBe(200);
    const limited = await attempt();
    expect([limited.statusCode, limited.json()]).toEqual([429, failureOf(429, expect.any(String))]);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    await t.close();
  });
});
