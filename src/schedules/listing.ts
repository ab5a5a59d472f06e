// A channel-day's listing (on-air-listing.ts) as it is kept, and the windows cut from listings.
// Pure.
//
// A listing is kept as columns (starts, ends, order numbers and flags in typed arrays, one array
// of video references) rather than an object per entry: a 200-channel network's fortnight is
// 300,000 entries, which as objects were ~113 bytes each and as many objects for every major
// collection to trace. An entry object is made only for a row that is written (a guide page).
//
// A window (a request-zone day) is runs of the listings of the channel-days it meets, each run a
// range of one listing: nothing is copied per request (a rotating guide cut ten windows a request,
// each a new array of up to a day and a half of entries).
import type { ExpandedVideo, ScheduleVideo } from './expand.ts';

const LIVE = 1;
const CUT = 2;

export class Listing<V extends ScheduleVideo = ScheduleVideo> {
  private constructor(
    private readonly videos: readonly V[],
    private readonly starts: Float64Array,
    private readonly ends: Float64Array,
    private readonly orders: Float64Array,
    private readonly flags: Uint8Array,
  ) {}

  /** Entries sorted by start, as a listing holds them. */
  static of<V extends ScheduleVideo>(entries: readonly ExpandedVideo<V>[]): Listing<V> {
    const n = entries.length;
    const [starts, ends, orders, flags] = [new Float64Array(n), new Float64Array(n), new Float64Array(n), new Uint8Array(n)];
    const videos = new Array<V>(n);
    entries.forEach((e, i) => {
      videos[i] = e.video;
      starts[i] = e.start;
      ends[i] = e.end;
      orders[i] = e.playbackOrderNumber;
      flags[i] = (e.isLive ? LIVE : 0) | (e.cut ? CUT : 0);
    });
    return new Listing(videos, starts, ends, orders, flags);
  }

  get length(): number {
    return this.videos.length;
  }

  video(i: number): V {
    return this.videos[i]!;
  }

  start(i: number): number {
    return this.starts[i]!;
  }

  end(i: number): number {
    return this.ends[i]!;
  }

  /** Entry i as an object, as segmentEntry makes it (`cut` only when cut). */
  entry(i: number): ExpandedVideo<V> {
    const flags = this.flags[i]!;
    const entry: ExpandedVideo<V> = { video: this.videos[i]!, playbackOrderNumber: this.orders[i]!, start: this.starts[i]!, end: this.ends[i]!, isLive: (flags & LIVE) !== 0 };
    if (flags & CUT) entry.cut = true;
    return entry;
  }

  /** The first index whose entry starts at or after `at` (length: none). */
  firstStartingFrom(at: number): number {
    let lo = 0;
    let hi = this.starts.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.starts[mid]! < at) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

/** Entries [from, to) of one listing. */
export interface Run<V extends ScheduleVideo> {
  listing: Listing<V>;
  from: number;
  to: number;
}

/** The entries of a window, in order: runs of listings, read in place. */
export class WindowEntries<V extends ScheduleVideo = ScheduleVideo> {
  readonly length: number;

  /** The runs in order (a hot loop reads them directly: a callback per entry cost a guide page ~20 us). */
  constructor(readonly runs: readonly Run<V>[]) {
    this.length = runs.reduce((n, r) => n + r.to - r.from, 0);
  }

  /** The listings it reads (tests: kept listings are shared, not made again). */
  get listings(): readonly Listing<V>[] {
    return this.runs.map((r) => r.listing);
  }

  /** The entries as objects (tests, small consumers). */
  toArray(): ExpandedVideo<V>[] {
    const all: ExpandedVideo<V>[] = [];
    for (const { listing, from, to } of this.runs) for (let i = from; i < to; i++) all.push(listing.entry(i));
    return all;
  }

  /**
   * The first start or end after `now` (Infinity: none): the end of the entry playing at `now`, or
   * the start of the next (on-air-listing.ts nextBoundary, over the runs: entries never overlap).
   */
  nextBoundary(now: number): number {
    let next = Infinity;
    for (const { listing, from, to } of this.runs) {
      // The first entry of the run starting after now.
      let lo = from;
      let hi = to;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (listing.start(mid) <= now) lo = mid + 1;
        else hi = mid;
      }
      if (lo < to) next = Math.min(next, listing.start(lo));
      if (lo > from && listing.end(lo - 1) > now) next = Math.min(next, listing.end(lo - 1));
    }
    return next;
  }
}

/**
 * The entries starting in [from, to) of consecutive channel-days' listings (each the segments
 * starting in its day, by start: segmentsStartingIn over that day): what segmentsStartingIn over
 * the window answers, since a segment is the same whichever window computes it (the equivalence
 * property, test/on-air-equivalence.unit.test.ts). A zone then only moves the window over
 * listings computed once per channel-day.
 */
export function windowOf<V extends ScheduleVideo>(listings: readonly Listing<V>[], from: number, to: number): WindowEntries<V> {
  const runs: Run<V>[] = [];
  for (const listing of listings) {
    const i = listing.firstStartingFrom(from);
    const j = listing.firstStartingFrom(to);
    if (j > i) runs.push({ listing, from: i, to: j });
  }
  return new WindowEntries(runs);
}
