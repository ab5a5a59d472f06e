import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatDuration, parseDuration } from './duration.ts';

describe('durations in the console', () => {
  it('shows h:mm:ss, m:ss under an hour', () => {
    expect(formatDuration(600)).toBe('10:00');
    expect(formatDuration(3723)).toBe('1:02:03');
    expect(formatDuration(59)).toBe('0:59');
    expect(formatDuration(0)).toBe('0:00');
    expect(formatDuration(36_000)).toBe('10:00:00');
    expect(formatDuration(600.4)).toBe('10:00');
  });

  it('reads h:mm:ss, m:ss and seconds', () => {
    expect(parseDuration('600')).toBe(600);
    expect(parseDuration(' 10:00 ')).toBe(600);
    expect(parseDuration('1:02:03')).toBe(3723);
    expect(parseDuration('0:59')).toBe(59);
    expect(parseDuration('75:30')).toBe(4530);
    expect(parseDuration('12.5')).toBe(12.5);
    for (const bad of ['-5', '1:60', '1:5', '1:60:00', '1:02:3', 'ten', '', '1h', ':30', '1::30']) expect(parseDuration(bad), bad).toBeUndefined();
  });

  it('reads back what it shows', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 400 * 3600 }), (seconds) => parseDuration(formatDuration(seconds)) === seconds),
      { seed: 20261121, numRuns: 1000 },
    );
  });
});
