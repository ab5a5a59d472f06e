// What the Watch view plays for an answer of GET /channels/{id}/now, pure: which player (the
// YouTube or Vimeo embed, a <video> for direct media and live stream URIs), seeked to where the
// programme is now (joining in progress), and when to ask again (at the programme's end, or at
// the next one's start when nothing is on air), timed from the answer rather than polled.
import type { NowOnAir, OnAirSegment } from '../../api/types.ts';

/** The origins the embeds load from; the console's CSP frame-src lists exactly these (src/http/page-headers.ts). */
export const YOUTUBE_EMBED = 'https://www.youtube-nocookie.com/embed/';
export const VIMEO_PLAYER = 'https://player.vimeo.com/video/';

export type Player =
  | { kind: 'youtube' | 'vimeo'; src: string }
  | { kind: 'media'; src: string; /** seconds to seek to; null for a live stream (played at its live edge) */ position: number | null }
  | { kind: 'none'; reason: string };

const YOUTUBE_ID = /^[\w-]{6,20}$/;
const VIMEO_ID = /^\d{1,12}$/;
const isHttp = (url: string) => /^https?:\/\//i.test(url);

/** The player for a programme joined `positionSeconds` into its video. */
export function playerFor(segment: Pick<OnAirSegment, 'providerName' | 'providerVideoId' | 'streamUrl' | 'isLive'>, positionSeconds: number): Player {
  const position = Math.max(0, Math.floor(positionSeconds));
  const provider = segment.providerName.toLowerCase();
  const id = segment.providerVideoId.trim();
  const stream = segment.streamUrl?.trim() ?? '';
  if (segment.isLive && isHttp(stream)) return { kind: 'media', src: stream, position: null };
  if (provider.includes('youtube')) {
    if (!YOUTUBE_ID.test(id)) return { kind: 'none', reason: `The YouTube id "${id}" is not a video id, so it cannot be played. Edit the video and paste its YouTube link again.` };
    // enablejsapi: the embed posts its errors to the page (WatchScreen.tsx says them in words).
    return { kind: 'youtube', src: `${YOUTUBE_EMBED}${id}?start=${position}&autoplay=1&rel=0&enablejsapi=1` };
  }
  if (provider.includes('vimeo')) {
    if (!VIMEO_ID.test(id)) return { kind: 'none', reason: `The Vimeo id "${id}" is not a video number, so it cannot be played. Edit the video and paste its Vimeo link again.` };
    return { kind: 'vimeo', src: `${VIMEO_PLAYER}${id}?autoplay=1#t=${position}s` };
  }
  if (isHttp(stream)) return { kind: 'media', src: stream, position };
  return { kind: 'none', reason: `This video (${segment.providerName || 'no provider'}) has no address a browser can play.` };
}

/** The longest wait between two asks: a browser timer holds at most ~24.8 days, and a schedule edited meanwhile shows within this. */
export const MAX_WAIT_MS = 15 * 60_000;
/** The shortest: an answer whose end has already passed (a slow request) is asked again soon, not at once in a loop. */
export const MIN_WAIT_MS = 2_000;

/** Milliseconds from the answer until it is out of date: the programme's end, or the next one's start. */
export function askAgainIn(answer: Pick<NowOnAir, 'at' | 'now' | 'next'>): number {
  const at = Date.parse(answer.at);
  const until = answer.now ? Date.parse(answer.now.end) : answer.next ? Date.parse(answer.next.start) : Number.NaN;
  if (!Number.isFinite(until) || !Number.isFinite(at)) return MAX_WAIT_MS;
  return Math.min(MAX_WAIT_MS, Math.max(MIN_WAIT_MS, until - at));
}
