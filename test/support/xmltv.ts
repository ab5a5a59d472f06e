// The rules of the XMLTV DTD (xmltv.dtd, https://github.com/XMLTV/xmltv) that a guide export must
// keep, checked on a parsed document: the DOCTYPE and root, channels before programmes, each
// element's content model in the DTD's order and its required attributes, times in
// `YYYYMMDDhhmmss +HHMM` that name real instants, stop after start, a programme's channel
// declared, and no two programmes of a channel overlapping. `checkXmltv` throws on the first
// broken rule (well-formedness first, by test/support/xml.ts) and answers what it read.
import { parseXml, type XmlElement } from './xml.ts';

export interface XmltvChannelRead {
  id: string;
  displayNames: string[];
  icons: string[];
}

export interface XmltvProgrammeRead {
  channel: string;
  startText: string;
  stopText: string;
  /** Epoch ms. */
  start: number;
  stop: number;
  /** Minutes east of UTC, as written. */
  startOffset: number;
  stopOffset: number;
  title: string;
  desc: string | undefined;
  categories: string[];
  icons: string[];
}

export interface XmltvRead {
  tvAttributes: Record<string, string>;
  channels: XmltvChannelRead[];
  programmes: XmltvProgrammeRead[];
}

type Occurs = '1' | '?' | '*' | '+';
type ContentModel = readonly (readonly [string, Occurs])[];

const TV_ATTRIBUTES = ['date', 'source-info-url', 'source-info-name', 'source-data-url', 'generator-info-name', 'generator-info-url'];
const CHANNEL_MODEL: ContentModel = [
  ['display-name', '+'],
  ['icon', '*'],
  ['url', '*'],
];
const PROGRAMME_MODEL: ContentModel = [
  ['title', '+'],
  ['sub-title', '*'],
  ['desc', '*'],
  ['credits', '?'],
  ['date', '?'],
  ['category', '*'],
  ['keyword', '*'],
  ['language', '?'],
  ['orig-language', '?'],
  ['length', '?'],
  ['icon', '*'],
  ['url', '*'],
  ['country', '*'],
  ['episode-num', '*'],
  ['video', '?'],
  ['audio', '?'],
  ['previously-shown', '?'],
  ['premiere', '?'],
  ['last-chance', '?'],
  ['new', '?'],
  ['subtitles', '*'],
  ['rating', '*'],
  ['star-rating', '*'],
  ['review', '*'],
  ['image', '*'],
];
const PROGRAMME_ATTRIBUTES = ['start', 'stop', 'pdc-start', 'vps-start', 'showview', 'videoplus', 'channel', 'clumpidx'];
/** Elements whose content is #PCDATA only, and the attributes they may carry. */
const TEXT_ELEMENTS: Record<string, readonly string[]> = { 'display-name': ['lang'], title: ['lang'], desc: ['lang'], category: ['lang'], url: ['system'] };

export class XmltvError extends Error {}

function fail(message: string): never {
  throw new XmltvError(message);
}

/** The children's names against a DTD sequence whose names are all different (so matching greedily is exact). */
function checkModel(where: string, children: readonly XmlElement[], model: ContentModel): void {
  const names = children.map((c) => c.name);
  let i = 0;
  for (const [name, occurs] of model) {
    let n = 0;
    while (names[i] === name) {
      n++;
      i++;
    }
    if ((occurs === '1' || occurs === '+') && n === 0) fail(`${where}: <${name}> is required`);
    if ((occurs === '1' || occurs === '?') && n > 1) fail(`${where}: at most one <${name}>`);
  }
  if (i < names.length) fail(`${where}: <${names[i]}> is not allowed there (children: ${names.join(', ')})`);
}

function checkAttributes(where: string, element: XmlElement, allowed: readonly string[], required: readonly string[]): void {
  for (const name of Object.keys(element.attributes)) if (!allowed.includes(name)) fail(`${where}: attribute ${name} is not in the DTD`);
  for (const name of required) if (element.attributes[name] === undefined) fail(`${where}: attribute ${name} is required`);
}

function textOnly(where: string, element: XmlElement): string {
  if (element.children.length > 0) fail(`${where}: <${element.name}> holds elements, the DTD says #PCDATA`);
  checkAttributes(where, element, TEXT_ELEMENTS[element.name] ?? [], []);
  return element.text;
}

function icons(where: string, elements: readonly XmlElement[]): string[] {
  return elements
    .filter((e) => e.name === 'icon')
    .map((icon) => {
      if (icon.children.length > 0 || icon.text.trim() !== '') fail(`${where}: <icon> must be empty`);
      checkAttributes(where, icon, ['src', 'width', 'height'], ['src']);
      return icon.attributes['src']!;
    });
}

const TIME = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2}) ([+-])(\d{2})(\d{2})$/;

/** `YYYYMMDDhhmmss +HHMM` naming a real wall time and offset: the instant and the offset in minutes. */
export function parseXmltvTime(text: string): { ms: number; offset: number } {
  const m = TIME.exec(text);
  if (!m) fail(`time ${JSON.stringify(text)} is not YYYYMMDDhhmmss +HHMM`);
  const [year, month, day, hour, minute, second, sign, offsetHours, offsetMinutes] = [
    Number(m[1]),
    Number(m[2]),
    Number(m[3]),
    Number(m[4]),
    Number(m[5]),
    Number(m[6]),
    m[7],
    Number(m[8]),
    Number(m[9]),
  ];
  const wall = Date.UTC(year, month - 1, day, hour, minute, second);
  const back = new Date(wall);
  const real = back.getUTCFullYear() === year && back.getUTCMonth() === month - 1 && back.getUTCDate() === day && hour < 24 && minute < 60 && second < 60;
  if (!real) fail(`time ${JSON.stringify(text)} names no real wall time`);
  if (offsetMinutes >= 60 || offsetHours > 14) fail(`time ${JSON.stringify(text)} has no real UTC offset`);
  const offset = (sign === '-' ? -1 : 1) * (offsetHours * 60 + offsetMinutes);
  return { ms: wall - offset * 60_000, offset };
}

function readChannel(element: XmlElement, index: number): XmltvChannelRead {
  const where = `channel ${index}`;
  checkAttributes(where, element, ['id'], ['id']);
  checkModel(where, element.children, CHANNEL_MODEL);
  if (element.text.trim() !== '') fail(`${where}: text outside its elements`);
  return {
    id: element.attributes['id']!,
    displayNames: element.children.filter((c) => c.name === 'display-name').map((c) => textOnly(where, c)),
    icons: icons(where, element.children),
  };
}

function readProgramme(element: XmlElement, index: number): XmltvProgrammeRead {
  const where = `programme ${index}`;
  checkAttributes(where, element, PROGRAMME_ATTRIBUTES, ['start', 'channel']);
  checkModel(where, element.children, PROGRAMME_MODEL);
  if (element.text.trim() !== '') fail(`${where}: text outside its elements`);
  const startText = element.attributes['start']!;
  // Optional in the DTD; a guide export always writes it (the checks below need it).
  const stopText = element.attributes['stop'] ?? fail(`${where}: no stop`);
  const start = parseXmltvTime(startText);
  const stop = parseXmltvTime(stopText);
  if (!(stop.ms > start.ms)) fail(`${where}: stop ${stopText} is not after start ${startText}`);
  const texts = (name: string) => element.children.filter((c) => c.name === name).map((c) => textOnly(where, c));
  return {
    channel: element.attributes['channel']!,
    startText,
    stopText,
    start: start.ms,
    stop: stop.ms,
    startOffset: start.offset,
    stopOffset: stop.offset,
    title: texts('title')[0]!,
    desc: texts('desc')[0],
    categories: texts('category'),
    icons: icons(where, element.children),
  };
}

/** Checks a guide document by the XMLTV DTD's rules (and ours: no overlaps) and answers what it holds. */
export function checkXmltv(text: string): XmltvRead {
  const document = parseXml(text);
  if (document.declaration?.['encoding']?.toUpperCase() !== 'UTF-8') fail('the XML declaration must say encoding="UTF-8"');
  if (document.doctype?.name !== 'tv' || document.doctype.system !== 'xmltv.dtd') fail('DOCTYPE must be tv SYSTEM "xmltv.dtd"');
  const tv = document.root;
  if (tv.name !== 'tv') fail(`root is <${tv.name}>, not <tv>`);
  checkAttributes('tv', tv, TV_ATTRIBUTES, []);
  if (tv.text.trim() !== '') fail('text directly inside <tv>');
  checkModel('tv', tv.children, [
    ['channel', '*'],
    ['programme', '*'],
  ]);
  const channels = tv.children.filter((c) => c.name === 'channel').map(readChannel);
  const programmes = tv.children.filter((c) => c.name === 'programme').map(readProgramme);
  const ids = new Set<string>();
  for (const { id } of channels) {
    if (ids.has(id)) fail(`channel id ${id} declared twice`);
    ids.add(id);
  }
  const byChannel = new Map<string, XmltvProgrammeRead[]>();
  for (const p of programmes) {
    if (!ids.has(p.channel)) fail(`a programme names channel ${p.channel}, which is not declared`);
    byChannel.set(p.channel, [...(byChannel.get(p.channel) ?? []), p]);
  }
  for (const [channel, list] of byChannel) {
    const sorted = [...list].sort((a, b) => a.start - b.start);
    for (let i = 1; i < sorted.length; i++) {
      if (sorted[i]!.start < sorted[i - 1]!.stop)
        fail(`channel ${channel}: ${sorted[i - 1]!.startText}-${sorted[i - 1]!.stopText} overlaps ${sorted[i]!.startText}-${sorted[i]!.stopText}`);
    }
  }
  return { tvAttributes: tv.attributes, channels, programmes };
}
