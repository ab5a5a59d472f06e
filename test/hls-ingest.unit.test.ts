// Reading a creator's HLS playlists into an ingested video, and each refusal (src/linear/hls-ingest.ts).
import { describe, expect, it } from 'vitest';
import { readTopPlaylist, readVariants, type PlaylistText, type VariantRef } from '../src/linear/hls-ingest.ts';
import { decodeIngest, encodeIngest } from '../src/linear/segment-codec.ts';
import type { IngestedVideo } from '../src/linear/types.ts';

const BASE = 'https://media.example.com/show/ep1/';

interface MediaOptions {
  segments?: number;
  seconds?: number | ((i: number) => number);
  target?: number;
  head?: string[];
  end?: boolean;
  ext?: string;
  prefix?: string;
  perSegment?: (i: number) => string[];
}

function mediaText({
  segments = 3,
  seconds = 4,
  target = 4,
  head = ['#EXT-X-PLAYLIST-TYPE:VOD'],
  end = true,
  ext = 'ts',
  prefix = 'seg',
  perSegment = () => [],
}: MediaOptions = {}): string {
  const lines = ['#EXTM3U', '#EXT-X-VERSION:3', `#EXT-X-TARGETDURATION:${target}`, ...head];
  for (let i = 0; i < segments; i++) {
    const d = typeof seconds === 'function' ? seconds(i) : seconds;
    lines.push(...perSegment(i), `#EXTINF:${d.toFixed(6)},`, `${prefix}${i}.${ext}`);
  }
  if (end) lines.push('#EXT-X-ENDLIST');
  return `${lines.join('\n')}\n`;
}

const MULTI = `#EXTM3U
#EXT-X-STREAM-INF:BANDWIDTH=800000,AVERAGE-BANDWIDTH=700000,RESOLUTION=640x360,CODECS="avc1.42c01e,mp4a.40.2",FRAME-RATE=25.000
360p/index.m3u8
#EXT-X-STREAM-INF:BANDWIDTH=2500000,RESOLUTION=1280x720,CODECS="avc1.4d401f,mp4a.40.2",FRAME-RATE=25.000
https://cdn.example.com/ep1/720p/index.m3u8
#EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=100000,URI="iframes.m3u8"
`;

function ladder(text = MULTI): VariantRef[] {
  const top = readTopPlaylist({ url: `${BASE}master.m3u8`, text });
  if (!top.ok || top.kind !== 'multivariant') throw new Error(JSON.stringify(top));
  return top.variants;
}

function ingest(texts: string[], variants = ladder()): ReturnType<typeof readVariants> {
  const media: PlaylistText[] = texts.map((text, i) => ({ url: variants[i]!.playlistUri, text }));
  return readVariants(variants, media);
}

function refusalOf(result: ReturnType<typeof readVariants>) {
  if (!('ok' in result)) throw new Error('expected a refusal');
  return result;
}

describe('an HLS video read', () => {
  it('reads a two-rung ladder: its rungs, absolute URIs, durations, container and target', () => {
    const video = ingest([mediaText({ seconds: (i) => (i === 2 ? 2.5 : 4) }), mediaText({ seconds: (i) => (i === 2 ? 2.5 : 4) })]) as IngestedVideo;
    expect(video.container).toBe('ts');
    expect(video.version).toBe(3);
    expect(video.targetDurationSeconds).toBe(4);
    expect(video.durationsMs).toEqual([4000, 4000, 2500]);
    expect(video.variants).toHaveLength(2);
    expect(video.variants[0]).toMatchObject({
      bandwidth: 800_000,
      averageBandwidth: 700_000,
      resolution: { width: 640, height: 360 },
      codecs: 'avc1.42c01e,mp4a.40.2',
      frameRate: 25,
      playlistUri: `${BASE}360p/index.m3u8`,
      segmentUris: [`${BASE}360p/seg0.ts`, `${BASE}360p/seg1.ts`, `${BASE}360p/seg2.ts`],
    });
    expect(video.variants[1]!.segmentUris[0]).toBe('https://cdn.example.com/ep1/720p/seg0.ts');
    expect(video.variants[1]!.byteRanges).toBeUndefined();
  });

  it('takes a media playlist alone as a one-variant ladder', () => {
    const top = readTopPlaylist({ url: `${BASE}index.m3u8`, text: mediaText() });
    expect(top).toEqual({ ok: true, kind: 'media', variant: { playlistUri: `${BASE}index.m3u8`, bandwidth: 0 } });
    if (!top.ok || top.kind !== 'media') return;
    const video = readVariants([top.variant], [{ url: `${BASE}index.m3u8`, text: mediaText() }]) as IngestedVideo;
    expect(video.variants).toHaveLength(1);
    expect(video.durationsMs).toEqual([4000, 4000, 4000]);
  });

  it('records fMP4 init sections, byte ranges and the muxed audio group', () => {
    const fmp4 = `#EXTM3U
#EXT-X-VERSION:7
#EXT-X-TARGETDURATION:4
#EXT-X-PLAYLIST-TYPE:VOD
#EXT-X-MAP:URI="init.mp4",BYTERANGE="720@0"
#EXTINF:4.0,
#EXT-X-BYTERANGE:1000@720
video.mp4
#EXTINF:4.0,
#EXT-X-BYTERANGE:900
video.mp4
#EXT-X-ENDLIST
`;
    const variants = ladder(`#EXTM3U
#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",NAME="English",DEFAULT=YES
#EXT-X-STREAM-INF:BANDWIDTH=800000,CODECS="avc1.42c01e,mp4a.40.2",AUDIO="aac"
a/index.m3u8
`);
    const video = ingest([fmp4], variants) as IngestedVideo;
    expect(video.container).toBe('fmp4');
    expect(video.version).toBe(7);
    expect(video.variants[0]).toMatchObject({
      audioGroup: 'aac',
      map: { uri: `${BASE}a/init.mp4`, byteRange: { length: 720, offset: 0 } },
      byteRanges: [
        { length: 1000, offset: 720 },
        { length: 900, offset: 1720 },
      ],
    });
    // What is stored comes back the same.
    const { ladder: stored, segments } = encodeIngest(video);
    expect(decodeIngest(stored, segments)).toEqual(video);
  });

  it('allows a variant 1 ms off on a segment, not more', () => {
    const off = (ms: number) => mediaText({ seconds: (i) => (i === 1 ? 4 + ms / 1000 : 4) });
    expect('ok' in ingest([off(0), off(1)])).toBe(false);
    expect(refusalOf(ingest([off(0), off(2)])).code).toBe('variants_differ');
  });
});

describe('what ingest refuses, each with its reason', () => {
  const cases: Array<[string, string, () => ReturnType<typeof readVariants>]> = [
    ['encrypted (EXT-X-KEY AES-128)', 'encrypted', () => ingest([mediaText({ head: ['#EXT-X-PLAYLIST-TYPE:VOD', '#EXT-X-KEY:METHOD=AES-128,URI="key.bin"'] }), mediaText()])],
    [
      'encrypted (SAMPLE-AES on a later segment)',
      'encrypted',
      () => ingest([mediaText(), mediaText({ perSegment: (i) => (i === 2 ? ['#EXT-X-KEY:METHOD=SAMPLE-AES,URI="k"'] : []) })]),
    ],
    ['live (no type, no ENDLIST)', 'live_playlist', () => ingest([mediaText({ head: [], end: false }), mediaText()])],
    ['EVENT', 'event_playlist', () => ingest([mediaText({ head: ['#EXT-X-PLAYLIST-TYPE:EVENT'] }), mediaText()])],
    ['VOD without ENDLIST', 'no_endlist', () => ingest([mediaText({ end: false }), mediaText()])],
    ['a segment longer than the target duration (4.5 rounds to 5 > 4)', 'segment_too_long', () => ingest([mediaText({ seconds: (i) => (i === 1 ? 4.5 : 4) }), mediaText()])],
    ['variants with different segment counts', 'variants_differ', () => ingest([mediaText({ segments: 3 }), mediaText({ segments: 4 })])],
    ['variants with different durations', 'variants_differ', () => ingest([mediaText({ seconds: 4 }), mediaText({ seconds: (i) => (i === 0 ? 3 : 4) })])],
    ['more segments than MAX_INGEST_SEGMENTS', 'too_many_segments', () => ingest([mediaText({ segments: 20_001, seconds: 1, target: 1 }), mediaText()])],
    ['mixed containers in a playlist', 'mixed_containers', () => ingest([mediaText({ perSegment: () => [] }).replace('seg1.ts', 'seg1.m4s'), mediaText()])],
    [
      'mixed containers across variants',
      'mixed_containers',
      () => ingest([mediaText(), mediaText({ ext: 'mp4', head: ['#EXT-X-PLAYLIST-TYPE:VOD', '#EXT-X-MAP:URI="init.mp4"'] }).replace('VERSION:3', 'VERSION:7')]),
    ],
    ['fMP4 without EXT-X-MAP', 'fmp4_without_map', () => ingest([mediaText({ ext: 'm4s' }), mediaText({ ext: 'm4s' })])],
    ['a discontinuity inside the video', 'not_continuous', () => ingest([mediaText({ perSegment: (i) => (i === 1 ? ['#EXT-X-DISCONTINUITY'] : []) }), mediaText()])],
    ['packed audio segments', 'not_video', () => ingest([mediaText({ ext: 'aac' }), mediaText({ ext: 'aac' })])],
    ['a segment URI that is not http(s)', 'bad_uri', () => ingest([mediaText({ prefix: 'file:///etc/seg' }), mediaText()])],
    ['no segments', 'no_segments', () => ingest([mediaText({ segments: 0 }), mediaText()])],
    ['a variant playlist that is not HLS', 'not_hls', () => ingest(['<html>Not found</html>', mediaText()])],
  ];
  it.each(cases)('%s', (_name, code, run) => {
    const refusal = refusalOf(run());
    expect(refusal.code).toBe(code);
    expect(refusal.message.length).toBeGreaterThan(20);
  });

  it('a first playlist that is not HLS', () => {
    const top = readTopPlaylist({ url: `${BASE}master.m3u8`, text: '<!doctype html><title>Oops</title>' });
    expect(top).toMatchObject({ ok: false, code: 'not_hls' });
  });

  it('demuxed audio (an AUDIO rendition with a URI)', () => {
    const top = readTopPlaylist({
      url: `${BASE}master.m3u8`,
      text: `#EXTM3U
#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="en",DEFAULT=YES,URI="audio/index.m3u8"
#EXT-X-STREAM-INF:BANDWIDTH=800000,CODECS="avc1.42c01e,mp4a.40.2",AUDIO="aud"
v/index.m3u8
`,
    });
    expect(top).toMatchObject({ ok: false, code: 'demuxed_audio' });
  });

  it('an encrypted session key, and too many variants', () => {
    const keyed = `#EXTM3U\n#EXT-X-SESSION-KEY:METHOD=AES-128,URI="k"\n#EXT-X-STREAM-INF:BANDWIDTH=1\na.m3u8\n`;
    expect(readTopPlaylist({ url: `${BASE}m.m3u8`, text: keyed })).toMatchObject({ ok: false, code: 'encrypted' });
    const many = `#EXTM3U\n${Array.from({ length: 13 }, (_, i) => `#EXT-X-STREAM-INF:BANDWIDTH=${i + 1}\nv${i}.m3u8`).join('\n')}\n`;
    expect(readTopPlaylist({ url: `${BASE}m.m3u8`, text: many })).toMatchObject({ ok: false, code: 'too_many_variants' });
  });
});

describe('a 10-hour video', () => {
  it('parses and encodes 9,000 segments of two variants', () => {
    const texts = [mediaText({ segments: 9000, seconds: 4, prefix: 'segment_000' }), mediaText({ segments: 9000, seconds: 4, prefix: 'segment_000' })];
    const started = process.cpuUsage();
    const video = ingest(texts) as IngestedVideo;
    const { ladder: stored, segments } = encodeIngest(video);
    const cpu = process.cpuUsage(started);
    console.log(`9,000 segments x 2 variants: parse + encode ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms CPU, ${segments.length.toLocaleString('en-US')} bytes stored`);
    expect(video.durationsMs).toHaveLength(9000);
    expect(video.variants.every((v) => v.segmentUris.length === 9000)).toBe(true);
    expect(decodeIngest(stored, segments).variants[1]!.segmentUris[8999]).toBe('https://cdn.example.com/ep1/720p/segment_0008999.ts');
  });
});
