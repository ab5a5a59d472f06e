import { describe, expect, it } from 'vitest';
import type { GuideRow } from '../../api/types.ts';
import { firstCarried, nowAndNext } from './tv-guide.ts';

const row = (title: string, startDate: string, endDate: string) => ({ title, startDate, endDate }) as GuideRow;

describe('the mock TV guide', () => {
  const rows = [
    row('Late show', '2026-11-27 22:00:00', '2026-11-27 23:00:00'),
    row('Morning news', '2026-11-27 08:00:00', '2026-11-27 08:10:00'),
    row('Harbour', '2026-11-27 08:10:00', '2026-11-27 09:00:00'),
  ];

  it('finds what is on now and what comes next from wall times', () => {
    expect(nowAndNext(rows, '2026-11-27 08:05:00')).toMatchObject({ now: { title: 'Morning news' }, next: { title: 'Harbour' } });
    // The boundary belongs to the programme starting there.
    expect(nowAndNext(rows, '2026-11-27 08:10:00')).toMatchObject({ now: { title: 'Harbour' }, next: { title: 'Late show' } });
    expect(nowAndNext(rows, '2026-11-27 12:00:00')).toMatchObject({ now: undefined, next: { title: 'Late show' } });
    expect(nowAndNext(rows, '2026-11-27 23:30:00')).toEqual({ now: undefined, next: undefined });
  });

  it('opens on the first channel by sorting, unsorted ones after in list order', () => {
    expect(
      firstCarried([
        { channelId: 5, sorting: null },
        { channelId: 7, sorting: 2 },
        { channelId: 9, sorting: 1 },
      ]),
    ).toBe(9);
    expect(
      firstCarried([
        { channelId: 5, sorting: null },
        { channelId: 6, sorting: null },
      ]),
    ).toBe(5);
    expect(firstCarried([])).toBeUndefined();
  });
});
