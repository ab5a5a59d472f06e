// wallTimeToEpoch reads offsets from the per-day tables of zone-offsets.ts instead of asking
// luxon's zone at every call; this checks it against the luxon-only version it replaced, at
// random wall times, DST gaps and overlaps included, in zones with odd offsets and shifts.
import fc from 'fast-check';
import { DateTime, IANAZone } from 'luxon';
import { describe, expect, it } from 'vitest';
import { wallTimeToEpoch, type WallTime } from '../src/schedules/expand.ts';
import { isRealWallTime } from '../src/catalog/fields.ts';

const DAY_MS = 86_400_000;

/** The luxon-only implementation, as it was. */
function reference(wall: WallTime, zone: string): number {
  const z = IANAZone.create(zone);
  const asUtc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second, wall.millisecond);
  const offsets = [z.offset(asUtc - DAY_MS), z.offset(asUtc), z.offset(asUtc + DAY_MS)];
  const exact = offsets.map((o) => asUtc - o * 60_000).filter((ts) => z.offset(ts) * 60_000 === asUtc - ts);
  return exact.length > 0 ? Math.min(...exact) : DateTime.fromObject(wall, { zone: z }).toMillis();
}

const ZONES = [
  'America/New_York',
  'Europe/Berlin',
  'Australia/Lord_Howe',
  'Asia/Kolkata',
  'America/St_Johns',
  'Pacific/Chatham',
  'Africa/Casablanca',
  'America/Santiago',
  'UTC',
  'Asia/Kathmandu',
];

const wallTime = fc.record({
  year: fc.integer({ min: 1900, max: 2100 }),
  month: fc.integer({ min: 1, max: 12 }),
  day: fc.integer({ min: 1, max: 28 }),
  hour: fc.integer({ min: 0, max: 23 }),
  minute: fc.constantFrom(0, 15, 30, 45, 59),
  second: fc.integer({ min: 0, max: 59 }),
  millisecond: fc.integer({ min: 0, max: 999 }),
});

describe('wallTimeToEpoch', () => {
  it('answers what the luxon-only version answered, at random wall times', () => {
    fc.assert(
      fc.property(wallTime, fc.constantFrom(...ZONES), (wall, zone) => {
        expect(wallTimeToEpoch(wall, zone)).toBe(reference(wall, zone));
      }),
      { seed: 20261124, numRuns: 3000 },
    );
  });

  it('resolves gaps and overlaps the same way (New York 2026, Lord Howe half-hour shift)', () => {
    const cases: Array<[WallTime, string]> = [
      [{ year: 2026, month: 3, day: 8, hour: 2, minute: 30, second: 0, millisecond: 0 }, 'America/New_York'],
      [{ year: 2026, month: 11, day: 1, hour: 1, minute: 30, second: 0, millisecond: 0 }, 'America/New_York'],
      [{ year: 2026, month: 4, day: 5, hour: 1, minute: 45, second: 0, millisecond: 0 }, 'Australia/Lord_Howe'],
      [{ year: 2026, month: 10, day: 4, hour: 2, minute: 15, second: 0, millisecond: 0 }, 'Australia/Lord_Howe'],
    ];
    for (const [wall, zone] of cases) expect(wallTimeToEpoch(wall, zone)).toBe(reference(wall, zone));
  });
});

describe('isRealWallTime (catalog wall times by arithmetic)', () => {
  const FORMAT = "yyyy-MM-dd'T'HH:mm:ss";
  /** What the catalog's rule checked before: luxon parses it and formats it back unchanged. */
  const byLuxon = (v: string) => {
    const parsed = DateTime.fromFormat(v, FORMAT, { zone: 'UTC' });
    return parsed.isValid && parsed.toFormat(FORMAT) === v;
  };
  const two = (max: number) => fc.integer({ min: 0, max }).map((n) => String(n).padStart(2, '0'));

  it('agrees with luxon on every well-shaped text, impossible dates and times included', () => {
    const shaped = fc
      .tuple(fc.integer({ min: 0, max: 9999 }), two(13), two(32), two(25), two(60), two(61))
      .map(([y, mo, d, h, mi, s]) => `${String(y).padStart(4, '0')}-${mo}-${d}T${h}:${mi}:${s}`);
    fc.assert(
      fc.property(shaped, (v) => isRealWallTime(v) === byLuxon(v)),
      { numRuns: 20_000 },
    );
  });

  it('knows leap days and the ends of months', () => {
    for (const v of ['2024-02-29T00:00:00', '2000-02-29T12:00:00', '1900-02-28T23:59:59', '2026-04-30T08:00:00', '2026-12-31T23:59:59'])
      expect([v, isRealWallTime(v)]).toEqual([v, byLuxon(v)]);
    for (const v of ['2026-02-29T00:00:00', '1900-02-29T00:00:00', '2026-04-31T08:00:00', '2026-11-21T24:00:00', '2026-11-21T08:60:00', '2026-00-10T08:00:00']) {
      expect([v, isRealWallTime(v), byLuxon(v)]).toEqual([v, false, false]);
    }
  });
});
