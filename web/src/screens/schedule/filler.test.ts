import { describe, expect, it } from 'vitest';
import { deadAirWhy, fillerSummary, padToOf } from './filler.ts';

describe('filler words', () => {
  it("sums a block's filler by kind in play order", () => {
    expect(fillerSummary(['preRoll', 'programme', 'midRoll', 'programme', 'padding', 'padding'])).toBe('pre-roll 1 · mid-roll 1 · padding 2');
    expect(fillerSummary(['programme'])).toBe('');
  });

  it('reads the pad-to select and says why a stretch is dead air', () => {
    expect([padToOf('15'), padToOf('30'), padToOf('60'), padToOf(''), padToOf(null)]).toEqual([15, 30, 60, undefined, undefined]);
    const gap = { slot: 1, startTime: '2026-12-14T06:00:00', endTime: '2026-12-14T07:00:00', seconds: 3600 };
    expect(deadAirWhy({ ...gap, reason: 'offAir' })).toBe('slot 2 is off air');
    expect(deadAirWhy({ ...gap, slot: null, reason: 'noSlot' })).toBe('no slot plays then');
    expect(deadAirWhy({ ...gap, reason: 'afterEnd' })).toBe('slot 2 has ended; no slot plays until the next one starts');
  });
});
