// Who may tune in (docs/linear.md: Who may tune in), through the M3U, the guide, the tuner's
// documents and mayPlayLive: an app's guide key lists and plays only what anyone may watch (no
// private channel, nothing a paid app sells, only channels with linear output on); a viewer's
// personal link lists what that viewer holds and stops when revoked, or when the entitlement ends,
// within the kept answer's bound (passed with the test clock); every tvg-id is in the same key's
// XMLTV; numbers are unique and match the tuner's GuideNumber.
//
// The catalog: alice's free Android TV app 302 carries 201 (number 7), 202 (private), 204 (a name
// built to break an M3U), 205 and 206 (linear output off); her paid mobile app 301 carries 202,
// 201 and 205. victor (12) subscribes to 301.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { setLinearEnabled } from '../src/data/live-access.ts';
import { ACCESS_KEEP_MS, ACCESS_STALE_MS, liveLineup, mayPlayLive } from '../src/linear/live-access.ts';
import { MAX_LIVE_LINKS } from '../src/linear/live-links.ts';
import { TEST_NOW } from './support/app.ts';
import { BACKENDS } from './support/db.ts';
import { studioCatalog, studioTest, type StudioTest } from './support/studio.ts';
import { checkXmltv } from './support/xmltv.ts';

const EVIL = 'Evil" tvg-id="channel-201.channelnet\n#EXTINF:-1,Fake\nhttp://evil.example/x.m3u8';

function liveCatalog() {
  const catalog = studioCatalog();
  const channel = (id: number, extra: object = {}) => ({
    id,
    ownerId: 11,
    name: `Alice ${id}`,
    url: `alice-${id}`,
    categoryId: 1,
    videoIds: [5001],
    createdAt: '2026-01-01T00:00:00Z',
    schedules: [{ id: 9000 + id, startTime: '2026-11-21T08:00:00', loopDaily: true, videoIds: [5001] }],
    ...extra,
  });
  catalog.channels.push(channel(204, { pictureUrl: 'https://img.example/204.png', categoryId: 2 }), channel(205), channel(206));
  const app = (id: number) => catalog.apps.find((a: { id: number }) => a.id === id);
  app(302).channels = [{ channelId: 201, channelNumber: '7' }, { channelId: 202 }, { channelId: 204 }, { channelId: 205 }, { channelId: 206 }];
  app(301).channels.push({ channelId: 205 });
  return catalog;
}

interface M3uRead {
  header: string;
  entries: { attributes: Record<string, string>; title: string; url: string }[];
}

/** The M3U as an IPTV parser reads it: each #EXTINF's quoted attributes, its title and the URL line after it. */
function readM3u(text: string): M3uRead {
  const lines = text.split('\n');
  expect(lines.pop()).toBe('');
  const header = lines.shift()!;
  expect(header).toMatch(/^#EXTM3U url-tvg="[^"]+" x-tvg-url="[^"]+"$/);
  const entries = [];
  for (let i = 0; i < lines.length; i += 2) {
    const info = /^#EXTINF:-1((?: [a-z-]+="[^"]*")*),(.*)$/.exec(lines[i]!);
    expect(info, lines[i]).not.toBeNull();
    expect(lines[i + 1]).toMatch(/^https?:\/\/\S+$/);
    entries.push({ attributes: Object.fromEntries([...info![1]!.matchAll(/ ([a-z-]+)="([^"]*)"/g)].map((m) => [m[1]!, m[2]!])), title: info![2]!, url: lines[i + 1]! });
  }
  return { header, entries };
}

const later = (ms: number) => new Date(Date.parse(TEST_NOW) + ms).toISOString();

describe.each(BACKENDS)('who may tune in, on %s', (backend) => {
  let s: StudioTest;
  let freeKey: string;
  let paidKey: string;
  const db = () => s.t.database.db;
  const get = (url: string, now?: string) => s.t.request({ method: 'GET', url, ...(now ? { now } : {}) });
  const rest = (method: string, url: string, token: string, body?: unknown, now?: string) =>
    s.t.request({
      method: method as never,
      url: `/api/v1/rest${url}`,
      headers: { authorization: `Bearer ${token}` },
      ...(body === undefined ? {} : { payload: body as never }),
      ...(now ? { now } : {}),
    });
  const m3u = async (key: string, now?: string) => {
    const response = await get(`/api/v1/live/${key}/channels.m3u`, now);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('audio/x-mpegurl; charset=utf-8');
    expect(response.headers['access-control-allow-origin']).toBe('*');
    return readM3u(response.body);
  };
  const listed = (read: M3uRead) => read.entries.map((e) => e.attributes['tvg-id']);
  const guideIds = async (key: string, now?: string) => {
    const response = await get(`/api/v1/rest/epg/${key}.xml?days=1`, now);
    expect(response.statusCode, response.body).toBe(200);
    return checkXmltv(response.body).channels.map((c) => c.id);
  };

  beforeAll(async () => {
    s = await studioTest(backend, liveCatalog());
    await db().execute(sql`update channels set name = ${EVIL} where id = 204`);
    for (const id of [201, 202, 204, 205]) await setLinearEnabled(db(), id, true, new Date(TEST_NOW));
    await setLinearEnabled(db(), 206, false, new Date(TEST_NOW));
    const key = async (platform: string) => {
      const response = await s.call('POST', `/apps/${platform}/epg-key`);
      expect(response.statusCode, response.body).toBe(201);
      return response.json().data.key as string;
    };
    freeKey = await key('androidtv');
    paidKey = await key('mobile');
  });
  afterAll(() => s.t.close());

  it("an app key lists the public linear channels in the app's order, each tvg-id in the same key's XMLTV, numbers unique", async () => {
    const read = await m3u(freeKey);
    expect(read.header).toBe(`#EXTM3U url-tvg="http://localhost:80/api/v1/rest/epg/${freeKey}.xml" x-tvg-url="http://localhost:80/api/v1/rest/epg/${freeKey}.xml"`);
    // 202 is private, 206 has linear output off.
    expect(listed(read)).toEqual(['channel-201.channelnet', 'channel-204.channelnet', 'channel-205.channelnet']);
    const ids = await guideIds(freeKey);
    for (const id of listed(read)) expect(ids).toContain(id);
    // The app's own number for 201; the others by place (204 is 3rd, 205 4th).
    expect(read.entries.map((e) => e.attributes['tvg-chno'])).toEqual(['7', '3', '4']);
    expect(read.entries.map((e) => e.url)).toEqual([201, 204, 205].map((id) => `http://localhost:80/api/v1/live/${freeKey}/${id}/master.m3u8`));
    // The name made to inject an entry stays one attribute and one title.
    const evil = read.entries[1]!;
    expect(evil.attributes).toMatchObject({ 'tvg-id': 'channel-204.channelnet', 'tvg-logo': 'https://img.example/204.png', 'group-title': 'Music' });
    expect(evil.title).toBe("Evil' tvg-id='channel-201.channelnet #EXTINF:-1,Fake http://evil.example/x.m3u8");
    expect(read.entries[0]).toMatchObject({ title: 'Alice News', attributes: { 'tvg-name': 'Alice News', 'group-title': 'News' } });
  });

  it("without PUBLIC_URL the base is the request's Host, and a Host that is not one is not written", async () => {
    const forged = await s.t.request({ method: 'GET', url: `/api/v1/live/${freeKey}/channels.m3u`, headers: { host: 'forged.example"\n#x' } });
    expect(forged.statusCode).toBe(200);
    expect(forged.body).not.toContain('forged');
    expect(forged.body.split('\n')[2]).toBe(`/api/v1/live/${freeKey}/201/master.m3u8`);
    expect(forged.headers['cache-control']).toBe('private, max-age=5');
  });

  it("mayPlayLive: an app key plays what it lists and refuses a private channel, one with linear off, another app's", async () => {
    const now = new Date(TEST_NOW);
    expect(await mayPlayLive(db(), freeKey, 201, now)).toEqual({ appId: 302, ownerId: 11 });
    for (const id of [202, 206, 203, 601, 999]) expect(await mayPlayLive(db(), freeKey, id, now), String(id)).toBeUndefined();
    expect(await mayPlayLive(db(), 'x'.repeat(43), 201, now)).toBeUndefined();
    expect(await mayPlayLive(db(), `vl.${'x'.repeat(43)}`, 201, now)).toBeUndefined();
  });

  it("a paid app's key lists nothing and plays nothing: what it sells never leaks", async () => {
    expect((await m3u(paidKey)).entries).toEqual([]);
    for (const id of [201, 202, 205]) expect(await mayPlayLive(db(), paidKey, id, new Date(TEST_NOW))).toBeUndefined();
  });

  it('an unknown key is 404 in the envelope', async () => {
    for (const key of ['nope', 'x'.repeat(43), `vl.${'y'.repeat(43)}`]) {
      const response = await get(`/api/v1/live/${key}/channels.m3u`);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ success: false, error: { code: 'live_key_not_found', message: expect.any(String) } });
    }
  });

  it("a viewer's link lists what they hold, its guide has every tvg-id, and it stops within the bound once revoked", async () => {
    const made = await rest('POST', '/live-links', s.tokens.victor, { appId: 301 });
    expect(made.statusCode, made.body).toBe(201);
    const link = made.json().data;
    expect(link).toMatchObject({ appId: 301, createdAt: TEST_NOW.replace('Z', '.000Z') });
    const key = /\/api\/v1\/live\/(vl\.[A-Za-z0-9_-]{43})\/channels\.m3u$/.exec(link.m3uUrl)![1]!;
    expect(link.guideUrl).toBe(`http://localhost:80/api/v1/rest/epg/${key}.xml`);
    expect(link.tunerUrl).toBe(`http://localhost:80/hdhr/${key}`);
    // Subscribed to the paid app: 201 and 205 (not 202: private, not unlocked by victor).
    const read = await m3u(key);
    expect(listed(read)).toEqual(['channel-201.channelnet', 'channel-205.channelnet']);
    expect(read.header).toContain(`url-tvg="${link.guideUrl}"`);
    expect(await guideIds(key)).toEqual(listed(read));
    expect(await mayPlayLive(db(), key, 205, new Date(TEST_NOW))).toEqual({ appId: 301, ownerId: 11, viewerId: 12 });
    // Listed without its key.
    const list = await rest('GET', '/live-links', s.tokens.victor);
    expect(list.json().data).toEqual([{ id: link.id, appId: 301, createdAt: link.createdAt }]);
    expect(list.body).not.toContain(key);
    // Another account cannot revoke it.
    expect((await rest('DELETE', `/live-links/${link.id}`, s.tokens.alice)).statusCode).toBe(404);
    const revoked = await rest('DELETE', `/live-links/${link.id}`, s.tokens.victor);
    expect(revoked.json()).toEqual({ success: true, data: { id: link.id, revoked: true } });
    expect((await rest('DELETE', `/live-links/${link.id}`, s.tokens.victor)).statusCode).toBe(404);
    // Kept at most ACCESS_STALE_MS: gone once that has passed, everywhere.
    const after = later(ACCESS_STALE_MS);
    expect((await get(`/api/v1/live/${key}/channels.m3u`, after)).statusCode).toBe(404);
    expect((await get(`/api/v1/rest/epg/${key}.xml`, after)).statusCode).toBe(404);
    expect(await mayPlayLive(db(), key, 201, new Date(after))).toBeUndefined();
    expect((await rest('GET', '/live-links', s.tokens.victor)).json().data).toEqual([]);
  });

  it("a link follows the viewer's entitlements: an unlock opens a private channel, a revoked subscription closes the paid ones", async () => {
    const key = /live\/(vl\.[^/]+)\//.exec((await rest('POST', '/live-links', s.tokens.victor, { appId: 301 })).json().data.m3uUrl)![1]!;
    await db().execute(sql`insert into channel_unlocks (channel_id, device_id, viewer_id, unlocked_at) values (202, null, 12, now())`);
    const t1 = later(2 * ACCESS_KEEP_MS);
    expect(listed(await m3u(key, t1))).toEqual(['channel-202.channelnet', 'channel-201.channelnet', 'channel-205.channelnet']);
    await db().execute(sql`update subscriptions set status = 'revoked' where app_id = 301`);
    expect(listed(await m3u(key, t1))).toHaveLength(3); // kept, within the bound
    // Past ACCESS_KEEP_MS the kept answer still serves while one read replaces it...
    const t15 = later(2 * ACCESS_KEEP_MS + ACCESS_KEEP_MS);
    expect(listed(await m3u(key, t15))).toHaveLength(3);
    await vi.waitFor(async () => expect(listed(await m3u(key, t15))).toEqual([]));
    // ...and past ACCESS_STALE_MS it is never used: the renewed subscription shows at once.
    await db().execute(sql`update subscriptions set status = 'active' where app_id = 301`);
    const t2 = later(2 * ACCESS_KEEP_MS + ACCESS_KEEP_MS + ACCESS_STALE_MS);
    expect(listed(await m3u(key, t2))).toHaveLength(3);
    await db().execute(sql`update subscriptions set status = 'revoked' where app_id = 301`);
    const t3 = later(2 * ACCESS_KEEP_MS + ACCESS_KEEP_MS + 2 * ACCESS_STALE_MS);
    expect(await mayPlayLive(db(), key, 201, new Date(t3))).toBeUndefined();
    expect(await liveLineup(db(), key, new Date(t3))).toMatchObject({ appId: 301, viewerId: 12, channels: [] });
    await db().execute(sql`update subscriptions set status = 'active' where app_id = 301`);
  });

  it('live links: an unknown app is 404, a bad body 400, at most MAX_LIVE_LINKS each, Bearer required', async () => {
    expect((await rest('POST', '/live-links', s.tokens.olga, { appId: 999_999 })).json().error.code).toBe('app_not_found');
    expect((await rest('POST', '/live-links', s.tokens.olga, { appId: 'x' })).json().error.code).toBe('invalid_request');
    expect((await rest('POST', '/live-links', s.tokens.olga, { appId: 302, extra: 1 })).statusCode).toBe(400);
    expect((await s.t.request({ method: 'GET', url: '/api/v1/rest/live-links' })).statusCode).toBe(401);
    for (let i = 0; i < MAX_LIVE_LINKS; i += 1) expect((await rest('POST', '/live-links', s.tokens.olga, { appId: 302 })).statusCode).toBe(201);
    const over = await rest('POST', '/live-links', s.tokens.olga, { appId: 302 });
    expect(over.statusCode).toBe(409);
    expect(over.json().error.code).toBe('too_many_live_links');
    // Olga holds nothing of alice's paid app, and 302 is free: her links list what anyone may watch there.
    const made = (await rest('GET', '/live-links', s.tokens.olga)).json().data;
    expect(made).toHaveLength(MAX_LIVE_LINKS);
    await rest('DELETE', `/live-links/${made[0].id}`, s.tokens.olga);
    expect((await rest('POST', '/live-links', s.tokens.olga, { appId: 302 })).statusCode).toBe(201);
  });
});
