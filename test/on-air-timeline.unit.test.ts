// The on-air rule (src/schedules/on-air-timeline.ts) on hand-made cases: a live stream over a
// block, a block over a block, gaps, whole seconds, joining in progress, now and next.
import { describe, expect, it } from 'vitest';
import type { ExpandedBlock, ScheduleVideo } from '../src/schedules/expand.ts';
import { nowAndNext, onAirTimeline } from '../src/schedules/on-air-timeline.ts';

const MIN = 60_000;
const T0 = Date.UTC(2026, 10, 26, 13, 0);

function video(id: number, minutes: number): ScheduleVideo {
  return { videoTubeId: id, title: `v${id}`, thumbnailUrl: '', durationSeconds: minutes * 60, providerVideoId: `p${id}`, providerName: 'youtube', streamUrl: null };
}

/** A block at T0 + `at` minutes playing videos of these minutes, ids from `firstId`. */
function block(id: number, at: number, minutes: number[], firstId = id * 100, published = true): ExpandedBlock {
  let t = T0 + at * MIN;
  const videos = minutes.map((m, i) => {
    const entry = { video: video(firstId + i, m), playbackOrderNumber: i + 1, start: t, end: t + m * MIN, isLive: false };
    t += m * MIN;
    return entry;
  });
  return { channelScheduleId: id, start: T0 + at * MIN, published, loopDaily: false, isLive: false, videos };
}

function live(videoId: number, at: number, minutes: number): ExpandedBlock {
  const start = T0 + at * MIN;
  const end = start + minutes * MIN;
  return {
    channelScheduleId: -videoId,
    start,
    published: true,
    loopDaily: false,
    isLive: true,
    videos: [{ video: video(videoId, minutes), playbackOrderNumber: 1, start, end, isLive: true }],
  };
}

/** Segments as [video id, start minute, end minute, offset minutes]. */
const shape = (blocks: ExpandedBlock[], from = -600, to = 600) =>
  onAirTimeline(blocks, T0 + from * MIN, T0 + to * MIN).map((s) => [s.video.videoTubeId, (s.start - T0) / MIN, (s.end - T0) / MIN, s.offset / MIN]);

describe('on-air timeline', () => {
  it('a live stream preempts the block under it for its whole duration; the block resumes on its own clock', () => {
    // Block 1 from 13:00: four 20-minute videos (13:00-14:20). Live from 13:30 to 14:00.
    expect(shape([block(1, 0, [20, 20, 20, 20]), live(9, 30, 30)])).toEqual([
      [100, 0, 20, 0],
      [101, 20, 30, 0],
      [9, 30, 60, 0],
      // 102 (13:40-14:00) ended under the stream: skipped. 103 starts at 14:00 on its own clock.
      [103, 60, 80, 0],
    ]);
  });

  it('the entry in progress when the stream ends joins in progress', () => {
    expect(shape([block(1, 0, [45, 45]), live(9, 10, 20)])).toEqual([
      [100, 0, 10, 0],
      [9, 10, 30, 0],
      [100, 30, 45, 30],
      [101, 45, 90, 0],
    ]);
  });

  it('a block placed over another preempts it; the later start is the higher layer', () => {
    expect(shape([block(1, 0, [60, 60]), block(2, 30, [15])])).toEqual([
      [100, 0, 30, 0],
      [200, 30, 45, 0],
      [100, 45, 60, 45],
      [101, 60, 120, 0],
    ]);
  });

  it('live streams stay above a block that starts during them', () => {
    expect(shape([live(9, 0, 60), block(1, 30, [60])])).toEqual([
      [9, 0, 60, 0],
      [100, 60, 90, 30],
    ]);
  });

  it('overlapping live streams: the later one until it ends, then the earlier resumes', () => {
    expect(shape([live(8, 0, 60), live(9, 20, 20)])).toEqual([
      [8, 0, 20, 0],
      [9, 20, 40, 0],
      [8, 40, 60, 40],
    ]);
  });

  it('nothing scheduled is nothing on air; unpublished blocks never air', () => {
    expect(shape([block(1, 0, [10]), block(2, 30, [10]), block(3, 0, [60], 300, false)])).toEqual([
      [100, 0, 10, 0],
      [200, 30, 40, 0],
    ]);
    expect(shape([])).toEqual([]);
  });

  it('clips to the span asked and floors to whole seconds', () => {
    expect(shape([block(1, 0, [20, 20])], 10, 30)).toEqual([
      [100, 10, 20, 10],
      [101, 20, 30, 0],
    ]);
    const b = block(1, 0, [20]);
    b.videos[0]!.start += 400;
    b.videos[0]!.end += 1_999;
    const [s] = onAirTimeline([b], T0, T0 + 60 * MIN);
    expect([s!.start - T0, s!.end - T0 - 20 * MIN]).toEqual([0, 1_000]);
  });

  it('now and next', () => {
    const segments = onAirTimeline([block(1, 0, [20, 20]), live(9, 60, 10)], T0 - MIN, T0 + 120 * MIN);
    const at = (m: number) => {
      const { now, next } = nowAndNext(segments, T0 + m * MIN);
      return [now?.video.videoTubeId ?? null, next?.video.videoTubeId ?? null];
    };
    expect(at(-1)).toEqual([null, 100]);
    expect(at(0)).toEqual([100, 101]);
    expect(at(20)).toEqual([101, 9]);
    expect(at(45)).toEqual([null, 9]);
    expect(at(65)).toEqual([9, null]);
    expect(at(70)).toEqual([null, null]);
  });
});
