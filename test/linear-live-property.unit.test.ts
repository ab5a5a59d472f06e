// The live playlists polled every second of a test clock for 10 minutes over generated schedules
// (property; docs/linear.md): zones on their DST day, blocks of short programmes, live streams
// preempting them, gaps, videos that play as themselves (segments of 0.5 to 4.4 s, ending early or
// late) and videos that air the slate. The service's pure path runs as a request runs it
// (window-state.ts: the timeline read, the rows due written once, the window made from the rows),
// with an in-memory ledger (insert, on conflict nothing). Checked at every poll:
// - EXT-X-MEDIA-SEQUENCE and -DISCONTINUITY-SEQUENCE never go back;
// - a segment keeps its sequence number, URI, date-time and discontinuity number while in the window;
// - exactly one discontinuity before each new programme (others only before a slate stretch), none
//   before the window's first segment; the numbers run on by one segment, one discontinuity;
// - every EXTINF rounds to at most the one target duration;
// - every segment's date-time plus its duration is the next one's;
// - each segment belongs to the video of the on-air programme (the XMLTV's) whose interval holds its
//   date-time, and ends within it; in a gap or a live stream, the slate.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays, compileChannelDay, windowChannelDates, type CompiledDay } from '../src/schedules/channel-day.ts';
import type { LiveStream, ScheduleBlock, ScheduleVideo } from '../src/schedules/expand.ts';
import { DAY_MS, segmentsOverlapping } from '../src/schedules/on-air-listing.ts';
import { onAirTimeline } from '../src/schedules/on-air-timeline.ts';
import { cachedDayWindow } from '../src/schedules/zone-offsets.ts';
import type { LedgerRow } from '../src/linear/ledger.ts';
import { liveWindow, mediaPlaylist, type WindowInput } from '../src/linear/live-playlist.ts';
import type { PlayableSource } from '../src/linear/programme-segments.ts';
import type { IngestedVideo, LiveSegment } from '../src/linear/types.ts';
import { rowsDue, spanOf, stateUntil, windowInput } from '../src/linear/window-state.ts';

/** A zone, its DST day and the UTC instant of its change (the poll starts a few minutes before). */
const ZONES: Array<[string, string, string]> = [
  ['America/New_York', '2026-11-01', '2026-11-01T06:00:00Z'],
  ['America/New_York', '2026-03-08', '2026-03-08T07:00:00Z'],
  ['Australia/Lord_Howe', '2026-04-05', '2026-04-04T15:00:00Z'],
  ['UTC', '2026-11-21', '2026-11-21T15:00:00Z'],
];
const POLL_SECONDS = 600;

const video = (id: number, seconds: number): ScheduleVideo => ({
  videoTubeId: id,
  title: `v${id}`,
  thumbnailUrl: '',
  durationSeconds: seconds,
  providerVideoId: `p${id}`,
  providerName: 'Custom',
  streamUrl: null,
});

const schedule = fc.record({
  zone: fc.constantFrom(...ZONES),
  target: fc.constantFrom(2, 4, 6),
  window: fc.constantFrom(0, 30),
  // Blocks of short programmes starting within an hour before to 10 minutes after the poll's start (wall minutes from it).
  blocks: fc.array(
    fc.record({
      minute: fc.integer({ min: -60, max: 10 }),
      second: fc.integer({ min: 0, max: 59 }),
      videos: fc.array(fc.integer({ min: 1, max: 400 }), { minLength: 1, maxLength: 8 }),
    }),
    { minLength: 1, maxLength: 5 },
  ),
  live: fc.array(fc.record({ second: fc.integer({ min: -120, max: 600 }), seconds: fc.integer({ min: 1, max: 240 }) }), { maxLength: 2 }),
  /** Per video: whether it plays as itself, its segments (ms, rounded to at most 4.4 s) and how many. */
  ingests: fc.array(fc.record({ plays: fc.boolean(), segment: fc.integer({ min: 500, max: 4400 }), count: fc.integer({ min: 1, max: 120 }) }), { minLength: 40, maxLength: 40 }),
  startOffset: fc.integer({ min: -300, max: 60 }),
});
type Sample = typeof schedule extends fc.Arbitrary<infer T> ? T : never;

const pad = (n: number) => String(n).padStart(2, '0');

function world(sample: Sample) {
  const [zone, date, change] = sample.zone;
  const start = Date.parse(change) + sample.startOffset * 1000;
  // Wall time of the poll's start in the zone, from the day's start (blocks are placed in wall minutes).
  const dayStart = cachedDayWindow(date, zone).from;
  let nextVideo = 1;
  const blocks: ScheduleBlock[] = sample.blocks.map((b, i) => {
    const wall = Math.floor((start - dayStart) / 1000) + b.minute * 60 + b.second;
    const day = Math.floor(wall / 86_400);
    const s = ((wall % 86_400) + 86_400) % 86_400;
    return {
      id: i + 1,
      startLocal: `${addDays(date, day)}T${pad(Math.floor(s / 3600))}:${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}`,
      published: true,
      loopDaily: false,
      videos: b.videos.map((seconds) => video(nextVideo++, seconds)),
    };
  });
  const liveStreams: LiveStream[] = sample.live.map((l, i) => ({
    video: video(1000 + i, l.seconds),
    start: new Date(start + l.second * 1000),
    end: new Date(start + (l.second + l.seconds) * 1000),
  }));
  const days = new Map<string, CompiledDay>();
  for (let k = -2; k <= 2; k++) days.set(addDays(date, k), compileChannelDay({ zone, date: addDays(date, k), blocks, liveStreams }));
  const occurrences = (from: number, to: number) => windowChannelDates(zone, from, to).flatMap((d) => days.get(d)?.blocks ?? []);
  const sources = new Map<number, PlayableSource>();
  sample.ingests.forEach((g, i) => {
    const id = i + 1;
    if (!g.plays || Math.round(g.segment / 1000) > sample.target) return;
    const v: IngestedVideo = {
      container: 'ts',
      version: 3,
      targetDurationSeconds: Math.round(g.segment / 1000),
      durationsMs: Array.from({ length: g.count }, () => g.segment),
      variants: [{ bandwidth: 1, playlistUri: `o/${id}.m3u8`, segmentUris: Array.from({ length: g.count }, (_, k) => `o/${id}/${k}.ts`) }],
    };
    sources.set(id, { video: v, variants: [0] });
  });
  return { start, occurrences, sources };
}

/**
 * `expect` only where a check fails: the poll loop runs ~9,000 times a sample, and vitest's
 * expect (its assertion counter and chai's proxies) was two thirds of this file's CPU when called
 * for every passing check. A failure still fails through expect, with its usual message.
 */
const sure = <T>(holds: boolean, actual: T, assert: (e: ReturnType<typeof expect<T>>) => void) => {
  if (!holds) assert(expect(actual));
};

function checkWindow(w: readonly LiveSegment[], target: number) {
  for (let i = 0; i < w.length; i++) {
    const s = w[i]!;
    sure(Math.round(s.durationMs / 1000) <= target, Math.round(s.durationMs / 1000), (e) => e.toBeLessThanOrEqual(target));
    sure(s.durationMs > 0, s.durationMs, (e) => e.toBeGreaterThan(0));
    if (i === 0) continue;
    const a = w[i - 1]!;
    sure(a.programDateTime + a.durationMs === s.programDateTime, a.programDateTime + a.durationMs, (e) => e.toBe(s.programDateTime));
    sure(s.mediaSequence === a.mediaSequence + 1, s.mediaSequence, (e) => e.toBe(a.mediaSequence + 1));
    const discontinuities = a.discontinuitySequence + (s.discontinuity ? 1 : 0);
    sure(s.discontinuitySequence === discontinuities, s.discontinuitySequence, (e) => e.toBe(discontinuities));
    if (s.programmeStart !== a.programmeStart) sure(s.discontinuity, s.discontinuity, (e) => e.toBe(true));
    else if (s.discontinuity) sure(s.videoId === 0, s.videoId, (e) => e.toBe(0));
  }
}

describe('the live playlists polled every second (property)', () => {
  it('keep their numbers, their segments and the schedule for 10 minutes', () => {
    fc.assert(
      fc.property(schedule, (sample) => {
        const { start, occurrences, sources } = world(sample);
        const settings = { targetDurationSeconds: sample.target, windowSeconds: Math.max(sample.window, 3 * sample.target), ladder: [{ bandwidth: 1 }], epoch: start - 120_000 };
        const reference = onAirTimeline(occurrences(start - DAY_MS, start + DAY_MS), start - 3 * 3600_000, start + 3600_000);
        const ledger = new Map<number, LedgerRow>();
        const seen = new Map<number, LiveSegment>();
        let last: LiveSegment | undefined;
        // What the service keeps: the input made at `from`, serving every poll until stateUntil.
        let kept: { from: number; until: number; input: WindowInput } | undefined;
        for (let t = 0; t <= POLL_SECONDS; t++) {
          const now = start + t * 1000;
          const rows = () => [...ledger.values()].sort((a, b) => a.programmeStart - b.programmeStart);
          const { since, to } = spanOf(settings, rows(), now);
          const onAir = segmentsOverlapping(occurrences(since - DAY_MS, to + DAY_MS), since, to).map((s) => ({
            start: s.start,
            end: s.end,
            videoId: s.video.videoTubeId,
            offset: s.offset,
            isLive: s.isLive,
          }));
          const ask = { settings, rows: rows(), onAir, since, to, sources, now, slateBase: '/s' };
          const due = rowsDue(ask);
          const valid = kept && now >= kept.from && now < kept.until;
          // While a kept input holds, no row falls due (the service writes none then)...
          if (valid) sure(due.length === 0, due, (e) => e.toEqual([]));
          for (const row of due) if (!ledger.has(row.programmeStart)) ledger.set(row.programmeStart, row);
          const input = windowInput({ ...ask, rows: rows() });
          const w = liveWindow(input, 0);
          // ...and its window, the clock moved, is byte for byte the fresh one.
          if (valid) {
            const fresh = mediaPlaylist(w, sample.target);
            const moved = mediaPlaylist(liveWindow({ ...kept!.input, now }, 0), sample.target);
            sure(moved === fresh, moved, (e) => e.toBe(fresh));
          } else kept = { from: now, until: stateUntil(input, now), input };
          sure(w.length > 0, w.length, (e) => e.toBeGreaterThan(0));
          checkWindow(w, sample.target);
          const head = mediaPlaylist(w, sample.target).split('#EXTINF')[0]!;
          sure(!head.includes('#EXT-X-DISCONTINUITY\n'), head, (e) => e.not.toContain('#EXT-X-DISCONTINUITY\n'));
          const first = w[0]!;
          if (last) {
            sure(first.mediaSequence >= last.mediaSequence, first.mediaSequence, (e) => e.toBeGreaterThanOrEqual(last!.mediaSequence));
            sure(first.discontinuitySequence >= last.discontinuitySequence, first.discontinuitySequence, (e) => e.toBeGreaterThanOrEqual(last!.discontinuitySequence));
          }
          last = first;
          if (t >= settings.windowSeconds + 2 * sample.target) {
            const held = w.reduce((sum, s) => sum + s.durationMs, 0);
            sure(held >= settings.windowSeconds * 1000, held, (e) => e.toBeGreaterThanOrEqual(settings.windowSeconds * 1000));
          }
          for (const s of w) {
            const before = seen.get(s.mediaSequence);
            const same =
              before === undefined ||
              (before.uri === s.uri &&
                before.discontinuitySequence === s.discontinuitySequence &&
                before.discontinuity === s.discontinuity &&
                before.programDateTime === s.programDateTime &&
                before.durationMs === s.durationMs);
            if (!same) expect(s).toEqual(before); // (compared field by field first: toEqual is slow)
            seen.set(s.mediaSequence, s);
            const on = reference.find((p) => p.start <= s.programDateTime && s.programDateTime < p.end);
            if (s.videoId !== 0) {
              sure(on?.video.videoTubeId === s.videoId, on?.video.videoTubeId, (e) => e.toBe(s.videoId));
              sure(!on!.isLive, on!.isLive, (e) => e.toBe(false));
              sure(s.programDateTime + s.durationMs <= on!.end, s.programDateTime + s.durationMs, (e) => e.toBeLessThanOrEqual(on!.end));
            } else if (on && !on.isLive && on.offset === 0 && sources.has(on.video.videoTubeId) && s.programDateTime === on.start && on.end - on.start >= 4400) {
              // A programme that plays as itself from its start, with room for a segment, starts with its video, not the slate.
              expect.unreachable(`programme ${on.video.videoTubeId} at ${new Date(on.start).toISOString()} aired the slate`);
            }
          }
        }
      }),
      { numRuns: Number(process.env.LIVE_RUNS ?? 15), endOnFailure: true },
    );
  }, 240_000);
});
