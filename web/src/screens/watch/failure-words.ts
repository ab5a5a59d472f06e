// Why a programme's player stopped, in words, pure: a <video> element's MediaError code, a fatal
// hls.js error on the programme's own HLS playlist, or an error the YouTube or Vimeo embed posts
// to the page (their postMessage APIs). The Watch view shows the sentence and offers the next
// programme (WatchScreen.tsx); a channel's own linear stream has its words in hls-words.ts.
import type { HlsFailure } from './hls-words.ts';

/** HTMLMediaElement.error.code: MEDIA_ERR_ABORTED 1, _NETWORK 2, _DECODE 3, _SRC_NOT_SUPPORTED 4. */
export function mediaErrorWords(code: number | undefined): string {
  switch (code) {
    case 1:
      return 'Loading the video was stopped before it could play.';
    case 2:
      return "The video's file stopped arriving (a network error between this browser and where the video is hosted).";
    case 3:
      return "This browser could not decode the video's file (it is damaged, or in a format this browser does not play).";
    case 4:
      return "The video's address answered nothing this browser can play: the file is missing (for example a 404), not a video, or in a format this browser does not play.";
    default:
      return 'The video could not be played.';
  }
}

/** A fatal hls.js error while playing a programme's own HLS video (not the channel's linear stream). */
export function videoHlsWords({ type, details, status }: HlsFailure): string {
  const code = status ? ` (${status})` : '';
  if (/^manifest(Load|LoadTimeOut)/.test(details)) {
    if (status === 404 || status === 410)
      return `The video's playlist was not found${code} at its address: it was moved or deleted where the video is hosted. Edit the video and give its new address.`;
    if (status === 401 || status === 403) return `The video's host refused its playlist${code}: it is private or allows only certain sites.`;
    return `The video's playlist could not be loaded${code}: its host did not answer, or does not let this browser read it (CORS).`;
  }
  if (details === 'manifestParsingError' || details === 'levelParsingError') return "The video's address does not answer an HLS playlist, so it cannot be played.";
  if (details === 'manifestIncompatibleCodecsError') return "This browser cannot play the video's codecs.";
  if (/^level(Load|LoadTimeOut|Empty)/.test(details)) return `A rendition's playlist of the video could not be loaded${code}.`;
  if (/^frag(Load|LoadTimeOut)/.test(details)) return `A segment of the video could not be fetched${code}: its host must be reachable from this browser and allow it (CORS).`;
  if (/^key/.test(details)) return 'The video is encrypted with a key this browser could not get.';
  if (type === 'mediaError') return `This browser could not decode the video (${details}).`;
  return `The video stopped: ${type}, ${details}${code}.`;
}

/** YouTube's embed error codes (IFrame Player API, onError). */
const YOUTUBE_ERRORS: Record<number, string> = {
  2: 'YouTube says the video id is not valid. Edit the video and paste its YouTube link again.',
  5: "YouTube's player could not play this video in this browser.",
  100: 'YouTube says the video is not there: it was removed or made private.',
  101: 'The video\'s owner does not allow it to be played outside YouTube ("embedding disabled").',
  150: 'The video\'s owner does not allow it to be played outside YouTube ("embedding disabled").',
  153: 'YouTube refused to play the video without knowing the page it is on.',
};

/**
 * The failure an embed's message reports, or null when the message is not one: YouTube posts
 * JSON text `{"event":"onError","info":150}`, Vimeo `{"event":"error","data":{"name","message"}}`
 * (as text or an object).
 */
export function embedErrorWords(kind: 'youtube' | 'vimeo', message: unknown): string | null {
  let data = message;
  if (typeof data === 'string') {
    try {
      data = JSON.parse(data) as unknown;
    } catch {
      return null;
    }
  }
  if (typeof data !== 'object' || data === null) return null;
  const event = (data as { event?: unknown }).event;
  if (kind === 'youtube') {
    if (event !== 'onError') return null;
    const info = Number((data as { info?: unknown }).info);
    return YOUTUBE_ERRORS[info] ?? `YouTube's player stopped with error ${Number.isFinite(info) ? info : 'unknown'}.`;
  }
  if (event !== 'error') return null;
  const detail = (data as { data?: { name?: unknown; message?: unknown } }).data;
  const name = typeof detail?.name === 'string' ? detail.name : '';
  if (/privacy/i.test(name)) return "The video's Vimeo privacy settings do not allow it to be played here.";
  if (/notfound/i.test(name)) return 'Vimeo says the video is not there: it was removed or made private.';
  const text = typeof detail?.message === 'string' && detail.message ? `: ${detail.message}` : '.';
  return `Vimeo's player could not play the video${text}`;
}
