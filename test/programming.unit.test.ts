import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { wallTimeToEpoch } from '../src/schedules/expand.ts';
import {
  leastRecentlyAired,
  datesOf,
  generate,
  isoWeekday,
  lastAiredBefore,
  planProblems,
  shuffled,
  templateSourceOf,
  weekdaysText,
  type GenerateInput,
  type Slot,
} from '../src/schedules/programming.ts';

const at = (wall: string, zone = 'UTC') => {
  const [date, time] = wall.split('T') as [string, string];
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const [hour, minute] = time.split(':').map(Number) as [number, number];
  return wallTimeToEpoch({ year, month, day, hour, minute, second: 0, millisecond: 0 }, zone);
};
const EVERY_DAY = [1, 2, 3, 4, 5, 6, 7];
const durations = new Map([
  [1, 600],
  [2, 900],
  [3, 1200],
  [4, 300],
  [10, 30],
  [11, 60],
  [12, 120.5],
]);
const input = (over: Partial<GenerateInput>): GenerateInput => ({ zone: 'UTC', from: '2026-12-07', to: '2026-12-07', slots: [], durations, busy: [], ...over });

describe('programming generation', () => {
  it('knows weekdays and ranges', () => {
    expect(isoWeekday('2026-12-07')).toBe(1); // a Monday
    expect(isoWeekday('2026-12-13')).toBe(7);
    expect(datesOf('2026-12-30', '2027-01-02')).toEqual(['2026-12-30', '2026-12-31', '2027-01-01', '2027-01-02']);
    expect(templateSourceOf('2026-12-07', 7, '2026-12-16')).toBe('2026-12-09');
    expect(templateSourceOf('2026-12-07', 7, '2026-12-01')).toBe('2026-12-08');
    expect(templateSourceOf('2026-12-07', 1, '2027-03-01')).toBe('2026-12-07');
  });

  it('fills a slot in order until the next slot, carries the order over, and leaves the remainder (or fills it best-fit)', () => {
    const slots: Slot[] = [
      { days: EVERY_DAY, start: '06:00', videoIds: [1, 2, 3], order: 'inOrder' },
      { days: EVERY_DAY, start: '06:40', videoIds: [4], order: 'inOrder' },
    ];
    const plain = generate(input({ slots, to: '2026-12-08' }));
    // 06:00-06:40 (2400 s): 600 + 900 fit, 1200 does not; it opens the next day's 06:00.
    expect(plain.blocks.map((b) => [b.startTime, b.videoIds])).toEqual([
      ['2026-12-07T06:00:00', [1, 2]],
      ['2026-12-07T06:40:00', Array(280).fill(4)], // 06:40 to the next 06:00: 23h20m of 300 s
      ['2026-12-08T06:00:00', [3, 1]],
      ['2026-12-08T06:40:00', Array(280).fill(4)],
    ]);
    const filled = generate(input({ slots, to: '2026-12-07', filler: [10, 11, 12] }));
    // 900 s left: 12 (120.5) x 7 = 843.5, then 11 (60) cannot (56.5 left), 10 (30) once = 873.5, 26.5 left.
    expect(filled.blocks[0]!.videoIds).toEqual([1, 2, 12, 12, 12, 12, 12, 12, 12, 10]);
    expect(filled.blocks[0]!.fillerVideos).toBe(8);
    expect(filled.blocks[0]!.end).toBeLessThanOrEqual(filled.blocks[0]!.slotEnd);
  });

  it('stops at a block that stays, leaves out a slot starting inside one, and warns', () => {
    const slots: Slot[] = [
      { days: [1], start: '06:00', videoIds: [1], order: 'inOrder' },
      { days: [1], start: '08:00', videoIds: [1], order: 'inOrder' },
    ];
    const busy = [{ blockId: 77, start: at('2026-12-07T06:25'), end: at('2026-12-07T08:30') }];
    const g = generate(input({ slots, busy }));
    expect(g.blocks.map((b) => [b.startTime, b.videoIds.length])).toEqual([['2026-12-07T06:00:00', 2]]);
    expect(g.warnings).toEqual([{ slot: 1, startTime: '2026-12-07T08:00:00', message: 'starts inside a block already on the schedule (until 2026-12-07T08:30:00); left out' }]);
  });

  it('warns when a slot cannot hold its next video', () => {
    const slots: Slot[] = [
      { days: [1], start: '06:00', videoIds: [3], order: 'inOrder' },
      { days: [1], start: '06:10', videoIds: [4], order: 'inOrder' },
    ];
    const g = generate(input({ slots }));
    expect(g.blocks[0]!.startTime).toBe('2026-12-07T06:10:00');
    expect(g.warnings[0]).toEqual({ slot: 0, startTime: '2026-12-07T06:00:00', message: "its next video (1200 s) is longer than the slot's 600 s" });
  });

  it('resolves slots in the channel zone across a DST change', () => {
    // New York falls back on 2026-11-01: 00:00 to 12:00 that day lasts 13 hours.
    const slots: Slot[] = [
      { days: EVERY_DAY, start: '00:00', videoIds: [4], order: 'inOrder' },
      { days: EVERY_DAY, start: '12:00', videoIds: [4], order: 'inOrder' },
    ];
    const g = generate(input({ zone: 'America/New_York', from: '2026-11-01', to: '2026-11-01', slots }));
    expect(g.blocks[0]!.videoIds).toHaveLength(13 * 12);
    expect(g.blocks[1]!.videoIds).toHaveLength(12 * 12);
  });

  it('shuffles by seed: the same seed gives the same blocks, a permutation per pass', () => {
    const list = [1, 2, 3, 4, 10, 11, 12];
    expect(shuffled(list, 5, 0)).toEqual(shuffled(list, 5, 0));
    expect([...shuffled(list, 5, 1)].sort((a, b) => a - b)).toEqual([...list].sort((a, b) => a - b));
    const slots = (seed: number): Slot[] => [
      { days: EVERY_DAY, start: '00:00', videoIds: list, order: 'shuffle', seed },
      { days: EVERY_DAY, start: '03:00', videoIds: [4], order: 'inOrder' },
    ];
    const a = generate(input({ slots: slots(5), to: '2026-12-10' }));
    expect(generate(input({ slots: slots(5), to: '2026-12-10' }))).toEqual(a);
    expect(generate(input({ slots: slots(6), to: '2026-12-10' })).blocks.map((b) => b.videoIds)).not.toEqual(a.blocks.map((b) => b.videoIds));
  });

  it('plays the least recently aired first, from what aired before the range', () => {
    const before = at('2026-12-07T00:00');
    const aired = lastAiredBefore([{ startLocal: '2026-12-06T20:00:00', loopDaily: false, videoIds: [2, 1] }], durations, 'UTC', ['2026-12-06'], before);
    expect(aired).toEqual(
      new Map([
        [2, at('2026-12-06T20:00')],
        [1, at('2026-12-06T20:15')],
      ]),
    );
    const slots: Slot[] = [
      { days: [1], start: '06:00', videoIds: [1, 2, 4], order: 'leastRecentlyAired' },
      { days: [1], start: '06:30', videoIds: [4], order: 'inOrder' },
    ];
    // 4 never aired, then 2 (20:00), then 1 (20:15): 300 + 900 + 600 = 1800 s, exactly the slot.
    expect(generate(input({ slots, lastAired: aired })).blocks[0]!.videoIds).toEqual([4, 2, 1]);
  });

  it('refuses two slots starting at the same weekday and time', () => {
    expect(
      planProblems([
        { days: [1, 2], start: '06:00', videoIds: [1], order: 'inOrder' },
        { days: [3, 2], start: '06:00', videoIds: [1], order: 'inOrder' },
      ]),
    ).toEqual(['slots[1].start: slot 0 also starts at 06:00 on Tuesday']);
  });

  it('never overruns the next slot or a block that stays, and keeps filler best-fit', () => {
    const video = fc.constantFrom(1, 2, 3, 4, 10, 11, 12);
    const slot = fc
      .record({
        days: fc.uniqueArray(fc.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 7 }),
        start: fc.tuple(fc.integer({ min: 0, max: 23 }), fc.constantFrom(0, 15, 30, 45)).map(([h, m]) => `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`),
        videoIds: fc.array(video, { minLength: 1, maxLength: 5 }),
        order: fc.constantFrom('inOrder' as const, 'shuffle' as const, 'leastRecentlyAired' as const),
        seed: fc.nat(1000),
        // An end (possibly past midnight), none, or an off-air slot.
        kind: fc.oneof(
          fc.constant<'open' | 'offAir'>('open'),
          fc.constant<'open' | 'offAir'>('offAir'),
          fc.tuple(fc.integer({ min: 0, max: 23 }), fc.constantFrom(0, 20, 45)).map(([h, m]) => `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`),
        ),
      })
      .map(({ kind, ...s }): Slot => (kind === 'offAir' ? { ...s, videoIds: [], offAir: true } : kind === 'open' || kind === s.start ? s : { ...s, end: kind }));
    fc.assert(
      fc.property(
        fc.array(slot, { minLength: 1, maxLength: 6 }).filter((s) => planProblems(s).length === 0),
        fc.boolean(),
        fc.constantFrom('UTC', 'America/New_York', 'Asia/Kolkata'),
        fc.option(fc.tuple(fc.integer({ min: 0, max: 2 * 86_400 }), fc.integer({ min: 60, max: 7200 }))),
        (slots, fill, zone, busyAt) => {
          const from = '2026-10-31';
          const start = at(`${from}T00:00`, zone);
          const busy = busyAt ? [{ blockId: 1, start: start + busyAt[0] * 1000, end: start + (busyAt[0] + busyAt[1]) * 1000 }] : [];
          const g = generate({ zone, from, to: '2026-11-02', slots, durations, busy, ...(fill ? { filler: [10, 11, 12] } : {}) });
          const starts = g.blocks.map((b) => b.start);
          for (const [i, b] of g.blocks.entries()) {
            expect(b.end).toBeLessThanOrEqual(b.slotEnd);
            // Never past its own end: the same day's end wall time, or the next day's when not after the start.
            const slot = slots[b.slot]!;
            expect(slot.offAir).not.toBe(true);
            if (slot.end !== undefined) expect(b.slotEnd).toBeLessThanOrEqual(at(`${slot.end > slot.start ? b.date : plusDay(b.date)}T${slot.end}`, zone));
            if (i + 1 < g.blocks.length) expect(b.end).toBeLessThanOrEqual(starts[i + 1]!);
            for (const o of busy) expect(b.end <= o.start || b.start >= o.end).toBe(true);
            // Best fit: no filler video (30 s is the shortest) fits what is left after the filler.
            const capped = g.warnings.some((w) => w.startTime === b.startTime && w.message.startsWith('stopped at'));
            if (fill && !capped) expect(b.slotEnd - b.end).toBeLessThan(30_000);
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it('ends a slot at its end: a weekday slot does not run through the weekend, and an off-air slot is dead air', () => {
    const weekdays: Slot = { days: [1, 2, 3, 4, 5], start: '18:00', videoIds: [1], order: 'inOrder' };
    // No end: Friday 18:00 runs to Monday 18:00, 72 h, and the preview says so.
    const open = generate(input({ slots: [weekdays], from: '2026-12-11', to: '2026-12-11' }));
    expect(open.blocks[0]!.slotEnd - open.blocks[0]!.start).toBe(72 * 3_600_000);
    expect(open.warnings).toEqual([{ slot: 0, startTime: '2026-12-11T18:00:00', message: 'runs 72 h, until 2026-12-14 18:00: give the slot an end, or add an off-air slot' }]);
    // An end past midnight: 18:00 to 02:00 the next day, 8 h of 600 s videos.
    const ended = generate(input({ slots: [{ ...weekdays, end: '02:00' }], from: '2026-12-11', to: '2026-12-11' }));
    expect(ended.warnings).toEqual([]);
    expect(ended.blocks.map((b) => [b.slotEnd - b.start, b.videoIds.length])).toEqual([[8 * 3_600_000, 48]]);
    // An off-air slot ends the one before it and makes no block.
    const offAir: Slot = { days: EVERY_DAY, start: '23:00', videoIds: [], order: 'inOrder', offAir: true };
    const cut = generate(input({ slots: [weekdays, offAir], from: '2026-12-11', to: '2026-12-12' }));
    expect(cut.blocks.map((b) => [b.startTime, (b.slotEnd - b.start) / 3_600_000])).toEqual([['2026-12-11T18:00:00', 5]]);
    expect(cut.warnings).toEqual([]);
    // An end that the next slot cuts an hour or more short is warned about.
    const early: Slot = { days: [5], start: '20:00', end: '21:00', videoIds: [4], order: 'inOrder' };
    const short = generate(input({ slots: [{ ...weekdays, end: '23:30' }, early], from: '2026-12-11', to: '2026-12-11' }));
    expect(short.warnings).toEqual([{ slot: 0, startTime: '2026-12-11T18:00:00', message: 'ends at 20:00, 3.5 h before its end 23:30: the next slot starts then' }]);
  });

  it('keeps an end across a DST change (the wall time, not 24 h later)', () => {
    // New York falls back on 2026-11-01: 22:00 to 06:00 is 9 h that night.
    const night: Slot = { days: [6], start: '22:00', end: '06:00', videoIds: [1], order: 'inOrder' };
    const g = generate(input({ zone: 'America/New_York', slots: [night], from: '2026-10-31', to: '2026-10-31' }));
    expect((g.blocks[0]!.slotEnd - g.blocks[0]!.start) / 3_600_000).toBe(9);
  });
});

const plusDay = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

describe('weekdays as a creator reads them', () => {
  it('names ranges, pairs and single days', () => {
    expect([[1, 2, 3, 4, 5, 6, 7], [1, 2, 3, 4, 5], [6, 7], [1, 3, 4, 5], [7, 1], [], [5, 5]].map(weekdaysText)).toEqual([
      'every day',
      'Mon–Fri',
      'Sat, Sun',
      'Mon, Wed–Fri',
      'Mon, Sun',
      'no day',
      'Fri',
    ]);
  });
});

describe('leastRecentlyAired (a lazily fixed heap)', () => {
  /** The scan it replaced: the smallest last start, never aired first, ties by list order. */
  const reference = (list: readonly number[], aired: Map<number, number>) => ({
    peek: () => {
      let best = 0;
      for (let i = 1; i < list.length; i++) if ((aired.get(list[i]!) ?? -Infinity) < (aired.get(list[best]!) ?? -Infinity)) best = i;
      return list[best]!;
    },
  });

  it('picks what the scan picks, over lists with repeats, history, and other slots airing the same videos', () => {
    const list = fc.array(fc.integer({ min: 1, max: 12 }), { minLength: 1, maxLength: 25 });
    fc.assert(
      fc.property(
        fc.array(list, { minLength: 1, maxLength: 3 }),
        fc.dictionary(fc.integer({ min: 1, max: 12 }).map(String), fc.integer({ min: 0, max: 100 })),
        fc.array(fc.nat(), { maxLength: 60 }),
        (lists, history, turns) => {
          const aired = new Map(Object.entries(history).map(([id, at]) => [Number(id), at]));
          const shadow = new Map(aired);
          const pickers = lists.map((l) => leastRecentlyAired(l, aired));
          const references = lists.map((l) => reference(l, shadow));
          // Time only moves on (occurrences are worked through in order): each turn one slot takes at the next instant.
          turns.forEach((turn, t) => {
            const k = turn % lists.length;
            const picked = pickers[k]!.peek();
            expect(picked).toBe(references[k]!.peek());
            pickers[k]!.take(1_000 + t);
            shadow.set(picked, 1_000 + t);
          });
        },
      ),
    );
  });
});

describe('random slots', () => {
  it('draw one choice per occurrence by weight, the same draws for the same seed, each choice keeping its own place', () => {
    const durations = new Map([
      [1, 600],
      [2, 600],
      [11, 1800],
      [12, 1800],
    ]);
    const slot = (seed: number): Slot => ({
      days: [1, 2, 3, 4, 5, 6, 7],
      start: '10:00',
      end: '10:30',
      videoIds: [],
      order: 'inOrder',
      seed,
      choices: [
        { videoIds: [1, 2], weight: 1 },
        { videoIds: [11, 12], weight: 3 },
      ],
    });
    const firsts = (seed: number) => generate({ zone: 'UTC', from: '2026-12-01', to: '2026-12-28', slots: [slot(seed)], durations, busy: [] }).blocks.map((b) => b.videoIds);
    const run = firsts(5);
    expect(run).toHaveLength(28);
    expect(firsts(5)).toEqual(run);
    const short = run.filter((ids) => ids[0]! < 10);
    const long = run.filter((ids) => ids[0]! > 10);
    expect(short.length + long.length).toBe(28);
    expect(long.length).toBeGreaterThan(short.length);
    // inOrder within each choice continues where that choice stopped: 1, 2, 1 (30 minutes hold three 10-minute videos), then 2, 1, 2.
    expect(short.slice(0, 2)).toEqual([
      [1, 2, 1],
      [2, 1, 2],
    ]);
    expect(long.slice(0, 2)).toEqual([[11], [12]]);
    expect(firsts(6)).not.toEqual(run);
  });
});
