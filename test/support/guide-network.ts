// A network for guide tests and measurements: the Studio fixture plus `channels` channels of
// alice's (owner 11), each a daily loop of 144 ten-minute videos from 2026-11-01 in one of four
// zones, all carried by her Android TV app (302). Built by the catalog importer in a few seconds.
import { studioCatalog } from './studio.ts';

export const CHANNELS = 200;
export const PER_DAY = 144;
export const FIRST_CHANNEL = 7001;
export const FIRST_VIDEO = 70_001;
export const ZONES = ['America/New_York', 'Europe/Berlin', 'Asia/Tokyo', 'UTC'];

/** The Studio fixture plus 200 channels of alice's, each a loop of 144 ten-minute videos a day, all carried by her Android TV app. */
export function networkCatalog(channels = CHANNELS) {
  const catalog = studioCatalog();
  catalog.videos.push(
    ...Array.from({ length: PER_DAY }, (_, i) => ({
      id: FIRST_VIDEO + i,
      ownerId: 11,
      title: `Show ${i}`,
      description: `Episode ${i} of the day, a few words long.`,
      durationSeconds: 600,
      providerName: 'YouTube',
      providerVideoId: `show${i}`,
      categoryId: 1,
      thumbnailUrl: `https://img.example/shows/${i}.jpg`,
    })),
  );
  const videoIds = Array.from({ length: PER_DAY }, (_, i) => FIRST_VIDEO + i);
  for (let k = 0; k < channels; k++) {
    const id = FIRST_CHANNEL + k;
    catalog.channels.push({
      id,
      ownerId: 11,
      name: `Network ${k}`,
      url: `network-${k}`,
      categoryId: 1,
      timezone: ZONES[k % ZONES.length],
      createdAt: '2026-01-01T00:00:00Z',
      schedules: [{ id: 970_000 + k, startTime: '2026-11-01T00:00:00', loopDaily: true, videoIds }],
    });
  }
  catalog.apps.find((a: { id: number }) => a.id === 302).channels = Array.from({ length: channels }, (_, k) => ({ channelId: FIRST_CHANNEL + k }));
  return catalog;
}
