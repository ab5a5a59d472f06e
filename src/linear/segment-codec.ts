// How an ingested video's segments are kept (video_hls.segments): one text, about 900 segments an
// hour of 4-second video, so compactness matters more than readability. Durations are kept once
// (every variant has the same, ingest refuses otherwise) as whole milliseconds; each variant's URIs
// as the longest prefix they share plus what differs; byte ranges as [length, offset] pairs.
// The ladder (video_hls.ladder) is the IngestedVideo without durations, URIs and byte ranges.
import type { ByteRange, IngestedVariant, IngestedVideo } from './types.ts';

/** The ladder part of an IngestedVideo, as video_hls.ladder keeps it. */
export type StoredLadder = Omit<IngestedVideo, 'durationsMs' | 'variants'> & {
  variants: Omit<IngestedVariant, 'segmentUris' | 'byteRanges'>[];
};

interface StoredVariantSegments {
  /** The prefix every URI of the variant shares. */
  p: string;
  /** Each URI without the prefix. */
  u: string[];
  /** Byte ranges, [length, offset] or 0 where a segment has none; absent when no segment has one. */
  b?: ([number, number] | 0)[];
}

interface StoredSegments {
  /** Durations in ms. */
  d: number[];
  v: StoredVariantSegments[];
}

function sharedPrefix(values: readonly string[]): string {
  if (values.length === 0) return '';
  let prefix = values[0]!;
  for (const value of values) {
    let i = 0;
    while (i < prefix.length && i < value.length && prefix.charCodeAt(i) === value.charCodeAt(i)) i++;
    prefix = prefix.slice(0, i);
    if (prefix === '') break;
  }
  return prefix;
}

function encodeVariant(variant: IngestedVariant): StoredVariantSegments {
  const p = sharedPrefix(variant.segmentUris);
  const stored: StoredVariantSegments = { p, u: variant.segmentUris.map((uri) => uri.slice(p.length)) };
  if (variant.byteRanges?.some((r) => r)) stored.b = variant.byteRanges.map((r) => (r ? [r.length, r.offset] : 0));
  return stored;
}

/** The ladder and the segment text of an ingested video (the two columns ingest writes). */
export function encodeIngest(video: IngestedVideo): { ladder: StoredLadder; segments: string } {
  const { durationsMs, variants, ...rest } = video;
  const ladder: StoredLadder = {
    ...rest,
    variants: variants.map(({ segmentUris: _u, byteRanges: _b, ...variant }) => variant),
  };
  const stored: StoredSegments = { d: durationsMs, v: variants.map(encodeVariant) };
  return { ladder, segments: JSON.stringify(stored) };
}

function decodeRanges(b: StoredVariantSegments['b']): (ByteRange | null)[] | undefined {
  return b?.map((r) => (r === 0 ? null : { length: r[0], offset: r[1] }));
}

/** The IngestedVideo back from its two columns. */
export function decodeIngest(ladder: StoredLadder, segments: string): IngestedVideo {
  const stored = JSON.parse(segments) as StoredSegments;
  return {
    ...ladder,
    durationsMs: stored.d,
    variants: ladder.variants.map((variant, i) => {
      const s = stored.v[i]!;
      const byteRanges = decodeRanges(s.b);
      return { ...variant, segmentUris: s.u.map((rest) => s.p + rest), ...(byteRanges ? { byteRanges } : {}) };
    }),
  };
}
