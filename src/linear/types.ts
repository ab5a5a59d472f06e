// The shared vocabulary of linear output (docs/linear.md): what HLS ingest stores for a video, a
// channel's output ladder, and what the live playlists are made of. Pure types: no I/O.
//
// Flow: a video's HLS playlist is read once (src/linear/ingest.ts) into an IngestedVideo; a
// channel's LinearSettings fix the output ladder and target duration; each on-air programme maps
// its video's variants onto the ladder (src/linear/ladder.ts), or airs the slate; the live
// playlists (src/linear/live-playlist.ts) are a pure function of the on-air timeline, the ledger
// and the clock.

/** The segment container: MPEG-TS, or fragmented MP4 (with an EXT-X-MAP init section). */
export type Container = 'ts' | 'fmp4';

export interface Resolution {
  width: number;
  height: number;
}

export interface ByteRange {
  length: number;
  offset: number;
}

/** One rung of a ladder: what an EXT-X-STREAM-INF says of a variant. */
export interface LadderVariant {
  bandwidth: number;
  averageBandwidth?: number;
  resolution?: Resolution;
  /** RFC 6381 codecs, as the playlist wrote them (e.g. "avc1.64001f,mp4a.40.2"). */
  codecs?: string;
  frameRate?: number;
}

/** One variant of an ingested video: its rung, its media playlist and its segments. */
export interface IngestedVariant extends LadderVariant {
  /** The media playlist's absolute URI. */
  playlistUri: string;
  /** The AUDIO group its EXT-X-STREAM-INF names (muxed audio only: ingest refuses a group with a URI). */
  audioGroup?: string;
  /** Absolute URI of the EXT-X-MAP init section (fMP4), with its byte range when it has one. */
  map?: { uri: string; byteRange?: ByteRange };
  /** Absolute segment URIs, in order (same count as IngestedVideo.durationsMs). */
  segmentUris: string[];
  /** Per segment byte range, when the playlist used EXT-X-BYTERANGE (else absent). */
  byteRanges?: (ByteRange | null)[];
}

/**
 * A video's HLS source as ingest read it. Every variant has the same segment count and the same
 * durations (refused otherwise), so durations are kept once.
 */
export interface IngestedVideo {
  container: Container;
  /** The highest EXT-X-VERSION among its media playlists. */
  version: number;
  /** The largest EXT-X-TARGETDURATION among its media playlists (seconds). */
  targetDurationSeconds: number;
  /** Each segment's EXTINF in whole milliseconds (summed: the video's duration). */
  durationsMs: number[];
  variants: IngestedVariant[];
}

/** A channel's fixed output: the rungs its master playlist names, and the one target duration. */
export interface LinearSettings {
  channelId: number;
  enabled: boolean;
  container: Container;
  /** Never changes once the channel has aired (EXT-X-TARGETDURATION must not change). */
  targetDurationSeconds: number;
  /** The live window (default 60 s, at least 3 target durations). */
  windowSeconds: number;
  ladder: LadderVariant[];
  /** When linear output was first enabled (epoch ms): sequence numbers count from here. */
  epoch: number;
  version: number;
}

/** Why a programme does not play as itself in the stream (the Studio's coverage reasons). */
export type SlateReason =
  | 'not-hls' // YouTube, Vimeo, a direct file, or a stream that is not an HLS playlist
  | 'ingest-pending'
  | 'ingest-failed'
  | 'ladder-mismatch' // container or codec family differs, or no variant maps
  | 'segment-too-long' // a segment rounds above the channel's target duration
  | 'live-not-hls' // a live stream whose source is not HLS
  | 'gap'; // nothing scheduled

/** One segment of a live media playlist, as the window holds it. */
export interface LiveSegment {
  mediaSequence: number;
  /** The discontinuity sequence number of this segment. */
  discontinuitySequence: number;
  /** True on a programme's (or a slate stretch's) first segment: EXT-X-DISCONTINUITY before it. */
  discontinuity: boolean;
  /** Epoch ms: EXT-X-PROGRAM-DATE-TIME. */
  programDateTime: number;
  durationMs: number;
  uri: string;
  byteRange?: ByteRange;
  map?: { uri: string; byteRange?: ByteRange };
  /** The video this segment belongs to (0 for slate) and the programme's on-air start. */
  videoId: number;
  programmeStart: number;
}

/** One channel a live key lists (the M3U's entry, the tuner's lineup row): src/linear/live-access.ts. */
export interface LineupChannel {
  channelId: number;
  /** Unique within the app (src/linear/guide-numbers.ts): tvg-chno and the tuner's GuideNumber. */
  guideNumber: string;
  /** Exactly the XMLTV export's `<channel id>` of the channel: the M3U's tvg-id. */
  xmltvId: string;
  name: string;
  logoUrl: string | null;
  /** The channel's category name: the M3U's group-title. */
  group: string;
}
