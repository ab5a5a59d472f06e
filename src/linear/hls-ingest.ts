// Reading a creator's HLS video (docs/studio.md: HLS ingest): the multivariant playlist
// (or a media playlist alone: a one-variant ladder) and each variant's media playlist, as texts
// already fetched, into an IngestedVideo, or a refusal with its own code and a creator's words.
// Pure: the fetching is src/linear/ingest.ts's. Parsed with hls-parser (it reads and writes the
// whole spec, with no dependencies); what linear output cannot stitch is refused here, so the live
// playlists never meet it.
import * as HLS from 'hls-parser';
import type { ByteRange, Container, IngestedVariant, IngestedVideo, LadderVariant } from './types.ts';

/** Segments of one variant: a 10-hour video of 4 s segments is 9,000; 20,000 is 11 hours of 2 s ones. */
export const MAX_INGEST_SEGMENTS = 20_000;
/** Variants of one video (I-frame-only playlists are not counted: linear output does not use them). */
export const MAX_INGEST_VARIANTS = 12;
/** Bytes of all of a video's playlists together (each fetch is bounded on its own by safe-fetch.ts). */
export const MAX_INGEST_BYTES = 16 * 1024 * 1024;
/** How far one segment's duration may differ between variants, after rounding to whole ms. */
export const SEGMENT_TOLERANCE_MS = 1;
/** How far two variants' whole durations may differ (what the per-segment tolerance may add up to). */
export const TOTAL_TOLERANCE_MS = 100;

export type HlsRefusalCode =
  | 'not_hls'
  | 'encrypted'
  | 'live_playlist'
  | 'event_playlist'
  | 'no_endlist'
  | 'no_segments'
  | 'segment_too_long'
  | 'variants_differ'
  | 'too_many_segments'
  | 'too_many_variants'
  | 'too_many_bytes'
  | 'mixed_containers'
  | 'fmp4_without_map'
  | 'demuxed_audio'
  | 'not_continuous'
  | 'not_video'
  | 'bad_uri';

export interface HlsRefusal {
  ok: false;
  code: HlsRefusalCode;
  message: string;
}

/** A playlist as fetched: its final URL (relative URIs resolve against it) and its text. */
export interface PlaylistText {
  url: string;
  text: string;
}

/** A variant the multivariant playlist names: its rung, its audio group, its media playlist. */
export interface VariantRef extends LadderVariant {
  playlistUri: string;
  audioGroup?: string;
}

/** What the first playlist is: a multivariant playlist naming its variants, or the one media playlist. */
export type TopPlaylist = { ok: true; kind: 'multivariant'; variants: VariantRef[] } | { ok: true; kind: 'media'; variant: VariantRef } | HlsRefusal;

const refuse = (code: HlsRefusalCode, message: string): HlsRefusal => ({ ok: false, code, message });

/** hls-parser's options are process-wide: set only for the duration of one parse. */
function parseWith(text: string, strictMode: boolean): HLS.types.Playlist {
  const before = HLS.getOptions();
  HLS.setOptions({ ...before, strictMode, silent: true });
  try {
    return HLS.parse(text);
  } finally {
    HLS.setOptions(before);
  }
}

/**
 * The playlist, parsed strictly. Where the strict parse fails on a rule ingest names itself (a
 * segment over the target duration), a lenient parse lets `named` say so in its own words.
 */
function parse(text: string, named: (lenient: HLS.types.Playlist) => HlsRefusal | null = () => null): HLS.types.Playlist | HlsRefusal {
  try {
    return parseWith(text, true);
  } catch (error) {
    const why = error instanceof Error ? error.message.replace(/^Invalid Playlist : /, '') : 'unreadable';
    const unreadable = refuse('not_hls', `This is not an HLS playlist that can be read (${why}).`);
    if (!text.startsWith('#EXTM3U')) return unreadable;
    try {
      return named(parseWith(text, false)) ?? unreadable;
    } catch {
      return unreadable;
    }
  }
}

const isRefusal = (value: object): value is HlsRefusal => 'ok' in value && value.ok === false;

/** `uri` made absolute against `base`; only http(s) URIs are kept (a player could not fetch others). */
function absolute(uri: string, base: string): string | null {
  const url = URL.parse(uri, base);
  return url && (url.protocol === 'http:' || url.protocol === 'https:') ? url.href : null;
}

/** Reads the first playlist of a video: the ladder it names, or itself as the one variant. */
export function readTopPlaylist(top: PlaylistText): TopPlaylist {
  if (top.text.length > MAX_INGEST_BYTES) return refuse('too_many_bytes', `The playlist is larger than ${MAX_INGEST_BYTES / 1024 / 1024} MiB.`);
  const playlist = parse(top.text);
  if (isRefusal(playlist)) return playlist;
  if (!playlist.isMasterPlaylist) return { ok: true, kind: 'media', variant: { playlistUri: top.url, bandwidth: 0 } };
  return readMultivariant(playlist as HLS.types.MasterPlaylist, top.url);
}

function readMultivariant(playlist: HLS.types.MasterPlaylist, base: string): TopPlaylist {
  if (playlist.sessionKeyList.some((key) => key.method !== 'NONE'))
    return refuse('encrypted', 'The video is encrypted (EXT-X-SESSION-KEY); linear output needs unencrypted segments.');
  const variants = playlist.variants.filter((v) => !v.isIFrameOnly);
  if (variants.length === 0) return refuse('not_hls', 'The multivariant playlist names no variant (EXT-X-STREAM-INF).');
  if (variants.length > MAX_INGEST_VARIANTS) return refuse('too_many_variants', `The playlist names ${variants.length} variants; at most ${MAX_INGEST_VARIANTS} are read.`);
  const refs: VariantRef[] = [];
  for (const variant of variants) {
    if (variant.audio.some((rendition) => rendition.uri)) {
      return refuse(
        'demuxed_audio',
        'The audio is a separate rendition (EXT-X-MEDIA TYPE=AUDIO with a URI); linear output plays only video with its audio in the same segments (muxed audio).',
      );
    }
    const playlistUri = absolute(variant.uri, base);
    if (!playlistUri) return refuse('bad_uri', `The variant URI "${variant.uri.slice(0, 100)}" is not an http(s) address.`);
    refs.push({ playlistUri, ...rungOf(variant) });
  }
  return { ok: true, kind: 'multivariant', variants: refs };
}

function rungOf(variant: HLS.types.Variant): Omit<VariantRef, 'playlistUri'> {
  const audioGroup = variant.audio[0]?.groupId;
  return {
    bandwidth: variant.bandwidth,
    ...(variant.averageBandwidth !== undefined ? { averageBandwidth: variant.averageBandwidth } : {}),
    ...(variant.resolution ? { resolution: { width: variant.resolution.width, height: variant.resolution.height } } : {}),
    ...(variant.codecs ? { codecs: variant.codecs } : {}),
    ...(variant.frameRate !== undefined ? { frameRate: variant.frameRate } : {}),
    ...(audioGroup !== undefined ? { audioGroup } : {}),
  };
}

/** One media playlist read: the variant with its segments, and what the video-level fields need. */
interface ReadMedia {
  variant: IngestedVariant;
  container: Container;
  version: number;
  targetDurationSeconds: number;
  durationsMs: number[];
}

/**
 * The whole video from its variants' media playlists (in the order of `variants`), or the first
 * reason it cannot be stitched.
 */
export function readVariants(variants: readonly VariantRef[], media: readonly PlaylistText[]): IngestedVideo | HlsRefusal {
  const bytes = media.reduce((sum, m) => sum + m.text.length, 0);
  if (bytes > MAX_INGEST_BYTES) return refuse('too_many_bytes', `The playlists add up to more than ${MAX_INGEST_BYTES / 1024 / 1024} MiB.`);
  const read: ReadMedia[] = [];
  for (const [i, ref] of variants.entries()) {
    const one = readMedia(ref, media[i]!, variants.length > 1 ? ` (variant ${i + 1}, ${ref.bandwidth} b/s)` : '');
    if (isRefusal(one)) return one;
    read.push(one);
  }
  const first = read[0]!;
  if (read.some((r) => r.container !== first.container))
    return refuse('mixed_containers', 'The variants use different segment formats (MPEG-TS and fMP4); one video must use one.');
  const differ = read.find((r) => durationsDiffer(first.durationsMs, r.durationsMs));
  if (differ) {
    return refuse(
      'variants_differ',
      `The variants are not cut alike: ${first.durationsMs.length} segments of ${seconds(first.durationsMs)} s against ${differ.durationsMs.length} of ${seconds(differ.durationsMs)} s; every variant needs the same segment boundaries.`,
    );
  }
  return {
    container: first.container,
    version: Math.max(...read.map((r) => r.version)),
    targetDurationSeconds: Math.max(...read.map((r) => r.targetDurationSeconds)),
    durationsMs: first.durationsMs,
    variants: read.map((r) => r.variant),
  };
}

const seconds = (durations: readonly number[]) => (durations.reduce((s, d) => s + d, 0) / 1000).toFixed(3);

function durationsDiffer(a: readonly number[], b: readonly number[]): boolean {
  if (a.length !== b.length) return true;
  let drift = 0;
  for (let i = 0; i < a.length; i++) {
    const d = b[i]! - a[i]!;
    if (Math.abs(d) > SEGMENT_TOLERANCE_MS) return true;
    drift += d;
  }
  return Math.abs(drift) > TOTAL_TOLERANCE_MS;
}

const TS_EXTENSIONS = new Set(['ts', 'm2ts', 'mts']);
const FMP4_EXTENSIONS = new Set(['m4s', 'mp4', 'm4v', 'cmfv', 'm4f', 'fmp4']);
/** Packed audio and subtitles: a variant of these is not a video. */
const NOT_VIDEO_EXTENSIONS = new Set(['aac', 'mp3', 'ac3', 'ec3', 'vtt', 'webvtt', 'm4a']);

function extensionOf(uri: string): string {
  const path = URL.parse(uri)?.pathname ?? uri;
  const file = path.slice(path.lastIndexOf('/') + 1);
  const dot = file.lastIndexOf('.');
  return dot < 0 ? '' : file.slice(dot + 1).toLowerCase();
}

/** EXTINF tags in a text, counted without parsing it (a playlist past the bound is not parsed at all). */
function countSegments(text: string): number {
  let count = 0;
  for (let at = text.indexOf('#EXTINF'); at >= 0; at = text.indexOf('#EXTINF', at + 7)) count++;
  return count;
}

const tooManySegments = (count: number, where: string) =>
  refuse(
    'too_many_segments',
    `The playlist has ${count.toLocaleString('en-US')} segments${where}; at most ${MAX_INGEST_SEGMENTS.toLocaleString('en-US')} are read (11 hours of 2 s segments).`,
  );

function readMedia(ref: VariantRef, fetched: PlaylistText, where: string): ReadMedia | HlsRefusal {
  const count = countSegments(fetched.text);
  if (count > MAX_INGEST_SEGMENTS) return tooManySegments(count, where);
  const named = (lenient: HLS.types.Playlist) => (lenient.isMasterPlaylist ? null : mediaShapeProblem(lenient as HLS.types.MediaPlaylist, where));
  const playlist = parse(fetched.text, named);
  if (isRefusal(playlist)) return playlist.code === 'not_hls' ? { ...playlist, message: playlist.message.replace(/\.$/, `${where}.`) } : playlist;
  if (playlist.isMasterPlaylist) return refuse('not_hls', `A variant's playlist is itself a multivariant playlist${where}.`);
  const media = playlist as HLS.types.MediaPlaylist;
  const shape = mediaShapeProblem(media, where);
  if (shape) return shape;
  const segments = media.segments;
  const container = containerOf(media, where);
  if (typeof container !== 'string') return container;
  const segmentUris: string[] = [];
  const byteRanges: (ByteRange | null)[] = [];
  const durationsMs: number[] = [];
  for (const segment of segments) {
    const uri = absolute(segment.uri, fetched.url);
    if (!uri) return refuse('bad_uri', `The segment URI "${segment.uri.slice(0, 100)}" is not an http(s) address${where}.`);
    segmentUris.push(uri);
    byteRanges.push(segment.byterange ? { length: segment.byterange.length, offset: segment.byterange.offset } : null);
    durationsMs.push(Math.round(segment.duration * 1000));
  }
  const map = mapOf(segments[0]!.map, fetched.url);
  if (map === null) return refuse('bad_uri', `The EXT-X-MAP URI is not an http(s) address${where}.`);
  const { audioGroup, ...rung } = ref;
  const variant: IngestedVariant = {
    ...rung,
    playlistUri: fetched.url,
    ...(audioGroup !== undefined ? { audioGroup } : {}),
    ...(map ? { map } : {}),
    segmentUris,
    ...(byteRanges.some((r) => r) ? { byteRanges } : {}),
  };
  return { variant, container, version: media.version ?? 1, targetDurationSeconds: media.targetDuration, durationsMs };
}

/** The first thing that keeps a media playlist from being stitched, or null. */
function mediaShapeProblem(media: HLS.types.MediaPlaylist, where: string): HlsRefusal | null {
  const segments = media.segments;
  if (media.playlistType === 'EVENT')
    return refuse('event_playlist', `The playlist is an EVENT playlist (still being written)${where}; linear output needs a finished video (VOD).`);
  if (!media.endlist && media.playlistType !== 'VOD')
    return refuse('live_playlist', `The playlist is live (no EXT-X-ENDLIST)${where}; linear output needs a finished video (VOD).`);
  if (!media.endlist) return refuse('no_endlist', `The playlist has no EXT-X-ENDLIST${where}; a finished video ends with it.`);
  if (segments.length === 0) return refuse('no_segments', `The playlist has no segments${where}.`);
  if (segments.length > MAX_INGEST_SEGMENTS) return tooManySegments(segments.length, where);
  for (const [i, segment] of segments.entries()) {
    if (segment.key && segment.key.method !== 'NONE')
      return refuse('encrypted', `The video is encrypted (EXT-X-KEY METHOD=${segment.key.method})${where}; linear output needs unencrypted segments.`);
    // RFC 8216 4.3.3.1: each EXTINF, rounded to the nearest integer, is at most the target duration.
    if (Math.round(segment.duration) > media.targetDuration) {
      return refuse('segment_too_long', `Segment ${i + 1} lasts ${segment.duration} s, longer than the playlist's target duration of ${media.targetDuration} s${where}.`);
    }
    if (i > 0 && (segment.discontinuity || segment.gap)) {
      return refuse(
        'not_continuous',
        `The playlist has ${segment.gap ? 'a gap (EXT-X-GAP)' : 'a discontinuity (EXT-X-DISCONTINUITY)'} at segment ${i + 1}${where}; linear output needs one continuous encode.`,
      );
    }
    if (segment.map?.uri !== segments[0]!.map?.uri) return refuse('not_continuous', `The init section (EXT-X-MAP) changes at segment ${i + 1}${where}; linear output needs one.`);
  }
  return null;
}

/** The container the segments use, from EXT-X-MAP and their file extensions. */
function containerOf(media: HLS.types.MediaPlaylist, where: string): Container | HlsRefusal {
  const hasMap = media.segments[0]!.map !== undefined && media.segments[0]!.map !== null;
  const kinds = new Set<Container | 'unknown'>();
  for (const segment of media.segments) {
    const ext = extensionOf(segment.uri);
    if (NOT_VIDEO_EXTENSIONS.has(ext)) return refuse('not_video', `The segments are audio or subtitles (.${ext}), not video${where}.`);
    kinds.add(TS_EXTENSIONS.has(ext) ? 'ts' : FMP4_EXTENSIONS.has(ext) ? 'fmp4' : 'unknown');
  }
  if (kinds.has('ts') && kinds.has('fmp4')) return refuse('mixed_containers', `The playlist mixes MPEG-TS and fMP4 segments${where}.`);
  if (hasMap) return 'fmp4';
  if (kinds.has('fmp4')) return refuse('fmp4_without_map', `The segments are fragmented MP4 but the playlist has no EXT-X-MAP (their init section)${where}.`);
  // HLS's own default: segments without an init section are MPEG-TS.
  return 'ts';
}

function mapOf(map: HLS.types.MediaInitializationSection | undefined, base: string): IngestedVariant['map'] | undefined | null {
  if (!map) return undefined;
  const uri = absolute(map.uri, base);
  if (!uri) return null;
  return { uri, ...(map.byterange ? { byteRange: { length: map.byterange.length, offset: map.byterange.offset } } : {}) };
}
