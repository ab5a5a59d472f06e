// Linear output's pure core (src/linear): ladder mapping, a programme's segments (cut, slate
// padding, joining in progress), the ledger's rows, the live window and its playlist text.
import { describe, expect, it } from 'vitest';
import { coverageOf } from '../src/linear/coverage.ts';
import { linearProblems } from '../src/editing/linear-settings.ts';
import { codecFamilies, defaultLadder, mapToLadder, slateRungFor } from '../src/linear/ladder.ts';
import { nextRow, plannedProgrammes, rowsToWrite, type LedgerRow } from '../src/linear/ledger.ts';
import { liveWindow, masterPlaylist, mediaPlaylist } from '../src/linear/live-playlist.ts';
import { programmeCount, programmeSegments, type PlayableSource } from '../src/linear/programme-segments.ts';
import type { IngestedVideo, LinearSettings } from '../src/linear/types.ts';

const T0 = Date.UTC(2026, 10, 21, 15, 0);

/** A TS video of `durations` ms segments with rungs of these bandwidths (360p, 720p, ...). */
function video(durations: number[], bandwidths = [800_000, 2_500_000], codecs = 'avc1.64001f,mp4a.40.2', container: 'ts' | 'fmp4' = 'ts'): IngestedVideo {
  return {
    container,
    version: 3,
    targetDurationSeconds: Math.max(...durations.map((d) => Math.round(d / 1000))),
    durationsMs: durations,
    variants: bandwidths.map((bandwidth, v) => ({
      bandwidth,
      resolution: { width: 640 * (v + 1), height: 360 * (v + 1) },
      codecs,
      playlistUri: `http://o/v/${v}.m3u8`,
      segmentUris: durations.map((_, i) => `http://o/v/${v}/${i}.ts`),
    })),
  };
}

const settings: LinearSettings = {
  channelId: 1,
  enabled: true,
  container: 'ts',
  targetDurationSeconds: 4,
  windowSeconds: 12,
  ladder: [{ bandwidth: 900_000, resolution: { width: 640, height: 360 } }],
  epoch: T0,
  version: 1,
};

describe('ladder', () => {
  it('maps each rung to the nearest bandwidth of the same codec family and container', () => {
    const v = video([4000, 4000], [500_000, 1_000_000, 3_000_000]);
    expect(mapToLadder(v, { ...settings, ladder: [{ bandwidth: 900_000 }, { bandwidth: 2_600_000, codecs: 'avc1.640028,mp4a.40.2' }] })).toEqual({ variants: [1, 2] });
    expect(mapToLadder(v, { ...settings, ladder: [{ bandwidth: 900_000, codecs: 'hvc1.1.6.L93.B0,mp4a.40.2' }] })).toEqual({ reason: 'ladder-mismatch' });
    expect(mapToLadder(v, { ...settings, container: 'fmp4' })).toEqual({ reason: 'ladder-mismatch' });
    expect(mapToLadder(video([4000, 4600]), settings)).toEqual({ reason: 'segment-too-long' });
    expect(mapToLadder(video([4000, 4400]), settings)).toEqual({ variants: [0] });
  });

  it('groups codecs by family and takes the default ladder from a video, lowest first', () => {
    expect(codecFamilies('avc3.4d401f, mp4a.40.5')).toBe('aac,avc');
    expect(codecFamilies('hev1.1.6.L93.B0,ec-3')).toBe('ec-3,hevc');
    const ladder = defaultLadder(video([4000], [3_000_000, 800_000]));
    expect(ladder.map((r) => r.bandwidth)).toEqual([800_000, 3_000_000]);
    expect(ladder[0]).not.toHaveProperty('segmentUris');
    expect(slateRungFor({ bandwidth: 1, resolution: { width: 1280, height: 700 } })).toBe('1280x720');
    expect(slateRungFor({ bandwidth: 1 })).toBe('1280x720');
  });
});

describe("a programme's segments", () => {
  const source: PlayableSource = { video: video([4000, 4000, 4000, 2500]), variants: [0] };

  it('cuts the video at the last boundary before the next start and pads with slate', () => {
    const plan = { start: T0, end: T0 + 10_500, source, offset: 0 };
    const segs = programmeSegments(plan, T0 - 1, T0 + 60_000);
    expect(segs.map((s) => [s.start - T0, s.durationMs, s.videoIndex, s.discontinuity])).toEqual([
      [0, 4000, 0, true],
      [4000, 4000, 1, false],
      [8000, 1000, -1, true],
      [9000, 1000, -1, false],
      [10_000, 500, -1, false],
    ]);
    expect(programmeCount(plan)).toEqual({ segments: 5, innerDiscontinuities: 1 });
  });

  it('pads a video that ends early, a slate stretch every ten seconds', () => {
    const plan = { start: T0, end: T0 + 14_500 + 25_000, source, offset: 0 };
    const segs = programmeSegments(plan, T0 - 1, T0 + 3_600_000);
    const slate = segs.filter((s) => s.videoIndex < 0);
    expect(slate).toHaveLength(25);
    expect(slate.filter((s) => s.discontinuity).map((s) => s.start - T0)).toEqual([14_500, 24_500, 34_500]);
    expect(programmeCount(plan)).toEqual({ segments: segs.length, innerDiscontinuities: 3 });
    expect(segs.at(-1)!.innerDiscontinuities).toBe(3);
  });

  it('joins in progress from the segment holding the offset, placed at the on-air start', () => {
    const segs = programmeSegments({ start: T0, end: T0 + 20_000, source, offset: 5_000 }, T0 - 1, T0 + 60_000);
    expect(segs[0]).toMatchObject({ start: T0, videoIndex: 1, discontinuity: true });
    expect(segs.filter((s) => s.videoIndex >= 0)).toHaveLength(3);
  });

  it('airs only slate when nothing plays, and counts a long gap without listing it', () => {
    const plan = { start: T0, end: T0 + 7 * 86_400_000, source: undefined, offset: 0 };
    expect(programmeCount(plan)).toEqual({ segments: 7 * 86_400, innerDiscontinuities: 7 * 8640 - 1 });
    const segs = programmeSegments(plan, T0 + 86_400_000, T0 + 86_400_000 + 3000);
    expect(segs.map((s) => s.j)).toEqual([86_400, 86_401, 86_402, 86_403]);
  });
});

describe('the ledger', () => {
  const sources = new Map<number, PlayableSource>([[7, { video: video([4000, 4000, 4000]), variants: [0] }]]);
  const sourceOf = (id: number) => sources.get(id);

  it('derives each row from the one before: segments and discontinuities it aired up to the new start', () => {
    const first = nextRow(undefined, 0, sourceOf, T0, 7, { end: T0 + 10_000, offset: 0 });
    expect(first).toMatchObject({ mediaSequence: 0, discontinuitySequence: 0, segmentCount: 4, discontinuities: 2 });
    const second = nextRow(first, 0, sourceOf, T0 + 10_000, 0, { end: Infinity, offset: 0 });
    expect(second).toMatchObject({ programmeStart: T0 + 10_000, mediaSequence: 4, discontinuitySequence: 2 });
  });

  it('writes rows for programmes that have started, in order, and none for the future', () => {
    const onAir = [
      { start: T0, end: T0 + 10_000, videoId: 7, offset: 0, isLive: false },
      { start: T0 + 20_000, end: T0 + 30_000, videoId: 8, offset: 0, isLive: false },
    ];
    const planned = plannedProgrammes(onAir, T0 - 5000, T0 + 40_000);
    expect(planned.map((p) => [p.start === undefined ? 'open' : p.start - T0, p.videoId])).toEqual([
      ['open', 0],
      [0, 7],
      [10_000, 0],
      [20_000, 8],
      [30_000, 0],
    ]);
    const airs = (p: { videoId: number }) => (sources.has(p.videoId) ? p.videoId : 0);
    const rows = rowsToWrite([], planned, T0 + 21_000, T0 - 60_000, T0 - 60_000, sourceOf, () => 0, airs);
    expect(rows.map((r) => [r.programmeStart - T0, r.videoId, r.mediaSequence, r.discontinuitySequence])).toEqual([
      [-60_000, 0, 0, 0],
      [0, 7, 60, 6],
      [10_000, 0, 64, 8],
      [20_000, 0, 74, 9],
    ]);
    // Programmes over before the window never showed: none of them gets a row (the gap from 10 s reaches into it).
    expect(rowsToWrite([], planned, T0 + 21_000, T0 + 15_000, T0 - 60_000, sourceOf, () => 0, airs).map((r) => r.programmeStart - T0)).toEqual([10_000, 20_000]);
    // A row already there is never written again; the next programme follows it.
    expect(rowsToWrite(rows, planned, T0 + 31_000, T0 - 60_000, T0 - 60_000, sourceOf, () => 0, airs).map((r) => r.programmeStart - T0)).toEqual([30_000]);
  });
});

describe('the live window and its playlists', () => {
  const sources = new Map<number, PlayableSource>([[7, { video: video([4000, 4000, 4000, 4000, 4000]), variants: [0] }]]);
  const rows: LedgerRow[] = [
    { programmeStart: T0, mediaSequence: 100, discontinuitySequence: 10, videoId: 0, segmentCount: 0, discontinuities: 1 },
    { programmeStart: T0 + 10_000, mediaSequence: 110, discontinuitySequence: 11, videoId: 7, segmentCount: 0, discontinuities: 1 },
  ];
  const input = (now: number) => ({ settings, rows, nextStart: T0 + 26_000, sourceOf: (id: number) => sources.get(id), offsetOf: () => 0, now, slateBase: '/s' });

  it('holds the segments started by now covering the window, numbered from their rows', () => {
    const w = liveWindow(input(T0 + 12_000), 0);
    expect(w.map((s) => s.mediaSequence)).toEqual([102, 103, 104, 105, 106, 107, 108, 109, 110]);
    expect(w.at(-1)).toMatchObject({ discontinuitySequence: 11, discontinuity: true, programDateTime: T0 + 10_000, videoId: 7 });
    expect(w[0]).toMatchObject({ discontinuitySequence: 10, discontinuity: false, programDateTime: T0 + 2000, videoId: 0 });
    const text = mediaPlaylist(liveWindow(input(T0 + 23_000), 0), 4);
    expect(text).toContain('#EXT-X-TARGETDURATION:4\n');
    expect(text).not.toContain('#EXT-X-ENDLIST');
    expect(text.split('\n').filter((l) => l.startsWith('#EXT-X-PROGRAM-DATE-TIME')).length).toBe(text.split('\n').filter((l) => l.startsWith('#EXTINF')).length);
  });

  it("never puts a discontinuity before the first segment, and its sequence is the first segment's", () => {
    for (let t = T0; t < T0 + 26_000; t += 500) {
      const w = liveWindow(input(t), 0);
      const text = mediaPlaylist(w, 4);
      const lines = text.split('\n');
      expect(lines.indexOf('#EXT-X-DISCONTINUITY') === -1 || lines.indexOf('#EXT-X-DISCONTINUITY') > lines.findIndex((l) => l.startsWith('#EXTINF'))).toBe(true);
      expect(text).toContain(`#EXT-X-MEDIA-SEQUENCE:${w[0]!.mediaSequence}\n#EXT-X-DISCONTINUITY-SEQUENCE:${w[0]!.discontinuitySequence}\n`);
      expect(
        w.reduce((sum, s) => sum + s.durationMs, 0),
        `at ${t - T0}`,
      ).toBeGreaterThanOrEqual(Math.min(12_000, t - T0 + 1));
    }
  });

  it('cuts the video at the next programme and pads the rest with slate', () => {
    const w = liveWindow({ ...input(T0 + 24_500), nextStart: T0 + 25_000 }, 0);
    expect(w.map((s) => s.uri)).toEqual(['http://o/v/0/0.ts', 'http://o/v/0/1.ts', 'http://o/v/0/2.ts', '/s/640x360/0.ts', '/s/640x360/1.ts', '/s/640x360/2.ts']);
    expect(w.map((s) => s.videoId)).toEqual([7, 7, 7, 0, 0, 0]);
    expect(w.map((s) => s.discontinuity)).toEqual([true, false, false, true, false, false]);
  });

  it('names one variant playlist per rung in the master playlist', () => {
    const text = masterPlaylist([{ bandwidth: 800_000, resolution: { width: 640, height: 360 }, codecs: 'avc1.4d401e,mp4a.40.2' }, { bandwidth: 2_500_000 }]);
    expect(text).toBe(
      '#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-INDEPENDENT-SEGMENTS\n#EXT-X-STREAM-INF:BANDWIDTH=800000,RESOLUTION=640x360,CODECS="avc1.4d401e,mp4a.40.2"\n0.m3u8\n#EXT-X-STREAM-INF:BANDWIDTH=2500000\n1.m3u8\n',
    );
  });
});

describe('coverage and settings rules', () => {
  it('counts airtime playing as itself, the seconds of each reason, and lists what does not play', () => {
    const segments = [
      { start: T0 + 10_000, end: T0 + 70_000, videoId: 1, title: 'a', isLive: false },
      { start: T0 + 70_000, end: T0 + 100_000, videoId: 2, title: 'b', isLive: false },
      { start: T0 + 100_000, end: T0 + 130_000, videoId: 3, title: 'live', isLive: true },
    ];
    const reasons = new Map([[2, 'ingest-pending' as const]]);
    const c = coverageOf(segments, T0, T0 + 120_000, (id, live) => (live ? 'live-not-hls' : reasons.get(id)));
    expect(c).toEqual({
      share: 60 / 110,
      airtimeSeconds: 110,
      itselfSeconds: 60,
      reasons: { gap: 10, 'ingest-pending': 30, 'live-not-hls': 20 },
      programmes: [
        { start: new Date(T0 + 70_000).toISOString(), end: new Date(T0 + 100_000).toISOString(), videoId: 2, title: 'b', reason: 'ingest-pending' },
        { start: new Date(T0 + 100_000).toISOString(), end: new Date(T0 + 130_000).toISOString(), videoId: 3, title: 'live', reason: 'live-not-hls' },
      ],
    });
  });

  it('refuses a short window, a changed target duration once aired, no ladder and fMP4, in words', () => {
    const current = { enabled: true, container: 'ts' as const, targetDurationSeconds: 6, windowSeconds: 60, ladder: [{ bandwidth: 1 }], epoch: '2026-11-01T00:00:00.000Z' };
    expect(linearProblems({ enabled: true, targetDurationSeconds: 6 }, current, true, 'ts')).toEqual([]);
    expect(linearProblems({ enabled: true, targetDurationSeconds: 4 }, current, true, 'ts')).toEqual([expect.stringContaining('can never change')]);
    expect(linearProblems({ enabled: true, targetDurationSeconds: 4 }, current, false, 'ts')).toEqual([]);
    expect(linearProblems({ enabled: true, targetDurationSeconds: 10, windowSeconds: 29 }, current, false, 'ts')).toEqual([expect.stringContaining('(30)')]);
    expect(linearProblems({ enabled: true, targetDurationSeconds: 6 }, { ...current, ladder: [] }, false, 'ts')).toEqual([expect.stringContaining('no ready HLS video')]);
    expect(linearProblems({ enabled: true, targetDurationSeconds: 6 }, current, false, 'fmp4')).toEqual([expect.stringContaining('fMP4')]);
  });
});
