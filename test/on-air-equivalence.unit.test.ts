// Equivalence, proven (issue 28): every output that says what is on air describes the same
// programmes at the same instants as the on-air timeline. Schedules are generated (zones with DST
// and half-hour/45-minute offsets, loopDaily and dated blocks, blocks past midnight, overlapping
// live streams, gaps), channel-days compiled with the pure functions the service uses, and each
// output's pure part run the way its read runs it, from the compiled days it loads:
// - XMLTV: a channel-day's programmes (guide-export.ts guideDays: segmentsStartingIn over the day
//   before, the day and the day after);
// - REST schedule: a channel-day's blocks cut (timelines.ts onAirDay: cutDay);
// - Custom guide rows: a request-zone day (timelines.ts publishedWindows: segmentsStartingIn per
//   channel-day, the window cut in place from those listings, kept as columns: listing.ts);
// - now and next (now-on-air.ts nowOnAir), and programme attribution (on-air.ts programmesOnAir:
//   segmentsOverlapping, then sessions/programme-attribution.ts attribute).
// The reference is the timeline over the whole generated span, from every occurrence at once.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays, compileChannelDay, windowChannelDates, type CompiledDay } from '../src/schedules/channel-day.ts';
import type { ExpandedBlock, LiveStream, ScheduleBlock, ScheduleVideo } from '../src/schedules/expand.ts';
import { cutDay, DAY_MS, nextBoundary, segmentEntry, segmentsOverlapping, segmentsStartingIn } from '../src/schedules/on-air-listing.ts';
import { Listing, windowOf } from '../src/schedules/listing.ts';
import { nowAndNext, onAirTimeline, type OnAirSegment } from '../src/schedules/on-air-timeline.ts';
import { cachedDayWindow } from '../src/schedules/zone-offsets.ts';
import { attribute } from '../src/sessions/programme-attribution.ts';

/** Zones and a date each near a DST change (Kolkata has none; its offset is +05:30). */
const ZONES: Array<[string, string]> = [
  ['America/New_York', '2026-11-01'],
  ['America/New_York', '2026-03-08'],
  ['Asia/Kolkata', '2026-06-10'],
  ['Australia/Lord_Howe', '2026-04-05'],
  ['Australia/Lord_Howe', '2026-10-04'],
  ['Pacific/Chatham', '2026-04-05'],
  ['Pacific/Chatham', '2026-09-27'],
];
/** The days checked: the DST day and one either side; compiled: two more either side. */
const CHECKED = [-1, 0, 1];
const COMPILED = [-3, -2, -1, 0, 1, 2, 3];

const video = (id: number, seconds: number): ScheduleVideo => ({
  videoTubeId: id,
  title: `v${id}`,
  thumbnailUrl: '',
  durationSeconds: seconds,
  providerVideoId: `p${id}`,
  providerName: 'YouTube',
  streamUrl: null,
});

const pad = (n: number) => String(n).padStart(2, '0');

const schedule = fc.record({
  zone: fc.constantFrom(...ZONES),
  blocks: fc.array(
    fc.record({
      day: fc.integer({ min: -3, max: 2 }),
      hour: fc.integer({ min: 0, max: 23 }),
      minute: fc.constantFrom(0, 15, 30, 45, 59),
      loopDaily: fc.boolean(),
      videos: fc.array(fc.oneof(fc.integer({ min: 1, max: 5400 }), fc.double({ min: 0.2, max: 3600, noNaN: true })), { minLength: 1, maxLength: 6 }),
    }),
    { maxLength: 6 },
  ),
  live: fc.array(fc.record({ day: fc.integer({ min: -2, max: 2 }), minute: fc.integer({ min: 0, max: 24 * 60 - 1 }), seconds: fc.integer({ min: 1, max: 4 * 3600 }) }), {
    maxLength: 4,
  }),
  probes: fc.array(fc.integer({ min: 0, max: 3 * DAY_MS - 1 }), { minLength: 3, maxLength: 8 }),
  unpublishedIndex: fc.integer({ min: -1, max: 5 }),
});

type Sample = typeof schedule extends fc.Arbitrary<infer T> ? T : never;

function compile(sample: Sample) {
  const [zone, date] = sample.zone;
  let nextVideo = 1;
  const blocks: ScheduleBlock[] = sample.blocks.map((b, i) => ({
    id: i + 1,
    startLocal: `${addDays(date, b.day)}T${pad(b.hour)}:${pad(b.minute)}:00`,
    published: i !== sample.unpublishedIndex,
    loopDaily: b.loopDaily,
    videos: b.videos.map((s) => video(nextVideo++, s)),
  }));
  const dayStart = cachedDayWindow(date, zone).from;
  const liveStreams: LiveStream[] = sample.live.map((l, i) => {
    const start = dayStart + l.day * DAY_MS + l.minute * 60_000;
    return { video: video(1000 + i, l.seconds), start: new Date(start), end: new Date(start + l.seconds * 1000) };
  });
  const days = new Map<string, CompiledDay>();
  for (const k of COMPILED) {
    const d = addDays(date, k);
    days.set(d, compileChannelDay({ zone, date: d, blocks, liveStreams }));
  }
  /** What a read loads: the compiled days of windowChannelDates (all compiled here). */
  const occurrences = (from: number, to: number) => windowChannelDates(zone, from, to).flatMap((d) => days.get(d)?.blocks ?? []);
  const all = [...days.values()].flatMap((d) => d.blocks);
  return { zone, date, days, occurrences, all };
}

/** A segment as the outputs must agree on it: which entry, when. */
const key = (s: { video: ScheduleVideo; start: number; end: number; isLive: boolean }) => `${s.video.videoTubeId}|${s.start}|${s.end}|${s.isLive}`;

describe('every output agrees with the on-air timeline (property)', () => {
  it('XMLTV days, REST days, Custom request-zone days, now/next and attribution', () => {
    fc.assert(
      fc.property(schedule, (sample) => {
        const { zone, date, days, occurrences, all } = compile(sample);
        const first = cachedDayWindow(addDays(date, CHECKED[0]!), zone).from;
        const last = cachedDayWindow(addDays(date, CHECKED.at(-1)!), zone).to;
        // The reference: the timeline over everything compiled, far beyond the checked days.
        const reference = onAirTimeline(all, first - 2 * DAY_MS, last + 2 * DAY_MS);
        const starting = (from: number, to: number) => reference.filter((s) => s.start >= from && s.start < to).map(key);

        // Invariants of the timeline itself: by start, none overlapping, each inside its entry.
        const broken = reference.filter(
          (s, i) => !(s.end > s.start && s.start - s.entryStart === s.offset && s.start >= s.entryStart && s.end <= s.entryEnd && (i === 0 || s.start >= reference[i - 1]!.end)),
        );
        expect(broken).toEqual([]);
        // A live stream is on air for its whole duration unless a later live stream covers it.
        for (const b of all.filter((x) => x.isLive)) {
          const from = Math.floor(b.start / 1000) * 1000;
          const to = Math.floor(b.videos[0]!.end / 1000) * 1000;
          if (from < first || to > last) continue;
          const covered = reference.filter((s) => s.isLive && s.start < to && s.end > from).reduce((n, s) => n + Math.min(s.end, to) - Math.max(s.start, from), 0);
          expect(covered).toBe(to - from);
        }

        for (const k of CHECKED) {
          const d = addDays(date, k);
          const { from, to } = cachedDayWindow(d, zone);
          // XMLTV: the channel-day's programmes.
          const xmltv = segmentsStartingIn(occurrences(from, to + DAY_MS), from, to);
          expect(xmltv.map(key)).toEqual(starting(from, to));
          // REST: the channel-day's occurrences cut; their published entries are the reference's
          // segments of those occurrences (wherever they start).
          const around = [addDays(d, -1), d, addDays(d, 1)].flatMap((x) => days.get(x)!.blocks);
          const rest = cutDay(days.get(d)!.blocks, around).filter((b) => b.published);
          const own = new Set(days.get(d)!.blocks.map((b) => `${b.isLive}|${b.channelScheduleId}|${b.start}`));
          const expected = reference.filter((s) => own.has(`${s.isLive}|${s.channelScheduleId}|${s.blockStart}`));
          expect(
            rest
              .flatMap((b) => b.videos)
              .map(key)
              .sort(),
          ).toEqual(expected.map(key).sort());
          // A cut entry says so; totals then count its on-air time (scheduleTotals).
          const whole = new Set(expected.filter((s) => s.start === s.entryStart && s.end === s.entryEnd).map(key));
          expect(rest.flatMap((b) => b.videos).filter((v) => Boolean(v.cut) === whole.has(key(v)))).toEqual([]);
          // Custom: a day of another zone (half-hour offset), by instants.
          const custom = cachedDayWindow(d, 'Asia/Kolkata');
          const rows = segmentsStartingIn(occurrences(custom.from, custom.to + DAY_MS), custom.from, custom.to).map(segmentEntry);
          expect(rows.map(key)).toEqual(starting(custom.from, custom.to));
          // ...as the service answers it: cut from the listings of the channel-days it meets, each
          // listed once over its own day (publishedWindows), whatever the request zone.
          const listings = windowChannelDates(zone, custom.from, custom.to).map((x) => {
            const own = cachedDayWindow(x, zone);
            return segmentsStartingIn(occurrences(own.from, own.to + DAY_MS), own.from, own.to).map(segmentEntry);
          });
          // Kept as columns (listing.ts) and read in place: the same entries, as objects, cut or not.
          const window = windowOf(listings.map(Listing.of), custom.from, custom.to);
          expect(window.toArray()).toEqual(listings.flat().filter((e) => e.start >= custom.from && e.start < custom.to));
          expect(window.toArray().map(key)).toEqual(starting(custom.from, custom.to));
        }

        for (const p of sample.probes) {
          const at = first + p;
          if (at >= last) continue;
          // now and next, as nowOnAir reads them.
          const mine = nowAndNext(onAirTimeline(occurrences(at, at + DAY_MS), at - DAY_MS, at + DAY_MS), at);
          const ref = nowAndNext(reference, at);
          expect([mine.now && key(mine.now), mine.now?.offset]).toEqual([ref.now && key(ref.now), ref.now?.offset]);
          if (ref.next && ref.next.start < at + DAY_MS / 2) expect(mine.next && key(mine.next)).toBe(key(ref.next));
          // Attribution of a 90-minute session from `at`: the programmes programmesOnAir gives.
          const session = { id: 1, source: 'web', clientId: 'c', userId: '', channelId: 1, ownerId: 1, startedAt: at, lastHeartbeatAt: at + 90 * 60_000 };
          const programmes = (list: OnAirSegment[]) => list.map((s) => ({ start: s.start, stop: s.end, video: s.video as never, isLive: s.isLive }));
          const read = segmentsOverlapping(occurrences(session.startedAt - DAY_MS, session.lastHeartbeatAt + 1 + DAY_MS), session.startedAt, session.lastHeartbeatAt + 1);
          expect(attribute(session, programmes(read))).toEqual(attribute(session, programmes(reference)));
        }
      }),
      { seed: 20261126, numRuns: 120 },
    );
  });
});

describe('the next programme boundary of a listing', () => {
  it('is the naive minimum over every start and end after now (property)', () => {
    const listing = fc.array(fc.tuple(fc.integer({ min: 0, max: 50 }), fc.integer({ min: 1, max: 50 })), { maxLength: 30 }).map((gaps) => {
      let at = 0;
      return gaps.map(([gap, length]) => {
        const entry = { start: at + gap, end: at + gap + length };
        at = entry.end;
        return entry;
      });
    });
    fc.assert(
      fc.property(listing, fc.integer({ min: -5, max: 2_600 }), (entries, now) => {
        let naive = Infinity;
        for (const e of entries) naive = Math.min(naive, e.start > now ? e.start : Infinity, e.end > now ? e.end : Infinity);
        expect(nextBoundary(entries, now)).toBe(naive);
        // Kept as columns and cut into a window of runs (a guide's channel-day), split anywhere.
        const video = { videoTubeId: 1, title: '', durationSeconds: 0 } as never;
        const all = entries.map((e, i) => ({ ...e, video, playbackOrderNumber: i + 1, isLive: false }));
        const split = Math.floor(entries.length / 2);
        const window = windowOf([Listing.of(all.slice(0, split)), Listing.of(all.slice(split))], -Infinity, Infinity);
        expect(window.nextBoundary(now)).toBe(naive);
        expect(window.toArray()).toEqual(all);
      }),
      { seed: 20261129, numRuns: 500 },
    );
  });
});
