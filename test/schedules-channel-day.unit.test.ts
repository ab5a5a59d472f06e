// The compiled schedule path (channel-day.ts, zone-offsets.ts) against today's expansion
// (expand.ts, labels.ts): unit cases at the edges, then a property over generated catalogs that
// compares the rendered REST and Custom entries byte for byte.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { channelDatesForWindow, expandChannelDay, expandWindow, type ExpandedBlock, type LiveStream, type ScheduleBlock, type ScheduleVideo } from '../src/schedules/expand.ts';
import { formatLocalDateTime, formatLocalSpaced, localDateOf, localDayWindow, playTimeLabel } from '../src/schedules/labels.ts';
import { compileChannelDay, dayBlocks, sliceWindow, windowChannelDates, windowHasEntries } from '../src/schedules/channel-day.ts';
import {
  cachedDayWindow,
  fastLocalDate,
  fastLocalDateTime,
  fastLocalSpaced,
  fastPlayTimeLabel,
  fastRowLabels,
  offsetMinutes,
  steadyDayWindow,
} from '../src/schedules/zone-offsets.ts';
import { IANAZone } from 'luxon';

/** DST both ways, half- and quarter-hour offsets, a 30-minute DST shift, the southern hemisphere. */
const ZONES = [
  'UTC',
  'America/New_York',
  'Europe/Berlin',
  'Asia/Kolkata',
  'Asia/Kathmandu',
  'America/St_Johns',
  'Australia/Adelaide',
  'Australia/Lord_Howe',
  'Pacific/Chatham',
  'America/Sao_Paulo',
  'Europe/London',
  'Pacific/Apia',
];
/** Days around the 2026 transitions of those zones, and plain days. */
const DATES = ['2026-03-08', '2026-03-29', '2026-04-05', '2026-09-27', '2026-10-04', '2026-10-25', '2026-11-01', '2026-01-15', '2026-06-30', '2026-12-31', '2027-01-01'];
const utc = (y: number, mo: number, d: number, h = 0, mi = 0, s = 0, ms = 0) => Date.UTC(y, mo - 1, d, h, mi, s, ms);

describe('zone offset tables', () => {
  it('answer what luxon answers on both sides of a transition, to the millisecond', () => {
    // New York springs forward at 07:00 UTC on 2026-03-08; Lord Howe moves by 30 minutes.
    const ny = IANAZone.create('America/New_York');
    for (const ms of [utc(2026, 3, 8, 6, 59, 59, 999), utc(2026, 3, 8, 7), utc(2026, 11, 1, 5, 59, 59, 999), utc(2026, 11, 1, 6)]) {
      expect(offsetMinutes(ms, 'America/New_York')).toBe(ny.offset(ms));
    }
    expect(fastLocalDateTime(utc(2026, 3, 8, 6, 59, 59, 999), 'America/New_York')).toBe('2026-03-08T01:59:59');
    expect(fastLocalDateTime(utc(2026, 3, 8, 7), 'America/New_York')).toBe('2026-03-08T03:00:00');
    expect(fastLocalSpaced(utc(2026, 4, 4, 15, 0), 'Australia/Lord_Howe')).toBe(formatLocalSpaced(utc(2026, 4, 4, 15, 0), 'Australia/Lord_Howe'));
  });

  it('truncate fractional instants like the luxon labels', () => {
    const ms = utc(2026, 6, 1, 10, 0, 59, 999) + 0.9;
    expect(fastLocalDateTime(ms, 'UTC')).toBe('2026-06-01T10:00:59');
    expect(fastPlayTimeLabel(utc(2026, 6, 1, 0, 5), utc(2026, 6, 1, 12, 59, 59, 999) + 0.5, 'UTC')).toBe('12:05 AM - 12:59 PM');
  });

  it('give the day windows luxon gives, in every zone Intl knows, or leave a day near a transition to luxon', () => {
    let steady = 0;
    let asked = 0;
    // Transitions of both hemispheres, a plain day, a leap day and the ends of the accepted range.
    const dates = ['2026-03-08', '2026-03-29', '2026-10-04', '2026-11-01', '2026-06-30', '2000-02-29', '1899-12-31', '9999-12-31'];
    for (const zone of Intl.supportedValuesOf('timeZone')) {
      for (const date of dates) {
        asked++;
        const window = steadyDayWindow(date, zone);
        if (window === undefined) continue;
        steady++;
        expect(window, `${zone} ${date}`).toEqual(localDayWindow(date, zone));
      }
    }
    // The tables answer nearly every day (a fallback everywhere would pass the comparison and save nothing).
    expect(steady / asked).toBeGreaterThan(0.9);
    // Through the cache: an invalid date is still refused, a day at a transition still luxon's.
    expect(() => cachedDayWindow('2026-02-30', 'UTC')).toThrow(RangeError);
    expect(cachedDayWindow('2026-03-08', 'America/New_York')).toEqual(localDayWindow('2026-03-08', 'America/New_York'));
    expect(steadyDayWindow('2026-03-08', 'America/New_York')).toBeUndefined();
  });

  it('match every luxon label from 1900 to 2100 in every test zone (including offsets with seconds)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: utc(1900, 1, 1), max: utc(2100, 1, 1) }),
        fc.double({ min: 0, max: 0.999, noNaN: true }),
        fc.constantFrom(...ZONES, 'Asia/Kolkata', 'Europe/Amsterdam'),
        (ms, frac, zone) => {
          const t = ms + frac;
          expect(fastLocalDateTime(t, zone)).toBe(formatLocalDateTime(t, zone));
          expect(fastLocalSpaced(t, zone)).toBe(formatLocalSpaced(t, zone));
          expect(fastLocalDate(t, zone)).toBe(localDateOf(t, zone));
          expect(fastPlayTimeLabel(t, t + 5_400_000.5, zone)).toBe(playTimeLabel(t, t + 5_400_000.5, zone));
          expect(fastRowLabels(t, t + 5_400_000.5, zone)).toEqual([formatLocalSpaced(t, zone), formatLocalSpaced(t + 5_400_000.5, zone), playTimeLabel(t, t + 5_400_000.5, zone)]);
        },
      ),
      { seed: 20261124, numRuns: 3_000 },
    );
  });
});

// ---- generated catalogs -------------------------------------------------------------------

interface V extends ScheduleVideo {}

const video = (id: number, durationSeconds: number): V => ({
  videoTubeId: id,
  title: `v${id}`,
  thumbnailUrl: `t${id}`,
  durationSeconds,
  providerVideoId: `p${id}`,
  providerName: 'Custom',
  streamUrl: null,
});

const two = (n: number) => String(n).padStart(2, '0');
const addDays = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/** Durations: whole seconds, tenths (float noise), long ones that run past midnight, junk. */
const duration = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 0, max: 2_400 }) },
  { weight: 3, arbitrary: fc.integer({ min: 0, max: 24_000 }).map((d) => d / 10) },
  { weight: 1, arbitrary: fc.integer({ min: 3_600, max: 30_000 }) },
  { weight: 1, arbitrary: fc.constantFrom(-5, Number.NaN, 0.1, 0.2) },
);

const catalogArb = fc.record({
  zone: fc.constantFrom(...ZONES),
  date: fc.constantFrom(...DATES),
  blocks: fc.array(
    fc.record({
      dayOffset: fc.integer({ min: -3, max: 1 }),
      // Hours skew late (blocks past midnight) and into the 01:00-03:00 DST gaps and overlaps.
      hour: fc.oneof(fc.integer({ min: 0, max: 23 }), fc.constantFrom(0, 1, 2, 22, 23)),
      minute: fc.constantFrom(0, 15, 30, 45, 59),
      second: fc.constantFrom(0, 30, 59),
      loopDaily: fc.boolean(),
      published: fc.boolean(),
      durations: fc.array(duration, { maxLength: 12 }),
    }),
    { maxLength: 7 },
  ),
  live: fc.array(fc.record({ startHours: fc.integer({ min: -60, max: 84 }), minutes: fc.integer({ min: 0, max: 59 }), lengthMinutes: fc.integer({ min: -30, max: 300 }) }), {
    maxLength: 3,
  }),
  requestZones: fc.uniqueArray(fc.constantFrom(...ZONES), { minLength: 1, maxLength: 3 }),
});

type Generated = fc.Arbitrary<typeof catalogArb extends fc.Arbitrary<infer T> ? T : never>;
type Catalog = Generated extends fc.Arbitrary<infer T> ? T : never;

function build(c: Catalog): { blocks: ScheduleBlock<V>[]; liveStreams: LiveStream<V>[] } {
  let nextVideo = 1;
  const blocks = c.blocks.map((b, i): ScheduleBlock<V> => ({
    id: i + 1,
    startLocal: `${addDays(c.date, b.dayOffset)}T${two(b.hour)}:${two(b.minute)}:${two(b.second)}`,
    published: b.published,
    loopDaily: b.loopDaily,
    videos: b.durations.map((d) => video(nextVideo++, d)),
  }));
  const midnight = Date.parse(`${c.date}T00:00:00Z`);
  const liveStreams = c.live.map((l): LiveStream<V> => {
    const start = midnight + l.startHours * 3_600_000 + l.minutes * 60_000;
    return { video: video(1000 + nextVideo++, 0), start: new Date(start), end: new Date(start + l.lengthMinutes * 60_000) };
  });
  return { blocks, liveStreams };
}

/** The REST schedule's fields that come from the expansion, labels in the channel zone. */
function restText(blocks: ExpandedBlock<V>[], zone: string, label: typeof formatLocalDateTime, play: typeof playTimeLabel): string {
  return JSON.stringify(
    blocks.map((b) => ({
      id: b.channelScheduleId,
      startTime: label(b.start, zone),
      published: b.published,
      loopDaily: b.loopDaily,
      isLive: b.isLive,
      videos: b.videos.map((v) => [v.video.videoTubeId, v.playbackOrderNumber, v.start, v.end, label(v.start, zone), label(v.end, zone), play(v.start, v.end, zone)]),
    })),
  );
}

/** The Custom rows' fields that come from the expansion, labels in the request zone. */
function customText(blocks: ExpandedBlock<V>[], zone: string, label: typeof formatLocalSpaced): string {
  return JSON.stringify(
    blocks.flatMap((b) => b.videos.map((v) => [b.channelScheduleId, b.start, v.video.videoTubeId, v.playbackOrderNumber, v.isLive, label(v.start, zone), label(v.end, zone)])),
  );
}

describe('compiled schedules answer what the expansion answers', () => {
  it('a compiled channel day filters to expandChannelDay, published or not', () => {
    const blocks: ScheduleBlock<V>[] = [
      { id: 1, startLocal: '2026-03-07T23:30:00', published: true, loopDaily: true, videos: [video(1, 3600)] },
      { id: 2, startLocal: '2026-03-08T02:30:00', published: false, loopDaily: false, videos: [video(2, 600)] },
    ];
    const day = compileChannelDay({ zone: 'America/New_York', date: '2026-03-08', blocks, liveStreams: [] });
    expect(day.blocks.map((b) => b.channelScheduleId)).toEqual([2, 1]);
    expect(dayBlocks(day, false)).toEqual(expandChannelDay({ zone: 'America/New_York', date: '2026-03-08', blocks, liveStreams: [], includeUnpublished: false }));
  });

  it('a request-zone day slices the channel days it touches, keeping order numbers', () => {
    // A Kolkata channel, a New York request day: 09:30 to 09:30 the next day in Kolkata. The 09:00
    // block's second video (10:00) starts inside on the first day, its first video on the second.
    const blocks: ScheduleBlock<V>[] = [{ id: 7, startLocal: '2026-06-01T09:00:00', published: true, loopDaily: true, videos: [video(1, 3600), video(2, 3600)] }];
    const { from, to } = localDayWindow('2026-06-10', 'America/New_York');
    const dates = windowChannelDates('Asia/Kolkata', from, to);
    expect(dates).toEqual(['2026-06-09', '2026-06-10', '2026-06-11']);
    const days = dates.map((date) => compileChannelDay({ zone: 'Asia/Kolkata', date, blocks, liveStreams: [] }));
    const sliced = sliceWindow(days, from, to, false);
    expect(sliced.map((b) => b.videos.map((v) => v.playbackOrderNumber))).toEqual([[2], [1]]);
    expect(sliced).toEqual(expandWindow({ zone: 'Asia/Kolkata', from, to, blocks, liveStreams: [], includeUnpublished: false }));
  });

  it('byte for byte over generated catalogs (REST days and Custom request-zone days)', () => {
    fc.assert(
      fc.property(catalogArb, (c) => {
        const { blocks, liveStreams } = build(c);
        const compiled = new Map<string, ReturnType<typeof compileChannelDay<V>>>();
        const day = (date: string) => {
          let d = compiled.get(date);
          if (!d) compiled.set(date, (d = compileChannelDay({ zone: c.zone, date, blocks, liveStreams })));
          return d;
        };
        for (const includeUnpublished of [false, true]) {
          const expected = expandChannelDay({ zone: c.zone, date: c.date, blocks, liveStreams, includeUnpublished });
          expect(restText(dayBlocks(day(c.date), includeUnpublished), c.zone, fastLocalDateTime, fastPlayTimeLabel)).toBe(
            restText(expected, c.zone, formatLocalDateTime, playTimeLabel),
          );
        }
        for (const requestZone of c.requestZones) {
          const { from, to } = localDayWindow(c.date, requestZone);
          const dates = windowChannelDates(c.zone, from, to);
          expect(dates).toEqual(channelDatesForWindow(c.zone, from, to));
          const expected = expandWindow({ zone: c.zone, from, to, blocks, liveStreams, includeUnpublished: false });
          expect(customText(sliceWindow(dates.map(day), from, to, false), requestZone, fastLocalSpaced)).toBe(customText(expected, requestZone, formatLocalSpaced));
          // Availability asks only whether the window holds anything.
          for (const includeUnpublished of [false, true]) {
            expect(windowHasEntries(dates.map(day), from, to, includeUnpublished)).toBe(sliceWindow(dates.map(day), from, to, includeUnpublished).length > 0);
          }
        }
      }),
      { seed: 4242, numRuns: 400 },
    );
  });
});
