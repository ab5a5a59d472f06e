// A pasted URL that names a list of videos rather than one: a YouTube playlist, a YouTube
// channel's uploads (by channel id, @handle or legacy user name) or a Vimeo showcase. Pure: the
// ids are read from the URL here, and only they (never the URL) reach the providers' APIs
// (src/editing/provider-apis.ts).

export type ListUrl =
  | { provider: 'YouTube'; kind: 'playlist'; playlistId: string }
  /** A channel id (UC...): its uploads are the playlist UU... */
  | { provider: 'YouTube'; kind: 'channel'; channelId: string }
  | { provider: 'YouTube'; kind: 'handle'; handle: string }
  | { provider: 'YouTube'; kind: 'user'; username: string }
  | { provider: 'Vimeo'; kind: 'showcase'; showcaseId: string };

export type ListUrlResult = { ok: true; list: ListUrl } | { ok: false; problem: string };

const YOUTUBE_HOSTS = new Set(['youtube.com', 'www.youtube.com', 'm.youtube.com', 'music.youtube.com']);
const VIMEO_HOSTS = new Set(['vimeo.com', 'www.vimeo.com']);
const PLAYLIST_RE = /^[A-Za-z0-9_-]{2,64}$/;
const CHANNEL_RE = /^UC[A-Za-z0-9_-]{22}$/;
/** YouTube handles: 3-30 letters, digits, `_`, `-` and `.` (its own rule), any script aside. */
const HANDLE_RE = /^[\p{L}\p{N}_.-]{3,30}$/u;
const USER_RE = /^[A-Za-z0-9]{1,40}$/;
const SHOWCASE_RE = /^\d{1,20}$/;

/** The uploads playlist of a channel: YouTube names it after the channel, UC... -> UU... */
export const uploadsPlaylistOf = (channelId: string): string => `UU${channelId.slice(2)}`;

/**
 * The list a URL names, a problem when it names a list this service cannot read (a mix, a
 * private Watch later), or null when it is not a list URL at all (a video URL with `&list=` is
 * a video: docs/studio.md).
 */
export function parseListUrl(input: string): ListUrlResult | null {
  const text = input.trim();
  if (text === '' || /\s/.test(text)) return null;
  const url = URL.parse(/^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `https://${text}`);
  if (url === null || (url.protocol !== 'http:' && url.protocol !== 'https:')) return null;
  const host = url.hostname.toLowerCase();
  const segments = url.pathname
    .split('/')
    .filter((s) => s !== '')
    .map((s) => safeDecode(s));
  if (YOUTUBE_HOSTS.has(host)) return youtubeList(url, segments);
  if (VIMEO_HOSTS.has(host)) return vimeoList(segments);
  return null;
}

const ok = (list: ListUrl): ListUrlResult => ({ ok: true, list });
const fail = (problem: string): ListUrlResult => ({ ok: false, problem });

function youtubeList(url: URL, segments: string[]): ListUrlResult | null {
  const [first = '', second = ''] = segments;
  if (first === 'playlist') {
    const id = url.searchParams.get('list') ?? '';
    if (!PLAYLIST_RE.test(id)) return fail('a YouTube playlist URL without a playlist id (want youtube.com/playlist?list=PL...)');
    if (id === 'WL' || id === 'LL') return fail('Watch later and Liked videos are private lists: make a playlist of them, or paste their URLs');
    if (id.startsWith('RD')) return fail('a YouTube mix is made for each viewer: no API lists it; paste a playlist or the videos instead');
    return ok({ provider: 'YouTube', kind: 'playlist', playlistId: id });
  }
  if (first === 'channel') {
    if (!CHANNEL_RE.test(second)) return fail(`"${second.slice(0, 40)}" is not a YouTube channel id (UC and 22 letters, digits, - or _)`);
    return ok({ provider: 'YouTube', kind: 'channel', channelId: second });
  }
  if (first.startsWith('@')) {
    const handle = first.slice(1);
    if (!HANDLE_RE.test(handle)) return fail(`"${first.slice(0, 40)}" is not a YouTube handle`);
    return ok({ provider: 'YouTube', kind: 'handle', handle });
  }
  if (first === 'user') {
    if (!USER_RE.test(second)) return fail(`"${second.slice(0, 40)}" is not a YouTube user name`);
    return ok({ provider: 'YouTube', kind: 'user', username: second });
  }
  if (first === 'c') return fail("YouTube's API cannot find a channel by its /c/ name: paste the channel's @handle or /channel/UC... URL");
  return null;
}

function vimeoList(segments: string[]): ListUrlResult | null {
  const [first = '', second = '', third] = segments;
  // vimeo.com/showcase/N/video/ID is one video of it (video-url.ts); the showcase itself has no more segments.
  if ((first === 'showcase' || first === 'album') && third === undefined) {
    if (!SHOWCASE_RE.test(second)) return fail('a Vimeo showcase URL without its number (want vimeo.com/showcase/123456)');
    return ok({ provider: 'Vimeo', kind: 'showcase', showcaseId: second });
  }
  return null;
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** What the list is, in a creator's words ("YouTube playlist PL...", "the uploads of @handle"). */
export function listWords(list: ListUrl): string {
  switch (list.kind) {
    case 'playlist':
      return `YouTube playlist ${list.playlistId}`;
    case 'channel':
      return `the uploads of YouTube channel ${list.channelId}`;
    case 'handle':
      return `the uploads of YouTube channel @${list.handle}`;
    case 'user':
      return `the uploads of YouTube user ${list.username}`;
    case 'showcase':
      return `Vimeo showcase ${list.showcaseId}`;
  }
}
