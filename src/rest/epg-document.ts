// The XMLTV document of a guide export, settled whole before its first byte: what it would cost
// to compile is counted and bounded first (guideWork), then every channel-day is rendered, or
// taken as rendered bytes from the catalog cache, and the document's size bounded; only then is
// a byte written. A refusal is therefore a whole REST envelope, never a cut document, and what is
// written after the first byte is only copies of bytes already made.
//
// Rendered channel-days are kept in the catalog cache (bounded in bytes, dropped by a change of
// their channel or owner, src/cache), keyed by channel and date: their content depends on the
// channel's schedule that day and the next, its zone, and its owner's videos and categories,
// never on `now` or on the days a guide asks (guide-export.ts), so every guide of the channel
// shares them, whoever asks.
import { Readable } from 'node:stream';
import type { CatalogCache } from '../cache/catalog-cache.ts';
import type { ChannelRow } from '../data/channels.ts';
import type { Queryable } from '../db/connect.ts';
import { documentBytes, renderDay, xmltvChunks, type RenderedDay } from '../presenters/xmltv.ts';
import { guideAsks, guideDays, guideWork, MAX_GUIDE_WORK, type GuideAsk } from '../schedules/guide-export.ts';
import type { ScheduleTimelines } from '../schedules/timelines.ts';
import { RestError } from './errors.ts';

/** The largest document: ~0.1 s of CPU to render cold, ~0.02 s to write warm (README: Limits); a guide past it is refused. */
export const MAX_GUIDE_BYTES = 2 * 1024 * 1024;

/** Channel-days compiled and rendered together (one schedule load, one query of video texts). */
const DAYS_PER_LOAD = 4;

const guideTooLarge = (what: string) =>
  new RestError(422, 'guide_too_large', `This guide ${what}; ask fewer days (days=1 to 14), or carry fewer channels in the app.`);

export interface GuideSources {
  db: Queryable;
  timelines: ScheduleTimelines;
  cache: CatalogCache;
}

/** The document of `channels` for `days` days from `now` as a stream of bytes, or a refusal (thrown before any byte). */
export async function guideDocument(sources: GuideSources, channels: readonly ChannelRow[], days: number, now: Date): Promise<Readable> {
  const asks = guideAsks(channels, days, now);
  const work = await guideWork(sources.db, asks);
  if (work > MAX_GUIDE_WORK) throw guideTooLarge(`would compile ${work} schedule entries (at most ${MAX_GUIDE_WORK})`);
  const rendered = await renderedDays(sources, asks);
  const bytes = documentBytes(channels, rendered);
  if (bytes > MAX_GUIDE_BYTES) throw guideTooLarge(`would be ${bytes} bytes (at most ${MAX_GUIDE_BYTES})`);
  return Readable.from(xmltvChunks(channels, rendered), { objectMode: false });
}

/** Each ask's rendered day, from the cache or rendered now (the missing ones together, see DayRenderer). */
function renderedDays(sources: GuideSources, asks: readonly GuideAsk<ChannelRow>[]): Promise<RenderedDay[]> {
  const renderer = new DayRenderer(sources);
  return Promise.all(
    asks.map((ask) =>
      sources.cache.get(`xmltv:day:${ask.channel.id}:${ask.date}`, () => renderer.render(ask), { ownerId: ask.channel.ownerId, channelIds: [ask.channel.id] }),
    ),
  );
}

/**
 * Renders the channel-days the cache misses, all those of one request together (one schedule
 * load, one category query): each miss is queued, and the queue runs once the misses of the
 * loop asking them have all been queued (setImmediate runs after the promises they wait on).
 * Rendering stops, refusing the guide, once it passes MAX_GUIDE_BYTES.
 */
class DayRenderer {
  private queue: Array<{ ask: GuideAsk<ChannelRow>; resolve: (day: RenderedDay) => void; reject: (error: unknown) => void }> = [];
  private readonly bodies = new Map<number, Buffer>();
  private bytes = 0;

  constructor(private readonly sources: GuideSources) {}

  render(ask: GuideAsk<ChannelRow>): Promise<RenderedDay> {
    return new Promise((resolve, reject) => {
      if (this.queue.push({ ask, resolve, reject }) === 1) setImmediate(() => void this.run());
    });
  }

  private async run(): Promise<void> {
    const batch = this.queue;
    this.queue = [];
    try {
      // A few days at a time: a guide past MAX_GUIDE_BYTES stops compiling soon after it passes it.
      for (let first = 0; first < batch.length; first += DAYS_PER_LOAD) {
        const part = batch.slice(first, first + DAYS_PER_LOAD);
        const days = await guideDays(this.sources.db, this.sources.timelines, part.map((b) => b.ask));
        days.forEach((day, i) => {
          const rendered = renderDay(day, this.bodies, MAX_GUIDE_BYTES - this.bytes);
          if (!rendered) throw guideTooLarge(`would be more than ${MAX_GUIDE_BYTES} bytes`);
          this.bytes += rendered.bytes;
          part[i]!.resolve(rendered);
        });
      }
    } catch (error) {
      // Those already resolved stay so; the rest fail with the guide.
      for (const { reject } of batch) reject(error);
    }
  }
}
