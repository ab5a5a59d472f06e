// Every output that says what is on air tells one story (issue 28), over HTTP on both backends:
// overlapping live streams made through the Studio API as a creator would, then REST's schedule,
// the Custom guide (and the Studio's preview of it), the XMLTV export, the Studio's on-air and
// now, and programme analytics (the channel-day curve and a session's figures) compared with each
// other, on an ordinary day, across New York's fall-back change, and on the demo's channel 1001.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoCatalog } from '../src/demo/catalog.ts';
import { BACKENDS } from './support/db.ts';
import { testApp } from './support/app.ts';
import { studioCatalog, studioTest, type StudioTest } from './support/studio.ts';
import { checkXmltv } from './support/xmltv.ts';

type Airing = [videoId: number, start: number, end: number];
const REST = '/api/v1/rest';
const utc = (local: string, offsetHours: number) => Date.parse(`${local}Z`) - offsetHours * 3_600_000;

/** Every output of one channel-day, as [video, start, end] in epoch ms, by start. */
async function outputs(s: StudioTest, ownerId: number, channelId: number, date: string, now: string, token = s.tokens.alice) {
  const auth = { authorization: `Bearer ${token}` };
  const get = async (url: string, studio = false) => {
    const response = studio ? await s.call('GET', url, { token, now }) : await s.t.request({ url, headers: auth, now } as never);
    expect(response.statusCode, `${url}: ${response.body.slice(0, 300)}`).toBe(200);
    return response;
  };
  const onAir = (await get(`/channels/${channelId}/on-air?from=${date}&to=${date}`, true)).json().data;
  const zone: string = onAir.timezone;
  const { from, to } = { from: Date.parse(onAir.from), to: Date.parse(onAir.to) };
  // The timeline's segments starting that day (what every listing of a day lists).
  const timeline: Airing[] = onAir.segments
    .map((x: any) => [x.videoId, Date.parse(x.start), Date.parse(x.end)] as Airing)
    .filter(([, start]: Airing) => start >= from && start < to);
  // Wall time of the zone to an instant: through the timeline's own pairs (startTime, start).
  const offsets = new Map<string, number>();
  for (const x of onAir.segments) {
    offsets.set(x.startTime, Date.parse(x.start));
    offsets.set(x.endTime, Date.parse(x.end));
  }
  const instant = (wall: string) => {
    const ms = offsets.get(wall.replace(' ', 'T'));
    if (ms === undefined) throw new Error(`no instant on the timeline for ${wall} (${zone})`);
    return ms;
  };
  const rest = (await get(`${REST}/channels/${channelId}/schedules?date=${date}`)).json().data;
  const restAirings: Airing[] = rest.schedules
    .filter((b: any) => b.published)
    .flatMap((b: any) => b.videos.map((v: any) => [v.videoTubeId, instant(v.playbackStartTime), instant(v.playbackEndTime)] as Airing));
  // As a TV app sending no Platform-Id asks it (what the Studio's preview shows).
  const customAnswer = await s.t.request({ url: `/api/v1/services/custom/users/${ownerId}/channels/video?channels_ids=${channelId}&dates=${date}&all_videos=1`, now } as never);
  expect(customAnswer.statusCode, customAnswer.body.slice(0, 300)).toBe(200);
  const custom = customAnswer.json().data;
  const customAirings: Airing[] = custom.map((r: any) => [r.videoTubeId, instant(r.startDate), instant(r.endDate)] as Airing);
  const preview = (await get(`/channels/${channelId}/guide/${date}`, true)).json().data.items;
  const xml = checkXmltv((await get(`${REST}/epg.xml?days=1`)).body);
  const titles = new Map<string, number>(onAir.segments.map((x: any) => [x.title, x.videoId]));
  const xmltv: Airing[] = xml.programmes.filter((p) => p.channel === `channel-${channelId}.channelnet`).map((p) => [titles.get(p.title) ?? -1, p.start, p.stop] as Airing);
  const curve = (await get(`${REST}/analytics/channels/${channelId}/curve?date=${date}`)).json().data.minutes as { start: string; videoId: number | null }[];
  return { onAir, timeline, restAirings, customAirings, custom, preview, xmltv, curve, rest };
}

function agree(o: Awaited<ReturnType<typeof outputs>>) {
  const sorted = (list: Airing[]) => [...list].sort((a, b) => a[1] - b[1] || a[0] - b[0]);
  expect(o.timeline.length).toBeGreaterThan(0);
  expect(sorted(o.restAirings)).toEqual(sorted(o.timeline));
  expect(o.customAirings).toEqual(o.timeline);
  expect(o.preview).toEqual(o.custom);
  expect(o.xmltv).toEqual(o.timeline);
  // The curve's programme at each minute is the timeline's.
  const at = (ms: number) => o.onAir.segments.find((x: any) => Date.parse(x.start) <= ms && ms < Date.parse(x.end))?.videoId ?? null;
  expect(o.curve.map((m) => m.videoId)).toEqual(o.curve.map((m) => at(Date.parse(m.start))));
  // A Custom row's duration is what it airs, to the second (a whole entry: its video's duration).
  expect(o.custom.filter((r: any, i: number) => Math.abs(r.duration - (o.customAirings[i]![2] - o.customAirings[i]![1]) / 1000) > 1)).toEqual([]);
  // REST's totals count what it lists.
  expect(o.rest.totalVideos).toBe(o.rest.schedules.reduce((n: number, b: any) => n + b.videos.length, 0));
}

describe.each(BACKENDS)('every output agrees with the on-air timeline on %s', (backend) => {
  let s: StudioTest;
  beforeAll(async () => {
    // A free Fire TV app carrying 201, so a TV app's guide lists it (as in studio-guide.test.ts).
    const catalog = studioCatalog();
    catalog.apps.push({ id: 304, ownerId: 11, platform: 'firetv', appName: 'Alice Fire TV', channels: [{ channelId: 201 }], createdAt: '2026-03-01T00:00:00Z' });
    s = await studioTest(backend, catalog);
    const write = async (url: string, body: unknown) => {
      const response = await s.call('POST', url, { body });
      expect(response.statusCode, response.body).toBe(201);
      return response.json().data.id as number;
    };
    // 2026-12-10 (EST, UTC-5): a block 13:00-14:20:04 (eight times 5001), a live stream 13:30-14:00
    // over it, and a second live stream 13:50-14:10 over the first (overlapping streams).
    await write('/channels/201/schedules', { startTime: '2026-12-10T13:00:00', videoIds: Array(8).fill(5001) });
    await write('/channels/201/live-streams', { videoId: 5003, start: '2026-12-10T18:30:00Z', end: '2026-12-10T19:00:00Z', uri: 'https://live.example/a' });
    await write('/channels/201/live-streams', { videoId: 5002, start: '2026-12-10T18:50:00Z', end: '2026-12-10T19:10:00Z', uri: 'https://live.example/b' });
    // 2026-11-01, New York falls back at 02:00 EDT (06:00Z) to 01:00 EST: a block from 00:30 EDT
    // (04:30Z) of twelve times 5001 (2 h 0 min 6 s) and a live stream 05:45Z-06:15Z across the change.
    await write('/channels/201/schedules', { startTime: '2026-11-01T00:30:00', videoIds: Array(12).fill(5001) });
    await write('/channels/201/live-streams', { videoId: 5003, start: '2026-11-01T05:45:00Z', end: '2026-11-01T06:15:00Z', uri: 'https://live.example/dst' });
  }, 120_000);
  afterAll(() => s.t.close());

  it('an ordinary day with overlapping live streams over a block', async () => {
    const o = await outputs(s, 11, 201, '2026-12-10', '2026-12-10T12:00:00Z');
    agree(o);
    const day = o.timeline.filter(([, start]) => start >= utc('2026-12-10T13:00:00', -5) && start < utc('2026-12-10T14:30:00', -5));
    expect(day.map(([v, a, b]) => [v, new Date(a).toISOString().slice(11, 19), new Date(b).toISOString().slice(11, 19)])).toEqual([
      [5001, '18:00:00', '18:10:00'],
      [5001, '18:10:00', '18:20:01'],
      [5001, '18:20:01', '18:30:00'],
      [5003, '18:30:00', '18:50:00'],
      [5002, '18:50:00', '19:10:00'],
      // The first stream ended under the second (19:00): it does not come back. The block resumes at 19:10.
      [5001, '19:10:00', '19:10:03'],
      [5001, '19:10:03', '19:20:04'],
    ]);
  });

  it('across a DST change (New York falls back)', async () => {
    const o = await outputs(s, 11, 201, '2026-11-01', '2026-11-01T04:00:00Z');
    agree(o);
    const live = o.onAir.segments.find((x: any) => x.isLive);
    expect([live.start, live.end, live.startTime, live.endTime]).toEqual(['2026-11-01T05:45:00Z', '2026-11-01T06:15:00Z', '2026-11-01T01:45:00', '2026-11-01T01:15:00']);
    expect(o.onAir.preempted.length).toBeGreaterThan(0);
  });

  it('programme analytics credit a session watching the stream to the stream, not the block under it', async () => {
    for (let m = 35; m <= 45; m++) {
      const response = await s.t.request({
        method: 'POST',
        url: '/api/v1/activity',
        now: `2026-12-10T18:${m}:00Z`,
        payload: { action: 'play_channel', channel_id: 201, source: 'roku_app', client_id: 7 },
      } as never);
      expect(response.statusCode).toBe(200);
    }
    const response = await s.t.request({
      url: `${REST}/analytics/programmes?from=2026-12-10&to=2026-12-11`,
      headers: { authorization: `Bearer ${s.tokens.alice}` },
      now: '2026-12-10T18:46:00Z',
    } as never);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data.items.map((i: any) => [i.videoId, i.watchSeconds])).toEqual([[5003, 600]]);
  });
});

describe.each(BACKENDS)("the demo's channel 1001 today on %s", (backend) => {
  const NOW = '2026-11-26T18:40:00Z';
  let s: StudioTest;
  let token: string;
  beforeAll(async () => {
    const t = await testApp(backend, demoCatalog(new Date(NOW)));
    const login = await t.request({ method: 'POST', url: `${REST}/auth/login`, payload: { username: 'demo', password: 'demo1234' } });
    expect(login.statusCode, login.body).toBe(200);
    token = login.json().data.authToken;
    s = {
      t,
      tokens: { alice: token, olga: token, victor: token, app: token },
      call: (method, url, options = {}) =>
        t.request({
          method: method as never,
          url: `/api/v1/studio${url}`,
          headers: { authorization: `Bearer ${options.token ?? token}` },
          ...(options.now ? { now: options.now } : {}),
        }),
    };
  }, 120_000);
  afterAll(() => s?.t.close());

  it('REST, the Custom guide, XMLTV, the curve and the Studio tell one story', async () => {
    const o = await outputs(s, 101, 1001, '2026-11-26', NOW, token);
    agree(o);
    // The live broadcast on air now is on air for its whole duration in every output.
    const live = o.onAir.segments.filter((x: any) => x.isLive);
    expect(live.length).toBeGreaterThan(0);
    for (const x of live) expect(Date.parse(x.end) - Date.parse(x.start)).toBeGreaterThanOrEqual(60 * 60_000);
    const now = (await s.call('GET', '/channels/1001/now', { token, now: NOW })).json().data;
    expect(now.now).toMatchObject({ isLive: true });
  });
});
