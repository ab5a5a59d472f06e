// The read model of viewer answers (src/cache/answer-cache.ts, src/http/answers.ts): a kept answer
// is the bytes a fresh computation sends; If-None-Match answers 304; max-age never reaches past
// the answer's next change; an edit drops exactly the answers it touched, in this instance and in
// another on the same database; answers that depend on the viewer (paid apps, pay-per-view,
// private channels, REST tokens) are never kept nor shared. On the Custom fixture (test/support/custom.ts):
// alice's Fire TV app (304) is free and carries 204 (UTC; live 20:00-21:00Z) and 201 (New York);
// the mobile app (301) is paid, the Android TV app (302) sells VOD by pay-per-view, 202 is private.
import type { FastifyInstance } from 'fastify';
import { gunzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../src/app.ts';
import { OWNER, VIEWER } from './fixtures/catalog.ts';
import { TEST_NOW, type TestApp } from './support/app.ts';
import { BASE, customTestApp } from './support/custom.ts';
import { BACKENDS } from './support/db.ts';

const FIRETV = { 'platform-id': 'fire-tv' };
const LIST = `${BASE}/users/11/channels`;
const GUIDE = (channel: number) => `${BASE}/users/11/channels/video?channels_ids=${channel}&dates=2026-11-21&timezone=UTC`;
const CONFIG = {
  LOG_LEVEL: 'silent',
  RATE_LIMIT_ENABLED: false,
  CHANNELNET_TEST_CLOCK: true,
  MAX_EVENT_LOOP_DELAY_MS: 0,
  STORE_NOTIFICATION_POLL_MS: 0,
  GUIDE_WARM_DAYS: 0,
  ANSWER_MAX_AGE_SECONDS: 86_400,
} as const;

const maxAge = (response: { headers: Record<string, unknown> }) => Number(/max-age=(\d+)/.exec(String(response.headers['cache-control']))?.[1]);

describe.each(BACKENDS)('the read model of viewer answers on %s', (backend) => {
  let t: TestApp;
  /** An app on the same database keeping nothing: every answer computed afresh. */
  let fresh: FastifyInstance;
  beforeAll(async () => {
    t = await customTestApp(backend, { ANSWER_MAX_AGE_SECONDS: 86_400 });
    fresh = await buildApp({ database: t.database, config: { ...CONFIG, ANSWER_CACHE_BYTES: 0 } });
  });
  afterAll(async () => {
    await fresh?.close();
    await t?.close();
  });

  const get = (url: string, headers: Record<string, string> = {}, now = TEST_NOW) => t.request({ method: 'GET', url, headers: { ...headers, 'x-test-now': now } });
  const computed = (url: string, headers: Record<string, string> = {}, now = TEST_NOW) => fresh.inject({ method: 'GET', url, headers: { ...headers, 'x-test-now': now } });
  const stats = () => t.app.answers.stats();

  it('serves a kept answer as the bytes a fresh computation sends, with the same headers, on every read route', async () => {
    const routes: [string, Record<string, string>][] = [
      [LIST, FIRETV],
      [`${LIST}?timezone=Asia/Tokyo`, FIRETV],
      [`${BASE}/users/11/categories`, FIRETV],
      [`${BASE}/users/11/languages`, FIRETV],
      [GUIDE(201), FIRETV],
      [`${BASE}/users/11/channels/vod?channels_ids=201`, FIRETV],
      [`${BASE}/users/11/app_settings`, FIRETV],
      [`${BASE}/users/11/settings`, {}],
      [`${BASE}/channels/201/vast`, { 'platform-id': 'roku' }],
      ['/WebServices/TVAppGeneratorService.asmx/GetUserTVApp?userId=11&platform=fire-tv&skipImages=true', {}],
    ];
    for (const [url, headers] of routes) {
      const first = await get(url, headers);
      const before = stats().hits;
      const kept = await get(url, headers);
      expect(stats().hits, url).toBe(before + 1);
      const afresh = await computed(url, headers);
      expect([kept.statusCode, kept.rawPayload.equals(first.rawPayload), kept.rawPayload.equals(afresh.rawPayload)], url).toEqual([200, true, true]);
      for (const name of ['content-type', 'etag', 'cache-control', 'vary']) expect(kept.headers[name], `${url} ${name}`).toBe(afresh.headers[name]);
      expect(kept.headers.etag, url).toMatch(/^"[\w-]+"$/);
      expect(kept.headers['cache-control'], url).toMatch(/^public, max-age=\d+$/);
    }
    // A header left out of the key still gets the route's refusal: an overlong Device-Id is a 422, not the kept list.
    expect((await get(LIST, { ...FIRETV, 'device-id': 'd'.repeat(300) })).statusCode).toBe(422);
    // Vary names exactly what the answers read beside the URL.
    expect((await get(LIST, FIRETV)).headers.vary).toBe('platform-id, platform, timezone, Accept-Encoding');
    expect((await get(`${BASE}/users/11/app_settings`, FIRETV)).headers.vary).toBe('platform-id, platform, Accept-Encoding');
    expect((await get(`${BASE}/users/11/settings`)).headers.vary).toBe('Accept-Encoding');
  });

  it('shares one list answer among the zones with the same day window, and only among them', async () => {
    const inZone = (zone: string) => get(`${LIST}?timezone=${zone}&category_id=0`, FIRETV);
    const newYork = await inZone('America/New_York');
    let before = stats();
    const detroit = await inZone('America/Detroit');
    expect([stats().hits, stats().misses]).toEqual([before.hits + 1, before.misses + 1]); // its URL missed, its window hit
    expect([detroit.rawPayload.equals(newYork.rawPayload), detroit.headers.etag]).toEqual([true, newYork.headers.etag]);
    expect(detroit.rawPayload.equals((await computed(`${LIST}?timezone=America/Detroit&category_id=0`, FIRETV)).rawPayload)).toBe(true);
    before = stats();
    const tokyo = await inZone('Asia/Tokyo');
    expect(stats().hits).toBe(before.hits);
    expect(tokyo.rawPayload.equals((await computed(`${LIST}?timezone=Asia/Tokyo&category_id=0`, FIRETV)).rawPayload)).toBe(true);
    // Another filter is another answer, whatever the window.
    expect((await get(`${LIST}?timezone=America/Detroit&category_id=2`, FIRETV)).rawPayload.equals(newYork.rawPayload)).toBe(false);
  });

  it('keys only the parameters a route takes: 60 requests with junk parameters make no new answer and evict none (issue 35)', async () => {
    const url = `${BASE}/users/11/categories?timezone=UTC`;
    const first = await get(url, FIRETV);
    const { entries, evictions } = stats();
    const hits = stats().hits;
    for (let i = 0; i < 60; i++) {
      const junk = await get(`${url}&x=${i}&utm_source=a${i}`, FIRETV);
      expect([junk.statusCode, junk.rawPayload.equals(first.rawPayload)]).toEqual([200, true]);
    }
    expect(stats()).toMatchObject({ entries, evictions, hits: hits + 60 });
    // The order of the parameters a route takes does not make a new answer either.
    const reordered = await get(`${BASE}/users/11/channels?timezone=UTC&skip=0`, FIRETV);
    const before = stats().hits;
    expect((await get(`${BASE}/users/11/channels?skip=0&timezone=UTC`, FIRETV)).rawPayload.equals(reordered.rawPayload)).toBe(true);
    expect(stats().hits).toBe(before + 1);
  });

  it('sends a kept answer of a kilobyte or more gzipped to a client that takes gzip, with its own ETag; either ETag answers 304', async () => {
    const ROUTE = GUIDE(201);
    const plain = await get(ROUTE, FIRETV);
    expect(plain.rawPayload.length).toBeGreaterThan(1024);
    expect(plain.headers['content-encoding']).toBeUndefined();
    for (const round of ['computed', 'kept']) {
      if (round === 'computed') t.app.answers.invalidate(true);
      const gz = await get(ROUTE, { ...FIRETV, 'accept-encoding': 'br;q=1, gzip;q=0.8' });
      expect([gz.statusCode, gz.headers['content-encoding'], gz.headers.etag], round).toEqual([200, 'gzip', `${plain.headers.etag!.toString().slice(0, -1)}-gz"`]);
      expect(gunzipSync(gz.rawPayload).equals(plain.rawPayload), round).toBe(true);
      expect(gz.rawPayload.length, round).toBeLessThan(plain.rawPayload.length * 0.6);
    }
    // gzip refused (q=0) or not named: the identity bytes.
    expect((await get(ROUTE, { ...FIRETV, 'accept-encoding': 'gzip;q=0, identity' })).headers['content-encoding']).toBeUndefined();
    for (const etag of [plain.headers.etag as string, `${(plain.headers.etag as string).slice(0, -1)}-gz"`]) {
      const revalidated = await get(ROUTE, { ...FIRETV, 'accept-encoding': 'gzip', 'if-none-match': etag });
      expect([revalidated.statusCode, revalidated.rawPayload.length], etag).toEqual([304, 0]);
      // The 304 names the representation the client holds.
      expect(revalidated.headers.etag, etag).toBe(etag);
    }
    // A small answer goes out as it is.
    expect((await get(`${BASE}/users/11/languages`, { ...FIRETV, 'accept-encoding': 'gzip' })).headers['content-encoding']).toBeUndefined();
  });

  it('answers 304 without a body to If-None-Match naming the kept answer (strong or weak), 200 otherwise', async () => {
    const first = await get(GUIDE(201), FIRETV);
    const etag = first.headers.etag as string;
    for (const header of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const revalidated = await get(GUIDE(201), { ...FIRETV, 'if-none-match': header });
      expect([revalidated.statusCode, revalidated.body, revalidated.headers.etag], header).toEqual([304, '', etag]);
      expect(revalidated.headers['cache-control']).toBe(first.headers['cache-control']);
    }
    const changed = await get(GUIDE(201), { ...FIRETV, 'if-none-match': '"other"' });
    expect([changed.statusCode, changed.rawPayload.equals(first.rawPayload)]).toEqual([200, true]);
    // Computed afresh (nothing kept: an eviction, another instance), the same bytes still answer 304.
    const uncached = await computed(GUIDE(201), { ...FIRETV, 'if-none-match': etag });
    expect([uncached.statusCode, uncached.body, uncached.headers.etag, uncached.headers['content-type']]).toEqual([304, '', etag, undefined]);
    // Another request (another zone) is another answer, with another validator.
    expect((await get(GUIDE(201).replace('UTC', 'Asia/Tokyo'), { ...FIRETV, 'if-none-match': etag })).statusCode).toBe(200);
  });

  it('never keeps an answer past its next change: max-age reaches the end of a live stream, then a new answer', async () => {
    // 204's live stream ends at 21:00Z: liveAvailable turns false then.
    const before = await get(LIST, FIRETV, '2026-11-21T20:59:30Z');
    expect(maxAge(before)).toBe(30);
    expect(before.json().data.find((c: any) => c.id === 204).liveAvailable).toBe(true);
    expect((await get(LIST, FIRETV, '2026-11-21T20:59:50Z')).rawPayload.equals(before.rawPayload)).toBe(true);
    const after = await get(LIST, FIRETV, '2026-11-21T21:00:05Z');
    expect(after.json().data.find((c: any) => c.id === 204)?.liveAvailable ?? false).toBe(false);
    expect(after.json()).toEqual((await computed(LIST, FIRETV, '2026-11-21T21:00:05Z')).json());
    // A time before the kept answer was computed is not served from it either (the test clock goes back).
    expect((await get(LIST, FIRETV, '2026-11-21T20:59:40Z')).json()).toEqual(before.json());

    // A guide: at most until the next programme boundary of its rows (rendered in UTC here).
    for (const now of ['2026-11-21T08:59:59Z', TEST_NOW, '2026-11-21T23:59:00Z']) {
      const guide = await get(GUIDE(201), FIRETV, now);
      const instants = guide
        .json()
        .data.flatMap((row: any) => [row.startDate, row.endDate])
        .map((label: string) => Date.parse(`${label.replace(' ', 'T')}Z`));
      const next = Math.min(...instants.filter((at: number) => at > Date.parse(now)));
      const age = maxAge(guide);
      expect(Date.parse(now) + age * 1000, now).toBeLessThanOrEqual(next);
      if (Number.isFinite(next)) expect(age, now).toBe(Math.floor((next - Date.parse(now)) / 1000));
    }
    // VOD rows start at the request time, to the second: kept until the next second only.
    const vod = await get(`${BASE}/users/11/channels/vod?channels_ids=201`, FIRETV, '2026-11-21T15:00:00.250Z');
    expect(maxAge(vod)).toBe(0);
    const later = await get(`${BASE}/users/11/channels/vod?channels_ids=201`, FIRETV, '2026-11-21T15:00:01Z');
    expect(later.json().data[0].startDate).toBe('2026-11-21 10:00:01');
  });

  it('never keeps nor shares an answer that depends on the viewer: a paid app, pay-per-view, a private channel', async () => {
    // The paid mobile app: device-1 subscribes; another device is refused, never given device-1's answer.
    const paid = await get(LIST, { 'platform-id': 'android', 'device-id': 'device-1' });
    expect([paid.statusCode, paid.headers['cache-control'], paid.headers.etag]).toEqual([200, 'private, no-store', undefined]);
    const intruder = await get(LIST, { 'platform-id': 'android', 'device-id': 'device-9' });
    expect([intruder.statusCode, intruder.headers['cache-control']]).toEqual([403, undefined]);
    expect((await get(LIST, { 'platform-id': 'android' })).statusCode).toBe(403);
    // Android TV sells 201's VOD by pay-per-view: device-2's unlock of 5002 is its own.
    const vod = `${BASE}/users/11/channels/vod?channels_ids=201`;
    const buyer = await get(vod, { 'platform-id': 'android-tv', 'device-id': 'device-2' });
    expect(buyer.headers['cache-control']).toBe('private, no-store');
    expect(buyer.json().data.find((r: any) => r.videoTubeId === 5002).streamUrl).not.toBeNull();
    const other = await get(vod, { 'platform-id': 'android-tv', 'device-id': 'device-3' });
    expect(other.json().data.find((r: any) => r.videoTubeId === 5002).streamUrl).toBeNull();
    // No Platform-Id: the strictest gate reads every app, the paid one too.
    expect((await get(GUIDE(201))).headers['cache-control']).toBe('private, no-store');

    // The free Fire TV app made to carry private 202: its guide is per device (an unlock opens it to one).
    await t.database.db.execute(sql`insert into app_channels (app_id, channel_id, position) values (304, 202, 9)`);
    await t.database.db.execute(sql`select pg_notify('channelnet_catalog', '{"owner":11}')`);
    await vi.waitFor(async () => expect((await get(GUIDE(202), FIRETV)).json().data.length).toBeGreaterThan(0), { timeout: 5_000, interval: 20 });
    const locked = await get(GUIDE(202), { ...FIRETV, 'device-id': 'tv-a' });
    expect([locked.headers['cache-control'], locked.json().data.map((r: any) => r.streamUrl)]).toEqual(['private, no-store', [null, null]]);
    const unlock = await t.request({ method: 'POST', url: `${BASE}/getChannelToken`, payload: { channel_id: 202, password: 'letmein' }, headers: { 'device-id': 'tv-a' } });
    expect(unlock.statusCode).toBe(200);
    expect((await get(GUIDE(202), { ...FIRETV, 'device-id': 'tv-a' })).json().data[0].streamUrl).not.toBeNull();
    const attacker = await get(GUIDE(202), { ...FIRETV, 'device-id': 'tv-b' });
    expect(attacker.json().data.map((r: any) => r.streamUrl)).toEqual([null, null]);
    // The list names 202 private and plays nothing: still one answer for everyone.
    expect((await get(LIST, FIRETV)).headers['cache-control']).toMatch(/^public/);
  });

  it('keeps REST answers per account, behind the Bearer check: a revoked token or another owner gets none of them', async () => {
    const login = async (username: string, password: string) =>
      (await t.request({ method: 'POST', url: '/api/v1/rest/auth/login', payload: { username, password } })).json().data.authToken as string;
    const alice = await login(OWNER.username, OWNER.password);
    const read = (token: string, url = '/api/v1/rest/channels') => get(url, { authorization: `Bearer ${token}` });
    const first = await read(alice);
    expect([first.statusCode, first.headers['cache-control'], first.headers.vary]).toEqual([200, 'private, no-cache', 'Authorization, Accept-Encoding']);
    const hits = stats().hits;
    const again = await read(alice);
    expect([stats().hits, again.rawPayload.equals(first.rawPayload)]).toEqual([hits + 1, true]);
    expect((await get('/api/v1/rest/channels', { authorization: `Bearer ${alice}`, 'if-none-match': first.headers.etag as string })).statusCode).toBe(304);
    // Another account (the viewer victor) sees its own channels, never alice's.
    const victor = await login(VIEWER.username, VIEWER.password);
    const theirs = await read(victor);
    expect(theirs.rawPayload.equals(first.rawPayload)).toBe(false);
    expect(theirs.json().data.map((c: any) => c.channelTubeId)).not.toContain(201);
    // Signed out: the token is refused before any kept answer, in the answer and on revalidation.
    await t.request({ method: 'POST', url: '/api/v1/rest/auth/logout', headers: { authorization: `Bearer ${alice}` } });
    expect((await read(alice)).statusCode).toBe(401);
    expect((await get('/api/v1/rest/channels', { authorization: `Bearer ${alice}`, 'if-none-match': first.headers.etag as string })).statusCode).toBe(401);
    expect((await get('/api/v1/rest/channels')).statusCode).toBe(401);
  });

  it('drops exactly the answers an edit touched, in this instance and in another on the same database', async () => {
    const other = await buildApp({ database: t.database, config: CONFIG });
    try {
      const otherGet = (url: string, headers: Record<string, string> = {}) => other.inject({ method: 'GET', url, headers: { ...headers, 'x-test-now': TEST_NOW } });
      for (const read of [get, otherGet]) for (const url of [LIST, GUIDE(201), GUIDE(204)]) expect((await read(url, FIRETV)).statusCode).toBe(200);
      const login = (await t.request({ method: 'POST', url: '/api/v1/rest/auth/login', payload: { username: OWNER.username, password: OWNER.password } })).json().data.authToken;
      const patched = await t.request({ method: 'PATCH', url: '/api/v1/studio/channels/201', payload: { name: 'Alice Headlines' }, headers: { authorization: `Bearer ${login}` } });
      expect(patched.statusCode, patched.body).toBe(200);

      const expectDropped = async (figures: () => { hits: number; misses: number }, read: typeof get) => {
        // 204's guide is another channel's: kept. The list (owner-wide) and 201's guide: computed again.
        let before = figures();
        expect((await read(GUIDE(204), FIRETV)).statusCode).toBe(200);
        expect(figures().hits).toBe(before.hits + 1);
        before = figures();
        const list = await read(LIST, FIRETV);
        expect(list.json().data.find((c: any) => c.id === 201).name).toBe('Alice Headlines');
        // Missed under its URL and under its day window (the zones' shared key).
        expect([figures().hits, figures().misses]).toEqual([before.hits, before.misses + 2]);
        before = figures();
        await read(GUIDE(201), FIRETV);
        expect(figures().misses).toBe(before.misses + 1);
      };
      await expectDropped(stats, get);
      // The other instance hears the NOTIFY a moment after the commit: of its three answers, the list and 201's guide go.
      await vi.waitFor(() => expect(other.answers.stats().entries).toBe(1), { timeout: 5_000, interval: 20 });
      await expectDropped(() => other.answers.stats(), otherGet);
    } finally {
      await other.close();
    }
  });

  it('shows every cache in /metrics', async () => {
    const metrics = (await t.request({ method: 'GET', url: '/metrics' })).body;
    for (const cache of ['published_windows', 'zone_offsets']) expect(metrics).toMatch(new RegExp(`channelnet_cache_bytes\\{cache="${cache}"\\} \\d+`));
    for (const cache of ['answers', 'catalog', 'guides', 'schedule_days']) {
      expect(metrics).toMatch(new RegExp(`channelnet_cache_bytes\\{cache="${cache}"\\} \\d+`));
      expect(metrics).toMatch(new RegExp(`channelnet_cache_entries\\{cache="${cache}"\\} \\d+`));
    }
    for (const figure of ['hits', 'misses', 'evictions']) expect(metrics).toMatch(new RegExp(`channelnet_cache_${figure}_total\\{cache="answers"\\} \\d+`));
  });
});
