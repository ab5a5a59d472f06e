import { describe, expect, it } from 'vitest';
import { calibrationMs, expectCpuUnder, machineFactor, REFERENCE_CALIBRATION_MS, scaledBound } from './support/cpu-bounds.ts';

describe('CPU bounds relative to a calibration workload', () => {
  it('never loosens a bound below its written value, and scales it by the measured factor', () => {
    const { factor, calibrationMs: measured } = machineFactor();
    expect(factor).toBeGreaterThanOrEqual(1);
    expect(factor).toBeCloseTo(Math.max(1, measured / REFERENCE_CALIBRATION_MS), 6);
    expect(scaledBound(200)).toBeCloseTo(200 * factor, 6);
  });

  it('measures real work (a calibration is not nothing)', () => {
    expect(calibrationMs(1)).toBeGreaterThan(1);
  });

  it('fails a figure over the scaled bound and says the figures', () => {
    const over = scaledBound(10) + 1;
    expect(() => expectCpuUnder(over, 10, 'a request')).toThrow(/a request: .* ms of CPU, bound 10 ms x/);
    expect(() => expectCpuUnder(1, 10)).not.toThrow();
  });
});
