// The pure parts of the live outputs (docs/linear.md): guide numbers (unique per app, the app's own
// numbers kept), the M3U writer (nothing from the catalog can break an attribute or add a line)
// and the HDHomeRun tuner's documents.
import { describe, expect, it } from 'vitest';
import { deviceId, deviceXml, discoverDocument, lineupDocument, LINEUP_STATUS } from '../src/linear/hdhr.ts';
import { guideNumbers } from '../src/linear/guide-numbers.ts';
import { m3uText, writeM3u, type M3uEntry } from '../src/linear/m3u.ts';

const entry = (channelId: number, extra: Partial<M3uEntry> = {}): M3uEntry => ({
  channelId,
  guideNumber: String(channelId),
  xmltvId: `channel-${channelId}.channelnet`,
  name: `Channel ${channelId}`,
  logoUrl: null,
  group: 'News',
  url: `https://tv.example/api/v1/live/KEY/${channelId}/master.m3u8`,
  ...extra,
});

/** Each #EXTINF line's attributes as an IPTV parser reads them (name="value" pairs up to the first comma outside quotes). */
function parseM3u(text: string) {
  const lines = text.split('\n');
  expect(lines.at(-1)).toBe('');
  expect(lines[0]).toMatch(/^#EXTM3U /);
  const entries = [];
  for (let i = 1; i < lines.length - 1; i += 2) {
    const info = /^#EXTINF:-1((?: [a-z-]+="[^"]*")*),(.*)$/.exec(lines[i]!);
    expect(info, lines[i]).not.toBeNull();
    const attributes = Object.fromEntries([...info![1]!.matchAll(/ ([a-z-]+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    expect(lines[i + 1]).not.toMatch(/^#/);
    entries.push({ attributes, title: info![2], url: lines[i + 1] });
  }
  return entries;
}

describe('guide numbers', () => {
  it("keeps the app's own tuner-shaped numbers and numbers the rest by place, never twice", () => {
    const numbers = guideNumbers([
      { channelId: 10, channelNumber: null },
      { channelId: 11, channelNumber: '1' },
      { channelId: 12, channelNumber: ' 7 ' },
      { channelId: 13, channelNumber: '7' }, // a duplicate: numbered by place
      { channelId: 14, channelNumber: 'seven' },
      { channelId: 15, channelNumber: '5.1' },
      { channelId: 16, channelNumber: null },
    ]);
    expect(Object.fromEntries(numbers)).toEqual({ 10: '2', 11: '1', 12: '7', 13: '4', 14: '5', 15: '5.1', 16: '8' });
  });

  it('are unique for any mix of numbers', () => {
    for (let seed = 1; seed < 200; seed += 1) {
      const assignments = Array.from({ length: 1 + (seed % 23) }, (_, i) => ({
        channelId: 100 + i,
        channelNumber: (seed * (i + 3)) % 4 === 0 ? null : String(((seed * 7 + i * 13) % 9) + 1),
      }));
      const numbers = [...guideNumbers(assignments).values()];
      expect(numbers).toHaveLength(assignments.length);
      expect(new Set(numbers).size).toBe(numbers.length);
    }
  });
});

describe('the M3U writer', () => {
  it('writes the guide, then per channel its EXTINF line and its master URL', () => {
    const text = writeM3u('https://tv.example/api/v1/rest/epg/KEY.xml', [entry(201, { guideNumber: '7', logoUrl: 'https://img.example/201.png' }), entry(202)]);
    expect(text).toBe(
      '#EXTM3U url-tvg="https://tv.example/api/v1/rest/epg/KEY.xml" x-tvg-url="https://tv.example/api/v1/rest/epg/KEY.xml"\n' +
        '#EXTINF:-1 tvg-id="channel-201.channelnet" tvg-chno="7" tvg-name="Channel 201" tvg-logo="https://img.example/201.png" group-title="News",Channel 201\n' +
        'https://tv.example/api/v1/live/KEY/201/master.m3u8\n' +
        '#EXTINF:-1 tvg-id="channel-202.channelnet" tvg-chno="202" tvg-name="Channel 202" group-title="News",Channel 202\n' +
        'https://tv.example/api/v1/live/KEY/202/master.m3u8\n',
    );
  });

  it('no name, group or logo can end an attribute or inject a line', () => {
    const attack = 'Evil" tvg-id="channel-1.channelnet\n#EXTINF:-1,Fake\nhttp://evil.example/x.m3u8\r\u2028\u0085end';
    const text = writeM3u('https://tv.example/g.xml', [
      entry(201, { name: attack, group: 'G" group-title="x\nY', logoUrl: 'https://img.example/a.png" tvg-id="x' }),
      entry(202, { logoUrl: 'javascript:alert(1)' }),
      entry(203, { name: '\n"\n' }),
    ]);
    const read = parseM3u(text);
    expect(read.map((e) => e.url)).toEqual([201, 202, 203].map((id) => `https://tv.example/api/v1/live/KEY/${id}/master.m3u8`));
    expect(read.map((e) => e.attributes['tvg-id'])).toEqual(['channel-201.channelnet', 'channel-202.channelnet', 'channel-203.channelnet']);
    expect(read[0]!.attributes['tvg-name']).toBe("Evil' tvg-id='channel-1.channelnet #EXTINF:-1,Fake http://evil.example/x.m3u8 end");
    expect(read[0]!.title).toBe(read[0]!.attributes['tvg-name']);
    expect(read[0]!.attributes['group-title']).toBe("G' group-title='x Y");
    // A logo with a quote or another scheme is left out rather than mended.
    expect(read[0]!.attributes['tvg-logo']).toBeUndefined();
    expect(read[1]!.attributes['tvg-logo']).toBeUndefined();
    expect(read[2]!.title).toBe("'");
    expect(m3uText(' a\t\tb ')).toBe('a b');
  });
});

describe('the HDHomeRun documents', () => {
  const device = { baseUrl: 'https://tv.example/hdhr/KEY', friendlyName: 'Alice <TV> & co', tunerCount: 2, key: 'KEY' };

  it('discover.json has the fields media servers read, a DeviceID of 8 hex digits from the key', () => {
    const discover = discoverDocument(device);
    expect(discover).toMatchObject({
      FriendlyName: 'Alice <TV> & co',
      TunerCount: 2,
      BaseURL: device.baseUrl,
      LineupURL: `${device.baseUrl}/lineup.json`,
      ModelNumber: 'HDTC-2US',
      DeviceAuth: '',
    });
    expect(discover.DeviceID).toMatch(/^[0-9A-F]{8}$/);
    expect(deviceId('KEY')).toBe(discover.DeviceID);
    expect(deviceId('OTHER')).not.toBe(discover.DeviceID);
    expect(LINEUP_STATUS).toEqual({ ScanInProgress: 0, ScanPossible: 1, Source: 'Cable', SourceList: ['Cable'] });
  });

  it('lineup.json: GuideNumber is the M3U number, URLs without query strings', () => {
    expect(lineupDocument(device.baseUrl, [entry(201, { guideNumber: '7' })])).toEqual([{ GuideNumber: '7', GuideName: 'Channel 201', URL: 'https://tv.example/hdhr/KEY/201.ts' }]);
  });

  it('device.xml is UPnP with the name escaped', () => {
    const xml = deviceXml(device);
    expect(xml).toContain('<friendlyName>Alice &lt;TV&gt; &amp; co</friendlyName>');
    expect(xml).toContain('<URLBase>https://tv.example/hdhr/KEY</URLBase>');
    expect(xml).toMatch(/<UDN>uuid:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}<\/UDN>/);
  });
});
