import { describe, expect, it } from 'vitest';
import { categoryLabels, dayRange, peakOf, peakSentence, programmeRuns, wallTime, watchTime } from './series.ts';

describe('analytics figures', () => {
  it('bounds a day in its zone, DST days included', () => {
    expect(dayRange('2026-11-25', 'Europe/Berlin')).toEqual({ from: '2026-11-24T23:00:00.000Z', to: '2026-11-25T23:00:00.000Z' });
    const fallBack = dayRange('2026-10-25', 'Europe/Berlin')!;
    expect((Date.parse(fallBack.to) - Date.parse(fallBack.from)) / 3_600_000).toBe(25);
    const springForward = dayRange('2026-03-08', 'America/New_York')!;
    expect((Date.parse(springForward.to) - Date.parse(springForward.from)) / 3_600_000).toBe(23);
    expect(dayRange('2026-02-30', 'UTC')).toBeUndefined();
  });

  it('finds the peak and says it in words, in the zone', () => {
    const buckets = [
      { start: '2026-11-25T09:00:00.000Z', end: '2026-11-25T09:05:00.000Z', viewers: 1 },
      { start: '2026-11-25T09:05:00.000Z', end: '2026-11-25T09:10:00.000Z', viewers: 3 },
      { start: '2026-11-25T09:10:00.000Z', end: '2026-11-25T09:15:00.000Z', viewers: 3 },
    ];
    expect(peakOf(buckets)?.start).toBe('2026-11-25T09:05:00.000Z');
    expect(peakSentence(buckets, 'Europe/Berlin')).toBe('Peak 3 viewers at 10:05.');
    expect(peakSentence([{ ...buckets[0]!, viewers: 1 }], 'UTC')).toBe('Peak 1 viewer at 09:00.');
    expect(peakSentence([{ ...buckets[0]!, viewers: 0 }], 'UTC')).toBe('Nobody watched in this period.');
  });

  it('writes watch time and wall times', () => {
    expect(watchTime(59)).toBe('59 s');
    expect(watchTime(600)).toBe('10 min');
    expect(watchTime(5400)).toBe('1 h 30 min');
    expect(wallTime('2026-11-25T09:05:00.000Z', 'Europe/Berlin')).toBe('2026-11-25 10:05');
  });
});

describe('programme runs of a curve', () => {
  const minute = (hhmm: string, viewers: number, videoId: number | null, title: string | null = videoId ? `V${videoId}` : null, isLive = false) => ({
    start: `2026-11-20T${hhmm}:00.000Z`,
    viewers,
    videoId,
    title,
    isLive,
    deadAir: videoId === null,
  });

  it('joins the minutes of one programme and keeps their busiest minute', () => {
    const runs = programmeRuns([
      minute('09:58', 0, null),
      minute('09:59', 0, null),
      minute('10:00', 1, 1),
      minute('10:01', 3, 1),
      minute('10:02', 2, 2),
      minute('10:03', 2, 2, 'V2', true),
    ]);
    expect(runs.map((r) => [r.start.slice(11, 16), r.end.slice(11, 16), r.title, r.isLive, r.peakViewers])).toEqual([
      ['09:58', '10:00', null, false, 0],
      ['10:00', '10:02', 'V1', false, 3],
      ['10:02', '10:03', 'V2', false, 2],
      ['10:03', '10:04', 'V2', true, 2],
    ]);
    expect(programmeRuns([])).toEqual([]);
  });
});

describe('categoryLabels: bar labels that never overlap', () => {
  const platforms = ['Roku', 'Fire TV', 'Android TV', 'Apple TV', 'iOS app', 'Android app', 'Custom iOS app', 'Custom Android app', 'Web player', 'Broadcast'];
  it('keeps short labels side by side where each fits its bar', () => {
    expect(categoryLabels(['Roku', 'Web player'], 800)).toEqual({ rotate: 0, size: 30, shown: ['Roku', 'Web player'] });
  });
  it('turns them when ten platforms share a half-width chart, the axis growing to hold the longest', () => {
    const { rotate, size, shown } = categoryLabels(platforms, 600);
    expect(rotate).toBe(-45);
    expect(shown).toEqual(platforms);
    expect(size).toBeGreaterThan(30 + 18 * 5);
  });
  it('cuts long names, and at phone width shows every other one', () => {
    const { shown } = categoryLabels([...platforms, 'broadcast_on_service_dot_com'], 120);
    expect(shown.filter((l) => l !== '')).toHaveLength(6);
    expect(shown[10]).toBe('broadcast_on_serv…');
    expect(shown.every((l) => l.length <= 18)).toBe(true);
  });
});
