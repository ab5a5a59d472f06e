// The live playlists of a channel (docs/linear.md): a pure function of the ledger rows (what
// has aired, src/linear/ledger.ts), the next programme's start, the videos' ingests, the settings
// and the clock.
// - The window: the segments started by now (the one in progress included, so a player's date
//   is near now), the latest first, as many as cover windowSeconds; they leave from the front only.
// - EXT-X-MEDIA-SEQUENCE and -DISCONTINUITY-SEQUENCE are the first segment's numbers; a segment's
//   numbers come from its programme's row, so they never change while it is in the window.
// - EXT-X-DISCONTINUITY before each programme's first segment and each slate stretch, never
//   before the window's first segment; EXT-X-PROGRAM-DATE-TIME on every segment (the schedule's
//   instant, ISO UTC with ms); EXT-X-MAP on the first segment and after each discontinuity when
//   the segment has one (fMP4); no ENDLIST, no PLAYLIST-TYPE; the channel's one target duration.
// - VERSION: 3, 4 when a segment of the window has a byte range, 6 with EXT-X-MAP (what the
//   window's tags need; players read it per playlist).
import type { LedgerRow, SourceOf } from './ledger.ts';
import { slateRungFor } from './ladder.ts';
import { programmeSegments } from './programme-segments.ts';
import type { LadderVariant, LinearSettings, LiveSegment } from './types.ts';

export interface WindowInput {
  settings: Pick<LinearSettings, 'targetDurationSeconds' | 'windowSeconds' | 'ladder'>;
  /** The ledger rows by start, none after now. */
  rows: readonly LedgerRow[];
  /** The start of the first programme after now (Infinity: none known). */
  nextStart: number;
  sourceOf: SourceOf;
  offsetOf: (row: LedgerRow) => number;
  now: number;
  /** Where the slate is served ("/api/v1/live/slate", under PUBLIC_URL when set). */
  slateBase: string;
}

/** How far back segments are made before the window is cut to windowSeconds. */
const lookBack = (s: WindowInput['settings']) => (s.windowSeconds + 2 * s.targetDurationSeconds + 1) * 1000;

/** The first row whose programme can hold a segment at or after `lo`. */
function firstRowFrom(rows: readonly LedgerRow[], lo: number): number {
  let a = 0;
  let b = rows.length;
  while (a < b) {
    const mid = (a + b) >> 1;
    if (rows[mid]!.programmeStart <= lo) a = mid + 1;
    else b = mid;
  }
  return Math.max(0, a - 1);
}

/** The window of rung `rung`: its segments, oldest first. */
export function liveWindow(input: WindowInput, rung: number): LiveSegment[] {
  const { rows, settings, now } = input;
  const lo = now - lookBack(settings);
  const slate = `${input.slateBase}/${slateRungFor(settings.ladder[rung] ?? { bandwidth: 0 })}`;
  const all: LiveSegment[] = [];
  for (let r = firstRowFrom(rows, lo); r < rows.length; r++) {
    const row = rows[r]!;
    const end = r + 1 < rows.length ? rows[r + 1]!.programmeStart : input.nextStart;
    const source = row.videoId ? input.sourceOf(row.videoId) : undefined;
    const plan = { start: row.programmeStart, end, source, offset: source ? input.offsetOf(row) : 0 };
    const variant = source ? source.video.variants[source.variants[rung]!] : undefined;
    for (const s of programmeSegments(plan, lo, now)) {
      const segment: LiveSegment = {
        mediaSequence: row.mediaSequence + s.j,
        discontinuitySequence: row.discontinuitySequence + s.innerDiscontinuities,
        discontinuity: s.discontinuity,
        programDateTime: s.start,
        durationMs: s.durationMs,
        uri: variant && s.videoIndex >= 0 ? variant.segmentUris[s.videoIndex]! : `${slate}/${s.slateFile}.ts`,
        videoId: s.videoIndex >= 0 ? row.videoId : 0,
        programmeStart: row.programmeStart,
      };
      const range = variant && s.videoIndex >= 0 ? variant.byteRanges?.[s.videoIndex] : undefined;
      if (range) segment.byteRange = range;
      if (variant?.map && s.videoIndex >= 0) segment.map = variant.map;
      all.push(segment);
    }
  }
  return cutToWindow(all, settings.windowSeconds * 1000);
}

/** The latest segments covering `windowMs`. */
function cutToWindow(segments: LiveSegment[], windowMs: number): LiveSegment[] {
  let covered = 0;
  let first = segments.length;
  while (first > 0 && covered < windowMs) covered += segments[--first]!.durationMs;
  return segments.slice(first);
}

const range = (r: { length: number; offset: number }) => `${r.length}@${r.offset}`;

/** The media playlist text of a window. */
export function mediaPlaylist(segments: readonly LiveSegment[], targetDurationSeconds: number): string {
  const first = segments[0];
  const version = segments.some((s) => s.map) ? 6 : segments.some((s) => s.byteRange) ? 4 : 3;
  const lines = [
    '#EXTM3U',
    `#EXT-X-VERSION:${version}`,
    `#EXT-X-TARGETDURATION:${targetDurationSeconds}`,
    `#EXT-X-MEDIA-SEQUENCE:${first?.mediaSequence ?? 0}`,
    `#EXT-X-DISCONTINUITY-SEQUENCE:${first?.discontinuitySequence ?? 0}`,
    '#EXT-X-INDEPENDENT-SEGMENTS',
  ];
  segments.forEach((s, i) => {
    if (s.discontinuity && i > 0) lines.push('#EXT-X-DISCONTINUITY');
    if (s.map && (i === 0 || s.discontinuity)) lines.push(`#EXT-X-MAP:URI="${s.map.uri}"${s.map.byteRange ? `,BYTERANGE="${range(s.map.byteRange)}"` : ''}`);
    lines.push(`#EXT-X-PROGRAM-DATE-TIME:${new Date(s.programDateTime).toISOString()}`);
    if (s.byteRange) lines.push(`#EXT-X-BYTERANGE:${range(s.byteRange)}`);
    lines.push(`#EXTINF:${(s.durationMs / 1000).toFixed(3)},`, s.uri);
  });
  return lines.join('\n') + '\n';
}

/** The multivariant playlist: one EXT-X-STREAM-INF per ladder rung, naming `{rung}.m3u8` beside it. */
export function masterPlaylist(ladder: readonly LadderVariant[]): string {
  const lines = ['#EXTM3U', '#EXT-X-VERSION:3', '#EXT-X-INDEPENDENT-SEGMENTS'];
  ladder.forEach((v, i) => {
    const attrs = [`BANDWIDTH=${v.bandwidth}`];
    if (v.averageBandwidth) attrs.push(`AVERAGE-BANDWIDTH=${v.averageBandwidth}`);
    if (v.resolution) attrs.push(`RESOLUTION=${v.resolution.width}x${v.resolution.height}`);
    if (v.codecs) attrs.push(`CODECS="${v.codecs}"`);
    if (v.frameRate) attrs.push(`FRAME-RATE=${v.frameRate.toFixed(3)}`);
    lines.push(`#EXT-X-STREAM-INF:${attrs.join(',')}`, `${i}.m3u8`);
  });
  return lines.join('\n') + '\n';
}

/** When the window changes next: its last segment's end (a new segment starts then). */
export function nextChange(segments: readonly LiveSegment[], now: number): number {
  const last = segments.at(-1);
  return last ? last.programDateTime + last.durationMs : now + 1000;
}
