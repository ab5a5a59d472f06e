// A channel list's scheduleAvailable from the blocks' spans (src/schedules/entry-spans.ts) answers
// what the compiled days answer (windowHasEntries, what the lists used until now): a property over
// generated schedules, pure and then through the database on every backend (the query's float
// sums are the expansion's own), plus the cases a span cannot decide.
import { eq, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blockSpansForChannels, type BlockSpan } from '../src/data/schedule-batches.ts';
import { liveStreams, scheduleBlocks, scheduleBlockVideos, videos } from '../src/db/schema.ts';
import { occurrenceHasEntry, spansHaveEntry, startsInWindow, windowsHavePublishedEntries } from '../src/schedules/entry-spans.ts';
import { isoWallTime, plainWallTime, type LiveStream, type ScheduleBlock, type ScheduleVideo } from '../src/schedules/expand.ts';
import { localDayWindow } from '../src/schedules/labels.ts';
import { addDays, compileChannelDay, windowChannelDates, windowHasEntries } from '../src/schedules/channel-day.ts';
import { ScheduleTimelines } from '../src/schedules/timelines.ts';
import { customCatalogDatabase } from './support/batches.ts';
import { BACKENDS, type TestDatabase } from './support/db.ts';

const ZONES = ['UTC', 'America/New_York', 'Asia/Kolkata', 'Australia/Lord_Howe', 'Pacific/Chatham', 'Pacific/Kiritimati', 'Europe/London'];
/** Around the 2026 transitions of those zones, and plain days. */
const DATES = ['2026-03-08', '2026-03-29', '2026-04-05', '2026-09-27', '2026-10-04', '2026-10-25', '2026-11-01', '2026-06-30', '2026-12-31'];
const HOUR = 3_600;

/**
 * Durations: whole seconds, round ones (entries landing exactly on a window's edge), tenths (float
 * noise), hours, some as long as a window or longer (only compiling decides those), junk.
 */
const duration = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: 0, max: 2_400 }) },
  { weight: 4, arbitrary: fc.constantFrom(900, 1_800, 2_700, 3_600, 5_400, 7_200) },
  { weight: 3, arbitrary: fc.integer({ min: 0, max: 24_000 }).map((d) => d / 10) },
  { weight: 2, arbitrary: fc.integer({ min: HOUR, max: 30 * HOUR }) },
  { weight: 1, arbitrary: fc.constantFrom(-5, Number.NaN, 0.1, 0.2, 23 * HOUR, 24 * HOUR, 25 * HOUR, 86_399.9995) },
);

/** Schedules of up to `blocks` blocks; `zones` for the channel and the requests (few: edges meet often). */
const schedules = (blocks: number, zones: readonly string[], live: number) =>
  fc.record({
    zone: fc.constantFrom(...zones),
    date: fc.constantFrom(...DATES),
    blocks: fc.array(
      fc.record({
        dayOffset: fc.integer({ min: -4, max: 2 }),
        hour: fc.oneof(fc.integer({ min: 0, max: 23 }), fc.constantFrom(0, 1, 2, 22, 23)),
        minute: fc.constantFrom(0, 0, 15, 30, 45, 59),
        second: fc.constantFrom(0, 0, 30, 59),
        loopDaily: fc.boolean(),
        published: fc.boolean(),
        durations: fc.array(duration, { maxLength: 10 }),
      }),
      { maxLength: blocks },
    ),
    live: fc.array(fc.record({ startHours: fc.integer({ min: -60, max: 84 }), minutes: fc.integer({ min: 0, max: 59 }), lengthMinutes: fc.integer({ min: -30, max: 300 }) }), {
      maxLength: live,
    }),
    requestZones: fc.uniqueArray(fc.constantFrom(...zones), { minLength: 1, maxLength: 3 }),
  });
const scheduleArb = schedules(6, ZONES, 2);
/** One or two blocks, no live stream, zones on the hour: a single entry decides, often at a window's edge. */
const sparseArb = schedules(2, ['UTC', 'Europe/London', 'America/New_York'], 0);
type Schedule = typeof scheduleArb extends fc.Arbitrary<infer T> ? T : never;

const two = (n: number) => String(n).padStart(2, '0');
const video = (id: number, durationSeconds: number): ScheduleVideo => ({
  videoTubeId: id,
  title: `v${id}`,
  thumbnailUrl: '',
  durationSeconds,
  providerVideoId: `p${id}`,
  providerName: 'Custom',
  streamUrl: null,
});
const safe = (d: number) => (Number.isFinite(d) ? Math.max(0, d) : 0);

function build(s: Schedule): { blocks: ScheduleBlock[]; liveStreams: LiveStream[] } {
  let next = 1;
  const blocks = s.blocks.map((b, i): ScheduleBlock => ({
    id: i + 1,
    startLocal: `${addDays(s.date, b.dayOffset)}T${two(b.hour)}:${two(b.minute)}:${two(b.second)}`,
    published: b.published,
    loopDaily: b.loopDaily,
    videos: b.durations.map((d) => video(next++, d)),
  }));
  const midnight = Date.parse(`${s.date}T00:00:00Z`);
  const liveStreams = s.live.map((l): LiveStream => {
    const start = midnight + l.startHours * 3_600_000 + l.minutes * 60_000;
    return { video: video(1000 + next++, 0), start: new Date(start), end: new Date(start + l.lengthMinutes * 60_000) };
  });
  return { blocks, liveStreams };
}

/** What blockSpansForChannels answers for a published block, computed here as the expansion sums. */
function spanOf(block: ScheduleBlock): BlockSpan {
  let lastStartSeconds = 0;
  let longestGapSeconds = 0;
  for (const v of block.videos.slice(0, -1)) {
    lastStartSeconds += safe(v.durationSeconds);
    longestGapSeconds = Math.max(longestGapSeconds, safe(v.durationSeconds));
  }
  return { id: block.id, startLocal: block.startLocal, loopDaily: block.loopDaily, videos: block.videos.length, lastStartSeconds, longestGapSeconds };
}

/** The compiled answer: windowHasEntries over the compiled days the window reads. */
function compiledAnswer(zone: string, blocks: ScheduleBlock[], streams: LiveStream[], from: number, to: number): boolean {
  const days = windowChannelDates(zone, from, to).map((date) => compileChannelDay({ zone, date, blocks, liveStreams: streams }));
  return windowHasEntries(days, from, to, false);
}

describe('scheduleAvailable from block spans', () => {
  it('an occurrence: before, inside, after the window, and a gap as long as it', () => {
    const span = (videos: number, lastStartSeconds: number, longestGapSeconds: number) => ({ videos, lastStartSeconds, longestGapSeconds });
    const [from, to] = [100 * 3_600_000, 124 * 3_600_000];
    expect(occurrenceHasEntry(from, span(0, 0, 0), from, to)).toBe(false);
    expect(occurrenceHasEntry(from, span(1, 0, 0), from, to)).toBe(true);
    expect(occurrenceHasEntry(to, span(3, 60, 30), from, to)).toBe(false);
    expect(occurrenceHasEntry(from - 1_000, span(2, 0.999, 0.999), from, to)).toBe(false);
    expect(occurrenceHasEntry(from - 1_000, span(2, 1, 1), from, to)).toBe(true);
    // The second video starts 25 hours after the first, which started an hour before the window: past it.
    expect(occurrenceHasEntry(from - 3_600_000, span(2, 25 * HOUR, 25 * HOUR), from, to)).toBeUndefined();
    expect(occurrenceHasEntry(from - 3_600_000, span(3, 25 * HOUR, 23 * HOUR - 1), from, to)).toBe(true);
  });

  it('entries exactly on the edges of a window, and gaps past it', () => {
    const date = '2026-06-30';
    const { from, to } = localDayWindow(date, 'UTC');
    const block = (startLocal: string, durations: number[]): ScheduleBlock => ({
      id: 1,
      startLocal,
      published: true,
      loopDaily: false,
      videos: durations.map((d, i) => video(i + 1, d)),
    });
    const cases: Array<[ScheduleBlock, boolean | undefined]> = [
      [block('2026-07-01T00:00:00', [60]), false], // starts at the window's end
      [block('2026-06-30T00:00:00', [60]), true], // at its start
      [block('2026-06-29T23:00:00', [3_600, 60]), true], // the second video starts at its start
      [block('2026-06-29T23:00:00', [3_599.999, 60]), false], // a millisecond before it
      [block('2026-06-29T23:00:00', [3_599.9999996, 60]), true], // rounded to the microsecond: at its start
      [block('2026-06-29T23:00:00', [3_599, 60]), false], // the last starts a second before it
      [block('2026-06-29T23:00:00', [25 * HOUR, 60]), undefined], // the second starts at its end: compiled says false
      [block('2026-06-29T23:00:00', [23 * HOUR, 60]), true],
      [block('2026-06-29T23:00:00', [24 * HOUR, 60]), undefined], // an hour before its end: compiled says true
    ];
    for (const [b, expected] of cases) {
      const answer = spansHaveEntry('UTC', [spanOf(b)], [], from, to);
      expect(answer, b.startLocal + b.videos.map((v) => v.durationSeconds).join()).toBe(expected);
      if (answer !== undefined) expect(answer).toBe(compiledAnswer('UTC', [b], [], from, to));
    }
    expect(compiledAnswer('UTC', [cases[6]![0]], [], from, to)).toBe(false);
    expect(compiledAnswer('UTC', [cases[8]![0]], [], from, to)).toBe(true);
    // A Kolkata channel's day runs into the UTC window's end: a block starting right at it is not in it.
    const atEnd = block('2026-07-01T05:30:00', [60]);
    expect(windowChannelDates('Asia/Kolkata', from, to)).toContain('2026-07-01');
    expect(spansHaveEntry('Asia/Kolkata', [spanOf(atEnd)], [], from, to)).toBe(false);
    expect(compiledAnswer('Asia/Kolkata', [atEnd], [], from, to)).toBe(false);
    expect(spansHaveEntry('Asia/Kolkata', [spanOf(block('2026-07-01T05:29:59', [60]))], [], from, to)).toBe(true);
    // A live stream starting at the window's end is not in it; one at its start is.
    expect(spansHaveEntry('UTC', [], [to], from, to)).toBe(false);
    expect(spansHaveEntry('UTC', [], [from], from, to)).toBe(true);
  });

  it.each([
    ['busy', scheduleArb],
    ['sparse', sparseArb],
  ])('answers what the compiled days answer over generated %s schedules, and compiles only for gaps as long as a window', (_name, arb) => {
    let decided = 0;
    let asked = 0;
    fc.assert(
      fc.property(arb, (s) => {
        const { blocks, liveStreams: streams } = build(s);
        const spans = blocks.filter((b) => b.published).map(spanOf);
        for (const requestZone of s.requestZones) {
          const { from, to } = localDayWindow(s.date, requestZone);
          const liveStarts = streams.map((l) => l.start.getTime());
          const answer = spansHaveEntry(s.zone, spans, liveStarts, from, to);
          asked++;
          // A start in the window (the first pass, no video read) is an entry in it.
          const playing = spans.filter((sp) => sp.videos > 0);
          if (startsInWindow(s.zone, playing, liveStarts, from, to)) expect(compiledAnswer(s.zone, blocks, streams, from, to)).toBe(true);
          if (answer === undefined) {
            // Only a video as long as the window, not its block's last, leaves a span open.
            expect(spans.some((sp) => sp.longestGapSeconds * 1000 + 1 >= to - from)).toBe(true);
            continue;
          }
          decided++;
          expect(answer).toBe(compiledAnswer(s.zone, blocks, streams, from, to));
        }
      }),
      { seed: 2626, numRuns: 2_000 },
    );
    expect(decided / asked).toBeGreaterThan(0.8);
  });
});

describe('block wall times', () => {
  it('the plain parse answers what luxon answers, and leaves it everything else', () => {
    const field = (max: number) => fc.integer({ min: 0, max }).map((n) => String(n).padStart(2, '0'));
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 9999 }), field(13), field(32), field(25), field(61), field(61), (y, mo, d, h, mi, se) => {
        const startLocal = `${String(y).padStart(4, '0')}-${mo}-${d}T${h}:${mi}:${se}`;
        const plain = plainWallTime(startLocal);
        let iso: ReturnType<typeof isoWallTime> | undefined;
        try {
          iso = isoWallTime({ id: 1, startLocal });
        } catch {
          iso = undefined;
        }
        if (plain) expect(plain).toEqual(iso);
        else expect(iso === undefined || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/.test(startLocal) || y === 0).toBe(true);
      }),
      { seed: 2628, numRuns: 3_000 },
    );
    expect(plainWallTime('2026-11-01T01:30:00.500')).toBeUndefined();
    expect(isoWallTime({ id: 1, startLocal: '2026-11-01T01:30:00.500' }).wall.millisecond).toBe(500);
  });
});

describe.each(BACKENDS)('scheduleAvailable from block spans in the database (%s)', (kind) => {
  let database: TestDatabase;
  const CHANNEL = 201;
  let owner: number;

  beforeAll(async () => {
    database = await customCatalogDatabase(kind);
    [{ owner }] = (await database.db
      .select({ owner: sql<number>`owner_id` })
      .from(sql`channels`)
      .where(sql`id = ${CHANNEL}`)) as [{ owner: number }];
  });
  afterAll(() => database.close());

  it('the query sums as the expansion sums, and the answers are the compiled ones, uncached or not', async () => {
    const { db } = database;
    await fc.assert(
      fc.asyncProperty(
        scheduleArb.filter((s) => s.blocks.every((b) => b.durations.every((d) => Number.isFinite(d)))),
        async (s) => {
          await db.execute(sql`update channels set timezone = ${s.zone} where id = ${CHANNEL}`);
          await db.delete(scheduleBlocks).where(eq(scheduleBlocks.channelId, CHANNEL));
          await db.delete(liveStreams).where(eq(liveStreams.channelId, CHANNEL));
          const { blocks, liveStreams: streams } = build(s);
          const stored: ScheduleBlock[] = [];
          for (const block of blocks) {
            const [row] = await db
              .insert(scheduleBlocks)
              .values({ channelId: CHANNEL, startLocal: block.startLocal.replace('T', ' '), published: block.published, loopDaily: block.loopDaily })
              .returning({ id: scheduleBlocks.id });
            const ids: number[] = [];
            for (const v of block.videos) {
              const [made] = await db
                .insert(videos)
                .values({ ownerId: owner, title: v.title, durationSeconds: v.durationSeconds, providerName: 'Custom', providerVideoId: v.providerVideoId })
                .returning({ id: videos.id });
              ids.push(made!.id);
            }
            if (ids.length > 0) await db.insert(scheduleBlockVideos).values(ids.map((videoId, position) => ({ blockId: row!.id, position, videoId })));
            stored.push({ ...block, id: row!.id });
          }
          for (const l of streams) {
            const [made] = await db
              .insert(videos)
              .values({ ownerId: owner, title: 'live', durationSeconds: 0, providerName: 'Custom', providerVideoId: 'live' })
              .returning({ id: videos.id });
            await db.insert(liveStreams).values({ channelId: CHANNEL, videoId: made!.id, startAt: l.start, endAt: l.end });
          }
          const channel = { id: CHANNEL, timezone: s.zone };
          const spans = await blockSpansForChannels(db, [{ channelId: CHANNEL, fromDate: '2000-01-01', toDate: '2100-01-01' }]);
          const expected = stored.filter((b) => b.published && b.videos.length > 0).map(spanOf);
          expect([...(spans.get(CHANNEL) ?? [])].sort((a, b) => a.id - b.id)).toEqual(expected);
          const asks = s.requestZones.map((z) => ({ channel, ...localDayWindow(s.date, z) }));
          const compiled = await new ScheduleTimelines(100_000, false).hasEntries(db, asks, false);
          expect(await windowsHavePublishedEntries(db, new ScheduleTimelines(100_000, false), asks)).toEqual(compiled);
        },
      ),
      { seed: 2627, numRuns: 25 },
    );
  }, 120_000);
});
