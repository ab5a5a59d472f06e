// Focused regression tests for what the fuzz properties found (fuzz.test.ts), one per bug, so a
// bug stays fixed even if the generators change and the seed stops reaching it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { channelDatesForWindow } from '../../src/schedules/expand.ts';
import { isValidDate } from '../../src/schedules/labels.ts';
import { BACKENDS } from '../support/db.ts';
import { answerProblems, groupOf } from './envelopes.ts';
import { exchange, listening } from './raw.ts';
import { buildWorld, changedTables, type FuzzWorld } from './world.ts';

describe.each(BACKENDS)('fuzz regressions on %s', (kind) => {
  let world: FuzzWorld;
  beforeAll(async () => {
    world = await buildWorld(kind);
  });
  afterAll(async () => {
    await world?.close();
  });

  // Self-tests of the checks themselves: a property that cannot fail proves nothing.
  it('the snapshot sees writes to the viewer-state and activity tables', async () => {
    const before = await world.snapshot();
    const token = await world.freshToken(11);
    const favorite = await world.t.request({ method: 'POST', url: '/api/v1/rest/favorites/202', headers: { authorization: `Bearer ${token}` } });
    expect(favorite.statusCode).toBe(200);
    const heartbeat = await world.t.request({
      method: 'POST',
      url: '/api/v1/activity',
      payload: { source: 'roku_app', action: 'play_channel', channel_id: 201, user_id: 'self-test' },
    });
    expect(heartbeat.statusCode).toBe(200);
    expect(changedTables(before, await world.snapshot())).toEqual(['activity_events', 'auth_tokens', 'favorites', 'watch_sessions']);
  });

  it("the envelope checks refuse another group's envelope and a 500", async () => {
    const rest = await world.t.request({ method: 'GET', url: '/api/v1/rest/channels' });
    expect(answerProblems('rest', 'GET', '', rest)).toEqual([]);
    expect(answerProblems('custom', 'GET', '', rest)).not.toEqual([]);
    expect(answerProblems('activity', 'GET', '', rest)).not.toEqual([]);
    expect(answerProblems('legacy', 'GET', '', rest)).not.toEqual([]);
    const legacy = await world.t.request({ method: 'GET', url: '/WebServices/VastService.asmx/GetVastSettings' });
    expect(legacy.statusCode).toBe(500);
    expect(answerProblems('legacy', 'GET', '', legacy)).toEqual([]);
    expect(answerProblems('custom', 'GET', '', legacy)).toContain('status 500');
  });

  it.each([
    ['REST', '/api/v1/rest/channels/%E0%A4%A', 400, { success: false, error: { code: 'invalid_request', message: expect.any(String) } }],
    ['REST', '/api/v1/rest/%zz', 400, { success: false, error: { code: 'invalid_request', message: expect.any(String) } }],
    ['Custom', '/api/v1/services/custom/users/%FF/settings', 400, { data: { message: expect.any(String), status_code: 400 } }],
    ['activity', '/api/v1/activity/%C0%80', 400, { message: expect.any(String) }],
    ['activity', '/api/v1/services/custom/activity/%ED%A0%80', 400, { message: expect.any(String) }],
    ['REST', `/api/v1/rest/channels/${'9'.repeat(101)}/schedules`, 414, { success: false, error: { code: 'invalid_request', message: expect.any(String) } }],
    ['Custom', `/api/v1/services/custom/users/${'x'.repeat(101)}/settings`, 414, { data: { message: expect.any(String), status_code: 414 } }],
  ])('a %s URL the router refuses (%s) is answered in the group envelope', async (_group, url, status, body) => {
    const response = await world.t.request({ method: 'GET', url });
    expect(response.statusCode).toBe(status);
    expect(response.json()).toEqual(body);
  });

  it('a legacy URL the router refuses is a plain-text page', async () => {
    for (const url of ['/WebServices/%zz.asmx/GetVastSettings', `/WebServices/VastService.asmx/%FF`]) {
      const response = await world.t.request({ method: 'GET', url });
      expect(response.statusCode).toBe(400);
      expect(response.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(response.body).toBe('Bad Request\r\n');
    }
  });

  it("a path outside the groups keeps Fastify's JSON error", async () => {
    const response = await world.t.request({ method: 'GET', url: '/nowhere/%zz' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: 'Bad Request', code: 'FST_ERR_BAD_URL', statusCode: 400 });
  });

  it("unencoded UTF-8 in a Custom path, refused by Node's HTTP parser, is answered in the Custom envelope", async () => {
    const answer = await exchange(
      await listening(world),
      Buffer.from('GET /api/v1/services/custom/users/jos\u00e9/settings HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n', 'utf8'),
    );
    expect(answer.statusCode).toBe(400);
    expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(JSON.parse(answer.body)).toEqual({ data: { message: expect.any(String), status_code: 400 } });
  });

  it('unencoded bytes in a legacy URL are a plain-text page; oversized REST headers (431) the REST envelope', async () => {
    const port = await listening(world);
    const legacy = await exchange(port, Buffer.from('GET /WebServices/VastService.asmx/GetVastSettings?channelId=\xff HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n', 'latin1'));
    expect([legacy.statusCode, legacy.headers['content-type'], legacy.body]).toEqual([400, 'text/plain; charset=utf-8', 'Bad Request\r\n']);
    const big = await exchange(port, Buffer.from(`GET /api/v1/rest/channels HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(20_000)}\r\nConnection: close\r\n\r\n`));
    expect(big.statusCode).toBe(431);
    expect(JSON.parse(big.body)).toEqual({ success: false, error: { code: 'invalid_request', message: 'Exceeded maximum allowed HTTP header size' } });
  });

  it.each(['/users/%00/settings', '/users/alice-tv%00/app_settings', '/users/%00/apps/subscription/status', '/users/11%00/channels'])(
    'a Custom {id} with a NUL character (%s) is an unknown user (404), not a database error (500)',
    async (path) => {
      const response = await world.t.request({ method: 'GET', url: `/api/v1/services/custom${path}`, headers: { 'platform-id': 'ios', 'device-id': 'device-1' } });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ data: { message: 'User is required', status_code: 404 } });
    },
  );

  it.each(['/assets/apps/301/logo%00', '/assets/apps/301/%00', '/assets/apps/301/logo%00?v=x'])(
    'an asset role with a NUL character (%s) is not found (404), not a 500 that shows the failed query',
    async (url) => {
      const response = await world.t.request({ method: 'GET', url });
      expect(response.statusCode).toBe(404);
      expect(response.body).toBe('Not found');
    },
  );

  it.each([
    'concurrency?to=9999-12-31T23:59:59Z',
    'concurrency?from=0000-01-01T00:00:00Z&to=0000-01-02T00:00:00Z',
    'summary?to=0000-01-03T00:00:00Z',
    'summary?groupBy=day&from=0000-01-01&to=0000-01-02',
    'sessions?to=9999-12-31T23:59:59Z',
  ])('analytics with a range PostgreSQL cannot hold (%s) is a 400, not a 500', async (query) => {
    const token = await world.freshToken(11);
    const response = await world.t.request({ method: 'GET', url: `/api/v1/rest/analytics/${query}`, headers: { authorization: `Bearer ${token}` } });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ success: false, error: { code: 'invalid_request', message: 'from and to must be between 1970-01-01 and 9999-01-01.' } });
  });

  it.each([
    // This one never answered: the channel-day loop compared '10000-01-01' < '9999-12-31' as text and ran forever.
    ['/api/v1/services/custom/users/11/channels/video?channels_ids=201&dates=9999-12-31', 422],
    ['/api/v1/services/custom/users/11/channels/video?channels_ids=201&dates=00000101', 422],
    ['/api/v1/services/custom/users/11/channels/201/live?date=9999-12-31', 422],
    ['/api/v1/rest/channels/201/schedules?date=9999-12-31', 400],
    ['/api/v1/rest/channels/201/schedules?date=0000-01-01', 400],
  ])('a schedule day in year 0 or 9999 (%s) is refused (%i), not a hang or a 500', async (url, status) => {
    const token = await world.freshToken(11);
    const response = await world.t.request({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
    expect(response.statusCode).toBe(status);
    expect(answerProblems(groupOf(url.split('?')[0]!), 'GET', url, response)).toEqual([]);
  });

  it('channelDatesForWindow ends at the last day of year 9999 (compared as dates, not text)', () => {
    const from = Date.UTC(9999, 11, 31, 6);
    expect(channelDatesForWindow('UTC', from, from + 3_600_000)).toEqual(['9999-12-30', '9999-12-31']);
    // Request dates stop short of that year (isValidDate), so no request reaches this edge any more.
    expect(isValidDate('9999-12-31')).toBe(false);
    expect(isValidDate('0000-01-01')).toBe(false);
  });

  // Issue 26: a NUL is refused at the edge, before the login is tried (PostgreSQL text cannot hold it).
  it.each([
    ['/api/v1/rest/auth/login', { username: 'alice\u0000', password: 'x' }, 400],
    ['/api/v1/services/custom/auth/login', { email: '\u0000', password: 'x' }, 422],
    ['/api/v1/services/custom/auth/login', { email: 'victor@example.com\u0000', password: 'viewer pass' }, 422],
  ])('a login with a NUL character (%s) is refused in the envelope, not a database error (500)', async (url, payload, status) => {
    const before = await world.snapshot();
    const response = await world.t.request({ method: 'POST', url, payload });
    expect(response.statusCode).toBe(status);
    expect(answerProblems(groupOf(url), 'POST', JSON.stringify(payload), response)).toEqual([]);
    expect(changedTables(before, await world.snapshot())).toEqual([]);
  });
});
