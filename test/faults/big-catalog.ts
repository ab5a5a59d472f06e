// A catalog big enough that importing it takes a while (thousands of channels, tens of
// thousands of videos and channel rows), for killing an import halfway. It also changes
// entities of the small fixture catalog (test/fixtures/catalog.ts), so that an import that
// got only partly written would show in an export both as new rows and as changed ones.
import type { CatalogInput } from '../../src/catalog/format.ts';
import { smallCatalog } from '../fixtures/catalog.ts';

/** A precomputed scrypt hash, so that validation does not spend minutes hashing passwords. */
const HASH = 'scrypt:16384:8:1:c2FsdHNhbHRzYWx0c2FsdA==:aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaGhhc2g=';

export interface BigCatalogSize {
  owners: number;
  channelsPerOwner: number;
  videosPerOwner: number;
  /** Library rows per channel (videoIds); a third as many VOD rows. */
  videosPerChannel: number;
}

export function bigCatalog(size: BigCatalogSize): CatalogInput {
  const catalog = smallCatalog();
  // Changed entities of the small catalog: written first, in the same transaction.
  catalog.accounts![0]!.fullName = 'Alice Renamed';
  catalog.videos![0]!.title = 'Morning news, renamed';
  catalog.channels![0]!.name = 'Alice News, renamed';
  catalog.channels![0]!.videoIds = [5002];
  for (let o = 0; o < size.owners; o++) {
    const ownerId = 100_000 + o;
    catalog.accounts!.push({ id: ownerId, username: `owner-${o}`, email: `owner-${o}@example.com`, passwordHash: HASH, publicUrl: `owner-${o}` });
    const firstVideo = 1_000_000 + o * size.videosPerOwner;
    for (let v = 0; v < size.videosPerOwner; v++) {
      catalog.videos!.push({
        id: firstVideo + v,
        ownerId,
        title: `Video ${v} of owner ${o}`,
        description: 'A video made to fill the catalog.',
        durationSeconds: 60 + v,
        providerName: 'YouTube',
        providerVideoId: `yt-${o}-${v}`,
        categoryId: 1 + (v % 2),
      });
    }
    for (let c = 0; c < size.channelsPerOwner; c++) {
      const id = 2_000_000 + o * size.channelsPerOwner + c;
      const library = Array.from({ length: size.videosPerChannel }, (_, i) => firstVideo + ((c * size.videosPerChannel + i) % size.videosPerOwner));
      catalog.channels!.push({
        id,
        ownerId,
        name: `Channel ${c} of owner ${o}`,
        url: `channel-${id}`,
        categoryId: 1 + (c % 2),
        order: c,
        videoIds: library,
        vodVideoIds: library.slice(0, Math.ceil(library.length / 3)),
        vast: [{ platform: 'web', vastUrl: `https://ads.example/${id}` }],
        createdAt: '2026-01-01T00:00:00Z',
      });
    }
  }
  return catalog;
}
