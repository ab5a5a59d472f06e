// XMLTV guides served from prepared bytes: each channel-day's <programme> elements are rendered
// once (src/presenters/xmltv.ts) and kept as one Buffer in a cache of their own, bounded in bytes
// (GUIDE_CACHE_BYTES) and dropped by any change of the channel or its owner in any process (it
// follows the catalog cache, src/cache). A guide request then costs what it finds cold, not what
// the document weighs:
// - every channel-day kept: the document is written from the kept Buffers, whatever its size;
// - the cold part (days not kept, counted in schedule entries before compiling, guideWork) within
//   MAX_COLD_ENTRIES: rendered in the request, kept, then written;
// - past it: the cold days are queued for the background preparer and the caller is told to come
//   back (`preparing`, with the seconds the queue ahead should take); a retrying player then gets
//   the document, warm;
// - a guide that could not stay kept (more than 3/4 of the cache, or no cache) is `too_large`.
// A day's content depends on its channel's schedule that day and the next, its zone, its owner's
// videos and the shared category names, never on `now` or on the days a guide asks (guide-export.ts),
// so every guide of the channel shares it, whoever asks.
//
// The preparer is one loop per process: a few channel-days at a time, yielding to requests
// (setImmediate) between batches, so what it costs is spread thin and never inside one request.
import { setImmediate as yieldToRequests } from 'node:timers/promises';
import type { CatalogCache } from '../cache/catalog-cache.ts';
import type { Queryable } from '../db/connect.ts';
import { renderDay, type RenderedDay, type XmltvChannel } from '../presenters/xmltv.ts';
import { guideAsks, guideDays, guideWork, type GuideAsk } from '../schedules/guide-export.ts';
import type { ScheduleTimelines } from '../schedules/timelines.ts';

/**
 * What one request may compile and render, in schedule entries of days not kept (with the day
 * before and after each, as guideWork counts): ~0.12 s of CPU on PGlite, where the queries run
 * in-process too (measured: 8,640 entries cost 124 ms).
 */
export const MAX_COLD_ENTRIES = 8_000;

/** Channel-days compiled and rendered together (one schedule load, one query of video texts). */
const DAYS_PER_LOAD = 16;

/** Entries the preparer gets through in a second, with its yields (measured ~100,000; said low so a retry finds it done). */
const PREPARED_ENTRIES_PER_SECOND = 50_000;
const MIN_RETRY_SECONDS = 2;
const MAX_RETRY_SECONDS = 120;

/** Channel-days queued at most (a fortnight of 3,500 channels); more are not queued, and their guide is retried later. */
const MAX_QUEUED_DAYS = 50_000;

/**
 * The share of GUIDE_CACHE_BYTES one guide may fill: past it, its days would push each other out
 * while being prepared (and every other guide's), and it would never be served; it is refused.
 */
const KEEPABLE_SHARE = 0.75;

/** A programme's bytes assumed while none of a guide's days is kept (a title, a short text, a thumbnail). */
const ASSUMED_PROGRAMME_BYTES = 300;

/** A channel as a guide lists it; its owner scopes its kept days. */
export type GuideChannel = XmltvChannel & { ownerId: number };

export type GuideOutcome = { kind: 'ready'; days: RenderedDay[] } | { kind: 'preparing'; retryAfterSeconds: number; coldEntries: number } | { kind: 'too_large'; reason: string };

export interface GuideSources {
  db: Queryable;
  timelines: ScheduleTimelines;
}

const keyOf = (ask: GuideAsk<GuideChannel>) => `xmltv:day:${ask.channel.id}:${ask.date}`;

export class PreparedGuides {
  private readonly queue: Array<{ ask: GuideAsk<GuideChannel>; entries: number }> = [];
  private readonly queued = new Set<string>();
  private queuedEntries = 0;
  private running: Promise<void> | undefined;
  private stopped = false;

  /**
   * `cache` holds rendered days only (its own instance, bounded by `maxBytes`), told every
   * catalog change; `onError` hears a failed background batch (a lost database).
   */
  constructor(
    private readonly sources: GuideSources,
    private readonly cache: CatalogCache,
    private readonly maxBytes: number,
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {}

  /** The rendered days of `channels` for `days` days from `now`, in document order, or why not now. */
  async guide(channels: readonly GuideChannel[], days: number, now: Date): Promise<GuideOutcome> {
    const asks = guideAsks(channels, days, now);
    const found = asks.map((ask) => this.cache.peek<RenderedDay>(keyOf(ask)));
    const missing = asks.filter((_, i) => found[i] === undefined);
    if (missing.length === 0) return { kind: 'ready', days: found as RenderedDay[] };
    const cold = await guideWork(this.sources.db, missing);
    if (cold <= MAX_COLD_ENTRIES) {
      const rendered = await this.render(missing);
      let next = 0;
      return { kind: 'ready', days: found.map((day) => day ?? rendered[next++]!) };
    }
    // Too much to do now: it is done in the background, if it can be kept once done.
    if (this.maxBytes === 0)
      return { kind: 'too_large', reason: `would compile ${cold} schedule entries (at most ${MAX_COLD_ENTRIES}) and guides are not kept (GUIDE_CACHE_BYTES=0)` };
    const estimate = estimatedBytes(found, askedEntries(cold, missing));
    if (estimate > this.maxBytes * KEEPABLE_SHARE)
      return { kind: 'too_large', reason: `would be about ${estimate} bytes, more than ${KEEPABLE_SHARE * 100}% of what guides may keep (${this.maxBytes})` };
    // While changes cannot be heard nothing is kept, so preparing would be lost: only the retry is asked.
    if (this.cache.keeping) this.prepare(missing, cold / missing.length);
    return { kind: 'preparing', retryAfterSeconds: this.retryAfter(), coldEntries: cold };
  }

  /**
   * Queues channel-days for the background preparer (those not kept nor queued already), each
   * weighing about `entries`; starts it if idle. Used by guide requests and by the warmer.
   */
  prepare(asks: readonly GuideAsk<GuideChannel>[], entries = 150): void {
    if (this.stopped || !this.cache.keeping) return;
    for (const ask of asks) {
      const key = keyOf(ask);
      if (this.queued.size >= MAX_QUEUED_DAYS) break;
      if (this.queued.has(key) || this.cache.peek(key) !== undefined) continue;
      this.queued.add(key);
      this.queue.push({ ask, entries });
      this.queuedEntries += entries;
    }
    if (!this.running && this.queue.length > 0) this.running = this.drain().finally(() => (this.running = undefined));
  }

  /** Resolves once the preparer has nothing left to do (tests and the warmer await it). */
  async whenIdle(): Promise<void> {
    while (this.running) await this.running;
  }

  /** Channel-days queued now. */
  get pending(): number {
    return this.queue.length;
  }

  /** Stops the preparer after its current batch (process shutdown); resolves when it has stopped. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.queue.length = 0;
    this.queued.clear();
    this.queuedEntries = 0;
    await this.whenIdle();
  }

  /** Renders these channel-days, keeping each (the cache drops one made stale by a change meanwhile). */
  private render(asks: readonly GuideAsk<GuideChannel>[]): Promise<RenderedDay[]> {
    const renderer = new DayRenderer(this.sources);
    return Promise.all(asks.map((ask) => this.cache.get(keyOf(ask), () => renderer.render(ask), { ownerId: ask.channel.ownerId, channelIds: [ask.channel.id] })));
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0 && !this.stopped) {
      await yieldToRequests();
      const batch = this.queue.splice(0, DAYS_PER_LOAD);
      try {
        // Kept meanwhile (a request rendered it) is not done again.
        await this.render(batch.filter(({ ask }) => this.cache.peek(keyOf(ask)) === undefined).map(({ ask }) => ask));
      } catch (error) {
        this.onError(error);
      } finally {
        for (const { ask, entries } of batch) {
          this.queued.delete(keyOf(ask));
          this.queuedEntries -= entries;
        }
      }
    }
  }

  private retryAfter(): number {
    return Math.min(MAX_RETRY_SECONDS, Math.max(MIN_RETRY_SECONDS, Math.ceil(this.queuedEntries / PREPARED_ENTRIES_PER_SECOND) + 1));
  }
}

/**
 * The cold entries of the days asked, without the day before and after a run of days that
 * guideWork also counts (a channel's consecutive days add two days around them).
 */
function askedEntries(cold: number, missing: readonly GuideAsk<GuideChannel>[]): number {
  const channels = new Set(missing.map((ask) => ask.channel.id)).size;
  return Math.ceil((cold * missing.length) / (missing.length + 2 * channels));
}

/** A guide's bytes: its kept days', and its cold entries at the kept days' bytes a programme. */
function estimatedBytes(found: readonly (RenderedDay | undefined)[], coldEntries: number): number {
  let bytes = 0;
  let programmes = 0;
  for (const day of found) {
    if (!day) continue;
    bytes += day.bytes;
    programmes += day.programmes;
  }
  return Math.round(bytes + coldEntries * (programmes > 0 ? bytes / programmes : ASSUMED_PROGRAMME_BYTES));
}

/**
 * Renders the channel-days asked of it, all those asked in one turn together (one schedule load
 * and one query of video texts per DAYS_PER_LOAD days): each is queued, and the queue runs once
 * the loop asking them has queued them all (setImmediate runs after the promises they wait on).
 * A video's elements are escaped once per renderer.
 */
class DayRenderer {
  private queue: Array<{ ask: GuideAsk<GuideChannel>; resolve: (day: RenderedDay) => void; reject: (error: unknown) => void }> = [];
  private readonly bodies = new Map<number, Buffer>();

  constructor(private readonly sources: GuideSources) {}

  render(ask: GuideAsk<GuideChannel>): Promise<RenderedDay> {
    return new Promise((resolve, reject) => {
      if (this.queue.push({ ask, resolve, reject }) === 1) setImmediate(() => void this.run());
    });
  }

  private async run(): Promise<void> {
    const batch = this.queue;
    this.queue = [];
    try {
      for (let first = 0; first < batch.length; first += DAYS_PER_LOAD) {
        const part = batch.slice(first, first + DAYS_PER_LOAD);
        const days = await guideDays(
          this.sources.db,
          this.sources.timelines,
          part.map((b) => b.ask),
        );
        days.forEach((day, i) => part[i]!.resolve(renderDay(day, this.bodies)));
      }
    } catch (error) {
      // Those already resolved stay so; the rest fail with the batch.
      for (const { reject } of batch) reject(error);
    }
  }
}
