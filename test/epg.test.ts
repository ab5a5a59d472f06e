// The XMLTV guide export (docs/xmltv.md: XMLTV guide export): GET /api/v1/rest/epg.xml with the owner's
// Bearer and GET /api/v1/rest/epg/{key}.xml with an app's public key made in the Studio
// (/apps/{platform}/epg-key). Every document is checked by the XMLTV DTD's rules
// (test/support/xmltv.ts); the guide's content against the fixture's schedules, a clock change
// inside the answer, overlapping entries, escaping, the days bounds, keys made, replaced, revoked
// and retried, and another owner's token or key never reaching alice's channels.
import { gunzipSync } from 'node:zlib';
import { createHash } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { epgGuideUrl } from '../src/access/epg-keys.ts';
import { APP_TOKEN } from './fixtures/catalog.ts';
import { BACKENDS } from './support/db.ts';
import { studioCatalog, studioTest, type StudioTest } from './support/studio.ts';
import { checkXmltv, type XmltvProgrammeRead } from './support/xmltv.ts';

const REST = '/api/v1/rest';

/** The Studio fixture plus a channel of alice's that plays over New York's clock change, with an overlapping live stream and awkward text. */
function epgCatalog() {
  const catalog = studioCatalog();
  catalog.videos.push({
    id: 5005,
    ownerId: 11,
    title: 'Bad\u0001 chars\uFFFE',
    description: 'Tags <b> & "quotes"',
    durationSeconds: 1800,
    providerName: 'YouTube',
    providerVideoId: 'bad5',
    categoryId: 2,
    thumbnailUrl: 'https://img.example/5.jpg?a=1&b=2',
  });
  catalog.channels.push({
    id: 204,
    ownerId: 11,
    name: 'Alice Clock',
    url: 'alice-clock',
    categoryId: 2,
    timezone: 'America/New_York',
    pictureUrl: 'https://img.example/204.png',
    videoIds: [5002, 5003, 5005],
    schedules: [
      { id: 9401, startTime: '2026-10-28T00:00:00', loopDaily: true, videoIds: [5003, 5003, 5003, 5003] },
      { id: 9402, startTime: '2026-11-21T09:00:00', videoIds: [5005] },
    ],
    liveStreams: [{ videoId: 5002, start: '2026-10-31T05:00:00Z', end: '2026-10-31T06:00:00Z', uri: 'https://live.example/2' }],
    createdAt: '2026-01-01T00:00:00Z',
  });
  catalog.apps.find((a: { id: number }) => a.id === 601).channels = [{ channelId: 601 }];
  return catalog;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const ids = (read: ReturnType<typeof checkXmltv>) => read.channels.map((c) => c.id);
const of = (read: ReturnType<typeof checkXmltv>, channel: number) => read.programmes.filter((p) => p.channel === `channel-${channel}.channelnet`);
const times = (programmes: XmltvProgrammeRead[]) => programmes.map((p) => [p.startText, p.stopText, p.title]);
const failure = (code: string) => ({ success: false, error: { code, message: expect.any(String) } });

describe.each(BACKENDS)('XMLTV guide export on %s', (backend) => {
  let s: StudioTest;
  beforeAll(async () => {
    s = await studioTest(backend, epgCatalog());
  });
  afterAll(() => s.t.close());

  const get = (url: string, options: { token?: string | null; now?: string; method?: 'GET' | 'HEAD' } = {}) =>
    s.t.request({
      method: options.method ?? 'GET',
      url,
      headers: options.token === null ? {} : { authorization: `Bearer ${options.token ?? s.tokens.alice}` },
      ...(options.now ? { now: options.now } : {}),
    });
  /** A guide answer checked by the DTD's rules. */
  const guide = async (url: string, options: Parameters<typeof get>[1] = {}) => {
    const response = await get(url, options);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('application/xml; charset=utf-8');
    return { text: response.body, read: checkXmltv(response.body) };
  };
  const rows = async (query: ReturnType<typeof sql>) => ((await s.t.database.db.execute(query)) as any).rows as any[];
  const newKey = async (platform: string, token = s.tokens.alice) => {
    const response = await s.call('POST', `/apps/${platform}/epg-key`, { token });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().data as { appId: number; platform: string; createdAt: string; key: string; url: string };
  };

  describe("with the owner's Bearer", () => {
    it("lists the owner's channels in the owner's order and every published programme and live stream of the days asked", async () => {
      const { read } = await guide(`${REST}/epg.xml?days=1`);
      expect(read.tvAttributes).toEqual({ 'generator-info-name': 'channelnet' });
      // Deleted 203 left out; 202 and 204 (order 0) before 201 (order 1).
      expect(read.channels).toEqual([
        { id: 'channel-202.channelnet', displayNames: ['Alice Music'], icons: [] },
        { id: 'channel-204.channelnet', displayNames: ['Alice Clock'], icons: ['https://img.example/204.png'] },
        { id: 'channel-201.channelnet', displayNames: ['Alice News'], icons: [] },
      ]);
      // 2026-11-21 in New York: block 9001 (fractional durations floored), the live concert, the
      // daily 22:00 weather; the unpublished 12:00 block is not listed.
      expect(times(of(read, 201))).toEqual([
        ['20261121080000 -0500', '20261121081000 -0500', 'Morning news'],
        ['20261121081000 -0500', '20261121081200 -0500', 'Weather "live" & <more>'],
        ['20261121081200 -0500', '20261121082201 -0500', 'Morning news'],
        ['20261121130000 -0500', '20261121143000 -0500', 'Concert'],
        ['20261121220000 -0500', '20261121220200 -0500', 'Weather "live" & <more>'],
      ]);
      const [news, weather] = of(read, 201);
      expect(news).toMatchObject({ desc: undefined, categories: ['News'], icons: ['https://img.example/1.jpg'] });
      expect(weather).toMatchObject({ desc: 'Ünïcödé', categories: ['News'], icons: [] });
      expect(of(read, 202)).toEqual([]);
    });

    it("answers a week by default, each day from today in the channel's zone", async () => {
      const { read } = await guide(`${REST}/epg.xml`);
      const daily = of(read, 201)
        .filter((p) => p.startText.endsWith('220000 -0500'))
        .map((p) => p.startText.slice(0, 8));
      expect(daily).toEqual(['20261121', '20261122', '20261123', '20261124', '20261125', '20261126', '20261127']);
      // Asked at 03:00 UTC on the 22nd it is still the 21st in New York: the same week.
      const late = await guide(`${REST}/epg.xml`, { now: '2026-11-22T03:00:00Z' });
      expect(of(late.read, 201).filter((p) => p.startText.endsWith('220000 -0500'))).toHaveLength(7);
      expect(of(late.read, 201)[0]!.startText).toBe('20261121080000 -0500');
      // The 14-day maximum.
      const fortnight = await guide(`${REST}/epg.xml?days=14`);
      expect(of(fortnight.read, 201).filter((p) => p.startText.endsWith('220000 -0500'))).toHaveLength(14);
    });

    it('shows the offset of each instant across a clock change, and no overlaps where a live stream covers a block', async () => {
      // New York falls back on 2026-11-01 at 02:00 EDT; channel 204 loops four one-hour concerts from midnight.
      const { read } = await guide(`${REST}/epg.xml?days=4`, { now: '2026-10-30T12:00:00Z' });
      const clock = of(read, 204);
      expect(times(clock.filter((p) => p.startText.startsWith('20261101')))).toEqual([
        ['20261101000000 -0400', '20261101010000 -0400', 'Concert'],
        ['20261101010000 -0400', '20261101010000 -0500', 'Concert'],
        ['20261101010000 -0500', '20261101020000 -0500', 'Concert'],
        ['20261101020000 -0500', '20261101030000 -0500', 'Concert'],
      ]);
      expect(clock.filter((p) => p.startText.startsWith('20261101')).map((p) => (p.stop - p.start) / 60_000)).toEqual([60, 60, 60, 60]);
      // On the 31st the live weather (01:00-02:00 EDT) takes the air from the concert that tied with it.
      expect(times(clock.filter((p) => p.startText.startsWith('20261031')))).toEqual([
        ['20261031000000 -0400', '20261031010000 -0400', 'Concert'],
        ['20261031010000 -0400', '20261031020000 -0400', 'Weather "live" & <more>'],
        ['20261031020000 -0400', '20261031030000 -0400', 'Concert'],
        ['20261031030000 -0400', '20261031040000 -0400', 'Concert'],
      ]);
      expect(new Set(clock.map((p) => p.startText.slice(0, 8)))).toEqual(new Set(['20261030', '20261031', '20261101', '20261102']));
    });

    it('escapes text and drops characters XML forbids', async () => {
      const { text, read } = await guide(`${REST}/epg.xml?days=1`);
      const [bad] = of(read, 204).filter((p) => p.startText === '20261121090000 -0500');
      expect(bad).toMatchObject({ title: 'Bad chars', desc: 'Tags <b> & "quotes"', categories: ['Music'], icons: ['https://img.example/5.jpg?a=1&b=2'] });
      expect(text).toContain('<title>Bad chars</title>');
      expect(text).toContain('<desc>Tags &lt;b&gt; &amp; "quotes"</desc>');
      expect(text).toContain('<icon src="https://img.example/5.jpg?a=1&amp;b=2"/>');
    });

    it('is streamed (chunked, no length known up front)', async () => {
      await s.t.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = s.t.app.server.address() as AddressInfo;
      const answer = await new Promise<{ status: number; headers: Record<string, unknown>; body: string }>((resolve, reject) => {
        const req = httpRequest(
          { host: '127.0.0.1', port, path: `${REST}/epg.xml?days=3`, headers: { authorization: `Bearer ${s.tokens.alice}`, 'x-test-now': '2026-11-21T15:00:00Z' } },
          (res) => {
            let body = '';
            res.setEncoding('utf8');
            res.on('data', (chunk: string) => (body += chunk));
            res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
          },
        );
        req.on('error', reject);
        req.end();
      });
      expect(answer.status).toBe(200);
      expect(answer.headers['transfer-encoding']).toBe('chunked');
      expect(answer.headers['content-length']).toBeUndefined();
      expect(checkXmltv(answer.body).channels).toHaveLength(3);
    });

    it('is gzipped for a client that takes gzip: the same document, from the days deflated when rendered (issue 35)', async () => {
      const plain = await s.t.request({ url: `${REST}/epg.xml?days=3`, headers: { authorization: `Bearer ${s.tokens.alice}` } });
      expect([plain.headers['content-encoding'], plain.headers.vary]).toEqual([undefined, 'Accept-Encoding']);
      const gz = await s.t.request({ url: `${REST}/epg.xml?days=3`, headers: { authorization: `Bearer ${s.tokens.alice}`, 'accept-encoding': 'gzip, deflate, br' } });
      expect([gz.statusCode, gz.headers['content-encoding'], gz.headers.vary]).toEqual([200, 'gzip', 'Accept-Encoding']);
      const document = gunzipSync(gz.rawPayload);
      expect(document.equals(plain.rawPayload)).toBe(true);
      expect(checkXmltv(document.toString('utf8')).channels).toHaveLength(3);
      expect(gz.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
    });

    it('answers HEAD without a body', async () => {
      const response = await get(`${REST}/epg.xml`, { method: 'HEAD' });
      expect(response.statusCode).toBe(200);
      expect(response.body).toBe('');
    });

    it.each(['0', '15', '-1', '1.5', 'x', '', '1e1', '99999'])('refuses days=%j with 400 invalid_request', async (days) => {
      const response = await get(`${REST}/epg.xml?days=${days}`);
      expect([response.statusCode, response.json()]).toEqual([400, failure('invalid_request')]);
    });

    it('refuses repeated and unknown parameters with 400 invalid_request', async () => {
      for (const query of ['days=1&days=2', 'day=3', 'days=7&from=2026-11-21']) {
        const response = await get(`${REST}/epg.xml?${query}`);
        expect([response.statusCode, response.json()]).toEqual([400, failure('invalid_request')]);
      }
      const message = (await get(`${REST}/epg.xml?days=15`)).json().error.message;
      expect(message).toContain('14');
    });

    it('wants a sign-in Bearer: none, garbage or a TV app token is 401', async () => {
      for (const token of [null, 'not-a-token', APP_TOKEN]) {
        const response = await get(`${REST}/epg.xml`, { token });
        expect([response.statusCode, response.json()]).toEqual([401, failure('unauthorized')]);
      }
    });

    it("lists only the caller's own channels: olga sees hers, a viewer none", async () => {
      const olga = await guide(`${REST}/epg.xml?days=1`, { token: s.tokens.olga });
      expect(ids(olga.read)).toEqual(['channel-601.channelnet']);
      expect(times(olga.read.programmes)).toEqual([['20261121100000 +0100', '20261121100500 +0100', 'Olga video']]);
      expect(olga.text).not.toMatch(/Alice|channel-20\d/);
      const victor = await guide(`${REST}/epg.xml`, { token: s.tokens.victor });
      expect(victor.read.channels).toEqual([]);
    });
  });

  describe("with an app's public key", () => {
    it("POST makes a key shown once in the guide URL, kept only as its hash; the URL lists the app's channels in the app's order", async () => {
      const created = await newKey('mobile');
      expect(created).toEqual({
        appId: 301,
        platform: 'mobile',
        createdAt: '2026-11-21T15:00:00.000Z',
        key: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
        url: expect.any(String),
      });
      expect(created.url).toBe(`/api/v1/rest/epg/${created.key}.xml`);
      const stored = await rows(sql`select key_hash, revoked_at from epg_keys where app_id = 301`);
      expect(stored).toEqual([{ key_hash: sha256(created.key), revoked_at: null }]);
      expect(JSON.stringify(await rows(sql`select * from epg_keys`))).not.toContain(created.key);
      expect(JSON.stringify(await rows(sql`select * from studio_audit`))).not.toContain(created.key);

      // No Bearer needed; app 301 carries 202 then 201, not 204.
      const { read } = await guide(`${created.url}?days=1`, { token: null });
      expect(ids(read)).toEqual(['channel-202.channelnet', 'channel-201.channelnet']);
      expect(of(read, 201)).toHaveLength(5);
      const read7 = (await guide(created.url, { token: null })).read;
      expect(of(read7, 201).filter((p) => p.startText.endsWith('220000 -0500'))).toHaveLength(7);

      const shown = await s.call('GET', '/apps/mobile/epg-key');
      expect([shown.statusCode, shown.json().data]).toEqual([200, { appId: 301, platform: 'mobile', createdAt: '2026-11-21T15:00:00.000Z' }]);
      expect(shown.body).not.toContain(created.key);
    });

    it('a new key revokes the previous one; DELETE revokes; then the URL, GET and DELETE are 404', async () => {
      const first = await newKey('androidtv');
      expect((await get(first.url, { token: null })).statusCode).toBe(200);
      const second = await newKey('androidtv');
      expect(second.key).not.toBe(first.key);
      const gone = await get(first.url, { token: null });
      expect([gone.statusCode, gone.json()]).toEqual([404, failure('epg_key_not_found')]);
      expect((await get(second.url, { token: null })).statusCode).toBe(200);
      expect(await rows(sql`select count(*)::int as n from epg_keys where app_id = 302 and revoked_at is null`)).toEqual([{ n: 1 }]);

      expect((await s.call('DELETE', '/apps/androidtv/epg-key')).statusCode).toBe(204);
      expect((await get(second.url, { token: null })).statusCode).toBe(404);
      expect((await s.call('GET', '/apps/androidtv/epg-key')).statusCode).toBe(404);
      expect((await s.call('DELETE', '/apps/androidtv/epg-key')).statusCode).toBe(404);
      const audit = await rows(sql`select action, resource from studio_audit where resource = 'apps/androidtv/epg-key' order by id`);
      expect(audit).toEqual([
        { action: 'create', resource: 'apps/androidtv/epg-key' },
        { action: 'create', resource: 'apps/androidtv/epg-key' },
        { action: 'delete', resource: 'apps/androidtv/epg-key' },
      ]);
    });

    it('a retried create (same Idempotency-Key) answers the first answer without the key and makes no other', async () => {
      const headers = { 'idempotency-key': 'epg-roku-1' };
      const first = await s.call('POST', '/apps/roku/epg-key', { headers });
      const again = await s.call('POST', '/apps/roku/epg-key', { headers });
      expect(first.statusCode).toBe(201);
      expect(again.statusCode).toBe(201);
      const { key, url, ...resource } = first.json().data;
      expect(again.json().data).toEqual(resource);
      expect((await get(url, { token: null })).statusCode).toBe(200);
      expect(await rows(sql`select count(*)::int as n from epg_keys where app_id = 303`)).toEqual([{ n: 1 }]);
      expect(JSON.stringify(await rows(sql`select * from studio_idempotency`))).not.toContain(key);
    });

    it('an unknown or malformed key is 404 in the REST envelope, never a 500', async () => {
      const keys = ['A'.repeat(43), 'abc', 'x'.repeat(44), '%00', '..%2F..%2Fetc', `${'a'.repeat(42)}%C3%A9`, 'k'.repeat(100)];
      for (const key of keys) {
        const response = await get(`${REST}/epg/${key}.xml`, { token: null });
        expect([response.statusCode, response.json()], key).toEqual([404, failure('epg_key_not_found')]);
      }
      // Past the router's limit on a path parameter (100 characters) the path is refused before routing, as everywhere.
      const overlong = await get(`${REST}/epg/${'k'.repeat(300)}.xml`, { token: null });
      expect([overlong.statusCode, overlong.json()]).toEqual([414, failure('invalid_request')]);
      // Bad days on a good key are still 400.
      const created = await newKey('mobile');
      const bad = await get(`${created.url}?days=15`, { token: null });
      expect([bad.statusCode, bad.json()]).toEqual([400, failure('invalid_request')]);
    });

    it('an unknown platform, or one the owner has no app of, is 404', async () => {
      for (const platform of ['web', 'firetv', 'MOBILE']) {
        expect((await s.call('POST', `/apps/${platform}/epg-key`)).statusCode).toBe(404);
        expect((await s.call('GET', `/apps/${platform}/epg-key`)).statusCode).toBe(404);
        expect((await s.call('DELETE', `/apps/${platform}/epg-key`)).statusCode).toBe(404);
      }
      const withBody = await s.call('POST', '/apps/mobile/epg-key', { body: { key: 'mine' } });
      expect(withBody.statusCode).toBe(422);
    });

    it("another owner: olga's key lists only her app's channels, and her token cannot see or revoke alice's key", async () => {
      const alice = await newKey('mobile');
      const olga = await newKey('roku', s.tokens.olga);
      expect(olga.appId).toBe(601);
      const { text, read } = await guide(olga.url, { token: null });
      expect(ids(read)).toEqual(['channel-601.channelnet']);
      expect(text).not.toMatch(/Alice|channel-20\d/);
      // Alice's mobile app is hers alone: olga has none, so for her it is not there.
      expect((await s.call('GET', '/apps/mobile/epg-key', { token: s.tokens.olga })).statusCode).toBe(404);
      expect((await s.call('DELETE', '/apps/mobile/epg-key', { token: s.tokens.olga })).statusCode).toBe(404);
      expect((await s.call('POST', '/apps/mobile/epg-key', { token: s.tokens.olga })).statusCode).toBe(404);
      expect((await get(alice.url, { token: null })).statusCode).toBe(200);
      // A key is no Bearer, and a Bearer opens no key's guide.
      expect((await get(`${REST}/epg.xml`, { token: olga.key })).statusCode).toBe(401);
      expect(ids((await guide(alice.url, { token: s.tokens.olga })).read)).toEqual(['channel-202.channelnet', 'channel-201.channelnet']);
      // Each owner's roku key is of their own roku app.
      await newKey('roku');
      expect((await s.call('GET', '/apps/roku/epg-key')).json().data.appId).toBe(303);
      expect((await s.call('GET', '/apps/roku/epg-key', { token: s.tokens.olga })).json().data.appId).toBe(601);
    });

    it('an app deleted takes its key; an owner locked out closes hers', async () => {
      const roku = await newKey('roku');
      expect((await s.call('DELETE', '/apps/roku')).statusCode).toBe(204);
      expect((await get(roku.url, { token: null })).statusCode).toBe(404);

      const olga = await newKey('roku', s.tokens.olga);
      expect((await get(olga.url, { token: null })).statusCode).toBe(200);
      await s.t.database.db.execute(sql`update accounts set status = 'locked' where id = 16`);
      expect((await get(olga.url, { token: null })).statusCode).toBe(404);
    });
  });

  it('builds the URL under PUBLIC_URL when one is set', () => {
    expect(epgGuideUrl('k', 'https://tv.example.com/base')).toBe('https://tv.example.com/base/api/v1/rest/epg/k.xml');
    expect(epgGuideUrl('k', undefined)).toBe('/api/v1/rest/epg/k.xml');
  });
});
