// A large network for the list bounds (test/list-bounds.test.ts): 500 channels of alice (owner 11)
// in five zones, 50 of them full (a loop of 720 one-minute videos), the others a loop of 48
// half-hour shows (every tenth also a one-off block on TEST_NOW's day), and a Fire TV app with all.
import { MAX_DAY_ENTRIES } from '../../src/schedules/day-entries.ts';
import { studioCatalog } from './studio.ts';

export const CHANNELS = 500;
export const FULL = 50;
export const FIRST_CHANNEL = 20_000;
const CLIP = 70_000; // MAX_DAY_ENTRIES one-minute videos
const SHOW = 71_000; // 48 half-hour videos
const TV_APP = 399;

export function networkCatalog() {
  const catalog = studioCatalog();
  catalog.videos.push(
    ...Array.from({ length: MAX_DAY_ENTRIES }, (_, i) => ({
      id: CLIP + i,
      ownerId: 11,
      title: `Clip ${i}`,
      durationSeconds: 60,
      providerName: 'YouTube',
      providerVideoId: `c${i}`,
    })),
    ...Array.from({ length: 48 }, (_, i) => ({ id: SHOW + i, ownerId: 11, title: `Show ${i}`, durationSeconds: 1_800, providerName: 'YouTube', providerVideoId: `s${i}` })),
  );
  const zones = ['America/New_York', 'Europe/Berlin', 'Asia/Kolkata', 'UTC', 'America/Los_Angeles'];
  for (let i = 0; i < CHANNELS; i++) {
    const full = i < FULL;
    const videoIds = full ? Array.from({ length: MAX_DAY_ENTRIES }, (_, k) => CLIP + k) : Array.from({ length: 48 }, (_, k) => SHOW + k);
    catalog.channels.push({
      id: FIRST_CHANNEL + i,
      ownerId: 11,
      name: `Network ${i}`,
      url: `network-${i}`,
      categoryId: 1,
      timezone: zones[i % zones.length],
      createdAt: '2026-01-01T00:00:00Z',
      // Every channel loops a whole day; every tenth of the others also has a one-off block on the day asked.
      schedules: [
        { id: 500_000 + i, startTime: '2026-11-01T00:00:00', loopDaily: true, videoIds },
        ...(!full && i % 10 === 0 ? [{ id: 600_000 + i, startTime: '2026-11-21T06:00:00', videoIds: [SHOW] }] : []),
      ],
    });
  }
  catalog.apps.push({
    id: TV_APP,
    ownerId: 11,
    platform: 'firetv',
    appName: 'Network TV',
    createdAt: '2026-01-01T00:00:00Z',
    channels: Array.from({ length: CHANNELS }, (_, i) => ({ channelId: FIRST_CHANNEL + i })),
  });
  return catalog;
}
