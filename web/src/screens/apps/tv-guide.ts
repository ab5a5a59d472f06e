// What the mock TV shows as "Now" and "Next": the real guide rows of the app's first channel
// (the Studio guide route, the rows a TV app receives), not placeholders. Pure: the rows' wall
// times (yyyy-MM-dd HH:mm:ss in the guide's zone) compared with the wall time now in that zone.
import type { GuideRow } from '../../api/types.ts';

export interface NowNext {
  now: GuideRow | undefined;
  next: GuideRow | undefined;
}

export function nowAndNext(rows: readonly GuideRow[], wallNow: string): NowNext {
  const sorted = [...rows].sort((a, b) => a.startDate.localeCompare(b.startDate));
  const now = sorted.findLast((r) => r.startDate <= wallNow && wallNow < r.endDate);
  const next = sorted.find((r) => r.startDate > wallNow);
  return { now, next };
}

/** The channel a TV app opens on: the first the app carries, by its sorting then the list's order. */
export function firstCarried(channels: readonly { channelId: number; sorting: number | null }[]): number | undefined {
  const ordered = channels.map((c, i) => ({ ...c, i })).sort((a, b) => (a.sorting ?? Infinity) - (b.sorting ?? Infinity) || a.i - b.i);
  return ordered[0]?.channelId;
}
