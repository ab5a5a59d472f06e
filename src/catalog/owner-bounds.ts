// What one owner may hold. Every owner request that reads the owner's whole slice (the Studio
// export, an import with If-Match, the apps with their images) costs in proportion to it, and
// an owner request may cost at most 2 s of CPU; so the slice is bounded, on every write path
// (Studio writes, the Studio import, `channelnet import`), by counting the owner's holdings
// after the write inside its transaction: past a bound the write is refused and rolled back.
// The values are far above what a creator holds (issue 13's 2,000-channel network fits), and
// their worst case was measured on PGlite, the slower backend (notes/owner.md).
import type { OwnerHoldings } from '../data/owner-slice.ts';

export const OWNER_BOUNDS: Readonly<Record<keyof OwnerHoldings, number>> = {
  videos: 20_000,
  channels: 2_000,
  scheduleBlocks: 20_000,
  listEntries: 500_000,
  textBytes: 8 * 1024 * 1024,
  imageBytes: 8 * 1024 * 1024,
};

/** Where each bound is named in a catalog document (an import's error line starts with it). */
export const OWNER_BOUND_LISTS: Readonly<Record<keyof OwnerHoldings, string>> = {
  videos: 'videos',
  channels: 'channels',
  scheduleBlocks: 'channels[].schedules',
  listEntries: '(root)',
  textBytes: '(root)',
  imageBytes: '(root)',
};

const WHAT: Readonly<Record<keyof OwnerHoldings, string>> = {
  videos: 'videos',
  channels: 'channels',
  scheduleBlocks: 'schedule blocks',
  listEntries: 'list entries (renditions, library and VOD entries, block videos, live streams, app channels)',
  textBytes: 'bytes of text (video, rendition, channel, VAST and live stream texts and URLs)',
  imageBytes: 'bytes of images (branding and app images)',
};

const figure = (n: number) => n.toLocaleString('en-US');

/** `path: message` lines for every bound the holdings pass (none: within bounds). */
export function holdingsProblems(holdings: OwnerHoldings, pathOf: (bound: keyof OwnerHoldings) => string, whose = 'you'): string[] {
  return (Object.keys(OWNER_BOUNDS) as Array<keyof OwnerHoldings>)
    .filter((bound) => holdings[bound] > OWNER_BOUNDS[bound])
    .map((bound) => `${pathOf(bound)}: ${whose} would hold ${figure(holdings[bound])} ${WHAT[bound]}; an owner holds at most ${figure(OWNER_BOUNDS[bound])}`);
}
