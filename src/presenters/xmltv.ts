// The XMLTV wire format (xmltv.dtd) of a guide export: what FAST platforms, IPTV players and media
// servers read. Pure text, written piece by piece so the answer streams: the head and every
// <channel> first (the DTD puts channels before programmes), then the <programme>s of each
// channel-day as src/schedules/guide-export.ts yields them, then the tail.
//
// Element order follows the DTD: channel (display-name+, icon*), programme (title+, desc*,
// category*, icon*). Times are `YYYYMMDDhhmmss +HHMM` in the channel's zone with its UTC offset
// at that instant, so a day crossing a clock change shows both offsets. Text from the catalog is
// escaped, and characters XML 1.0 forbids (C0 controls but tab, CR and LF, lone surrogates,
// U+FFFE and U+FFFF) are dropped: a parser would refuse the whole document for one of them.
import type { GuideChannelDay } from '../schedules/guide-export.ts';
import { requireZone } from '../schedules/labels.ts';
import type { TimelineChannel } from '../schedules/timelines.ts';
import { offsetMinutes } from '../schedules/zone-offsets.ts';

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

const two = (n: number) => (n < 10 ? `0${n}` : String(n));

/** `YYYYMMDDhhmmss +HHMM`: the wall time at `ms` (floored to the second) for a zone `offset` minutes east of UTC. */
export function xmltvTime(ms: number, offset: number): string {
  const wall = new Date(Math.floor(ms / 1000) * 1000 + offset * 60_000);
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  return (
    `${String(wall.getUTCFullYear()).padStart(4, '0')}${two(wall.getUTCMonth() + 1)}${two(wall.getUTCDate())}` +
    `${two(wall.getUTCHours())}${two(wall.getUTCMinutes())}${two(wall.getUTCSeconds())} ${sign}${two(Math.floor(abs / 60))}${two(abs % 60)}`
  );
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

/** The <programme> elements of one channel-day. */
export function programmeElements<C extends XmltvChannel>(day: GuideChannelDay<C>, offsetAt: (ms: number) => number): string {
  const channel = xmltvChannelId(day.channel.id);
  let out = '';
  for (const p of day.programmes) {
    const { title, description, thumbnailUrl } = p.video;
    out +=
      `  <programme start="${xmltvTime(p.start, offsetAt(p.start))}" stop="${xmltvTime(p.stop, offsetAt(p.stop))}" channel="${channel}">\n` +
      `    <title>${xmlText(title)}</title>\n` +
      (description ? `    <desc>${xmlText(description)}</desc>\n` : '') +
      (p.category ? `    <category>${xmlText(p.category)}</category>\n` : '') +
      (thumbnailUrl ? `    <icon src="${xmlAttribute(thumbnailUrl)}"/>\n` : '') +
      '  </programme>\n';
  }
  return out;
}

/** The whole document, a piece at a time: head and channels, then one piece per channel-day, then the tail. */
export async function* xmltvDocument<C extends XmltvChannel>(channels: readonly C[], days: AsyncIterable<GuideChannelDay<C>>): AsyncGenerator<string> {
  yield XMLTV_HEAD + channels.map(channelElement).join('');
  let current: { id: number; offsetAt: (ms: number) => number } | undefined;
  for await (const day of days) {
    if (current?.id !== day.channel.id) current = { id: day.channel.id, offsetAt: zoneOffsets(day.channel.timezone) };
    if (day.programmes.length > 0) yield programmeElements(day, current.offsetAt);
  }
  yield XMLTV_TAIL;
}
