// What one owner may hold. Every owner request that reads the owner's whole slice (the Studio
// export, an import with If-Match, the apps with their images) costs in proportion to it, and
// an owner request may cost at most 2 s of CPU; so the slice is bounded, on every write path
// (Studio writes, the Studio import, `channelnet import`), by counting the owner's holdings
// after the write inside its transaction: past a bound the write is refused and rolled back.
// The values are far above what a creator holds, and their worst case was measured on PGlite, the
// slower backend (docs/security.md, What an owner may hold). Channels are also bounded by the
// anonymous channel list: deciding availability costs ~0.2 ms a channel cold on PGlite, so 1,000
// keep a cold list within its 200 ms.
import type { OwnerHoldings } from '../data/owner-slice.ts';

export const OWNER_BOUNDS: Readonly<Record<keyof OwnerHoldings, number>> = {
  videos: 20_000,
  channels: 1_000,
  scheduleBlocks: 20_000,
  listEntries: 500_000,
  textBytes: 6 * 1024 * 1024,
  imageBytes: 8 * 1024 * 1024,
};

/**
 * Segments an owner's ingested HLS videos may hold together (src/linear/ingest.ts), each counted
 * once whatever its variants: about 220 ten-hour videos of 4 s segments. Checked when an ingest
 * is stored (not by Studio writes: a write queues an ingest, it stores no segment); past it the
 * ingest fails with this reason. The live playlists read a programme's segments per request, and
 * the stored text is ~25 bytes a segment and variant.
 */
export const OWNER_HLS_SEGMENTS = 2_000_000;

/** Why storing `adding` segments beside the `held` ones passes the bound, or null. */
export function hlsSegmentsProblem(held: number, adding: number): string | null {
  if (held + adding <= OWNER_HLS_SEGMENTS) return null;
  return `Your HLS videos would hold ${figure(held + adding)} segments together; an owner's hold at most ${figure(OWNER_HLS_SEGMENTS)}. Remove some HLS videos, or use longer segments.`;
}

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

type Bound = keyof OwnerHoldings;
const ALL = Object.keys(OWNER_BOUNDS) as Bound[];

/**
 * The bounds a change of `resource` (an audit resource: `videos/7`, `channels/3/library`, ...)
 * can move. At full size, counting list entries means 500,000 rows and text 6 MiB of values, so
 * a write counts only what it can have grown; a resource not known here moves every bound.
 */
export function boundsMovedBy(action: string, resource: string): readonly Bound[] {
  const [kind, , part] = resource.split('/');
  switch (kind) {
    case 'videos': // a video's texts and its renditions
      return ['videos', 'listEntries', 'textBytes'];
    case 'channels':
      // A new channel may come with its children; a PATCH changes the channel's own fields only.
      if (part === undefined) return action === 'create' ? ['channels', 'scheduleBlocks', 'listEntries', 'textBytes'] : ['channels', 'textBytes'];
      if (part === 'library' || part === 'vod') return ['listEntries'];
      if (part === 'schedules') return ['scheduleBlocks', 'listEntries'];
      if (part === 'live-streams') return ['listEntries', 'textBytes'];
      if (part === 'vast') return ['textBytes'];
      if (part === 'password') return [];
      // The slot plan and filler list are bounded by their schemas (src/schedules/programming.ts).
      if (part === 'programming') return [];
      return ALL;
    case 'apps': // an app's channel list and images; its EPG key is none of these
      return part === 'epg-key' ? [] : ['listEntries', 'imageBytes'];
    case 'branding':
    case 'account': // the import's account entry carries the branding
      return ['imageBytes'];
    case 'app-tokens':
    case 'categories':
    case 'languages':
      return [];
    default:
      return ALL;
  }
}

/** The bounds any of the changes can move (deletes only shrink a slice). */
export function boundsMovedByAll(changes: ReadonlyArray<{ action: string; resource: string }>): Bound[] {
  const moved = new Set(changes.filter((c) => c.action !== 'delete').flatMap((c) => boundsMovedBy(c.action, c.resource)));
  return ALL.filter((bound) => moved.has(bound));
}
