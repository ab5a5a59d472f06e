// What is on air, over HTTP: the Studio's on-air and now routes (src/studio/on-air-routes.ts) and
// REST's now on air (GET /channels/now), on a block preempted by a live stream made through the
// Studio API as a creator would, on both backends.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS } from './support/db.ts';
import { studioTest, type StudioTest } from './support/studio.ts';

// Channel 201 (alice, America/New_York). Block at 2026-12-10 13:00 EST (18:00Z): eight times 5001
// (600.5 s), 13:00:00-14:20:04. A live stream of 5003 over it, 13:30-14:00 EST.
describe.each(BACKENDS)('on-air routes on %s', (backend) => {
  let s: StudioTest;
  let blockId: number;
  let liveStreamId: number;
  beforeAll(async () => {
    s = await studioTest(backend);
    const block = await s.call('POST', '/channels/201/schedules', { body: { startTime: '2026-12-10T13:00:00', videoIds: Array(8).fill(5001) } });
    expect(block.statusCode, block.body).toBe(201);
    blockId = block.json().data.id;
    const live = await s.call('POST', '/channels/201/live-streams', {
      body: { videoId: 5003, start: '2026-12-10T18:30:00Z', end: '2026-12-10T19:00:00Z', uri: 'https://live.example/town-hall' },
    });
    expect(live.statusCode, live.body).toBe(201);
    liveStreamId = live.json().data.id;
  }, 120_000);
  afterAll(() => s.t.close());

  it('the Studio on-air: the stream whole, the block resuming on its own clock, and what the block loses', async () => {
    const response = await s.call('GET', '/channels/201/on-air?from=2026-12-10T18:00:00Z&to=2026-12-10T20:00:00Z');
    expect(response.statusCode, response.body).toBe(200);
    const data = response.json().data;
    expect(data).toMatchObject({ channelId: 201, timezone: 'America/New_York', from: '2026-12-10T18:00:00Z', to: '2026-12-10T20:00:00Z' });
    const segments = data.segments.map((x: any) => [x.videoId, x.startTime.slice(11), x.endTime.slice(11), x.offsetSeconds, x.blockId, x.liveStreamId]);
    expect(segments).toEqual([
      [5001, '13:00:00', '13:10:00', 0, blockId, null],
      [5001, '13:10:00', '13:20:01', 0, blockId, null],
      [5001, '13:20:01', '13:30:00', 0, blockId, null],
      [5003, '13:30:00', '14:00:00', 0, null, liveStreamId],
      // The 4th and 5th entries ended under the stream: skipped. The 6th (13:50:02.5-14:00:03) joins in progress.
      [5001, '14:00:00', '14:00:03', 598, blockId, null],
      [5001, '14:00:03', '14:10:03', 0, blockId, null],
      [5001, '14:10:03', '14:20:04', 0, blockId, null],
    ]);
    expect(data.segments[3]).toMatchObject({
      isLive: true,
      streamUrl: 'https://live.example/town-hall',
      start: '2026-12-10T18:30:00Z',
      end: '2026-12-10T19:00:00Z',
      durationSeconds: 1800,
    });
    const lost = data.preempted.map((p: any) => [p.blockId, p.videoId, p.startTime.slice(11), p.endTime.slice(11), p.byLiveStreamId, p.byBlockId]);
    expect(lost).toEqual([
      [blockId, 5001, '13:30:00', '13:30:01', liveStreamId, null],
      [blockId, 5001, '13:30:01', '13:40:02', liveStreamId, null],
      [blockId, 5001, '13:40:02', '13:50:02', liveStreamId, null],
      [blockId, 5001, '13:50:02', '14:00:00', liveStreamId, null],
    ]);
  });

  it('the Studio now: the position to join at is offset + elapsed; next', async () => {
    const during = (await s.call('GET', '/channels/201/now', { now: '2026-12-10T18:45:00Z' })).json().data;
    expect(during).toMatchObject({
      channelId: 201,
      at: '2026-12-10T18:45:00Z',
      now: { videoId: 5003, positionSeconds: 900, offsetSeconds: 0 },
      next: { videoId: 5001, startTime: '2026-12-10T14:00:00', offsetSeconds: 598 },
    });
    const after = (await s.call('GET', '/channels/201/now', { now: '2026-12-10T19:00:02Z' })).json().data;
    expect(after.now).toMatchObject({ videoId: 5001, offsetSeconds: 598, positionSeconds: 600 });
    const idle = (await s.call('GET', '/channels/201/now', { now: '2026-12-10T20:00:00Z' })).json().data;
    expect(idle.now).toBeNull();
  });

  it("REST now on air: each of the caller's channels, in REST's envelope and words", async () => {
    const response = await s.t.request({ url: '/api/v1/rest/channels/now', headers: { authorization: `Bearer ${s.tokens.alice}` }, now: '2026-12-10T18:45:00Z' } as never);
    expect(response.statusCode, response.body).toBe(200);
    const list = response.json().data as any[];
    // In the order of GET /channels.
    expect(list.map((c) => c.channelTubeId)).toEqual([202, 201]);
    expect(list[1]).toMatchObject({
      at: '2026-12-10T18:45:00Z',
      now: { videoTubeId: 5003, channelScheduleId: -5003, isLive: true, positionSeconds: 900 },
      next: { videoTubeId: 5001, playbackStartTime: '2026-12-10T14:00:00', offsetSeconds: 598 },
    });
    expect(list[1].now).not.toHaveProperty('streamUrl');
    expect((await s.t.request({ url: '/api/v1/rest/channels/now' })).statusCode).toBe(401);
    const olga = (await s.t.request({ url: '/api/v1/rest/channels/now', headers: { authorization: `Bearer ${s.tokens.olga}` } })).json().data as any[];
    expect(olga.map((c) => c.channelTubeId)).toEqual([601]);
  });

  it("refuses another owner's channel as missing and a bad or too long span as invalid_request", async () => {
    expect((await s.call('GET', '/channels/601/on-air')).statusCode).toBe(404);
    expect((await s.call('GET', '/channels/601/now')).statusCode).toBe(404);
    for (const q of [
      'from=2026-12-10&to=2026-12-30',
      'from=yesterday',
      'from=2026-12-10T20:00:00Z&to=2026-12-10T19:00:00Z',
      'to=2026-02-30',
      'from=0001-01-01T00:00:00Z',
      'extra=1',
    ]) {
      const response = await s.call('GET', `/channels/201/on-air?${q}`);
      expect(response.statusCode, q).toBe(422);
      expect(response.json()).toMatchObject({ success: false, error: { code: 'invalid_request' } });
    }
    const days = (await s.call('GET', '/channels/201/on-air?from=2026-12-10&to=2026-12-23')).json().data;
    expect([days.from, days.to]).toEqual(['2026-12-10T05:00:00Z', '2026-12-24T05:00:00Z']);
  });
});
