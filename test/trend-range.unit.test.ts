// The days of a trend read: bounds in a zone (23- and 25-hour days), defaults, limits, the change.
import { describe, expect, it } from 'vitest';
import { changeOf, MAX_TREND_DAYS, rangeDates, resolveTrendRange } from '../src/sessions/trend-range.ts';

const NOW = new Date('2026-11-22T03:00:00Z');
const iso = (ms: number) => new Date(ms).toISOString();

describe('resolveTrendRange', () => {
  it('starts each day at midnight of the zone, a clock change making a 25-hour day', () => {
    const range = resolveTrendRange('2026-11-01', '2026-11-01', 'America/New_York', NOW);
    expect(range).toMatchObject({ ok: true, value: { from: '2026-11-01', to: '2026-11-01', days: 1, previous: { from: '2026-10-31', to: '2026-10-31' } } });
    if (!range.ok) throw new Error();
    expect(range.value.bounds.map(iso)).toEqual(['2026-10-31T04:00:00.000Z', '2026-11-01T04:00:00.000Z', '2026-11-02T05:00:00.000Z']);
  });

  it('defaults to the 28 days ending today in the zone, and lists them', () => {
    // 03:00 UTC is still the 21st in New York.
    const range = resolveTrendRange(undefined, undefined, 'America/New_York', NOW);
    if (!range.ok) throw new Error();
    expect([range.value.from, range.value.to, range.value.days, range.value.bounds.length]).toEqual(['2026-10-25', '2026-11-21', 28, 57]);
    expect(rangeDates(range.value).slice(0, 2)).toEqual(['2026-10-25', '2026-10-26']);
    expect(rangeDates(range.value)).toHaveLength(28);
  });

  it('takes at most 366 days, forwards, after 1970-01-02', () => {
    expect(resolveTrendRange('2025-11-22', '2026-11-22', 'UTC', NOW)).toMatchObject({ ok: true, value: { days: MAX_TREND_DAYS } });
    expect(resolveTrendRange('2025-11-21', '2026-11-22', 'UTC', NOW).ok).toBe(false);
    expect(resolveTrendRange('2026-11-22', '2026-11-21', 'UTC', NOW).ok).toBe(false);
    expect(resolveTrendRange('1970-01-02', '1970-01-03', 'UTC', NOW).ok).toBe(false);
    expect(resolveTrendRange('1970-01-04', '1970-01-05', 'UTC', NOW).ok).toBe(true);
  });
});

describe('changeOf', () => {
  it('gives the difference and the percent of the previous, null when there was none', () => {
    expect(changeOf(3, 2)).toEqual({ absolute: 1, percent: 50 });
    expect(changeOf(1, 3)).toEqual({ absolute: -2, percent: -66.7 });
    expect(changeOf(5, 0)).toEqual({ absolute: 5, percent: null });
    expect(changeOf(0, 0)).toEqual({ absolute: 0, percent: null });
  });
});
