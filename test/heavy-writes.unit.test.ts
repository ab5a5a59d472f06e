// One heavy Studio request per owner at a time (src/editing/heavy-writes.ts), and the day-entry
// count of a write over the days it touches (firstOverfull, src/schedules/day-entries.ts).
import { describe, expect, it } from 'vitest';
import { heavy } from '../src/editing/heavy-writes.ts';
import { EditRefusal } from '../src/editing/refusals.ts';
import { MAX_DAY_ENTRIES, firstOverfull } from '../src/schedules/day-entries.ts';

describe('heavy writes', () => {
  it('a second heavy request of the same owner is refused while the first runs; other owners and later requests run', async () => {
    let release!: () => void;
    const first = heavy(11, () => new Promise<string>((resolve) => (release = () => resolve('first'))));
    await expect(heavy(11, async () => 'second')).rejects.toSatisfy((e: unknown) => e instanceof EditRefusal && e.code === 'write_in_progress');
    await expect(heavy(16, async () => 'other owner')).resolves.toBe('other owner');
    release();
    await expect(first).resolves.toBe('first');
    await expect(heavy(11, async () => 'after')).resolves.toBe('after');
    // A failed one frees the owner too.
    await expect(
      heavy(11, async () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    await expect(heavy(11, async () => 'again')).resolves.toBe('again');
  });
});

describe('firstOverfull', () => {
  const stays = { oneOff: new Map([['2027-03-02', 700]]), loops: [{ date: '2027-03-01', loopDaily: true, entries: 9 }], streamDates: ['2027-03-03'] };
  it('counts loops dated on or before a day, kept blocks and streams with the written blocks, naming the last written block of the day', () => {
    expect(firstOverfull(stays, [{ date: '2027-03-02', loopDaily: false, entries: 11 }], ['2027-03-02'])).toBeUndefined();
    expect(
      firstOverfull(
        stays,
        [
          { date: '2027-03-02', loopDaily: false, entries: 5 },
          { date: '2027-03-02', loopDaily: false, entries: 7 },
        ],
        ['2027-03-02'],
      ),
    ).toEqual({ date: '2027-03-02', entries: 721, block: 1 });
    // A loop written before the full day counts on it; a day not asked is not counted.
    expect(firstOverfull(stays, [{ date: '2027-02-20', loopDaily: true, entries: 12 }], ['2027-03-02', '2027-03-03'])).toEqual({ date: '2027-03-02', entries: 721, block: 0 });
    expect(firstOverfull(stays, [{ date: '2027-03-03', loopDaily: false, entries: MAX_DAY_ENTRIES - 9 }], ['2027-03-03'])).toEqual({ date: '2027-03-03', entries: 721, block: 0 });
  });
});
