// A fatal hls.js error in words, pure: hls.js says what failed in its own terms (a type such as
// networkError and a detail such as manifestLoadError, with the HTTP status when there was one);
// the Watch view says what it means for the channel and what to check.

export interface HlsFailure {
  type: string;
  details: string;
  /** The HTTP status of the failed load, when the failure was one. */
  status?: number | undefined;
}

/** The sentence the Watch view shows when the channel's own stream cannot play. */
export function hlsErrorWords({ type, details, status }: HlsFailure): string {
  const code = status ? ` (${status})` : '';
  if (/^manifest(Load|LoadTimeOut)/.test(details)) {
    if (status === 404 || status === 403 || status === 401)
      return `The channel's stream was refused${code}: the guide key may have been replaced or revoked, or that app does not carry this channel, or linear output is off.`;
    return `The channel's stream could not be loaded${code}. Check that the service is reachable and try again.`;
  }
  if (details === 'manifestParsingError' || details === 'levelParsingError') return 'The channel answered something that is not an HLS playlist, so it cannot be played.';
  if (details === 'manifestIncompatibleCodecsError') return "This browser cannot play the channel's codecs (its ladder names none this browser supports).";
  if (/^level(Load|LoadTimeOut|Empty)/.test(details)) return `A rendition's playlist could not be loaded${code}; the stream may be restarting. Try again in a moment.`;
  if (/^frag(Load|LoadTimeOut)/.test(details))
    return `A segment could not be fetched from the video's origin${code}. The origin must be reachable from this browser and allow it (CORS: Access-Control-Allow-Origin).`;
  if (/^key/.test(details)) return 'The stream is encrypted, which linear output does not support.';
  if (type === 'mediaError') return `This browser could not decode the stream (${details}). The videos may not match the channel's ladder.`;
  return `The channel's stream stopped: ${type}, ${details}${code}.`;
}
