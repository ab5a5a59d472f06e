import { describe, expect, it } from 'vitest';
import { dayMinutes, hourMarks, instantToLocalInput, localInputToInstant, segmentsOf, slotStart, wallToMs, weekDates, weekStartOf } from './geometry.ts';

const NY = 'America/New_York';

describe('week view geometry', () => {
  it('gives each day its real length in the zone', () => {
    expect(dayMinutes('2026-11-21', NY)).toBe(24 * 60);
    expect(dayMinutes('2026-03-08', NY)).toBe(23 * 60); // spring forward
    expect(dayMinutes('2026-11-01', NY)).toBe(25 * 60); // fall back
    expect(dayMinutes('2026-03-29', 'Europe/Berlin')).toBe(23 * 60);
    expect(dayMinutes('2026-03-08', 'UTC')).toBe(24 * 60);
  });

  it('places a block by the real time since midnight on a spring-forward day', () => {
    const start = wallToMs('2026-03-08T08:00:00', NY);
    const [segment] = segmentsOf(start, start + 10 * 60_000, ['2026-03-08'], NY);
    // 08:00 is only 7 real hours after midnight: 02:00-03:00 does not exist.
    expect(segment).toEqual({ date: '2026-03-08', top: 7 * 60, height: 10, continued: false });
    expect(
      hourMarks('2026-03-08', NY)
        .map((m) => m.label)
        .slice(0, 4),
    ).toEqual(['00:00', '01:00', '03:00', '04:00']);
    expect(hourMarks('2026-03-08', NY)).toHaveLength(23);
  });

  it('places a block by the real time since midnight on a fall-back day', () => {
    const start = wallToMs('2026-11-01T08:00:00', NY);
    const [segment] = segmentsOf(start, start + 60 * 60_000, ['2026-11-01'], NY);
    expect(segment).toEqual({ date: '2026-11-01', top: 9 * 60, height: 60, continued: false });
    const marks = hourMarks('2026-11-01', NY);
    expect(marks).toHaveLength(25);
    expect(marks.map((m) => m.label).slice(0, 4)).toEqual(['00:00', '01:00', '01:00', '02:00']);
  });

  it("continues a block running past midnight into the next day's column", () => {
    const start = wallToMs('2026-11-21T23:30:00', NY);
    const segments = segmentsOf(start, start + 90 * 60_000, weekDates('2026-11-16'), NY);
    expect(segments).toEqual([
      { date: '2026-11-21', top: 23 * 60 + 30, height: 30, continued: false },
      { date: '2026-11-22', top: 0, height: 60, continued: true },
    ]);
    // Across the fall-back midnight: 2026-10-31 23:00 for 3 h ends at 01:00 (second time).
    const late = wallToMs('2026-10-31T23:00:00', NY);
    expect(segmentsOf(late, late + 3 * 3_600_000, ['2026-10-31', '2026-11-01'], NY)).toEqual([
      { date: '2026-10-31', top: 23 * 60, height: 60, continued: false },
      { date: '2026-11-01', top: 0, height: 120, continued: true },
    ]);
  });

  it('turns a click into a wall-clock start rounded down to the step', () => {
    expect(slotStart('2026-11-21', NY, 8 * 60 + 7)).toBe('2026-11-21T08:00:00');
    expect(slotStart('2026-11-21', NY, 8 * 60 + 7, 5)).toBe('2026-11-21T08:05:00');
    // On spring-forward day the 8th real hour is 09:00 wall time.
    expect(slotStart('2026-03-08', NY, 8 * 60 + 20)).toBe('2026-03-08T09:15:00');
  });

  it('knows weeks and datetime inputs', () => {
    expect(weekStartOf('2026-11-21')).toBe('2026-11-16');
    expect(weekDates('2026-11-16')).toEqual(['2026-11-16', '2026-11-17', '2026-11-18', '2026-11-19', '2026-11-20', '2026-11-21', '2026-11-22']);
    expect(instantToLocalInput('2026-11-21T18:00:00Z', NY)).toBe('2026-11-21T13:00');
    expect(localInputToInstant('2026-11-21T13:00', NY)).toBe('2026-11-21T13:00:00-05:00');
  });
});
