// Linear output in a creator's words, pure: why a programme airs the slate instead of itself, a
// video's HLS ingest state and error, the coverage share, and ladder rungs. The API speaks in
// codes and playlist terms (EXT-X-KEY, ENDLIST); the console says what it means for the channel
// and what to do about it.
import type { Coverage, HlsState, Rung, SlateReason } from '../../api/linear.ts';

export const REASON_WORDS: Record<SlateReason, string> = {
  'not-hls': 'YouTube, Vimeo and direct files cannot be stitched: the slate airs, the guide still lists the programme.',
  'ingest-pending': 'Its HLS playlist has not been read yet: the slate airs until it is (Videos shows its state; Refresh reads it again).',
  'ingest-failed': 'Its HLS playlist could not be used (Videos says why): the slate airs, the guide still lists the programme.',
  'ladder-mismatch': "Its renditions do not fit the channel's ladder (another container or codec, or no rendition near a rung): the slate airs.",
  'segment-too-long': "Some of its segments are longer than the channel's target duration: the slate airs. Re-encode it with shorter segments.",
  'live-not-hls': 'A live stream that is not an HLS playlist cannot be relayed: the slate airs while it is live.',
  gap: 'Nothing is scheduled: the slate airs.',
};

const REASON_ORDER = Object.keys(REASON_WORDS) as SlateReason[];

/** A reason code in words; an unknown code (a newer server) is still said, never dropped. */
export const reasonWords = (reason: string): string => REASON_WORDS[reason as SlateReason] ?? `Airs the slate (${reason}).`;

/** 0.8734 -> "87.3%"; never "100%" unless all of it, never "0%" unless none. */
export function percent(share: number): string {
  if (!Number.isFinite(share) || share <= 0) return '0%';
  if (share >= 1) return '100%';
  const value = Math.min(99.9, Math.max(0.1, Math.round(share * 1000) / 10));
  return `${value.toFixed(1).replace(/\.0$/, '')}%`;
}

/** 3725 -> "1 h 2 min", 45 -> "45 s", 600 -> "10 min". */
export function span(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  const hours = Math.floor(s / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  if (hours === 0) return `${minutes} min`;
  return minutes === 0 ? `${hours} h` : `${hours} h ${minutes} min`;
}

/** The coverage's reasons, largest first, each with its airtime in words. */
export function reasonLines(coverage: Pick<Coverage, 'reasons'>): { reason: string; seconds: number; words: string }[] {
  return Object.entries(coverage.reasons)
    .filter(([, seconds]) => (seconds ?? 0) > 0)
    .map(([reason, seconds]) => ({ reason, seconds: seconds ?? 0, words: reasonWords(reason) }))
    .sort((a, b) => b.seconds - a.seconds || REASON_ORDER.indexOf(a.reason as SlateReason) - REASON_ORDER.indexOf(b.reason as SlateReason));
}

/** The headline: "87.3% of the next 7 days (146 h 40 min of 168 h) plays as itself". */
export function coverageSentence(coverage: Pick<Coverage, 'share' | 'airtimeSeconds' | 'itselfSeconds'>): string {
  if (coverage.airtimeSeconds <= 0) return 'Nothing is scheduled in the next 7 days: the stream would air the slate throughout.';
  return `${percent(coverage.share)} of the next 7 days' airtime (${span(coverage.itselfSeconds)} of ${span(coverage.airtimeSeconds)}) plays as itself.`;
}

/** 2_500_000 -> "2.5 Mbit/s", 800_000 -> "800 kbit/s". */
export function bandwidth(bitsPerSecond: number): string {
  if (bitsPerSecond >= 1_000_000) return `${(Math.round(bitsPerSecond / 100_000) / 10).toString()} Mbit/s`;
  return `${Math.round(bitsPerSecond / 1000)} kbit/s`;
}

/** One rung as a line: "1280×720 · 2.5 Mbit/s · avc1.64001f,mp4a.40.2". */
export function rungLabel(rung: Rung): string {
  return [rung.resolution ? `${rung.resolution.width}×${rung.resolution.height}` : 'audio or unknown size', bandwidth(rung.bandwidth), rung.codecs ?? 'codecs not given'].join(
    ' · ',
  );
}

/** The rungs from the highest bandwidth down (the order a master playlist names them). */
export const sortedLadder = (ladder: readonly Rung[]): Rung[] => [...ladder].sort((a, b) => b.bandwidth - a.bandwidth);

/** The smallest live window the channel may have: 3 target durations (HLS's rule). */
export const minimumWindow = (targetDurationSeconds: number) => 3 * targetDurationSeconds;

/** Why a window does not fit the target duration, before the server is asked (undefined: it fits). */
export function windowProblem(targetDurationSeconds: number, windowSeconds: number): string | undefined {
  if (!Number.isFinite(windowSeconds) || !Number.isFinite(targetDurationSeconds)) return 'Enter a number of seconds.';
  const least = minimumWindow(targetDurationSeconds);
  return windowSeconds < least ? `At least 3 target durations: ${least} s or more.` : undefined;
}

// What ingest refusals mean (matched on the server's message, which names the playlist rule) and
// what the creator can do. An unknown message is still shown as the server said it.
const INGEST_CAUSES: [RegExp, string][] = [
  [/EXT-X-KEY|encrypt|DRM/i, 'The playlist is encrypted; linear output takes unencrypted HLS only.'],
  [/redirect/i, 'The address redirects too many times; give the final address instead.'],
  [
    /private|loopback|link-local|address|not allowed|origin/i,
    'The address is on a private or local network, which the service does not reach unless the operator allows that origin (MEDIA_FETCH_ALLOW_ORIGINS).',
  ],
  [/time(d)? ?out|took longer|slow/i, 'The origin took too long to answer; try Refresh again later.'],
  [/segment.*(long|target)|target duration/i, "A segment is longer than the playlist's own target duration; re-encode it with even segments."],
  [
    /variant.*(differ|count|duration)|(count|duration)s? differ/i,
    'Its renditions are cut differently (other segment counts or lengths); encode every rendition with the same segments.',
  ],
  [/\bEVENT\b|\blive\b|ENDLIST/i, 'The playlist is live or still growing (no end); linear output takes finished videos only.'],
  [/too many|more than|limit|too large|bytes/i, 'The playlist is larger than the service accepts; split the video into shorter ones.'],
  [/not (an? )?HLS|#EXTM3U|not a playlist|parse/i, "The address does not answer an HLS playlist; check the video's stream URL."],
  [/\b(404|403|401|5\d\d)\b|status/i, 'The origin refused the playlist; check that the address is public and right.'],
];

/** The ingest error in a creator's words, with the server's own detail after it. */
export function ingestErrorWords(error: string): string {
  const cause = INGEST_CAUSES.find(([pattern]) => pattern.test(error))?.[1];
  return cause ? `${cause} (${error})` : error;
}

/** One line on a video's ingest: what state, what it found, what it means. */
export function ingestSummary(hls: HlsState | null | undefined, providerName: string): string {
  if (!hls) {
    return /^custom$/i.test(providerName.trim())
      ? 'Not an HLS playlist (.m3u8): the slate airs in linear streams when this video is scheduled.'
      : `${providerName || 'This provider'} videos cannot be stitched into linear streams: the slate airs, the guide still lists the programme.`;
  }
  if (hls.status === 'pending') return 'Reading its HLS playlist… This takes a few seconds; the state updates by itself.';
  if (hls.status === 'failed')
    return `Cannot air as itself in linear streams. ${hls.error ? ingestErrorWords(hls.error) : 'The playlist could not be read.'} Fix it at its origin, then Refresh.`;
  const parts = [
    `${hls.variants.length} ${hls.variants.length === 1 ? 'rendition' : 'renditions'}`,
    `${hls.segments} segments`,
    hls.durationSeconds === null ? null : span(hls.durationSeconds),
    hls.targetDurationSeconds === null ? null : `segments up to ${hls.targetDurationSeconds} s`,
  ].filter(Boolean);
  return `Ready for linear streams: ${parts.join(', ')}.`;
}

/** When a programme airs, in the channel's zone: "Fri 27 Nov 08:00–09:30" (the end's day when it differs). */
export function airTime(start: string, end: string, zone: string): string {
  const day = (ms: number) => new Intl.DateTimeFormat('en-GB', { weekday: 'short', day: 'numeric', month: 'short', timeZone: zone }).format(ms).replace(',', '');
  const clock = (ms: number) => new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: zone }).format(ms);
  const a = Date.parse(start);
  const b = Date.parse(end);
  if (!Number.isFinite(a) || !Number.isFinite(b)) return `${start} – ${end}`;
  return day(a) === day(b) ? `${day(a)} ${clock(a)}–${clock(b)}` : `${day(a)} ${clock(a)} – ${day(b)} ${clock(b)}`;
}
