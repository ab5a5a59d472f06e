import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { changeWords, dayX, daysBetween, presetRange, shortDay, tickStep, TICK_SPACE, todayIn } from './trends-series.ts';

describe('trends figures', () => {
  it('ends a preset range today in the zone, both days included', () => {
    const now = DateTime.fromISO('2026-11-22T03:00:00Z');
    expect(todayIn('America/New_York', now)).toBe('2026-11-21');
    expect(todayIn('Nowhere/City', now)).toBeUndefined();
    expect(presetRange(7, '2026-11-21')).toEqual({ from: '2026-11-15', to: '2026-11-21' });
    expect(daysBetween('2026-11-15', '2026-11-21')).toBe(7);
    expect(daysBetween('2026-03-01', '2026-03-31')).toBe(31);
    expect(daysBetween('2026-11-21', '2026-11-20')).toBeUndefined();
    expect(daysBetween('2026-02-30', '2026-03-01')).toBeUndefined();
  });

  it('says a change as an arrow and a percent, and in words', () => {
    expect(changeWords({ absolute: 2, percent: 200 }, 28)).toEqual({ arrow: '▲', text: '+200%', colour: 'teal', sentence: 'up 200% on the previous 28 days' });
    expect(changeWords({ absolute: -1, percent: -33.3 }, 7)).toMatchObject({ arrow: '▼', text: '−33.3%', colour: 'red' });
    expect(changeWords({ absolute: 0, percent: 0 }, 7).text).toBe('no change');
    expect(changeWords({ absolute: 3, percent: null }, 1)).toMatchObject({ arrow: '▲', text: 'new', sentence: 'none in the previous 1 day' });
    expect(changeWords({ absolute: 0, percent: null }, 7).text).toBe('–');
  });

  it('labels days briefly and spaces ticks so labels never overlap', () => {
    expect(shortDay(dayX('2026-11-20'))).toBe('Nov 20');
    for (const [days, width] of [
      [7, 300],
      [28, 300],
      [90, 300],
      [366, 300],
      [366, 1200],
      [2, 100],
    ] as const) {
      const step = tickStep(days, width);
      const ticks = Math.floor((days - 1) / step) + 1;
      // Each tick gets at least TICK_SPACE pixels.
      expect((ticks - 1) * TICK_SPACE).toBeLessThanOrEqual(width);
    }
    expect(tickStep(7, 1000)).toBe(1);
    expect(tickStep(366, 300)).toBe(91);
  });
});
