// What a read takes from the rollups and what raw: every instant of the bounds is covered exactly
// once (by a raw window, or by the piece of its UTC day's quarter-hour in its own bucket), the raw
// windows are only the quarter-hours that unaligned bounds cut, and zones' days split at midnight.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DAY_MS, QUARTER_MS, devicePlan, rawPlan, rollupPlan, type RollupPlan } from '../src/sessions/rollup-plan.ts';
import { resolveTrendRange } from '../src/sessions/trend-range.ts';

/** Where the plan reads instant t from: 'raw', a bucket number (rollups), or several (a fault). */
function coverOf(plan: RollupPlan, t: number): ('raw' | number)[] {
  const found: ('raw' | number)[] = plan.rawWindows.filter(([lo, hi]) => t >= lo && t < hi).map(() => 'raw' as const);
  const day = Math.floor(t / DAY_MS) * DAY_MS;
  const quarter = Math.floor((t - day) / QUARTER_MS);
  for (const p of plan.pieces) {
    if (p.day === new Date(day).toISOString().slice(0, 10) && quarter >= p.lo && quarter < p.hi) found.push(p.bucket);
  }
  return found;
}

const bucketOf = (bounds: number[], t: number) => bounds.findIndex((b, i) => i + 1 < bounds.length && t >= b && t < bounds[i + 1]!);

describe('rollupPlan', () => {
  it('reads whole UTC days from the rollups, nothing raw', () => {
    const bounds = [Date.parse('2026-11-20T00:00:00Z'), Date.parse('2026-11-21T00:00:00Z'), Date.parse('2026-11-22T00:00:00Z')];
    expect(rollupPlan(bounds)).toEqual({
      rawWindows: [],
      pieces: [
        { day: '2026-11-20', bucket: 0, lo: 0, hi: 96 },
        { day: '2026-11-21', bucket: 1, lo: 0, hi: 96 },
      ],
    });
  });

  it('splits a Kathmandu day (UTC+05:45) at its midnight, 18:15 UTC', () => {
    const range = resolveTrendRange('2026-11-21', '2026-11-21', 'Asia/Kathmandu', new Date('2026-11-22T00:00:00Z'));
    if (!range.ok) throw new Error(range.message);
    const plan = rollupPlan(range.value.bounds);
    expect(plan.rawWindows).toEqual([]);
    expect(plan.pieces.map(({ day, bucket, lo, hi }) => [day, bucket, lo, hi])).toEqual([
      ['2026-11-19', 0, 73, 96],
      ['2026-11-20', 0, 0, 73],
      ['2026-11-20', 1, 73, 96],
      ['2026-11-21', 1, 0, 73],
    ]);
  });

  it('reads raw only the quarter-hours around unaligned ends (a summary from 10:07 to 10:10 is all raw)', () => {
    const at = (hm: string) => Date.parse(`2026-11-20T${hm}:00Z`);
    expect(rollupPlan([at('10:07'), at('18:00')]).rawWindows).toEqual([[at('10:07'), at('10:15')]]);
    expect(rollupPlan([at('10:07'), at('10:10')])).toEqual({ rawWindows: [[at('10:07'), at('10:10')]], pieces: [] });
    // Local mean time: Monrovia was UTC-00:44:30 until 1972.
    const lmt = resolveTrendRange('1971-03-01', '1971-03-02', 'Africa/Monrovia', new Date('1972-01-01T00:00:00Z'));
    if (!lmt.ok) throw new Error(lmt.message);
    expect(rollupPlan(lmt.value.bounds).rawWindows).toHaveLength(5);
  });

  it('covers every instant of the bounds exactly once, in its own bucket (property)', () => {
    const base = Date.parse('2026-03-01T00:00:00Z');
    const bounds = fc
      .uniqueArray(fc.integer({ min: 0, max: (20 * DAY_MS) / 60_000 }), { minLength: 2, maxLength: 8 })
      .map((minutes) => [...minutes].sort((a, b) => a - b).map((m) => base + m * 60_000 + (m % 7 === 0 ? 0 : 1_234)));
    fc.assert(
      fc.property(bounds, fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 20 }), (b, points) => {
        const plan = rollupPlan(b);
        const first = b[0]!;
        const last = b.at(-1)!;
        for (const x of [...points, 0]) {
          const t = Math.floor(first + x * (last - first - 1));
          const cover = coverOf(plan, t);
          expect(cover).toHaveLength(1);
          if (cover[0] !== 'raw') expect(cover[0]).toBe(bucketOf(b, t));
        }
        const raw = plan.rawWindows.reduce((sum, [lo, hi]) => sum + hi - lo, 0);
        expect(raw).toBeLessThanOrEqual(b.filter((t) => t % QUARTER_MS !== 0).length * QUARTER_MS);
      }),
      { numRuns: 300 },
    );
  });

  it('rawPlan reads everything raw', () => {
    expect(rawPlan([1, 5, 9])).toEqual({ rawWindows: [[1, 9]], pieces: [] });
  });
});

/** Absolute quarter-hour numbers of (day, [lo, hi)). */
const quartersOf = (day: string, lo: number, hi: number) => {
  const first = Date.parse(`${day}T00:00:00Z`) / QUARTER_MS;
  return Array.from({ length: Math.max(0, hi - lo) }, (_, i) => first + lo + i);
};
const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10);
const sorted = (quarters: number[]) => [...quarters].sort((a, b) => a - b);

describe('devicePlan', () => {
  // Whole-quarter zones, with and without DST, with 30-minute DST (Lord Howe) and :45 offsets.
  const zones = ['UTC', 'America/New_York', 'Europe/Berlin', 'Asia/Kathmandu', 'Australia/Lord_Howe', 'Pacific/Chatham', 'Asia/Tehran', 'America/St_Johns', 'Pacific/Kiritimati'];

  it('names for every zone day and both ranges exactly the quarter-hours the plan reads (property)', () => {
    const start = fc.integer({ min: 0, max: 800 }).map((d) => new Date(Date.parse('2025-01-01T00:00:00Z') + d * DAY_MS).toISOString().slice(0, 10));
    fc.assert(
      fc.property(fc.constantFrom(...zones), start, fc.integer({ min: 1, max: 100 }), (zone, from, length) => {
        const to = new Date(Date.parse(`${from}T00:00:00Z`) + (length - 1) * DAY_MS).toISOString().slice(0, 10);
        const range = resolveTrendRange(from, to, zone, new Date('2028-01-01T00:00:00Z'));
        if (!range.ok) throw new Error(range.message);
        const plan = rollupPlan(range.value.bounds);
        const devices = devicePlan(plan, range.value.days);
        expect(devices).not.toBeNull();
        const read = (pieces: RollupPlan['pieces']) => sorted(pieces.flatMap((p) => quartersOf(p.day, p.lo, p.hi)));
        expect(devices!.days.map((d) => d.bucket).sort((a, b) => a - b)).toEqual(Array.from({ length: 2 * range.value.days }, (_, i) => i));
        for (const d of devices!.days) {
          expect(sorted([...quartersOf(d.day, d.from, 96), ...quartersOf(nextDay(d.day), 0, d.to)])).toEqual(read(plan.pieces.filter((p) => p.bucket === d.bucket)));
        }
        for (const r of devices!.ranges) {
          const named = [
            ...(r.whole
              ? Array.from({ length: (Date.parse(r.whole.last) - Date.parse(r.whole.first)) / DAY_MS + 1 }, (_, i) =>
                  quartersOf(new Date(Date.parse(r.whole!.first) + i * DAY_MS).toISOString().slice(0, 10), 0, 96),
                ).flat()
              : []),
            ...r.edges.flatMap((e) => (e.max ? quartersOf(e.day, e.q, 96) : quartersOf(nextDay(e.day), 0, e.q))),
          ];
          expect(sorted(named)).toEqual(read(plan.pieces.filter((p) => p.bucket >= range.value.days === r.current)));
        }
      }),
      { numRuns: 60 },
    );
  });

  it('declines a plan with raw windows or a piece inside a UTC day (the device-day read answers those)', () => {
    expect(devicePlan(rawPlan([0, DAY_MS]), 1)).toBeNull();
    const at = (hm: string) => Date.parse(`2026-11-20T${hm}:00Z`);
    expect(devicePlan(rollupPlan([at('06:00'), at('12:00'), at('18:00')]), 1)).toBeNull();
  });
});
