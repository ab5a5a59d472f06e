import { describe, expect, it } from 'vitest';
import { decodeIngest, encodeIngest } from '../src/linear/segment-codec.ts';
import type { IngestedVideo } from '../src/linear/types.ts';

function video(segments: number): IngestedVideo {
  const uris = (rung: string) => Array.from({ length: segments }, (_, i) => `https://media.example/v/${rung}/seg_${String(i).padStart(5, '0')}.ts`);
  return {
    container: 'ts',
    version: 3,
    targetDurationSeconds: 4,
    durationsMs: Array.from({ length: segments }, (_, i) => (i === segments - 1 ? 1_500 : 4_000)),
    variants: [
      {
        bandwidth: 800_000,
        resolution: { width: 640, height: 360 },
        codecs: 'avc1.4d401e,mp4a.40.2',
        playlistUri: 'https://media.example/v/360/index.m3u8',
        segmentUris: uris('360'),
      },
      {
        bandwidth: 2_500_000,
        resolution: { width: 1280, height: 720 },
        codecs: 'avc1.4d401f,mp4a.40.2',
        playlistUri: 'https://media.example/v/720/index.m3u8',
        segmentUris: uris('720'),
        byteRanges: uris('720').map((_, i) => (i % 2 ? { length: 1000, offset: i * 1000 } : null)),
      },
    ],
  };
}

describe('segment codec', () => {
  it('gives back exactly what it kept', () => {
    const original = video(50);
    const { ladder, segments } = encodeIngest(original);
    expect(decodeIngest(JSON.parse(JSON.stringify(ladder)), segments)).toEqual(original);
  });

  it('keeps an hour of 4-second segments in two variants compactly (the shared prefix once)', () => {
    const { segments } = encodeIngest(video(900));
    // Each URI's own part is "00012.ts": about 11 bytes a segment a variant, plus its duration.
    expect(segments.length).toBeLessThan(900 * 2 * 12 + 900 * 6 + 900 * 12);
    expect(segments.split('https://media.example').length - 1).toBe(2);
  });

  it('keeps a video with no segments', () => {
    const empty = { ...video(0) };
    expect(decodeIngest(encodeIngest(empty).ladder, encodeIngest(empty).segments)).toEqual({ ...empty, variants: empty.variants.map(({ byteRanges: _b, ...v }) => ({ ...v })) });
  });
});
