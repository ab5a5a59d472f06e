// The XMLTV presenter (src/presenters/xmltv.ts) and the programme rules of the guide export
// (src/schedules/guide-export.ts), without a database; and the test checker of the DTD's rules
// (test/support/xmltv.ts) refusing what it must.
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import {
  channelElement,
  documentBytes,
  renderDay,
  xmlAttribute,
  xmlText,
  xmltvChannelId,
  xmltvChunks,
  xmltvTime,
  zoneOffsets,
  XMLTV_HEAD,
  XMLTV_TAIL,
  type XmltvChannel,
} from '../src/presenters/xmltv.ts';
import { guideDates, type GuideChannelDay, type GuideProgramme } from '../src/schedules/guide-export.ts';
import type { ExpandedBlock } from '../src/schedules/expand.ts';
import { segmentsStartingIn } from '../src/schedules/on-air-listing.ts';
import type { PublishedEntry, TimelineVideo } from '../src/schedules/timelines.ts';
import { XmlError } from './support/xml.ts';
import { checkXmltv, parseXmltvTime, XmltvError } from './support/xmltv.ts';

const video = (id: number, fields: Partial<TimelineVideo> = {}): TimelineVideo => ({
  videoTubeId: id,
  ownerId: 11,
  title: `Video ${id}`,
  thumbnailUrl: '',
  durationSeconds: 60,
  providerVideoId: `p${id}`,
  providerName: 'YouTube',
  streamUrl: null,
  isPrivate: false,
  isRRated: false,
  isRemovedByProvider: false,
  isRestrictedByProvider: false,
  ...fields,
});

const at = (iso: string) => Date.parse(iso);
const entry = (id: number, start: string, end: string, isLive = false): PublishedEntry => ({ video: video(id), playbackOrderNumber: 1, start: at(start), end: at(end), isLive });

/** The document's bytes as text, checking that documentBytes counts them exactly. */
function documentOf<C extends XmltvChannel>(channels: C[], days: GuideChannelDay<C>[]): string {
  const bodies = new Map<number, Buffer>();
  const rendered = days.map((day) => renderDay(day, bodies)!);
  const bytes = Buffer.concat([...xmltvChunks(channels, rendered)]);
  expect(bytes.length).toBe(documentBytes(channels, rendered));
  return bytes.toString('utf8');
}

/** One channel-day's <programme> elements as text. */
function dayText<C extends XmltvChannel>(day: GuideChannelDay<C>): string {
  const rendered = renderDay(day, new Map())!;
  return Buffer.concat([...xmltvChunks([], [rendered])])
    .toString('utf8')
    .slice(XMLTV_HEAD.length, -XMLTV_TAIL.length);
}

describe('XMLTV times', () => {
  it('write the wall time and the offset at that instant, floored to the second', () => {
    expect(xmltvTime(at('2026-11-21T13:00:00.999Z'), -300)).toBe('20261121080000 -0500');
    expect(xmltvTime(at('2026-11-21T13:00:00Z'), 0)).toBe('20261121130000 +0000');
    expect(xmltvTime(at('2026-11-21T18:29:59Z'), 330)).toBe('20261121235959 +0530');
    expect(xmltvTime(at('2026-11-21T23:30:00Z'), 345)).toBe('20261122051500 +0545');
    expect(xmltvTime(at('2026-11-21T02:30:00Z'), -210)).toBe('20261120230000 -0330');
  });

  it("take each instant's own offset across a clock change (New York, 2026-11-01)", () => {
    const offsetAt = zoneOffsets('America/New_York');
    expect(xmltvTime(at('2026-11-01T05:30:00Z'), offsetAt(at('2026-11-01T05:30:00Z')))).toBe('20261101013000 -0400');
    expect(xmltvTime(at('2026-11-01T06:30:00Z'), offsetAt(at('2026-11-01T06:30:00Z')))).toBe('20261101013000 -0500');
    // The same as luxon's own offset for these instants.
    for (const iso of ['2026-03-08T06:59:59Z', '2026-03-08T07:00:00Z', '2026-11-01T05:59:59Z', '2026-11-01T06:00:00Z']) {
      expect(offsetAt(at(iso))).toBe(DateTime.fromISO(iso, { zone: 'America/New_York' }).offset);
    }
    expect(() => zoneOffsets('Mars/Olympus')).toThrow(RangeError);
  });

  it('parse back to the instant in the test checker', () => {
    expect(parseXmltvTime('20261101013000 -0500')).toEqual({ ms: at('2026-11-01T06:30:00Z'), offset: -300 });
    expect(() => parseXmltvTime('20261131000000 +0000')).toThrow(XmltvError);
    expect(() => parseXmltvTime('202611210800 +0000')).toThrow(XmltvError);
  });
});

describe('XML escaping', () => {
  it('escapes markup in text and attributes', () => {
    expect(xmlText('Weather "live" & <more>')).toBe('Weather "live" &amp; &lt;more&gt;');
    expect(xmlAttribute('https://x.example/?a=1&b="2"<')).toBe('https://x.example/?a=1&amp;b=&quot;2&quot;&lt;');
    expect(xmlText(']]>')).toBe(']]&gt;');
  });

  it('keeps tab and line feed in text, writes CR as a reference; attributes keep all three as references', () => {
    expect(xmlText('a\tb\nc\r\nd')).toBe('a\tb\nc&#13;\nd');
    expect(xmlAttribute('a\tb\nc\rd')).toBe('a&#9;b&#10;c&#13;d');
  });

  it('drops characters XML 1.0 forbids and keeps every other', () => {
    expect(xmlText('a\u0000b\u0001c\u001fd\uFFFEe\uFFFFf\uD800g\uDC00h')).toBe('abcdefgh');
    expect(xmlText('Ünïcödé 😀 \u0085 \uE000 \uFFFD')).toBe('Ünïcödé 😀 \u0085 \uE000 \uFFFD');
    expect(xmlAttribute('x\u0007y')).toBe('xy');
  });
});

describe('XMLTV elements', () => {
  const news: XmltvChannel = { id: 201, timezone: 'America/New_York', name: 'Alice <News> & "more"', pictureUrl: 'https://img.example/c.png?a=1&b=2' };

  it('a channel: stable id, display name and icon when it has a picture', () => {
    expect(xmltvChannelId(201)).toBe('channel-201.channelnet');
    expect(channelElement(news)).toBe(
      '  <channel id="channel-201.channelnet">\n    <display-name>Alice &lt;News&gt; &amp; "more"</display-name>\n' +
        '    <icon src="https://img.example/c.png?a=1&amp;b=2"/>\n  </channel>\n',
    );
    expect(channelElement({ ...news, pictureUrl: null })).not.toContain('<icon');
  });

  it('a programme: title, then desc, category and icon only when the video has them', () => {
    const programmes: GuideProgramme[] = [
      {
        start: at('2026-11-21T13:00:00Z'),
        stop: at('2026-11-21T13:10:00Z'),
        video: video(1, { title: 'Morning', thumbnailUrl: 'https://img.example/1.jpg' }),
        isLive: false,
        category: 'News',
        description: 'About <it>',
      },
      { start: at('2026-11-21T13:10:00Z'), stop: at('2026-11-21T13:12:00Z'), video: video(2, { title: 'Bare' }), isLive: true, category: null, description: null },
    ];
    expect(dayText({ channel: news, date: '2026-11-21', programmes })).toBe(
      '  <programme start="20261121080000 -0500" stop="20261121081000 -0500" channel="channel-201.channelnet">\n' +
        '    <title>Morning</title>\n    <desc>About &lt;it&gt;</desc>\n    <category>News</category>\n    <icon src="https://img.example/1.jpg"/>\n' +
        '  </programme>\n' +
        '  <programme start="20261121081000 -0500" stop="20261121081200 -0500" channel="channel-201.channelnet">\n    <title>Bare</title>\n  </programme>\n',
    );
  });

  it('a document: head, every channel, the programmes of each channel-day, tail; valid by the DTD rules', async () => {
    const berlin: XmltvChannel = { id: 601, timezone: 'Europe/Berlin', name: 'Olga \u0001channel', pictureUrl: null };
    const day = (channel: XmltvChannel, date: string, programmes: GuideProgramme[]): GuideChannelDay<XmltvChannel> => ({ channel, date, programmes });
    const p = (id: number, start: string, stop: string, title: string): GuideProgramme => ({
      start: at(start),
      stop: at(stop),
      video: video(id, { title }),
      isLive: false,
      category: null,
      description: null,
    });
    const text = documentOf(
      [news, berlin],
      [
        day(news, '2026-10-31', [p(1, '2026-11-01T05:00:00Z', '2026-11-01T06:00:00Z', 'Before \uFFFF the change')]),
        day(news, '2026-11-01', [p(2, '2026-11-01T06:00:00Z', '2026-11-01T07:00:00Z', 'After')]),
        day(berlin, '2026-11-01', []),
      ],
    );
    expect(text.startsWith(XMLTV_HEAD)).toBe(true);
    expect(text.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE tv SYSTEM "xmltv.dtd">\n<tv generator-info-name="channelnet">\n')).toBe(true);
    expect(text.endsWith(XMLTV_TAIL)).toBe(true);
    const read = checkXmltv(text);
    expect(read.tvAttributes).toEqual({ 'generator-info-name': 'channelnet' });
    expect(read.channels).toEqual([
      { id: 'channel-201.channelnet', displayNames: ['Alice <News> & "more"'], icons: ['https://img.example/c.png?a=1&b=2'] },
      { id: 'channel-601.channelnet', displayNames: ['Olga channel'], icons: [] },
    ]);
    expect(read.programmes.map((x) => [x.startText, x.stopText, x.title])).toEqual([
      ['20261101010000 -0400', '20261101010000 -0500', 'Before  the change'],
      ['20261101010000 -0500', '20261101020000 -0500', 'After'],
    ]);
  });

  it('a kept day is written as the very Buffer kept (no copy per request); small days are gathered, in order', () => {
    const programmes = (n: number, first: number) =>
      Array.from({ length: n }, (_, i) => ({
        start: first + i * 60_000,
        stop: first + (i + 1) * 60_000,
        video: video(i + 1),
        isLive: false,
        category: null,
        description: 'd'.repeat(200),
      }));
    const bodies = new Map<number, Buffer>();
    const big = renderDay({ channel: news, date: '2026-11-21', programmes: programmes(200, at('2026-11-21T05:00:00Z')) }, bodies);
    const small = [1, 2, 3].map((k) => renderDay({ channel: news, date: `2026-11-2${k + 1}`, programmes: programmes(1, at(`2026-11-2${k + 1}T05:00:00Z`)) }, bodies));
    const chunks = [...xmltvChunks([news], [small[0]!, big, small[1]!, small[2]!])];
    expect(big.bytes).toBe(big.body.length);
    expect(chunks.some((chunk) => chunk === big.body)).toBe(true);
    expect(chunks).toHaveLength(6); // head, channels, the first small day, the big day, the two small days together, tail
    const text = Buffer.concat(chunks).toString('utf8');
    expect(text.length).toBe(documentBytes([news], [small[0]!, big, small[1]!, small[2]!]));
    expect(checkXmltv(text).programmes.map((p) => p.startText.slice(0, 8))).toEqual(['20261122', ...Array(200).fill('20261121'), '20261123', '20261124']);
  });

  it('an empty guide is still a valid document', async () => {
    expect(documentOf([], [])).toBe(`${XMLTV_HEAD}${XMLTV_TAIL}`);
    expect(checkXmltv(documentOf([], [])).channels).toEqual([]);
  });
});

describe('programmes on air (guide export rules: the on-air timeline, segments starting each day)', () => {
  // The old rule ("the later start takes the air") cut a live stream at the next entry's start;
  // the timeline keeps it on air whole and resumes the block on its own clock after it.
  const block = (id: number, entries: PublishedEntry[], isLive = false): ExpandedBlock<TimelineVideo> => ({
    channelScheduleId: id,
    start: entries[0]!.start,
    published: true,
    loopDaily: false,
    isLive,
    videos: entries.map((e, i) => ({ ...e, playbackOrderNumber: i + 1, isLive })),
  });
  const day = (blocks: ExpandedBlock<TimelineVideo>[], date: string) => segmentsStartingIn(blocks, at(`${date}T00:00:00Z`), at(`${date}T00:00:00Z`) + 86_400_000);
  const shape = (days: { start: number; end: number; video: TimelineVideo }[][]) =>
    days.map((d) => d.map((p) => [new Date(p.start).toISOString().slice(11, 19), new Date(p.end).toISOString().slice(11, 19), p.video.videoTubeId]));

  it('floors to whole seconds and drops what is left with no time', () => {
    const blocks = [
      block(1, [
        entry(1, '2026-11-21T08:00:00.600Z', '2026-11-21T08:00:10.250Z'),
        entry(2, '2026-11-21T08:00:10.250Z', '2026-11-21T08:00:10.900Z'),
        entry(3, '2026-11-21T08:00:10.900Z', '2026-11-21T08:00:20Z'),
      ]),
    ];
    expect(shape([day(blocks, '2026-11-21')])).toEqual([
      [
        ['08:00:00', '08:00:10', 1],
        ['08:00:10', '08:00:20', 3],
      ],
    ]);
  });

  it('a block placed over another preempts it; the one under resumes on its own clock', () => {
    // Block A (1, 2, 3) from 08:00, block B (9) at 08:30 over it: 2 resumes at 08:35, joined in progress.
    const blocks = [
      block(1, [
        entry(1, '2026-11-21T08:00:00Z', '2026-11-21T08:20:00Z'),
        entry(2, '2026-11-21T08:20:00Z', '2026-11-21T08:40:00Z'),
        entry(3, '2026-11-21T08:40:00Z', '2026-11-21T09:00:00Z'),
      ]),
      block(2, [entry(9, '2026-11-21T08:30:00Z', '2026-11-21T08:35:00Z')]),
    ];
    expect(shape([day(blocks, '2026-11-21')])).toEqual([
      [
        ['08:00:00', '08:20:00', 1],
        ['08:20:00', '08:30:00', 2],
        ['08:30:00', '08:35:00', 9],
        ['08:35:00', '08:40:00', 2],
        ['08:40:00', '09:00:00', 3],
      ],
    ]);
  });

  it('a live stream is on air for its whole duration, even starting with a block', () => {
    const blocks = [block(1, [entry(1, '2026-11-21T08:00:00Z', '2026-11-21T09:00:00Z')]), block(-7, [entry(7, '2026-11-21T08:00:00Z', '2026-11-21T08:30:00Z', true)], true)];
    expect(shape([day(blocks, '2026-11-21')])).toEqual([
      [
        ['08:00:00', '08:30:00', 7],
        ['08:30:00', '09:00:00', 1],
      ],
    ]);
  });

  it('lists a programme crossing midnight once, on its day, cut by a later start of the next day', () => {
    const late = block(1, [entry(1, '2026-11-21T23:00:00Z', '2026-11-22T01:00:00Z')]);
    expect(shape(['2026-11-21', '2026-11-22'].map((d) => day([late], d)))).toEqual([[['23:00:00', '01:00:00', 1]], []]);
    const next = block(2, [entry(2, '2026-11-22T00:00:00Z', '2026-11-22T01:00:00Z')]);
    expect(shape(['2026-11-21', '2026-11-22'].map((d) => day([late, next], d)))).toEqual([[['23:00:00', '00:00:00', 1]], [['00:00:00', '01:00:00', 2]]]);
  });

  it('never changes the compiled entries it reads (they are shared with the cache)', () => {
    const blocks = [block(1, [entry(1, '2026-11-21T08:00:00.5Z', '2026-11-21T09:00:00Z')]), block(2, [entry(2, '2026-11-21T08:30:00Z', '2026-11-21T08:40:00Z')])];
    const copy = structuredClone(blocks);
    day(blocks, '2026-11-21');
    expect(blocks).toEqual(copy);
  });

  it("counts the days from today in each channel's zone", () => {
    const now = new Date('2026-11-21T03:00:00Z');
    expect(guideDates('America/New_York', now, 2)).toEqual(['2026-11-20', '2026-11-21']);
    expect(guideDates('Asia/Tokyo', now, 2)).toEqual(['2026-11-21', '2026-11-22']);
    expect(guideDates('UTC', new Date('2026-12-31T12:00:00Z'), 3)).toEqual(['2026-12-31', '2027-01-01', '2027-01-02']);
  });
});

describe('the XMLTV checker of the tests', () => {
  const head = '<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE tv SYSTEM "xmltv.dtd">\n<tv>';
  const channel = '<channel id="c"><display-name>C</display-name></channel>';
  const programme = (start: string, stop: string, inside = '<title>T</title>', name = 'c') => `<programme start="${start}" stop="${stop}" channel="${name}">${inside}</programme>`;
  const doc = (body: string) => `${head}${body}</tv>`;
  const ok = programme('20261121080000 +0000', '20261121090000 +0000');

  it('accepts a valid document', () => {
    expect(checkXmltv(doc(channel + ok)).programmes).toHaveLength(1);
  });

  it.each([
    ['a mismatched tag', doc(`${channel}<programme start="20261121080000 +0000" stop="20261121090000 +0000" channel="c"><title>T</desc></programme>`), XmlError],
    ['a bare ampersand', doc(`${channel}${programme('20261121080000 +0000', '20261121090000 +0000', '<title>A & B</title>')}`), XmlError],
    ['an unknown entity', doc(`${channel}${programme('20261121080000 +0000', '20261121090000 +0000', '<title>&nbsp;</title>')}`), XmlError],
    ['a forbidden character', doc(`${channel}${programme('20261121080000 +0000', '20261121090000 +0000', '<title>\u0001</title>')}`), XmlError],
    ['a reference to a forbidden character', doc(`${channel}${programme('20261121080000 +0000', '20261121090000 +0000', '<title>&#1;</title>')}`), XmlError],
    ['an unquoted attribute', doc('<channel id=c><display-name>C</display-name></channel>'), XmlError],
    ['a duplicate attribute', doc('<channel id="c" id="d"><display-name>C</display-name></channel>'), XmlError],
    ['text after the root', `${doc(channel)}x`, XmlError],
    ['no DOCTYPE', `<?xml version="1.0" encoding="UTF-8"?><tv>${channel}</tv>`, XmltvError],
    ['a programme before a channel', doc(ok + channel), XmltvError],
    ['a channel without display-name', doc('<channel id="c"><icon src="x"/></channel>'), XmltvError],
    ['elements out of DTD order', doc(channel + programme('20261121080000 +0000', '20261121090000 +0000', '<title>T</title><icon src="x"/><desc>D</desc>')), XmltvError],
    ['a programme without title', doc(channel + programme('20261121080000 +0000', '20261121090000 +0000', '<desc>D</desc>')), XmltvError],
    ['an icon without src', doc(channel + programme('20261121080000 +0000', '20261121090000 +0000', '<title>T</title><icon/>')), XmltvError],
    ['a time without offset', doc(channel + programme('20261121080000', '20261121090000 +0000')), XmltvError],
    ['stop before start', doc(channel + programme('20261121090000 +0000', '20261121080000 +0000')), XmltvError],
    ['stop at start in another offset', doc(channel + programme('20261121090000 +0100', '20261121080000 +0000')), XmltvError],
    ['an undeclared channel', doc(channel + programme('20261121080000 +0000', '20261121090000 +0000', '<title>T</title>', 'd')), XmltvError],
    ['overlapping programmes', doc(channel + ok + programme('20261121083000 +0000', '20261121093000 +0000')), XmltvError],
  ])('refuses %s', (_what, text, error) => {
    expect(() => checkXmltv(text)).toThrow(error);
  });
});
