import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import {
  channelDatesForWindow,
  expandChannelDay,
  expandWindow,
  scheduleTotals,
  wallTimeToEpoch,
  type ExpandedBlock,
  type LiveStream,
  type ScheduleBlock,
  type ScheduleVideo,
} from '../src/schedules/expand.ts';
import { formatLocalDateTime, formatLocalSpaced, isValidDate, localDayWindow, playTimeLabel, timeDurationLabel, totalDurationLabel } from '../src/schedules/labels.ts';

interface TestVideo extends ScheduleVideo {
  extra: string;
}

const BERLIN = 'Europe/Berlin';
const NEW_YORK = 'America/New_York';
const KOLKATA = 'Asia/Kolkata';
const LOS_ANGELES = 'America/Los_Angeles';
const LONDON = 'Europe/London';

const utc = (y: number, mo: number, d: number, h = 0, mi = 0, s = 0, ms = 0): number => Date.UTC(y, mo - 1, d, h, mi, s, ms);

function video(id: number, durationSeconds: number): TestVideo {
  return {
    videoTubeId: id,
    title: `Video ${id}`,
    thumbnailUrl: `https://img.example/${id}.jpg`,
    durationSeconds,
    providerVideoId: `p${id}`,
    providerName: 'Vimeo',
    streamUrl: null,
    extra: `x${id}`,
  };
}

function block(id: number, startLocal: string, videos: TestVideo[], opts: Partial<ScheduleBlock<TestVideo>> = {}): ScheduleBlock<TestVideo> {
  return { id, startLocal, published: true, loopDaily: false, videos, ...opts };
}

function live(id: number, start: number, end: number): LiveStream<TestVideo> {
  return { video: video(id, 0), start: new Date(start), end: new Date(end) };
}

function day(zone: string, date: string, blocks: ScheduleBlock<TestVideo>[], liveStreams: LiveStream<TestVideo>[] = [], includeUnpublished = true) {
  return expandChannelDay({ zone, date, blocks, liveStreams, includeUnpublished });
}

const ids = (blocks: ExpandedBlock<TestVideo>[]): number[] => blocks.map((b) => b.channelScheduleId);
const local = (blocks: ExpandedBlock<TestVideo>[], zone: string) => blocks.map((b) => b.videos.map((v) => [formatLocalDateTime(v.start, zone), formatLocalDateTime(v.end, zone)]));

describe('expandChannelDay', () => {
  it('expands a plain day with chained videos and pass-through fields', () => {
    const out = day(BERLIN, '2026-06-15', [block(1, '2026-06-15T10:00:00', [video(11, 600), video(12, 900)])]);
    expect(out).toHaveLength(1);
    const b = out[0]!;
    expect(b).toMatchObject({ channelScheduleId: 1, start: utc(2026, 6, 15, 8), published: true, loopDaily: false, isLive: false });
    expect(b.videos.map((v) => [v.video.videoTubeId, v.playbackOrderNumber, v.start, v.end, v.isLive])).toEqual([
      [11, 1, utc(2026, 6, 15, 8, 0), utc(2026, 6, 15, 8, 10), false],
      [12, 2, utc(2026, 6, 15, 8, 10), utc(2026, 6, 15, 8, 25), false],
    ]);
    expect(b.videos[1]!.video.extra).toBe('x12');
    expect(formatLocalDateTime(b.start, BERLIN)).toBe('2026-06-15T10:00:00');
    expect(playTimeLabel(b.videos[1]!.start, b.videos[1]!.end, BERLIN)).toBe('10:10 AM - 10:25 AM');
  });

  it('returns an empty list for a day without blocks', () => {
    expect(day(BERLIN, '2026-06-16', [block(1, '2026-06-15T10:00:00', [video(11, 600)])])).toEqual([]);
  });

  it('keeps fractional durations unrounded and truncates labels', () => {
    const s = utc(2026, 6, 15, 19, 5);
    const [b] = day(BERLIN, '2026-06-15', [block(1, '2026-06-15T21:05:00', [video(1, 10.5), video(2, 20.25), video(3, 29.25)])]);
    expect(b!.videos.map((v) => [v.start - s, v.end - s])).toEqual([
      [0, 10500],
      [10500, 30750],
      [30750, 60000],
    ]);
    expect(local([b!], BERLIN)).toEqual([
      [
        ['2026-06-15T21:05:00', '2026-06-15T21:05:10'],
        ['2026-06-15T21:05:10', '2026-06-15T21:05:30'],
        ['2026-06-15T21:05:30', '2026-06-15T21:06:00'],
      ],
    ]);
    expect(playTimeLabel(b!.videos[0]!.start, b!.videos[0]!.end, BERLIN)).toBe('09:05 PM - 09:05 PM');
    expect(playTimeLabel(b!.videos[2]!.start, b!.videos[2]!.end, BERLIN)).toBe('09:05 PM - 09:06 PM');
    expect(scheduleTotals([b!])).toEqual({ totalVideos: 3, totalDurationSeconds: 60 });
  });

  it('does not lose a second to binary float noise in decimal durations', () => {
    // 0.1 + 8.2 + 1.7 === 9.999999999999998 in doubles
    const s = utc(2026, 6, 15, 19, 5);
    const [b] = day(BERLIN, '2026-06-15', [block(1, '2026-06-15T21:05:00', [video(1, 0.1), video(2, 8.2), video(3, 1.7)])]);
    expect(b!.videos[2]!.end).toBe(s + 10000);
    expect(formatLocalDateTime(b!.videos[2]!.end, BERLIN)).toBe('2026-06-15T21:05:10');
    expect(formatLocalDateTime(b!.videos[1]!.end, BERLIN)).toBe('2026-06-15T21:05:08');
  });

  it('keeps a block running past midnight on its start day', () => {
    const blocks = [block(1, '2026-06-15T23:30:00', [video(1, 1200), video(2, 1200), video(3, 1200)])];
    const out = day(BERLIN, '2026-06-15', blocks);
    expect(local(out, BERLIN)).toEqual([
      [
        ['2026-06-15T23:30:00', '2026-06-15T23:50:00'],
        ['2026-06-15T23:50:00', '2026-06-16T00:10:00'],
        ['2026-06-16T00:10:00', '2026-06-16T00:30:00'],
      ],
    ]);
    const last = out[0]!.videos[2]!;
    expect(playTimeLabel(last.start, last.end, BERLIN)).toBe('12:10 AM - 12:30 AM');
    expect(day(BERLIN, '2026-06-16', blocks)).toEqual([]);
  });

  it('numbers repeated videos 1..n', () => {
    const [b] = day(BERLIN, '2026-06-15', [block(1, '2026-06-15T10:00:00', [video(7, 60), video(8, 60), video(7, 60)])]);
    expect(b!.videos.map((v) => [v.video.videoTubeId, v.playbackOrderNumber])).toEqual([
      [7, 1],
      [8, 2],
      [7, 3],
    ]);
    expect(b!.videos[2]!.start).toBe(utc(2026, 6, 15, 8, 2));
  });

  it('repeats loopDaily blocks dated earlier, sorted with dated blocks, ties by id', () => {
    const blocks = [
      block(3, '2026-06-15T09:00:00', [video(3, 60)]),
      block(5, '2026-06-01T08:00:00', [video(5, 60)], { loopDaily: true }),
      block(2, '2026-06-15T07:00:00', [video(2, 60)]),
      block(4, '2026-06-15T08:00:00', [video(4, 60)]),
    ];
    const out = day(BERLIN, '2026-06-15', blocks);
    expect(ids(out)).toEqual([2, 4, 5, 3]);
    const loop = out[2]!;
    expect(loop).toMatchObject({ channelScheduleId: 5, loopDaily: true, start: utc(2026, 6, 15, 6) });
    expect(formatLocalDateTime(loop.start, BERLIN)).toBe('2026-06-15T08:00:00');
  });

  it('does not show a loopDaily block before the day it is dated on', () => {
    const blocks = [block(9, '2026-06-20T08:00:00', [video(9, 60)], { loopDaily: true })];
    expect(day(BERLIN, '2026-06-15', blocks)).toEqual([]);
    expect(ids(day(BERLIN, '2026-06-20', blocks))).toEqual([9]);
    expect(day(BERLIN, '2026-06-21', blocks)[0]!.start).toBe(utc(2026, 6, 21, 6));
  });

  it('includes unpublished blocks only on request', () => {
    const blocks = [block(1, '2026-06-15T10:00:00', [video(1, 60)], { published: false }), block(2, '2026-06-15T11:00:00', [video(2, 60)])];
    const owner = day(BERLIN, '2026-06-15', blocks, [], true);
    expect(ids(owner)).toEqual([1, 2]);
    expect(owner[0]!.published).toBe(false);
    expect(ids(day(BERLIN, '2026-06-15', blocks, [], false))).toEqual([2]);
  });

  it('adds live streams of the local day as negative-id blocks sorted among regular blocks', () => {
    const blocks = [block(1, '2026-06-15T09:00:00', [video(1, 1800)]), block(2, '2026-06-15T10:00:00', [video(2, 600)])];
    const streams = [
      live(78, utc(2026, 6, 15, 8), utc(2026, 6, 15, 8, 45)), // 10:00 local, ties with block 2
      live(77, utc(2026, 6, 15, 7, 30), utc(2026, 6, 15, 8, 15)), // 09:30 local
      live(79, utc(2026, 6, 14, 21, 30), utc(2026, 6, 14, 23)), // 23:30 on the 14th local
      live(80, utc(2026, 6, 14, 22, 30), utc(2026, 6, 14, 23)), // 00:30 on the 15th local, UTC date 14th
    ];
    const out = day(BERLIN, '2026-06-15', blocks, streams, false);
    expect(ids(out)).toEqual([-80, 1, -77, 2, -78]);
    expect(out[2]).toEqual({
      channelScheduleId: -77,
      start: utc(2026, 6, 15, 7, 30),
      published: true,
      loopDaily: false,
      isLive: true,
      videos: [{ video: streams[1]!.video, playbackOrderNumber: 1, start: utc(2026, 6, 15, 7, 30), end: utc(2026, 6, 15, 8, 15), isLive: true }],
    });
    expect(ids(day(BERLIN, '2026-06-14', blocks, streams))).toEqual([-79]);
    expect(scheduleTotals(out)).toEqual({ totalVideos: 5, totalDurationSeconds: 1800 + 600 + 1800 + 2700 + 2700 });
    expect(totalDurationLabel(scheduleTotals(out).totalDurationSeconds)).toBe('2h 40m');
  });

  it('handles the spring-forward day in New York', () => {
    expect(localDayWindow('2026-03-08', NEW_YORK)).toEqual({ from: utc(2026, 3, 8, 5), to: utc(2026, 3, 9, 4) });
    const blocks = [
      block(2, '2026-03-08T02:30:00', [video(2, 600)]), // does not exist: shifted to 03:30 EDT
      block(1, '2026-03-08T01:30:00', [video(1, 3600)]),
      block(3, '2026-03-01T02:30:00', [video(3, 600)], { loopDaily: true }),
    ];
    const out = day(NEW_YORK, '2026-03-08', blocks);
    expect(ids(out)).toEqual([1, 2, 3]);
    expect(out.map((b) => b.start)).toEqual([utc(2026, 3, 8, 6, 30), utc(2026, 3, 8, 7, 30), utc(2026, 3, 8, 7, 30)]);
    expect(out[0]!.videos[0]!.end).toBe(utc(2026, 3, 8, 7, 30));
    expect(local(out, NEW_YORK)[0]).toEqual([['2026-03-08T01:30:00', '2026-03-08T03:30:00']]);
    expect(formatLocalDateTime(out[1]!.start, NEW_YORK)).toBe('2026-03-08T03:30:00');
    expect(playTimeLabel(out[0]!.videos[0]!.start, out[0]!.videos[0]!.end, NEW_YORK)).toBe('01:30 AM - 03:30 AM');
  });

  it('handles the fall-back day in New York', () => {
    expect(localDayWindow('2026-11-01', NEW_YORK)).toEqual({ from: utc(2026, 11, 1, 4), to: utc(2026, 11, 2, 5) });
    const [b] = day(NEW_YORK, '2026-11-01', [block(1, '2026-11-01T00:30:00', [video(1, 3600), video(2, 3600)])]);
    expect(b!.start).toBe(utc(2026, 11, 1, 4, 30));
    expect(b!.videos.map((v) => [v.start, v.end])).toEqual([
      [utc(2026, 11, 1, 4, 30), utc(2026, 11, 1, 5, 30)],
      [utc(2026, 11, 1, 5, 30), utc(2026, 11, 1, 6, 30)],
    ]);
    // 01:30 occurs twice; the block ends at the second one
    expect(local([b!], NEW_YORK)).toEqual([
      [
        ['2026-11-01T00:30:00', '2026-11-01T01:30:00'],
        ['2026-11-01T01:30:00', '2026-11-01T01:30:00'],
      ],
    ]);
    // an ambiguous start takes the earlier (EDT) instant
    const [amb] = day(NEW_YORK, '2026-11-01', [block(2, '2026-11-01T01:30:00', [video(1, 60)])]);
    expect(amb!.start).toBe(utc(2026, 11, 1, 5, 30));
  });

  it('resolves wall times: ambiguous to the earlier instant, gaps shifted forward', () => {
    const wall = (y: number, mo: number, d: number, h: number, mi: number) => ({ year: y, month: mo, day: d, hour: h, minute: mi, second: 0, millisecond: 0 });
    expect(wallTimeToEpoch(wall(2026, 11, 1, 1, 30), NEW_YORK)).toBe(utc(2026, 11, 1, 5, 30));
    expect(wallTimeToEpoch(wall(2026, 11, 1, 2, 0), NEW_YORK)).toBe(utc(2026, 11, 1, 7));
    expect(wallTimeToEpoch(wall(2026, 3, 8, 2, 30), NEW_YORK)).toBe(utc(2026, 3, 8, 7, 30));
    expect(wallTimeToEpoch(wall(2026, 10, 25, 2, 30), BERLIN)).toBe(utc(2026, 10, 25, 0, 30));
    // Lord Howe shifts by 30 minutes
    expect(wallTimeToEpoch(wall(2026, 4, 5, 1, 45), 'Australia/Lord_Howe')).toBe(utc(2026, 4, 4, 14, 45));
  });

  it('works in a +05:30 zone', () => {
    expect(localDayWindow('2026-06-15', KOLKATA)).toEqual({ from: utc(2026, 6, 14, 18, 30), to: utc(2026, 6, 15, 18, 30) });
    const streams = [live(5, utc(2026, 6, 14, 19), utc(2026, 6, 14, 20))]; // 00:30 IST on the 15th
    const out = day(KOLKATA, '2026-06-15', [block(1, '2026-06-15T00:15:00', [video(1, 900)])], streams);
    expect(ids(out)).toEqual([1, -5]);
    expect(out[0]!.start).toBe(utc(2026, 6, 14, 18, 45));
    expect(playTimeLabel(out[0]!.videos[0]!.start, out[0]!.videos[0]!.end, KOLKATA)).toBe('12:15 AM - 12:30 AM');
    expect(formatLocalSpaced(out[1]!.start, KOLKATA)).toBe('2026-06-15 00:30:00');
  });

  it('rejects an invalid date or zone', () => {
    expect(() => day(BERLIN, '2026-02-30', [])).toThrow(RangeError);
    expect(() => day('Nowhere/City', '2026-02-03', [])).toThrow(RangeError);
    expect(() => day(BERLIN, '2026-02-03', [block(1, 'garbage', [])])).toThrow(RangeError);
  });
});

describe('expandWindow', () => {
  // A day in Los Angeles (PDT) = 09:00 Berlin on the 15th to 09:00 Berlin on the 16th.
  const la = localDayWindow('2026-06-15', LOS_ANGELES);

  it('lists the channel dates to load', () => {
    expect(la).toEqual({ from: utc(2026, 6, 15, 7), to: utc(2026, 6, 16, 7) });
    expect(channelDatesForWindow(BERLIN, la.from, la.to)).toEqual(['2026-06-14', '2026-06-15', '2026-06-16']);
    expect(channelDatesForWindow(BERLIN, la.to, la.from)).toEqual([]);
  });

  it('returns entries starting in a request-zone day across two channel days, without duplicates', () => {
    const loop = block(1, '2026-06-01T08:30:00', [video(1, 1800), video(2, 1800)], { loopDaily: true });
    const blocks = [
      loop,
      loop, // passed twice, as from a date query and a loopDaily query
      block(3, '2026-06-15T12:00:00', [video(3, 3600)]),
      block(4, '2026-06-16T08:00:00', [video(4, 3600)]),
      block(5, '2026-06-16T10:00:00', [video(5, 3600)]),
      block(6, '2026-06-15T08:00:00', [video(6, 3600)]),
      block(7, '2026-06-15T13:00:00', [video(7, 3600)], { published: false }),
    ];
    const streams = [live(90, utc(2026, 6, 15, 20), utc(2026, 6, 15, 21)), live(91, utc(2026, 6, 15, 6), utc(2026, 6, 15, 8))];
    const out = expandWindow({ zone: BERLIN, ...la, blocks, liveStreams: streams, includeUnpublished: false });
    expect(ids(out)).toEqual([1, 3, -90, 4, 1]);
    expect(out.map((b) => b.videos.map((v) => [v.video.videoTubeId, v.playbackOrderNumber, v.start]))).toEqual([
      [[2, 2, utc(2026, 6, 15, 7)]],
      [[3, 1, utc(2026, 6, 15, 10)]],
      [[90, 1, utc(2026, 6, 15, 20)]],
      [[4, 1, utc(2026, 6, 16, 6)]],
      [[1, 1, utc(2026, 6, 16, 6, 30)]],
    ]);
    // a trimmed block keeps its occurrence start
    expect(out[0]!.start).toBe(utc(2026, 6, 15, 6, 30));
    expect(formatLocalSpaced(out[0]!.videos[0]!.start, LOS_ANGELES)).toBe('2026-06-15 00:00:00');
    expect(scheduleTotals(out)).toEqual({ totalVideos: 5, totalDurationSeconds: 1800 + 3600 + 3600 + 3600 + 1800 });
  });

  it('includes videos of a block from the previous channel day that run into the window', () => {
    // A day in London (BST) = 01:00 Berlin on the 15th to 01:00 Berlin on the 16th.
    const london = localDayWindow('2026-06-15', LONDON);
    const blocks = [block(1, '2026-06-14T23:30:00', [video(1, 3600), video(2, 3600), video(3, 3600)])];
    const out = expandWindow({ zone: BERLIN, ...london, blocks, liveStreams: [], includeUnpublished: false });
    expect(out.map((b) => b.videos.map((v) => [v.playbackOrderNumber, formatLocalDateTime(v.start, BERLIN)]))).toEqual([[[3, '2026-06-15T01:30:00']]]);
  });

  it('returns nothing for an empty window', () => {
    const blocks = [block(1, '2026-06-15T10:00:00', [video(1, 60)])];
    expect(expandWindow({ zone: BERLIN, from: la.from, to: la.from, blocks, liveStreams: [], includeUnpublished: true })).toEqual([]);
  });
});

describe('scheduleTotals', () => {
  it('is zero for no blocks', () => {
    expect(scheduleTotals([])).toEqual({ totalVideos: 0, totalDurationSeconds: 0 });
    expect(totalDurationLabel(0)).toBe('0h 0m');
  });
});

describe('labels', () => {
  it('formats local date-times truncating seconds', () => {
    const ms = utc(2026, 6, 15, 8, 0, 59, 999) + 0.9;
    expect(formatLocalDateTime(ms, BERLIN)).toBe('2026-06-15T10:00:59');
    expect(formatLocalSpaced(ms, BERLIN)).toBe('2026-06-15 10:00:59');
    expect(formatLocalDateTime(utc(2026, 12, 31, 23, 30), KOLKATA)).toBe('2027-01-01T05:00:00');
    expect(() => formatLocalDateTime(0, 'Bad/Zone')).toThrow(RangeError);
  });

  it('builds 12-hour play time labels', () => {
    expect(playTimeLabel(utc(2026, 6, 15, 19, 5), utc(2026, 6, 15, 20), BERLIN)).toBe('09:05 PM - 10:00 PM');
    expect(playTimeLabel(utc(2026, 6, 14, 22), utc(2026, 6, 15, 10), BERLIN)).toBe('12:00 AM - 12:00 PM');
    expect(playTimeLabel(utc(2026, 6, 15, 10, 59, 59, 999), utc(2026, 6, 15, 11), BERLIN)).toBe('12:59 PM - 01:00 PM');
    expect(playTimeLabel(utc(2026, 6, 15, 21, 59, 59, 999), utc(2026, 6, 15, 11, 0, 0), 'UTC')).toBe('09:59 PM - 11:00 AM');
  });

  it('builds duration labels with truncated minutes', () => {
    expect(totalDurationLabel(0)).toBe('0h 0m');
    expect(totalDurationLabel(59.9)).toBe('0h 0m');
    expect(totalDurationLabel(3599.999)).toBe('0h 59m');
    expect(totalDurationLabel(26 * 3600 + 5 * 60 + 59.9)).toBe('26h 5m');
    expect(totalDurationLabel(-10)).toBe('0h 0m');
    expect(timeDurationLabel(5400)).toBe('1h. 30min');
    expect(timeDurationLabel(179.9)).toBe('0h. 2min');
    expect(timeDurationLabel(0)).toBe('0h. 0min');
    expect(timeDurationLabel(90000)).toBe('25h. 0min');
  });

  it('computes local day windows', () => {
    expect(localDayWindow('2026-06-15', BERLIN)).toEqual({ from: utc(2026, 6, 14, 22), to: utc(2026, 6, 15, 22) });
    expect(localDayWindow('2026-10-25', BERLIN)).toEqual({ from: utc(2026, 10, 24, 22), to: utc(2026, 10, 25, 23) });
    expect(localDayWindow('2026-06-15', 'UTC')).toEqual({ from: utc(2026, 6, 15), to: utc(2026, 6, 16) });
    expect(() => localDayWindow('2026-6-15', BERLIN)).toThrow(RangeError);
    expect(() => localDayWindow('2026-06-15', 'Nowhere/City')).toThrow(RangeError);
  });

  it('accepts exactly the dates luxon calls valid in 1900..9998 (calendar arithmetic, no DateTime)', () => {
    for (const year of [1899, 1900, 1904, 2000, 2024, 2025, 2100, 2400, 9998, 9999]) {
      for (let month = 0; month <= 13; month++) {
        for (let day = 0; day <= 32; day++) {
          const text = `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
          const luxon = DateTime.fromISO(text, { zone: 'utc' });
          expect(isValidDate(text), text).toBe(luxon.isValid && luxon.year >= 1900 && luxon.year <= 9998);
        }
      }
    }
  });

  it('validates strict calendar dates', () => {
    expect(isValidDate('2026-11-21')).toBe(true);
    expect(isValidDate('2024-02-29')).toBe(true);
    expect(isValidDate('2026-02-29')).toBe(false);
    expect(isValidDate('2026-02-30')).toBe(false);
    expect(isValidDate('2026-13-01')).toBe(false);
    expect(isValidDate('2026-00-10')).toBe(false);
    expect(isValidDate('20261121')).toBe(false);
    expect(isValidDate('2026-1-01')).toBe(false);
    expect(isValidDate(' 2026-01-01')).toBe(false);
    expect(isValidDate('2026-01-01T00:00:00')).toBe(false);
    expect(isValidDate('')).toBe(false);
  });
});

describe('isValidDate range', () => {
  it('refuses years outside 1900-9998', () => {
    expect(isValidDate('0000-01-01')).toBe(false);
    expect(isValidDate('1899-12-31')).toBe(false);
    expect(isValidDate('9999-01-01')).toBe(false);
    expect(isValidDate('1900-01-01')).toBe(true);
    expect(isValidDate('2026-11-21')).toBe(true);
  });
});
