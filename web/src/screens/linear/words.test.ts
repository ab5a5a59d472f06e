import { describe, expect, it } from 'vitest';
import { bandwidth, coverageSentence, ingestErrorWords, ingestSummary, percent, reasonLines, reasonWords, rungLabel, sortedLadder, span, windowProblem } from './words.ts';

const rung = { bandwidth: 800_000 };
const ready = {
  status: 'ready' as const,
  sourceUrl: 'https://media.example/a/master.m3u8',
  container: 'ts' as const,
  variants: [rung, rung, rung],
  segments: 900,
  durationSeconds: 3600,
  targetDurationSeconds: 4,
  error: null,
  warning: null,
  ingestedAt: '2026-11-21T15:00:00.000Z',
};

describe('linear output in words', () => {
  it('says each slate reason as a creator reads it, and an unknown code too', () => {
    expect(reasonWords('not-hls')).toBe('YouTube, Vimeo and direct files cannot be stitched: the slate airs, the guide still lists the programme.');
    expect(reasonWords('gap')).toBe('Nothing is scheduled: the slate airs.');
    expect(reasonWords('segment-too-long')).toMatch(/longer than the channel's target duration/);
    expect(reasonWords('solar-flare')).toBe('Airs the slate (solar-flare).');
  });

  it('lists reasons with airtime, largest first, dropping empty ones', () => {
    const lines = reasonLines({ reasons: { gap: 600, 'not-hls': 7200, 'ingest-pending': 0 } });
    expect(lines.map((l) => [l.reason, l.seconds])).toEqual([
      ['not-hls', 7200],
      ['gap', 600],
    ]);
  });

  it('rounds a share without claiming all or none when that is not so', () => {
    expect(percent(0.8734)).toBe('87.3%');
    expect(percent(0.5)).toBe('50%');
    expect(percent(0.99999)).toBe('99.9%');
    expect(percent(0.00001)).toBe('0.1%');
    expect(percent(1)).toBe('100%');
    expect(percent(0)).toBe('0%');
    expect(percent(Number.NaN)).toBe('0%');
  });

  it('says spans, the coverage headline and an empty week', () => {
    expect(span(45)).toBe('45 s');
    expect(span(600)).toBe('10 min');
    expect(span(3725)).toBe('1 h 2 min');
    expect(span(7200)).toBe('2 h');
    expect(coverageSentence({ share: 0.75, airtimeSeconds: 604800, itselfSeconds: 453600 })).toBe("75% of the next 7 days' airtime (126 h of 168 h) plays as itself.");
    expect(coverageSentence({ share: 0, airtimeSeconds: 0, itselfSeconds: 0 })).toMatch(/^Nothing is scheduled/);
  });

  it('labels rungs and orders a ladder from the top', () => {
    expect(bandwidth(2_500_000)).toBe('2.5 Mbit/s');
    expect(bandwidth(800_000)).toBe('800 kbit/s');
    expect(rungLabel({ bandwidth: 2_500_000, resolution: { width: 1280, height: 720 }, codecs: 'avc1.64001f,mp4a.40.2' })).toBe('1280×720 · 2.5 Mbit/s · avc1.64001f,mp4a.40.2');
    expect(rungLabel({ bandwidth: 96_000 })).toBe('audio or unknown size · 96 kbit/s · codecs not given');
    expect(sortedLadder([{ bandwidth: 1 }, { bandwidth: 3 }, { bandwidth: 2 }]).map((r) => r.bandwidth)).toEqual([3, 2, 1]);
  });

  it('asks for a window of at least 3 target durations', () => {
    expect(windowProblem(6, 60)).toBeUndefined();
    expect(windowProblem(6, 18)).toBeUndefined();
    expect(windowProblem(6, 17)).toBe('At least 3 target durations: 18 s or more.');
    expect(windowProblem(6, Number.NaN)).toBe('Enter a number of seconds.');
  });

  it("says a video's ingest state: ready, pending, failed, and videos that are not HLS", () => {
    expect(ingestSummary(ready, 'Custom')).toBe('Ready for linear streams: 3 renditions, 900 segments, 1 h, segments up to 4 s.');
    expect(ingestSummary({ ...ready, status: 'pending' }, 'Custom')).toMatch(/^Reading its HLS playlist/);
    expect(ingestSummary({ ...ready, status: 'failed', error: 'EXT-X-KEY METHOD=AES-128 is not supported' }, 'Custom')).toBe(
      'Cannot air as itself in linear streams. The playlist is encrypted; linear output takes unencrypted HLS only. (EXT-X-KEY METHOD=AES-128 is not supported) Fix it at its origin, then Refresh.',
    );
    expect(ingestSummary(null, 'YouTube')).toMatch(/^YouTube videos cannot be stitched/);
    expect(ingestSummary(undefined, 'Custom')).toMatch(/^Not an HLS playlist/);
  });

  it('explains the ingest refusals the issue lists, and keeps an unknown one as said', () => {
    expect(ingestErrorWords('playlist has no EXT-X-ENDLIST')).toMatch(/^The playlist is live or still growing/);
    expect(ingestErrorWords('segment 12 lasts 9.5 s, longer than the target duration 6')).toMatch(/^A segment is longer/);
    expect(ingestErrorWords('variants differ in segment counts (900 vs 899)')).toMatch(/^Its renditions are cut differently/);
    expect(ingestErrorWords('more than 20000 segments')).toMatch(/larger than the service accepts/);
    expect(ingestErrorWords('not an HLS playlist (no #EXTM3U)')).toMatch(/does not answer an HLS playlist/);
    expect(ingestErrorWords('too many redirects (4)')).toMatch(/redirects too many times/);
    expect(ingestErrorWords('10.0.0.5 is a private address')).toMatch(/MEDIA_FETCH_ALLOW_ORIGINS/);
    expect(ingestErrorWords('something odd')).toBe('something odd');
  });
});

describe('when a slate programme airs', () => {
  it("says it in the channel's zone, with the end's day when it differs", async () => {
    const { airTime } = await import('./words.ts');
    expect(airTime('2026-11-27T07:00:00Z', '2026-11-27T08:30:00Z', 'Europe/Berlin')).toBe('Fri 27 Nov 08:00–09:30');
    expect(airTime('2026-11-27T22:30:00Z', '2026-11-28T00:30:00Z', 'UTC')).toBe('Fri 27 Nov 22:30 – Sat 28 Nov 00:30');
  });
});
