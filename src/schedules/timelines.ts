// The process's store of compiled channel-days (ScheduleTimelines; one channel-day: channel-day.ts): loaded for many channels at once (one query per
// table), compiled once (channel-day.ts), kept in a cache bounded by entries, and dropped when the
// catalog changes: it follows the catalog cache (`invalidate` for any change, `drop` for an
// owner's or some channels' change, `dropChannels` by hand). Every schedule read (REST day,
// Custom guide, availability flags) can ask this instead of loading and expanding per request.
import type { OwnerChange } from '../cache/changes.ts';
import type { Queryable } from '../db/connect.ts';
import { liveStreamsForChannels, scheduleBlocksForChannels } from '../data/schedule-batches.ts';
import type { BatchVideo } from '../data/schedule-batches.ts';
import type { ExpandedBlock, ExpandedVideo, LiveStream } from './expand.ts';
import { countEntries, TooManyEntries } from './entry-counts.ts';
import { cachedDayWindow } from './zone-offsets.ts';
import { addDays, compileChannelDay, dayBlocks, sliceWindow, windowChannelDates, windowHasEntries, type CompiledDay } from './channel-day.ts';
import { cutDay, DAY_MS, segmentEntry, segmentsOverlapping, segmentsStartingIn } from './on-air-listing.ts';
import { Listing, windowOf, type WindowEntries } from './listing.ts';
import type { OnAirSegment } from './on-air-timeline.ts';

/** A scheduled video (without its description); a live entry's also carries its stream's URI ('' when the stream has none) and id. */
export type TimelineVideo = BatchVideo & { liveUri?: string; liveStreamId?: number };
export type TimelineDay = CompiledDay<TimelineVideo>;
export type TimelineBlock = ExpandedBlock<TimelineVideo>;
/** A published entry as a guide plays it: a live entry's stream URL is its stream's URI. */
export type PublishedEntry = ExpandedVideo<TimelineVideo>;
/** The published entries of a window (a request-zone day): runs of kept channel-day listings (listing.ts). */
export type PublishedWindow = WindowEntries<TimelineVideo>;
type PublishedListing = Listing<TimelineVideo>;
export type TimelineSegment = OnAirSegment<TimelineVideo>;
type WindowAsk = { channel: TimelineChannel; from: number; to: number };

export interface TimelineChannel {
  id: number;
  timezone: string;
  /** Its owner, when the caller knows it: an owner's change then drops only its channels' days. */
  ownerId?: number;
}

/** ~70 bytes an entry (see sizeOf): a million entries is 7,000 channel-days of 144 videos, about 70 MB. */
export const DEFAULT_MAX_ENTRIES = 1_000_000;
/**
 * Heap bytes per entry counted by sizeOf, measured (issue 29): a 200-channel network's week,
 * 1,400 channel-days counted as 217,040 entries, took 22.1 MB of heap after a full GC (102 bytes
 * each). SCHEDULE_CACHE_BYTES is turned into entries with it, and /metrics shows entries times it.
 */
export const BYTES_PER_ENTRY = 100;
/**
 * Heap bytes per entry of a channel-day listing (publishedWindows), kept as columns (listing.ts),
 * measured: 300,000 entries in listings of 144 held 39 bytes each after a full GC, 14 on the
 * heap and 25 in the typed arrays' stores (113 as an object per entry).
 */
const BYTES_PER_LISTED = 40;

/**
 * A load for a few channels also compiles the days around the ones asked (clients page through
 * the days of a guide): one query fetches a week as cheaply as a day, and compiling a day of 144
 * entries costs ~0.15 ms. Loads for many channels (a channel list) compile only what they ask,
 * and no load compiles more than PREFETCH_ENTRIES entries it was not asked for (a day may hold
 * 1,440: six of them would be most of a request's budget), nor more than the store has room for
 * (prefetchRoom).
 */
const PREFETCH_CHANNELS = 10;
const PREFETCH_ENTRIES = 5_000;

/**
 * Entries of channel-day listings kept (publishedWindows): 300,000 is a 200-channel network's
 * fortnight at 144 entries a day, so a guide asked in every zone, any day of the week around
 * today, lists each channel-day once.
 */
const MAX_PUBLISHED_ENTRIES = 300_000;
const PREFETCH_DAYS = 3;

const keyOf = (channelId: number, date: string) => `${channelId}|${date}`;
/** The channel of a day, published window or pending key (all start `channelId|`). */
const channelOf = (key: string) => Number(key.slice(0, key.indexOf('|')));
/**
 * What a day counts against the bound, in entries: its entries, plus its distinct videos' text
 * at one entry per 64 characters (a video's title and URLs may be a few thousand characters, so
 * a day of distinct videos holds more than its entries say). Counted once per day.
 */
const sizes = new WeakMap<TimelineDay, number>();
function sizeOf(day: TimelineDay): number {
  let size = sizes.get(day);
  if (size === undefined) {
    const videos = new Set<TimelineVideo>();
    size = 1;
    for (const block of day.blocks) {
      size += block.videos.length;
      for (const { video } of block.videos) videos.add(video);
    }
    for (const v of videos) size += Math.floor((v.title.length + v.thumbnailUrl.length + (v.streamUrl?.length ?? 0) + (v.liveUri?.length ?? 0)) / 64);
    sizes.set(day, size);
  }
  return size;
}

export class ScheduleTimelines {
  private readonly days = new Map<string, TimelineDay>();
  /** Published entries per channel-day (`channelId|date`: its listing, see publishedWindows; bounded by MAX_PUBLISHED_ENTRIES), in LRU order. */
  private readonly published = new Map<string, PublishedListing>();
  private publishedEntries = 0;
  /** Listings under way (publishedWindows), shared by concurrent requests for the same channel-day. */
  private readonly pendingListings = new Map<string, Promise<PublishedListing>>();
  /** Loads under way, shared by concurrent requests for the same day. */
  private readonly pending = new Map<string, Promise<TimelineDay>>();
  private entries = 0;
  /** The owner of each channel loaded since the last full invalidation, as callers told it. */
  private readonly owners = new Map<number, number>();
  /** Loads and slicings under way: a change of one of their channels must not be kept. */
  private readonly flights = new Set<Flight>();
  /** Until the change listener runs, nothing is kept: a change could not be noticed. */
  private trusted: boolean;

  constructor(
    private readonly maxEntries = DEFAULT_MAX_ENTRIES,
    trusted = false,
  ) {
    this.trusted = trusted;
  }

  /** A catalog change (trusted = the listener is up) or a lost listener (false: bypass until back). */
  invalidate(trusted: boolean): void {
    this.days.clear();
    this.published.clear();
    this.publishedEntries = 0;
    this.pending.clear();
    this.pendingListings.clear();
    this.entries = 0;
    this.owners.clear();
    for (const flight of this.flights) flight.all = true;
    this.trusted = trusted;
  }

  /**
   * An owner's change (catalog NOTIFY): the channels it names, else every channel of the owner,
   * and every channel whose owner no caller told (it may be the owner's).
   */
  drop(change: OwnerChange): void {
    if (change.channelIds) return this.dropChannels(change.channelIds);
    const held = new Set<number>();
    for (const keys of [this.days.keys(), this.published.keys(), this.pending.keys(), this.pendingListings.keys()]) for (const key of keys) held.add(channelOf(key));
    for (const flight of this.flights) for (const id of flight.channels) held.add(id);
    this.dropChannels([...held].filter((id) => (this.owners.get(id) ?? change.ownerId) === change.ownerId));
  }

  /** Forgets these channels' days, published windows and loads under way (whose days are then not kept). */
  dropChannels(channelIds: Iterable<number>): void {
    const ids = new Set(channelIds);
    if (ids.size === 0) return;
    for (const [key, day] of this.days) {
      if (!ids.has(channelOf(key))) continue;
      this.days.delete(key);
      this.entries -= sizeOf(day);
    }
    for (const [key, entries] of this.published) {
      if (!ids.has(channelOf(key))) continue;
      this.published.delete(key);
      this.publishedEntries -= entries.length;
    }
    for (const key of this.pending.keys()) if (ids.has(channelOf(key))) this.pending.delete(key);
    for (const key of this.pendingListings.keys()) if (ids.has(channelOf(key))) this.pendingListings.delete(key);
    for (const flight of this.flights) for (const id of ids) if (flight.channels.has(id)) flight.dropped.add(id);
  }

  /** Heap bytes of the compiled days and of the channel-day listings (estimates, see BYTES_PER_ENTRY and BYTES_PER_LISTED). */
  get bytes(): { days: number; published: number } {
    return { days: this.entries * BYTES_PER_ENTRY, published: this.publishedEntries * BYTES_PER_LISTED };
  }

  get size(): { days: number; entries: number } {
    return { days: this.days.size, entries: this.entries };
  }

  /**
   * The compiled days asked for, per channel then date. Days neither cached nor loading are
   * loaded together: one query per table for all of them. With `maxEntries`, the days to compile
   * are counted first (entry-counts.ts, one query) and TooManyEntries thrown past it: what one
   * read compiles is bounded whatever the owner built (days around are bounded by PREFETCH_ENTRIES).
   */
  async load(
    db: Queryable,
    wants: ReadonlyArray<{ channel: TimelineChannel; dates: readonly string[] }>,
    maxEntries?: number,
    prefetch = true,
  ): Promise<Map<number, Map<string, TimelineDay>>> {
    const waiting: Array<[number, string, Promise<TimelineDay>]> = [];
    const missing: Array<{ channel: TimelineChannel; dates: string[]; extra: string[] }> = [];
    const result = new Map<number, Map<string, TimelineDay>>();
    // A channel asked several times (several windows) is one channel with the union of the dates.
    const merged = new Map<number, { channel: TimelineChannel; dates: Set<string> }>();
    for (const { channel, dates } of wants) {
      if (channel.ownerId !== undefined && this.trusted) this.owners.set(channel.id, channel.ownerId);
      const entry = merged.get(channel.id) ?? { channel, dates: new Set<string>() };
      for (const date of dates) entry.dates.add(date);
      merged.set(channel.id, entry);
    }
    for (const { channel, dates } of merged.values()) {
      const found = new Map<string, TimelineDay>();
      result.set(channel.id, found);
      const absent: string[] = [];
      for (const date of dates) {
        const key = keyOf(channel.id, date);
        const day = this.days.get(key);
        if (day) {
          this.touch(key, day);
          found.set(date, day);
        } else if (this.pending.has(key)) waiting.push([channel.id, date, this.pending.get(key)!]);
        else absent.push(date);
      }
      if (absent.length > 0) missing.push({ channel, dates: absent, extra: [] });
    }
    if (maxEntries !== undefined && missing.length > 0) {
      const entries = await countEntries(db, missing);
      if (entries > maxEntries) throw new TooManyEntries(entries, maxEntries);
    }
    if (prefetch && missing.length <= PREFETCH_CHANNELS && this.prefetchRoom() > 0) for (const m of missing) m.extra = this.neighbours(m.channel.id, m.dates);
    if (missing.length > 0) {
      // Registered before the load starts: a change of one of its channels from now on is seen.
      const flight = this.takeOff(missing.map((m) => m.channel.id));
      const loading = this.compile(db, missing, flight);
      for (const { channel, dates, extra } of missing) {
        const asked = merged.get(channel.id)!.dates;
        for (const date of [...dates, ...extra]) {
          const key = keyOf(channel.id, date);
          const one = loading.then((days) => days(key));
          // A failed load rejects for whoever awaits it; a shared copy nobody awaits must not crash the process.
          one.catch(() => undefined);
          if (this.trusted && unchanged(flight, channel.id)) this.pending.set(key, one);
          if (asked.has(date)) waiting.push([channel.id, date, one]);
        }
      }
    }
    const days = await Promise.all(waiting.map(([, , day]) => day));
    waiting.forEach(([channelId, date], i) => result.get(channelId)!.set(date, days[i]!));
    return result;
  }

  /** One channel-day (REST schedules): expandChannelDay's answer. */
  async channelDay(db: Queryable, channel: TimelineChannel, date: string, includeUnpublished: boolean): Promise<TimelineBlock[]> {
    const day = (await this.load(db, [{ channel, dates: [date] }])).get(channel.id)!.get(date)!;
    return dayBlocks(day, includeUnpublished);
  }

  /**
   * One channel-day as REST lists it: its occurrences cut to the on-air timeline (cutDay), the
   * days before and after read for what preempts them. Unpublished blocks included, as scheduled.
   */
  async onAirDay(db: Queryable, channel: TimelineChannel, date: string): Promise<TimelineBlock[]> {
    const dates = [addDays(date, -1), date, addDays(date, 1)];
    const days = (await this.load(db, [{ channel, dates }])).get(channel.id)!;
    return cutDay(
      days.get(date)!.blocks,
      dates.flatMap((d) => days.get(d)!.blocks),
    );
  }

  /**
   * Every occurrence (unpublished too) of the compiled days windowChannelDates(zone, from, to)
   * names, per ask: what the on-air timeline of [from, to) is computed from.
   */
  async occurrences(db: Queryable, asks: readonly WindowAsk[], maxEntries?: number, prefetch = true): Promise<TimelineBlock[][]> {
    const dated = asks.map((ask) => ({ ...ask, dates: windowChannelDates(ask.channel.timezone, ask.from, ask.to) }));
    const loaded = await this.load(
      db,
      dated.map(({ channel, dates }) => ({ channel, dates })),
      maxEntries,
      prefetch,
    );
    return dated.map(({ channel, dates }) => dates.flatMap((d) => loaded.get(channel.id)!.get(d)!.blocks));
  }

  /** Per ask, the on-air segments starting in [from, to), whole (segmentsStartingIn): guide rows, XMLTV. */
  async segmentsStartingIn(db: Queryable, asks: readonly WindowAsk[], maxEntries?: number): Promise<TimelineSegment[][]> {
    const blocks = await this.occurrences(
      db,
      asks.map((a) => ({ ...a, to: a.to + DAY_MS })),
      maxEntries,
    );
    return asks.map((a, i) => segmentsStartingIn(blocks[i]!, a.from, a.to));
  }

  /**
   * Per ask, the on-air segments overlapping [from, to), whole (segmentsOverlapping): attribution, now, the Studio's on-air.
   * `prefetch: false` compiles only the days the asks touch: a caller following the clock (a live
   * window) moves a day a day and would pay for six days around it on its cold read.
   */
  async segmentsOverlapping(db: Queryable, asks: readonly WindowAsk[], prefetch = true): Promise<TimelineSegment[][]> {
    const blocks = await this.occurrences(
      db,
      asks.map((a) => ({ ...a, from: a.from - DAY_MS, to: a.to + DAY_MS })),
      undefined,
      prefetch,
    );
    return asks.map((a, i) => segmentsOverlapping(blocks[i]!, a.from, a.to));
  }

  /**
   * Per channel, the entries starting in [from, to) of instants (a request-zone day):
   * expandWindow's answer, sliced from the compiled days the window touches.
   */
  async window(db: Queryable, channels: readonly TimelineChannel[], from: number, to: number, includeUnpublished: boolean): Promise<Map<number, TimelineBlock[]>> {
    const sliced = await this.slices(
      db,
      channels.map((channel) => ({ channel, from, to })),
      includeUnpublished,
    );
    return new Map(channels.map((channel, i) => [channel.id, sliced[i]!]));
  }

  /**
   * expandWindow's answer for each ask (a channel and a window of instants; a channel may be asked
   * several windows, e.g. several days, or each channel its own zone's today), in the asks' order.
   * Every compiled day missing for any ask is loaded in one go.
   */
  async slices(
    db: Queryable,
    asks: ReadonlyArray<{ channel: TimelineChannel; from: number; to: number }>,
    includeUnpublished: boolean,
    maxEntries?: number,
  ): Promise<TimelineBlock[][]> {
    const dated = asks.map((ask) => ({ ...ask, dates: windowChannelDates(ask.channel.timezone, ask.from, ask.to) }));
    const loaded = await this.load(
      db,
      dated.map(({ channel, dates }) => ({ channel, dates })),
      maxEntries,
    );
    return dated.map(({ channel, from, to, dates }) =>
      sliceWindow(
        dates.map((d) => loaded.get(channel.id)!.get(d)!),
        from,
        to,
        includeUnpublished,
      ),
    );
  }

  /**
   * For each ask, the on-air segments starting in its window as entries (segmentEntry: an entry
   * cut or split by a live stream is listed as it airs), by start, live entries playing their
   * stream's URI. Listed once per channel-day (its segments, starting that day in the channel's
   * zone) and kept: every zone's window is cut from the listings of the channel-days it touches
   * (windowOf, in place), so a guide asked in 400 zones computes each channel-day's timeline once.
   */
  async publishedWindows(db: Queryable, asks: ReadonlyArray<{ channel: TimelineChannel; from: number; to: number }>, maxEntries?: number): Promise<PublishedWindow[]> {
    // The channel-days whose own window meets [from, to) (windowChannelDates adds the day before),
    // worked out once per zone and window: a guide's channels share a few zones.
    const datesOf = new Map<string, string[]>();
    const dated = asks.map(({ channel, from, to }) => {
      const zoneWindow = `${channel.timezone}|${from}|${to}`;
      let dates = datesOf.get(zoneWindow);
      if (!dates) {
        dates = windowChannelDates(channel.timezone, from, to).filter((date) => {
          const day = cachedDayWindow(date, channel.timezone);
          return day.to > from && day.from < to;
        });
        datesOf.set(zoneWindow, dates);
      }
      return { channel, from, to, dates };
    });
    const listed = new Map<string, PublishedListing>();
    const waiting = new Map<string, Promise<PublishedListing>>();
    const missing = new Map<string, { channel: TimelineChannel; date: string }>();
    for (const { channel, dates } of dated) {
      for (const date of dates) {
        const key = keyOf(channel.id, date);
        if (listed.has(key) || waiting.has(key) || missing.has(key)) continue;
        const kept = this.published.get(key);
        const pending = this.pendingListings.get(key);
        if (kept) {
          this.published.delete(key); // re-insert: Map order is the LRU order
          this.published.set(key, kept);
          listed.set(key, kept);
        } else if (pending) waiting.set(key, pending);
        else missing.set(key, { channel, date });
      }
    }
    const others = new Map(waiting);
    if (missing.size > 0) this.listDays(db, [...missing.entries()], waiting, maxEntries);
    for (const [key, listing] of waiting) {
      try {
        listed.set(key, await listing);
      } catch (error) {
        // Another read's listing refused as too big for that read: this read lists the day itself.
        if (!(error instanceof TooManyEntries) || !others.has(key)) throw error;
        const own = new Map<string, Promise<PublishedListing>>();
        const ask = dated.find(({ channel }) => channel.id === channelOf(key))!;
        this.listDays(db, [[key, { channel: ask.channel, date: key.slice(key.indexOf('|') + 1) }]], own, maxEntries);
        listed.set(key, await own.get(key)!);
      }
    }
    return dated.map(({ channel, from, to, dates }) =>
      windowOf(
        dates.map((date) => listed.get(keyOf(channel.id, date))!),
        from,
        to,
      ),
    );
  }

  /**
   * Lists the channel-days asked (segmentsStartingIn over each) into `waiting`, shared with reads
   * that ask them meanwhile (pendingListings: 64 clients asking the same new day list it once),
   * and keeps each unless a change of its channel arrived meanwhile.
   */
  private listDays(
    db: Queryable,
    days: ReadonlyArray<[string, { channel: TimelineChannel; date: string }]>,
    waiting: Map<string, Promise<PublishedListing>>,
    maxEntries?: number,
  ): void {
    const flight = this.takeOff(days.map(([, { channel }]) => channel.id));
    const shared = new Map<string, Promise<PublishedListing>>();
    const lists = this.segmentsStartingIn(
      db,
      days.map(([, { channel, date }]) => ({ channel, ...cachedDayWindow(date, channel.timezone) })),
      maxEntries,
    )
      .then((segments) => {
        const all = segments.map((list) => Listing.of(list.map((s) => playable(segmentEntry(s)))));
        // A change of its channel that arrived while slicing may have made one stale: answered, not kept.
        days.forEach(([key, { channel }], i) => {
          if (this.trusted && unchanged(flight, channel.id)) this.rememberPublished(key, all[i]!);
        });
        return all;
      })
      .finally(() => {
        this.flights.delete(flight);
        // Unless a change dropped it (a later read may have started its own since).
        for (const [key] of days) if (this.pendingListings.get(key) === shared.get(key)) this.pendingListings.delete(key);
      });
    days.forEach(([key], i) => {
      const one = lists.then((all) => all[i]!);
      // A failed listing rejects for whoever awaits it; a shared copy nobody awaits must not crash the process.
      one.catch(() => undefined);
      shared.set(key, one);
      waiting.set(key, one);
      if (this.trusted) this.pendingListings.set(key, one);
    });
  }

  /** For each ask, whether its window holds any entry (what availability needs), without slicing. */
  async hasEntries(db: Queryable, asks: ReadonlyArray<{ channel: TimelineChannel; from: number; to: number }>, includeUnpublished: boolean): Promise<boolean[]> {
    const dated = asks.map((ask) => ({ ...ask, dates: windowChannelDates(ask.channel.timezone, ask.from, ask.to) }));
    const loaded = await this.load(
      db,
      dated.map(({ channel, dates }) => ({ channel, dates })),
    );
    return dated.map(({ channel, from, to, dates }) =>
      windowHasEntries(
        dates.map((d) => loaded.get(channel.id)!.get(d)!),
        from,
        to,
        includeUnpublished,
      ),
    );
  }

  /**
   * Entries a load may compile beyond what it was asked: PREFETCH_ENTRIES, and never more than the
   * room left under the bound. Days around kept in a full store push out days other reads asked
   * for, to keep days no read may ask before they are pushed out in turn: at 2,000 channels a
   * rotating guide (14,000 channel-days in a week) compiled ~35 days it was not asked for on every
   * request and kept none of them long.
   */
  private prefetchRoom(): number {
    return Math.min(PREFETCH_ENTRIES, this.maxEntries - this.entries);
  }

  /** The days around the dates asked, neither asked nor cached nor loading (see PREFETCH_CHANNELS). */
  private neighbours(channelId: number, dates: readonly string[]): string[] {
    if (!this.trusted) return [];
    const asked = new Set(dates);
    const extra = new Set<string>();
    for (const date of dates) {
      for (let k = -PREFETCH_DAYS; k <= PREFETCH_DAYS; k++) {
        const day = addDays(date, k);
        const key = keyOf(channelId, day);
        if (!asked.has(day) && !this.days.has(key) && !this.pending.has(key)) extra.add(day);
      }
    }
    return [...extra];
  }

  private takeOff(channelIds: Iterable<number>): Flight {
    const flight: Flight = { channels: new Set(channelIds), dropped: new Set(), all: false };
    this.flights.add(flight);
    return flight;
  }

  private rememberPublished(key: string, entries: PublishedListing): void {
    // A listing kept again (two reads listed it at once) replaces the old one in the count too:
    // counting both once pushed every other listing out.
    this.publishedEntries += entries.length - (this.published.get(key)?.length ?? 0);
    this.published.delete(key);
    this.published.set(key, entries);
    for (const [oldest, old] of this.published) {
      if (this.publishedEntries <= MAX_PUBLISHED_ENTRIES || oldest === key) break;
      this.published.delete(oldest);
      this.publishedEntries -= old.length;
    }
  }

  private touch(key: string, day: TimelineDay): void {
    this.days.delete(key); // re-insert: Map order is the LRU order
    this.days.set(key, day);
  }

  private remember(key: string, day: TimelineDay): void {
    const old = this.days.get(key);
    if (old) this.entries -= sizeOf(old);
    this.days.delete(key);
    this.days.set(key, day);
    this.entries += sizeOf(day);
    for (const [oldest, old] of this.days) {
      if (this.entries <= this.maxEntries || oldest === key) break;
      this.days.delete(oldest);
      this.entries -= sizeOf(old);
    }
  }

  /**
   * Loads blocks (unpublished too: one day serves every view) and live streams for the days asked
   * and around them, compiles every day asked and the days around while PREFETCH_ENTRIES allows.
   * Answers the day of a key; a day around not compiled then is compiled when asked (a request
   * sharing this load may want it), and not kept.
   */
  private async compile(
    db: Queryable,
    missing: ReadonlyArray<{ channel: TimelineChannel; dates: string[]; extra: string[] }>,
    flight: Flight,
  ): Promise<(key: string) => TimelineDay> {
    try {
      const ranges = missing.map(({ channel, dates, extra }) => {
        const sorted = [...dates, ...extra].sort();
        return { channelId: channel.id, fromDate: sorted[0]!, toDate: addDays(sorted.at(-1)!, 1) };
      });
      const windows = missing.flatMap(({ channel, dates, extra }) => [...dates, ...extra].map((d) => cachedDayWindow(d, channel.timezone)));
      const from = Math.min(...windows.map((w) => w.from));
      const to = Math.max(...windows.map((w) => w.to));
      const ids = missing.map((m) => m.channel.id);
      const [blocks, streams] = await Promise.all([scheduleBlocksForChannels(db, ranges, true), liveStreamsForChannels(db, ids, new Date(from), new Date(to))]);
      const days = new Map<string, TimelineDay>();
      const sources = new Map<number, { channel: TimelineChannel; liveStreams: LiveStream<TimelineVideo>[] }>();
      const compileDay = (channelId: number, date: string) => {
        const { channel, liveStreams } = sources.get(channelId)!;
        return compileChannelDay<TimelineVideo>({ zone: channel.timezone, date, blocks: blocks.get(channelId) ?? [], liveStreams });
      };
      const keep = (channelId: number, date: string) => {
        const key = keyOf(channelId, date);
        const day = compileDay(channelId, date);
        days.set(key, day);
        // A change of its channel that arrived while loading may have made the day stale: answer it, do not keep it.
        if (this.trusted && unchanged(flight, channelId)) this.remember(key, day);
        return sizeOf(day);
      };
      for (const { channel } of missing) {
        const liveStreams = (streams.get(channel.id) ?? []).map((s) => ({ ...s, video: { ...s.video, liveUri: s.uri, liveStreamId: s.id } }));
        sources.set(channel.id, { channel, liveStreams });
      }
      for (const { channel, dates } of missing) for (const date of dates) keep(channel.id, date);
      let budget = this.prefetchRoom();
      for (const { channel, extra } of missing) for (const date of extra) if (budget > 0) budget -= keep(channel.id, date);
      return (key) => days.get(key) ?? compileDay(channelOf(key), key.slice(key.indexOf('|') + 1));
    } finally {
      this.flights.delete(flight);
      // A changed channel's pending loads were dropped with it (or never shared); those there now are newer loads'.
      for (const { channel, dates, extra } of missing) {
        if (unchanged(flight, channel.id)) for (const d of [...dates, ...extra]) this.pending.delete(keyOf(channel.id, d));
      }
    }
  }
}

/** Work under way on some channels: which of them changed meanwhile (all: everything did). */
interface Flight {
  channels: ReadonlySet<number>;
  dropped: Set<number>;
  all: boolean;
}

const unchanged = (flight: Flight, channelId: number) => !flight.all && !flight.dropped.has(channelId);

function playable(entry: PublishedEntry): PublishedEntry {
  if (!entry.isLive) return entry;
  return { ...entry, video: { ...entry.video, streamUrl: entry.video.liveUri || entry.video.streamUrl } };
}
