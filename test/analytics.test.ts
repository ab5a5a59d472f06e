// Watch analytics under the REST API, fed through the real ingestion with the test clock.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueToken } from '../src/access/tokens.ts';
import { prefersCsv } from '../src/rest/analytics-routes.ts';
import { bucketsFor, resolveRange } from '../src/sessions/analytics.ts';
import { csvField, toCsv } from '../src/sessions/csv.ts';
import { OWNER, smallCatalog } from './fixtures/catalog.ts';
import { testApp, type TestApp } from './support/app.ts';
import { BACKENDS } from './support/db.ts';

const REST = '/api/v1/rest';
const T = Date.parse('2026-11-20T10:00:00Z');
const NOW = '2026-11-22T12:00:00.000Z';
const iso = (ms: number) => new Date(ms).toISOString();
const min = (m: number, s = 0) => iso(T + (m * 60 + s) * 1000);
const beforeNow = (m: number) => iso(Date.parse(NOW) - m * 60_000);
const RANGE = 'from=2026-11-20T00:00:00Z&to=2026-11-23T00:00:00Z';

function analyticsCatalog() {
  const catalog: any = smallCatalog();
  catalog.accounts.push({ id: 16, username: 'other', email: 'other@example.com', password: 'pw-other', publicUrl: 'other' });
  catalog.channels.push({ id: 401, ownerId: 16, name: 'Other channel', url: 'other', categoryId: 1, createdAt: '2026-01-01T00:00:00Z' });
  return catalog;
}

/** [X-Test-Now, body] of every heartbeat; sessions A to F of the expectations below. */
const HEARTBEATS: [string, object][] = [
  ...[0, 1, 2].map((m) => [min(m), { source: 'roku_app', user_id: 'v1', channel_id: 201 }] as [string, object]), // A: 120 s
  [min(0, 30), { source: 'fire_tv', user_id: 'v2', channel_id: 201 }], // B: one heartbeat, 60 s
  ...[5, 6, 7, 8, 9, 10].map((m) => [min(m), { source: 'roku_app', user_id: 'v1', channel_id: 202 }] as [string, object]), // C: 300 s
  ['2026-11-21T23:59:00Z', { source: 'mobile_app_on_ios', client_id: null, channel_id: 202 }], // D: anonymous, 60 s
  [min(0), { source: 'roku_app', user_id: 'v9', channel_id: 401 }], // E: another owner's channel
  ...[2, 1, 0].map((m) => [beforeNow(m), { source: 'apple_tv', user_id: 'v3', channel_id: 201 }] as [string, object]), // F: open, 120 s so far
  ['2026-11-10T08:00:00Z', { source: 'roku_app', user_id: '=HYPERLINK("x"),y', channel_id: 201 }], // G: outside RANGE
];

describe.each(BACKENDS)('watch analytics on %s', (backend) => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await testApp(backend, analyticsCatalog());
    for (const [now, body] of HEARTBEATS) {
      const response = await t.request({ method: 'POST', url: '/api/v1/activity', now, payload: { action: 'play_channel', client_id: 11, ...body } });
      expect(response.statusCode).toBe(200);
    }
    // A token as login issues it; the login route itself is tested with the REST API.
    token = await issueToken(t.database.db, OWNER.id, { kind: 'sliding', seconds: 30 * 86_400 }, new Date(NOW));
  });
  afterAll(() => t.close());

  const get = (path: string, headers: Record<string, string> = {}, now = NOW) =>
    t.request({ url: `${REST}/analytics/${path}`, headers: { authorization: `Bearer ${token}`, ...headers }, now });
  const data = async (path: string, now = NOW) => {
    const response = await get(path, {}, now);
    expect(response.statusCode).toBe(200);
    expect(response.json().success).toBe(true);
    return response.json().data;
  };

  it('sums credited watch time, sessions and unique viewers per channel, with totals', async () => {
    expect(await data(`summary?${RANGE}`)).toEqual({
      from: '2026-11-20T00:00:00.000Z',
      to: '2026-11-23T00:00:00.000Z',
      channelId: null,
      groupBy: 'channel',
      groups: [
        { channelId: 201, channelName: 'Alice News', watchSeconds: 300, sessions: 3, uniqueViewers: 3, averageSessionSeconds: 100 },
        { channelId: 202, channelName: 'Alice Music', watchSeconds: 360, sessions: 2, uniqueViewers: 2, averageSessionSeconds: 180 },
      ],
      totals: { watchSeconds: 660, sessions: 5, uniqueViewers: 4, averageSessionSeconds: 132 },
    });
  });

  it('groups by source and by UTC day', async () => {
    const bySource = await data(`summary?${RANGE}&groupBy=source`);
    expect(bySource.groups.map((g: any) => [g.source, g.watchSeconds, g.sessions, g.uniqueViewers])).toEqual([
      ['apple_tv', 120, 1, 1],
      ['fire_tv', 60, 1, 1],
      ['mobile_app_on_ios', 60, 1, 1],
      ['roku_app', 420, 2, 1],
    ]);
    const byDay = await data(`summary?${RANGE}&groupBy=day&channelId=202`);
    expect(byDay.groups.map((g: any) => [g.day, g.watchSeconds, g.sessions])).toEqual([
      ['2026-11-20', 300, 1],
      ['2026-11-21', 60, 1],
    ]);
  });

  it('answers zeros for a range without sessions, and defaults to the 7 days before now', async () => {
    expect((await data('summary?from=2026-01-01&to=2026-01-02')).totals).toEqual({ watchSeconds: 0, sessions: 0, uniqueViewers: 0, averageSessionSeconds: 0 });
    const defaults = await data('summary');
    expect([defaults.from, defaults.to, defaults.totals.sessions]).toEqual(['2026-11-15T12:00:00.000Z', NOW, 5]);
  });

  it('lists sessions in start order, stale ones closed without any sweeper', async () => {
    const page = await data(`sessions?${RANGE}`);
    expect(page).toMatchObject({ page: 1, perPage: 50, total: 5, totalPages: 1 });
    expect(page.items[0]).toEqual({
      source: 'roku_app',
      clientId: '11',
      userId: 'v1',
      channelId: 201,
      startedAt: min(0),
      endedAt: min(2),
      lastHeartbeatAt: min(2),
      creditedSeconds: 120,
      heartbeats: 3,
      open: false,
    });
    expect(page.items.map((s: any) => [s.userId, s.channelId, s.creditedSeconds, s.open, s.endedAt])).toEqual([
      ['v1', 201, 120, false, min(2)],
      ['v2', 201, 60, false, min(0, 30)],
      ['v1', 202, 300, false, min(10)],
      [null, 202, 60, false, '2026-11-21T23:59:00.000Z'],
      ['v3', 201, 120, true, null],
    ]);
    expect(page.items[3].clientId).toBeNull();
    // Four minutes later the last one has stopped too.
    const later = await data(`sessions?${RANGE}&channelId=201`, beforeNow(-4));
    expect(later.items.map((s: any) => s.open)).toEqual([false, false, false]);
  });

  it('pages sessions', async () => {
    const second = await data(`sessions?${RANGE}&perPage=2&page=2`);
    expect([second.items.map((s: any) => s.channelId), second.total, second.totalPages]).toEqual([[202, 202], 5, 3]);
    expect((await data(`sessions?${RANGE}&perPage=2&page=9`)).items).toEqual([]);
    expect((await get(`sessions?${RANGE}`)).headers['x-total-count']).toBe('5');
  });

  it('counts viewers watching per interval, buckets aligned to UTC', async () => {
    const five = await data('concurrency?from=2026-11-20T10:00:00Z&to=2026-11-20T10:15:00Z&interval=5m');
    expect(five).toMatchObject({ from: min(0), to: min(15), interval: '5m', intervalSeconds: 300, channelId: null });
    expect(five.buckets).toEqual([
      { start: min(0), end: min(5), viewers: 2 },
      { start: min(5), end: min(10), viewers: 1 },
      { start: min(10), end: min(15), viewers: 0 },
    ]);
    const widened = await data('concurrency?from=2026-11-20T10:01:30Z&to=2026-11-20T10:02:10Z&interval=1m');
    expect(widened.buckets.map((b: any) => [b.start, b.viewers])).toEqual([
      [min(1), 2],
      [min(2), 0],
    ]);
    const daily = await data(`concurrency?${RANGE}&interval=1d&channelId=201`);
    expect(daily.buckets.map((b: any) => b.viewers)).toEqual([2, 0, 1]);
  });

  it('exports CSV when asked with Accept: text/csv', async () => {
    const sessions = await get('sessions?from=2026-11-10&to=2026-11-11', { accept: 'text/csv' });
    expect(sessions.statusCode).toBe(200);
    expect(sessions.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(sessions.body).toBe(
      'source,clientId,userId,channelId,startedAt,endedAt,lastHeartbeatAt,creditedSeconds,heartbeats,open\r\n' +
        `roku_app,11,"'=HYPERLINK(""x""),y",201,2026-11-10T08:00:00.000Z,2026-11-10T08:00:00.000Z,2026-11-10T08:00:00.000Z,60,1,false\r\n`,
    );
    const summary = await get(`summary?${RANGE}`, { accept: 'application/json;q=0.5, text/csv' });
    expect(summary.body).toBe('channelId,channelName,watchSeconds,sessions,uniqueViewers,averageSessionSeconds\r\n201,Alice News,300,3,3,100\r\n202,Alice Music,360,2,2,180\r\n');
    const concurrency = await get('concurrency?from=2026-11-20T10:00:00Z&to=2026-11-20T10:10:00Z&interval=5m', { accept: 'text/csv' });
    expect(concurrency.body).toBe(`start,end,viewers\r\n${min(0)},${min(5)},2\r\n${min(5)},${min(10)},1\r\n`);
    expect((await get(`summary?${RANGE}`, { accept: 'text/csv;q=0.1, application/json' })).json().success).toBe(true);
  });

  it("shows only the caller's channels", async () => {
    const other = await get(`sessions?${RANGE}&channelId=401`);
    expect([other.statusCode, other.json().error.code]).toEqual([404, 'channel_not_found']);
    expect((await get(`sessions?${RANGE}&channelId=999`)).statusCode).toBe(404);
    const everything = await data(`sessions?${RANGE}&perPage=500`);
    expect(everything.items.map((s: any) => s.userId)).not.toContain('v9');
    const unauthenticated = await t.request({ url: `${REST}/analytics/summary` });
    expect([unauthenticated.statusCode, unauthenticated.json().error.code]).toEqual([401, 'unauthorized']);
  });

  it('refuses bad parameters with 400 invalid_request', async () => {
    const bad = [
      'summary?from=yesterday',
      'summary?from=2026-11-20T10:00:00',
      'summary?from=2026-02-30',
      'summary?from=2026-11-21T00:00:00Z&to=2026-11-20T00:00:00Z',
      'summary?from=2026-11-21T00:00:00Z&to=2026-11-21T00:00:00Z',
      'summary?from=2026-01-01&to=2026-06-01',
      'summary?groupBy=week',
      'summary?channelid=201',
      'summary?from=a&from=b',
      'sessions?page=0',
      'sessions?perPage=501',
      'sessions?page=1.5',
      'sessions?channelId=abc',
      'concurrency?interval=2m',
      'concurrency?interval=1m&from=2026-08-01&to=2026-10-31',
    ];
    for (const path of bad) {
      const response = await get(path);
      expect([path, response.statusCode, response.json().error?.code]).toEqual([path, 400, 'invalid_request']);
    }
  });
});

describe('analytics helpers', () => {
  it('resolves ranges and limits them', () => {
    const now = new Date('2026-11-22T12:00:00Z');
    expect(resolveRange(undefined, undefined, now)).toEqual({ ok: true, value: { from: new Date('2026-11-15T12:00:00Z'), to: now } });
    expect(resolveRange(new Date('2026-11-01T00:00:00Z'), undefined, now)).toMatchObject({ ok: true, value: { to: now } });
    expect(resolveRange(new Date('2026-01-01T00:00:00Z'), undefined, now)).toMatchObject({ ok: false });
  });

  it('aligns buckets to UTC multiples of the interval', () => {
    const range = { from: new Date('2026-11-20T10:07:00Z'), to: new Date('2026-11-20T12:00:01Z') };
    expect(bucketsFor(range, '1h')).toEqual({ ok: true, value: { origin: Date.parse('2026-11-20T10:00:00Z') / 1000, stepSeconds: 3600, count: 3 } });
  });

  it('writes RFC 4180 CSV and defuses formulas', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvField('-1')).toBe("'-1");
    expect(csvField(-1)).toBe('-1');
    expect(csvField(null)).toBe('');
    expect(csvField(new Date(0))).toBe('1970-01-01T00:00:00.000Z');
    expect(toCsv([{ header: 'a', value: (r: { a: number }) => r.a }], [{ a: 1 }, { a: 2 }])).toBe('a\r\n1\r\n2\r\n');
  });

  it('negotiates CSV only when text/csv is preferred', () => {
    expect(prefersCsv('text/csv')).toBe(true);
    expect(prefersCsv('text/csv, application/json')).toBe(true);
    expect(prefersCsv('application/json, text/csv;q=0.5')).toBe(false);
    expect(prefersCsv('text/csv;q=0')).toBe(false);
    expect(prefersCsv('*/*')).toBe(false);
    expect(prefersCsv(undefined)).toBe(false);
  });
});
