import { describe, expect, it } from 'vitest';
import { barLabel, barsOf, blockName, resizedVideoIds, wallWords, type Day } from './days.ts';
import { clockOf } from './geometry.ts';

const NY = 'America/New_York';
const video = (title: string, from: string, to: string, videoId: number, isLive = false) => ({
  videoId,
  playbackOrderNumber: 1,
  title,
  thumbnailUrl: '',
  playTimeLabel: '',
  playbackStartTime: from,
  playbackEndTime: to,
  providerVideoId: 'x',
  providerName: 'YouTube',
  isLive,
});
const totals = { totalVideos: 0, totalDurationLabel: '' };

describe('bars of the expanded days', () => {
  const days: Day[] = [
    {
      channelId: 201,
      date: '2026-11-21',
      timezone: NY,
      ...totals,
      entries: [
        {
          blockId: 12,
          isLive: false,
          startTime: '2026-11-21T08:00:00',
          published: true,
          loopDaily: false,
          videos: [video('Morning news', '2026-11-21T08:00:00', '2026-11-21T08:10:00', 5001)],
        },
        {
          blockId: null,
          isLive: true,
          startTime: '2026-11-21T13:00:00',
          published: true,
          loopDaily: false,
          videos: [video('Live show', '2026-11-21T13:00:00', '2026-11-21T14:30:00', 7, true)],
        },
        {
          blockId: 9,
          isLive: false,
          startTime: '2026-11-21T22:00:00',
          published: false,
          loopDaily: true,
          videos: [video('Weather', '2026-11-21T22:00:00', '2026-11-21T22:02:00', 5003)],
        },
      ],
    },
    {
      channelId: 201,
      date: '2026-11-22',
      timezone: NY,
      ...totals,
      entries: [
        {
          blockId: 12,
          isLive: false,
          startTime: '2026-11-21T08:00:00',
          published: true,
          loopDaily: false,
          videos: [video('Morning news', '2026-11-21T08:00:00', '2026-11-21T08:10:00', 5001)],
        },
      ],
    },
  ];

  it('makes one bar per occurrence, live streams apart, daily repeats after their first day', () => {
    const bars = barsOf(
      days,
      NY,
      new Map([
        [12, '2026-11-21'],
        [9, '2026-11-18'],
      ]),
    );
    expect(bars.map((b) => [b.key, b.live, b.repeat])).toEqual([
      ['block-12-2026-11-21T08:00:00', false, false],
      ['live-7-2026-11-21T13:00:00', true, false],
      ['block-9-2026-11-21T22:00:00', false, true],
    ]);
    const clock = (ms: number) => clockOf(ms, NY);
    expect(barLabel(bars[0]!, clock)).toBe('Block 08:00–08:10: Morning news, published');
    expect(barLabel(bars[1]!, clock)).toBe('Live stream: Live show, 13:00–14:30');
    expect(barLabel(bars[2]!, clock)).toBe('Block 22:00–22:02: Weather, unpublished, daily repeat');
    expect(barLabel({ ...bars[0]!, videoCount: 3 }, clock)).toBe('Block 08:00–08:10: Morning news and 2 more, published');
  });
});

describe('resizing a block: its own videos, fewer or again', () => {
  const news = [
    { videoId: 1, seconds: 600 },
    { videoId: 2, seconds: 300 },
  ];
  it('keeps the list at its own length', () => expect(resizedVideoIds(news, 900)).toEqual([1, 2]));
  it('drops trailing videos when shorter, never the first', () => {
    expect(resizedVideoIds(news, 700)).toEqual([1]);
    expect(resizedVideoIds(news, 60)).toEqual([1]);
  });
  it('plays the list again, in order, while the next video ends within the length', () => {
    expect(resizedVideoIds(news, 2400)).toEqual([1, 2, 1, 2, 1]);
    expect(resizedVideoIds(news, 2399)).toEqual([1, 2, 1, 2]);
  });
  it('stops at a bound, and at the list itself when its videos last nothing', () => {
    expect(resizedVideoIds([{ videoId: 9, seconds: 1 }], 86_400)).toHaveLength(1440);
    expect(
      resizedVideoIds(
        [
          { videoId: 9, seconds: 0 },
          { videoId: 8, seconds: 0 },
        ],
        3600,
      ),
    ).toEqual([9, 8]);
  });
});

describe('blocks in words', () => {
  it('names a block by its first programme and start, never its id', () => {
    const clock = (ms: number) => new Date(ms).toISOString().slice(11, 16);
    const start = Date.parse('2026-12-01T08:00:00Z');
    expect(blockName({ title: 'Morning news', start, live: false }, clock)).toBe("the 'Morning news' block (08:00)");
    expect(blockName({ title: 'Town hall', start, live: true }, clock)).toBe("the live stream 'Town hall' (08:00)");
    expect(wallWords('2026-12-01T08:15:00')).toBe('Tue 1 Dec 08:15');
  });
});
