// The XMLTV wire format (xmltv.dtd) of a guide export: what FAST platforms, IPTV players and media
// servers read: the head and every <channel> first (the DTD puts channels before programmes),
// then the <programme>s of each channel-day (src/schedules/guide-export.ts), then the tail.
//
// A channel-day is rendered to bytes once (renderDay), one contiguous Buffer, and can be kept
// and written again as it is (src/guides). A video's elements are escaped once per run of days
// and copied after each programme's head. The document is written a channel-day (or a batch of
// small ones) at a time (xmltvChunks): never built whole, never one string.
//
// Element order follows the DTD: channel (display-name+, icon*), programme (title+, desc*,
// category*, icon*). Times are `YYYYMMDDhhmmss +HHMM` in the channel's zone with its UTC offset
// at that instant, so a day crossing a clock change shows both offsets. Text from the catalog is
// escaped, and characters XML 1.0 forbids (C0 controls but tab, CR and LF, lone surrogates,
// U+FFFE and U+FFFF) are dropped: a parser would refuse the whole document for one of them.
import type { GuideChannelDay, GuideProgramme } from '../schedules/guide-export.ts';
import { requireZone } from '../schedules/labels.ts';
import type { TimelineChannel } from '../schedules/timelines.ts';
import { offsetMinutes } from '../schedules/zone-offsets.ts';
import { deflatedPart, gzipDocument, type DeflatedPart } from './gzip-parts.ts';

export const XMLTV_CONTENT_TYPE = 'application/xml; charset=utf-8';

/** A channel as the export lists it. */
export interface XmltvChannel extends TimelineChannel {
  name: string;
  pictureUrl: string | null;
}

export const XMLTV_HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE tv SYSTEM "xmltv.dtd">\n<tv generator-info-name="channelnet">\n';
export const XMLTV_TAIL = '</tv>\n';

/** A stable, globally unique channel id in the form the XMLTV docs suggest (an RFC 2838-like name). */
export const xmltvChannelId = (channelId: number): string => `channel-${channelId}.channelnet`;

const FORBIDDEN = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;
const TEXT_SPECIAL = /[&<>\r]/g;
const ATTRIBUTE_SPECIAL = /[&<>"\t\n\r]/g;
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', '\t': '&#9;', '\n': '&#10;', '\r': '&#13;' };
const entity = (c: string) => ENTITIES[c]!;

/** Character data: markup escaped; CR as a reference, since parsers turn a raw CR into LF. */
export function xmlText(value: string): string {
  return value.replace(FORBIDDEN, '').replace(TEXT_SPECIAL, entity);
}

/** A double-quoted attribute value: also `"`, and whitespace as references (parsers would turn it into spaces). */
export function xmlAttribute(value: string): string {
  return value.replace(FORBIDDEN, '').replace(ATTRIBUTE_SPECIAL, entity);
}

const TWO = Array.from({ length: 100 }, (_, n) => String(n).padStart(2, '0'));
const DAY_SECONDS = 86_400;
/** The last wall day written and its `YYYYMMDD` (a guide writes thousands of times a day). */
let lastDay = Number.NaN;
let lastDayText = '';
const offsetTexts = new Map<number, string>();

/** `YYYYMMDDhhmmss +HHMM`: the wall time at `ms` (floored to the second) for a zone `offset` minutes east of UTC. */
export function xmltvTime(ms: number, offset: number): string {
  const wall = Math.floor(ms / 1000) + offset * 60;
  const day = Math.floor(wall / DAY_SECONDS);
  if (day !== lastDay) {
    const date = new Date(day * DAY_SECONDS * 1000);
    lastDayText = `${String(date.getUTCFullYear()).padStart(4, '0')}${TWO[date.getUTCMonth() + 1]}${TWO[date.getUTCDate()]}`;
    lastDay = day;
  }
  const second = wall - day * DAY_SECONDS;
  return `${lastDayText}${TWO[Math.floor(second / 3600)]}${TWO[Math.floor(second / 60) % 60]}${TWO[second % 60]} ${offsetText(offset)}`;
}

function offsetText(offset: number): string {
  let text = offsetTexts.get(offset);
  if (text === undefined) {
    const abs = Math.abs(offset);
    text = `${offset < 0 ? '-' : '+'}${TWO[Math.floor(abs / 60)] ?? String(Math.floor(abs / 60))}${TWO[abs % 60]}`;
    offsetTexts.set(offset, text);
  }
  return text;
}

/**
 * The channel's UTC offset in minutes at an instant. The zone is checked once per channel; each
 * look-up then reads luxon's offsets from per-day tables (zone-offsets.ts) instead of asking Intl
 * per programme (a fortnight of a large network is a million look-ups).
 */
export function zoneOffsets(zone: string): (ms: number) => number {
  requireZone(zone);
  return (ms) => offsetMinutes(ms, zone);
}

export function channelElement(channel: XmltvChannel): string {
  const icon = channel.pictureUrl ? `    <icon src="${xmlAttribute(channel.pictureUrl)}"/>\n` : '';
  return `  <channel id="${xmltvChannelId(channel.id)}">\n    <display-name>${xmlText(channel.name)}</display-name>\n${icon}  </channel>\n`;
}

/** A programme's elements after its head: its video's, the same wherever it plays. */
export function programmeBody({ video: { title, thumbnailUrl }, category, description }: Pick<GuideProgramme, 'video' | 'category' | 'description'>): string {
  return (
    `    <title>${xmlText(title)}</title>\n` +
    (description ? `    <desc>${xmlText(description)}</desc>\n` : '') +
    (category ? `    <category>${xmlText(category)}</category>\n` : '') +
    (thumbnailUrl ? `    <icon src="${xmlAttribute(thumbnailUrl)}"/>\n` : '') +
    '  </programme>\n'
  );
}

/**
 * The <programme>s of one channel-day as bytes, contiguous: a kept day is written as it is, one
 * write of the cached Buffer, with no work per programme (a fortnight of 200 channels is 400,000
 * programmes: copying them one by one per request cost ~0.1 s).
 */
export interface RenderedDay {
  programmes: number;
  /** Bytes the day adds to a document (bytes.length). */
  bytes: number;
  body: Buffer;
  /** The body deflated once, as a part of a gzipped document (gzip-parts.ts). */
  gzip: DeflatedPart;
}

/** The longest head: the fixed text, two times of 20 characters, a channel id of a 10-digit number. */
const MAX_HEAD_BYTES = 128;

/**
 * Renders a channel-day. `bodies` holds the rendered elements per video for the caller's run of
 * days: a video playing many times is escaped and encoded once.
 */
export function renderDay<C extends XmltvChannel>(day: GuideChannelDay<C>, bodies: Map<number, Buffer>): RenderedDay {
  const offsetAt = zoneOffsets(day.channel.timezone);
  const channel = xmltvChannelId(day.channel.id);
  const count = day.programmes.length;
  const programmeBodies: Buffer[] = [];
  let size = 0;
  for (const p of day.programmes) {
    let body = bodies.get(p.video.videoTubeId);
    if (!body) bodies.set(p.video.videoTubeId, (body = Buffer.from(programmeBody(p))));
    programmeBodies.push(body);
    size += MAX_HEAD_BYTES + body.length;
  }
  const scratch = Buffer.allocUnsafe(size);
  let used = 0;
  // A programme usually starts when the one before stops: that time is written once.
  let last = { ms: Number.NaN, text: '' };
  const time = (ms: number) => (ms === last.ms ? last.text : (last = { ms, text: xmltvTime(ms, offsetAt(ms)) }).text);
  for (const [i, p] of day.programmes.entries()) {
    used += scratch.write(`  <programme start="${time(p.start)}" stop="${time(p.stop)}" channel="${channel}">\n`, used, 'latin1');
    used += programmeBodies[i]!.copy(scratch, used);
  }
  // A copy of the used part: a kept day must not hold the scratch's slack.
  const body = Buffer.from(scratch.subarray(0, used));
  return { programmes: count, bytes: used, body, gzip: deflatedPart(body) };
}

/** Bytes of a document batch: small days are gathered up to about this much; a larger day is written alone, as it is. */
const BATCH_BYTES = 64 * 1024;

/** The whole document, a batch at a time: head and channels, each day's programmes (kept Buffers, never copied when large), the tail. */
export function* xmltvChunks(channels: readonly XmltvChannel[], days: readonly RenderedDay[]): Generator<Buffer> {
  yield Buffer.from(XMLTV_HEAD);
  for (let first = 0; first < channels.length; first += 100) {
    yield Buffer.from(
      channels
        .slice(first, first + 100)
        .map(channelElement)
        .join(''),
    );
  }
  let small: Buffer[] = [];
  let smallBytes = 0;
  for (const day of days) {
    if (day.bytes === 0) continue;
    if (day.bytes >= BATCH_BYTES / 4) {
      if (small.length > 0) yield Buffer.concat(small, smallBytes);
      small = [];
      smallBytes = 0;
      yield day.body;
      continue;
    }
    small.push(day.body);
    smallBytes += day.bytes;
    if (smallBytes >= BATCH_BYTES) {
      yield Buffer.concat(small, smallBytes);
      small = [];
      smallBytes = 0;
    }
  }
  if (small.length > 0) yield Buffer.concat(small, smallBytes);
  yield Buffer.from(XMLTV_TAIL);
}

/**
 * The same document gzipped (for a client that takes gzip): the days' parts were deflated when
 * they were rendered, so only the head, the channel elements and the tail are deflated here.
 */
export function* xmltvGzipChunks(channels: readonly XmltvChannel[], days: readonly RenderedDay[]): Generator<Buffer> {
  function* parts(): Generator<DeflatedPart> {
    yield deflatedPart(Buffer.from(XMLTV_HEAD));
    for (let first = 0; first < channels.length; first += 100)
      yield deflatedPart(
        Buffer.from(
          channels
            .slice(first, first + 100)
            .map(channelElement)
            .join(''),
        ),
      );
    for (const day of days) yield day.gzip;
    yield deflatedPart(Buffer.from(XMLTV_TAIL));
  }
  yield* gzipDocument(parts());
}

/** The bytes of a document of these channels and days (what xmltvChunks writes). */
export function documentBytes(channels: readonly XmltvChannel[], days: readonly RenderedDay[]): number {
  let bytes = Buffer.byteLength(XMLTV_HEAD) + Buffer.byteLength(XMLTV_TAIL);
  for (const channel of channels) bytes += Buffer.byteLength(channelElement(channel));
  for (const day of days) bytes += day.bytes;
  return bytes;
}
