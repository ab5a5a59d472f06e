// The live playlists through the routes, on both backends (docs/linear.md): the Studio's linear
// settings (GET with coverage and ETag, PUT with If-Match and its refusals), master and variant
// playlists with an app's guide key, the same bytes after a restart and on a second instance, an
// edit of what aired changing no byte, an edit of the future changing only what follows it, and
// paid or private channels refused to an app key.
import { sql } from 'drizzle-orm';
import HLS from 'hls-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { storeReadyIngest } from '../src/linear/ingested.ts';
import type { IngestedVideo } from '../src/linear/types.ts';
import { BACKENDS } from './support/db.ts';
import { studioCatalog, studioTest, type StudioTest } from './support/studio.ts';

const ORIGIN = 'https://media.example';
const SEGMENTS = 150; // 4 s each: 600 s, the videos' scheduled duration

function hlsVideo(name: string): IngestedVideo {
  return {
    container: 'ts',
    version: 3,
    targetDurationSeconds: 4,
    durationsMs: Array.from({ length: SEGMENTS }, () => 4000),
    variants: [
      {
        bandwidth: 800_000,
        resolution: { width: 640, height: 360 },
        codecs: 'avc1.4d401e,mp4a.40.2',
        playlistUri: `${ORIGIN}/${name}/360.m3u8`,
        segmentUris: Array.from({ length: SEGMENTS }, (_, i) => `${ORIGIN}/${name}/360/${i}.ts`),
      },
      {
        bandwidth: 2_400_000,
        resolution: { width: 1280, height: 720 },
        codecs: 'avc1.4d401f,mp4a.40.2',
        playlistUri: `${ORIGIN}/${name}/720.m3u8`,
        segmentUris: Array.from({ length: SEGMENTS }, (_, i) => `${ORIGIN}/${name}/720/${i}.ts`),
      },
    ],
  };
}

function catalog() {
  const c = studioCatalog();
  const custom = (id: number, name: string) => ({
    id,
    ownerId: 11,
    title: name,
    durationSeconds: 600,
    providerName: 'Custom',
    providerVideoId: name,
    streamUrl: `${ORIGIN}/${name}/master.m3u8`,
  });
  c.videos.push(custom(7001, 'first'), custom(7002, 'second'), {
    id: 7003,
    ownerId: 11,
    title: 'Tube',
    durationSeconds: 600,
    providerName: 'YouTube',
    providerVideoId: 'tube7003',
  });
  c.channels.push({
    id: 210,
    ownerId: 11,
    name: 'Linear',
    url: 'linear',
    categoryId: 1,
    timezone: 'UTC',
    videoIds: [7001, 7002, 7003],
    createdAt: '2026-01-01T00:00:00Z',
    schedules: [{ id: 9210, startTime: '2026-11-21T14:50:00', videoIds: [7001, 7002, 7003] }],
  });
  c.apps.push({
    id: 304,
    ownerId: 11,
    platform: 'firetv',
    appName: 'Alice Fire TV',
    createdAt: '2026-03-01T00:00:00Z',
    channels: [{ channelId: 210 }, { channelId: 201 }, { channelId: 202 }],
  });
  return c;
}

const at = (hms: string) => `2026-11-21T${hms}Z`;

describe.each(BACKENDS)('linear output on %s', (backend) => {
  let s: StudioTest;
  let key: string;
  const live = (path: string, now: string, headers: Record<string, string> = {}, app = s.t.app) =>
    app.inject({ method: 'GET', url: `/api/v1/live/${key}/${path}`, headers: { 'x-test-now': now, ...headers } });

  beforeAll(async () => {
    s = await studioTest(backend, catalog(), { LOG_LEVEL: (process.env.LIVE_LOG ?? 'silent') as never });
    for (const [id, name] of [
      [7001, 'first'],
      [7002, 'second'],
    ] as const)
      await storeReadyIngest(s.t.database.db, id, `${ORIGIN}/${name}/master.m3u8`, hlsVideo(name), new Date('2026-11-20T00:00:00Z'));
    key = (await s.call('POST', '/apps/firetv/epg-key')).json().data.key;
  }, 120_000);
  afterAll(async () => s?.t.close());

  it('answers the settings with the default ladder and the coverage, and turns linear output on with If-Match', async () => {
    const read = await s.call('GET', '/channels/210/linear');
    expect(read.statusCode, read.body).toBe(200);
    const body = read.json().data;
    expect(body).toMatchObject({ enabled: false, container: 'ts', targetDurationSeconds: 4, windowSeconds: 60, epoch: null });
    expect(body.ladder.map((r: { bandwidth: number }) => r.bandwidth)).toEqual([800_000, 2_400_000]);
    // From 15:00: the second video plays as itself for 10 minutes, the YouTube one airs the slate.
    expect(body.coverage).toMatchObject({ airtimeSeconds: 1200, itselfSeconds: 600, share: 0.5 });
    expect(body.coverage.reasons['not-hls']).toBe(600);
    expect(body.coverage.programmes).toEqual([{ start: at('15:10:00.000'), end: at('15:20:00.000'), videoId: 7003, title: 'Tube', reason: 'not-hls' }]);

    expect((await s.call('PUT', '/channels/210/linear', { body: { enabled: true, targetDurationSeconds: 4 }, headers: { 'if-match': '"stale"' } })).statusCode).toBe(412);
    const short = await s.call('PUT', '/channels/210/linear', {
      body: { enabled: true, targetDurationSeconds: 4, windowSeconds: 10 },
      headers: { 'if-match': read.headers.etag as string },
    });
    expect(short.statusCode).toBe(422);
    expect(short.body).toContain('3 target durations');
    expect((await s.call('PUT', '/channels/210/linear', { body: { enabled: true, targetDurationSeconds: 31 } })).statusCode).toBe(422);
    expect((await s.call('PUT', '/channels/210/linear', { body: { enabled: true, targetDurationSeconds: 4, ladder: [] } })).statusCode).toBe(422);

    const put = await s.call('PUT', '/channels/210/linear', { body: { enabled: true, targetDurationSeconds: 4 }, headers: { 'if-match': read.headers.etag as string } });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().data).toMatchObject({ enabled: true, epoch: at('15:00:00.000') });
    const again = await s.call('GET', '/channels/210/linear');
    expect(again.headers.etag).toBe(put.headers.etag);
    expect(again.headers.etag).not.toBe(read.headers.etag);
  });

  it('serves the master and variant playlists to an app key: HLS, CORS, short max-age, ETag and 304', async () => {
    const master = await live('210/master.m3u8', at('15:00:30'));
    expect(master.statusCode, master.body).toBe(200);
    expect(master.headers['content-type']).toMatch(/^application\/vnd\.apple\.mpegurl/);
    expect(master.headers['access-control-allow-origin']).toBe('*');
    const parsed = HLS.parse(master.body) as HLS.types.MasterPlaylist;
    expect(parsed.variants.map((v) => [v.uri, v.bandwidth])).toEqual([
      ['0.m3u8', 800_000],
      ['1.m3u8', 2_400_000],
    ]);

    const media = await live('210/1.m3u8', at('15:00:30'));
    expect(media.statusCode, media.body).toBe(200);
    expect(media.headers['cache-control']).toBe('public, max-age=2');
    const playlist = HLS.parse(media.body) as HLS.types.MediaPlaylist;
    expect(playlist.targetDuration).toBe(4);
    expect(media.body).not.toContain('#EXT-X-ENDLIST');
    const uris = playlist.segments.map((x) => x.uri);
    // The first video's last minute up to 15:00, then the second's from its start: one discontinuity, at 15:00.
    expect(uris.at(-1)).toBe(`${ORIGIN}/second/720/7.ts`);
    expect(uris).toContain(`${ORIGIN}/first/720/149.ts`);
    expect(playlist.segments.filter((x) => x.discontinuity).map((x) => x.programDateTime?.toISOString())).toEqual([at('15:00:00.000')]);
    expect(playlist.segments[0]!.discontinuity).toBeFalsy();
    expect(media.body).toContain(`#EXT-X-PROGRAM-DATE-TIME:${at('15:00:28.000')}\n#EXTINF:4.000,\n${ORIGIN}/second/720/7.ts`);

    const unchanged = await live('210/1.m3u8', at('15:00:31'), { 'if-none-match': media.headers.etag as string });
    expect(unchanged.statusCode).toBe(304);
    const slate = await s.t.app.inject({ method: 'GET', url: '/api/v1/live/slate/1280x720/3.ts' });
    expect(slate.statusCode).toBe(200);
    expect(slate.headers['cache-control']).toContain('immutable');
    expect(slate.rawPayload.subarray(0, 1)[0]).toBe(0x47);
  });

  it('answers a warm playlist from memory: a change the catalog was not told of is not read until the next segment', async () => {
    const warm = await live('210/0.m3u8', at('15:02:00'));
    // Written behind the service's back (no catalog NOTIFY): the kept window and settings stand.
    await s.t.database.db.execute(sql`update channel_linear set window_seconds = 3600 where channel_id = 210`);
    const again = await live('210/0.m3u8', at('15:02:01'));
    expect(again.body).toBe(warm.body);
    await s.t.database.db.execute(sql`update channel_linear set window_seconds = 60 where channel_id = 210`);
  });

  it('answers the same bytes after a restart and on a second instance on the same database', async () => {
    const first = await live('210/0.m3u8', at('15:01:10'));
    const other = await buildApp({
      database: s.t.database,
      config: { CHANNELNET_TEST_CLOCK: true, LOG_LEVEL: 'silent', RATE_LIMIT_ENABLED: false, MAX_EVENT_LOOP_DELAY_MS: 0, STORE_NOTIFICATION_POLL_MS: 0, GUIDE_WARM_DAYS: 0 },
    });
    try {
      const second = await live('210/0.m3u8', at('15:01:10'), {}, other);
      expect(second.statusCode).toBe(200);
      expect(second.body).toBe(first.body);
    } finally {
      await other.close();
    }
  });

  it('changes no byte for an edit of what aired, and only what follows the start of an edited future programme', async () => {
    const before = await live('210/0.m3u8', at('15:09:58'));
    // The first video (aired) and the third (from 15:10, the future) are both changed.
    const edit = await s.call('PATCH', '/channels/210/schedules/9210', { body: { videoIds: [7002, 7002, 7001] }, now: at('15:09:58') });
    expect(edit.statusCode, edit.body).toBe(200);
    const after = await live('210/0.m3u8', at('15:09:58'));
    expect(after.body).toBe(before.body);
    const later = HLS.parse((await live('210/0.m3u8', at('15:10:09'))).body) as HLS.types.MediaPlaylist;
    const earlier = HLS.parse(before.body) as HLS.types.MediaPlaylist;
    const old = new Map(earlier.segments.map((x) => [x.mediaSequenceNumber, x.uri]));
    for (const x of later.segments) {
      if (x.programDateTime!.getTime() < Date.parse(at('15:10:00'))) expect(x.uri).toBe(old.get(x.mediaSequenceNumber));
      else expect(x.uri).toMatch(new RegExp(`^${ORIGIN}/first/360/[0-2]\\.ts$`));
    }
  });

  it("refuses a paid app's channel, a private channel, an unknown key and a channel without linear output", async () => {
    const ladder = [{ bandwidth: 800_000, resolution: { width: 640, height: 360 } }];
    for (const id of [201, 202]) expect((await s.call('PUT', `/channels/${id}/linear`, { body: { enabled: true, targetDurationSeconds: 4, ladder } })).statusCode).toBe(200);
    // The paid mobile app's key: its channels are sold, so its key plays none of them; the
    // private channel 202 plays to no app key (the free Fire TV app's included).
    const paidKey = (await s.call('POST', '/apps/mobile/epg-key')).json().data.key;
    const paid = await s.t.app.inject({ method: 'GET', url: `/api/v1/live/${paidKey}/201/master.m3u8`, headers: { 'x-test-now': at('15:00:30') } });
    expect([paid.statusCode, paid.json().error.code]).toEqual([404, 'not_found']);
    const hidden = await live('202/master.m3u8', at('15:00:30'));
    expect([hidden.statusCode, hidden.json().error.code]).toEqual([404, 'not_found']);
    const unknown = await s.t.app.inject({ method: 'GET', url: `/api/v1/live/${'x'.repeat(43)}/210/master.m3u8`, headers: { 'x-test-now': at('15:00:30') } });
    expect(unknown.statusCode).toBe(404);
    expect((await live('210/7.m3u8', at('15:00:30'))).statusCode).toBe(404);
    const off = await s.call('GET', '/channels/210/linear');
    expect(
      (await s.call('PUT', '/channels/210/linear', { body: { enabled: false, targetDurationSeconds: 4 }, headers: { 'if-match': off.headers.etag as string } })).statusCode,
    ).toBe(200);
    expect((await live('210/master.m3u8', at('15:00:30'))).statusCode).toBe(404);
    // It has aired: its target duration is fixed for life.
    const changed = await s.call('PUT', '/channels/210/linear', { body: { enabled: true, targetDurationSeconds: 6 } });
    expect(changed.statusCode).toBe(422);
    expect(changed.body).toContain('can never change');
  });
});
