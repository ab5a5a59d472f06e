// The XMLTV document of a guide export, settled whole before its first byte: the guide's
// channel-days are taken as kept bytes or rendered now when what is cold is small
// (src/guides/prepared-guides.ts); a larger cold part is prepared in the background and the
// caller asked to retry (503 guide_preparing, Retry-After); a guide that could not be kept is
// refused (422 guide_too_large). Only then is a byte written, and what is written after it is
// only the kept Buffers, a channel-day (or a batch of small ones) at a time.
import { Readable } from 'node:stream';
import type { ChannelRow } from '../data/channels.ts';
import type { PreparedGuides } from '../guides/prepared-guides.ts';
import { xmltvChunks, xmltvGzipChunks } from '../presenters/xmltv.ts';
import { RestError } from './errors.ts';

const guideTooLarge = (why: string) => new RestError(422, 'guide_too_large', `This guide ${why}; ask fewer days (days=1 to 14), or carry fewer channels in the app.`);

const guidePreparing = (seconds: number) => new RestError(503, 'guide_preparing', `This guide is being prepared; retry in ${seconds} seconds.`, { 'retry-after': String(seconds) });

/**
 * The document of `channels` for `days` days from `now` as a stream of bytes (gzipped from the
 * days' kept parts when `gzip`), or a refusal (thrown before any byte).
 */
export async function guideDocument(guides: PreparedGuides, channels: readonly ChannelRow[], days: number, now: Date, gzip = false): Promise<Readable> {
  const outcome = await guides.guide(channels, days, now);
  if (outcome.kind === 'too_large') throw guideTooLarge(outcome.reason);
  if (outcome.kind === 'preparing') throw guidePreparing(outcome.retryAfterSeconds);
  return Readable.from((gzip ? xmltvGzipChunks : xmltvChunks)(channels, outcome.days), { objectMode: false });
}
