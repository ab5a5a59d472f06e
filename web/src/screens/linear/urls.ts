// The addresses a creator hands to players, pure: the M3U playlist, a channel's master playlist,
// the HDHomeRun tuner (Plex and Jellyfin take its base, /hdhr/{key}) and the XMLTV guide of the
// same key. `{key}` is an app's guide key (Apps → XMLTV guide key), shown once when made.
export interface LiveUrls {
  m3u: string;
  master: string;
  tuner: string;
  discover: string;
  guide: string;
}

/** Absolute URLs on `origin` (the console's, when the service has no PUBLIC_URL) for one key and channel. */
export function liveUrls(origin: string, key: string, channelId: number): LiveUrls {
  const base = origin.replace(/\/+$/, '');
  const k = encodeURIComponent(key.trim());
  return {
    m3u: `${base}/api/v1/live/${k}/channels.m3u`,
    master: `${base}/api/v1/live/${k}/${channelId}/master.m3u8`,
    tuner: `${base}/hdhr/${k}`,
    discover: `${base}/hdhr/${k}/discover.json`,
    guide: `${base}/api/v1/rest/epg/${k}.xml`,
  };
}

/**
 * The key in what a person pasted: the key itself, or any URL that holds one (the guide URL the
 * Apps screen showed, an M3U, master or tuner URL). Undefined when none is there.
 */
export function keyFromPaste(pasted: string): string | undefined {
  const text = pasted.trim();
  if (text === '') return undefined;
  const inUrl = /\/(?:epg\/([^/?#]+?)\.xml|live\/([^/?#]+)\/|hdhr\/([^/?#]+))/.exec(text);
  const found = inUrl ? (inUrl[1] ?? inUrl[2] ?? inUrl[3]) : /^[\w-]{8,200}$/.test(text) ? text : undefined;
  return found === undefined ? undefined : decodeURIComponent(found);
}
