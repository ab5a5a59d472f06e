// A pasted video URL read as the catalog stores a video: provider name, the id at the provider
// (never the whole URL: the players build their own URL from the id), the stream URL of direct
// media and the thumbnail the id gives. Pure: no network, so the Studio, the console's preview and
// the tests read URLs the same way. Providers' metadata (title, duration) is oembed.ts's business.
import type { VideoProvider } from '../vocabulary.ts';
import { MAX_URL } from './fields.ts';

export interface ParsedVideoUrl {
  providerName: VideoProvider;
  providerVideoId: string;
  /** The media itself for direct (Custom) URLs; null for YouTube and Vimeo. */
  streamUrl: string | null;
  /** YouTube's from the id; '' when only the provider's oEmbed knows it (Vimeo) or none exists. */
  thumbnailUrl: string;
  /** The URL a provider's oEmbed endpoint is asked about (null for direct media). */
  oembedUrl: string | null;
  /** A start offset the URL carried (YouTube `t=`/`start=`), informational. */
  startSeconds?: number;
}

/** URLs looked up in one Studio request (each may cost a provider round trip): a longer paste goes in several. */
export const MAX_LOOKUP_URLS = 50;

export type VideoUrlResult = { ok: true; video: ParsedVideoUrl } | { ok: false; problem: string };

/** A YouTube id: 11 characters of its URL-safe base64 alphabet. */
const YOUTUBE_ID_RE = /^[A-Za-z0-9_-]{11}$/;
const VIMEO_ID_RE = /^\d{1,20}$/;
const VIMEO_HASH_RE = /^[0-9a-f]{6,20}$/i;
/** Containers and manifests a browser or TV player opens directly. */
export const DIRECT_MEDIA_EXTENSIONS = ['mp4', 'm4v', 'mov', 'webm', 'm3u8', 'mpd'] as const;
/** File names that say nothing of the video alone (HLS and DASH masters): the folder names it too. */
const GENERIC_NAMES = new Set(['master', 'index', 'playlist', 'manifest', 'video', 'stream', 'live', 'main', 'media']);

const YOUTUBE_HOSTS = new Set(['youtube.com', 'www.youtube.com', 'm.youtube.com', 'music.youtube.com', 'youtube-nocookie.com', 'www.youtube-nocookie.com']);
const VIMEO_HOSTS = new Set(['vimeo.com', 'www.vimeo.com', 'player.vimeo.com']);

export const youtubeThumbnail = (id: string): string => `https://i.ytimg.com/vi/${id}/hqdefault.jpg`;

const fail = (problem: string): VideoUrlResult => ({ ok: false, problem });

/** Reads one pasted URL; a URL without a scheme (`youtu.be/...`) is read as https. */
export function parseVideoUrl(input: string): VideoUrlResult {
  const text = input.trim();
  if (text === '') return fail('empty');
  if (text.length > MAX_URL) return fail(`longer than ${MAX_URL} characters`);
  if (/[\s\u0000-\u001f\u007f]/.test(text)) return fail('a URL has no spaces');
  const url = URL.parse(/^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `https://${text}`);
  if (url === null || url.hostname === '') return fail('not a URL');
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return fail(`URL scheme "${url.protocol}" is not allowed (want http:// or https://)`);
  const host = url.hostname.toLowerCase();
  if (host === 'youtu.be' || YOUTUBE_HOSTS.has(host)) return youtube(url, host);
  if (VIMEO_HOSTS.has(host)) return vimeo(url, host);
  return direct(url);
}

function segmentsOf(url: URL): string[] {
  return url.pathname.split('/').filter((s) => s !== '');
}

function youtube(url: URL, host: string): VideoUrlResult {
  const segments = segmentsOf(url);
  let id: string | null | undefined;
  if (host === 'youtu.be') id = segments[0];
  else if (segments[0] === 'watch') id = url.searchParams.get('v');
  else if (['shorts', 'embed', 'live', 'v', 'e'].includes(segments[0] ?? '')) id = segments[1];
  if (!id) return fail('a YouTube URL without a video id (want watch?v=, youtu.be/, /shorts/, /embed/ or /live/)');
  if (!YOUTUBE_ID_RE.test(id)) return fail(`"${id.slice(0, 40)}" is not a YouTube video id (11 letters, digits, - or _)`);
  const start = startOf(url.searchParams.get('t') ?? url.searchParams.get('start'));
  return {
    ok: true,
    video: {
      providerName: 'YouTube',
      providerVideoId: id,
      streamUrl: null,
      thumbnailUrl: youtubeThumbnail(id),
      oembedUrl: `https://www.youtube.com/watch?v=${id}`,
      ...(start !== undefined ? { startSeconds: start } : {}),
    },
  };
}

/** `90`, `90s`, `1m30s`, `1h2m3s` in seconds. */
function startOf(value: string | null): number | undefined {
  if (value === null) return undefined;
  const match = /^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s?)?$/.exec(value);
  if (!match || value === '') return undefined;
  return Number(match[1] ?? 0) * 3600 + Number(match[2] ?? 0) * 60 + Number(match[3] ?? 0);
}

function vimeo(url: URL, host: string): VideoUrlResult {
  const segments = segmentsOf(url);
  let at = -1;
  if (host === 'player.vimeo.com') at = segments[0] === 'video' ? 1 : -1;
  else if (segments[0] === 'channels' || segments[0] === 'video') at = segments[0] === 'video' ? 1 : 2;
  else if (segments[0] === 'groups' && segments[2] === 'videos') at = 3;
  else if ((segments[0] === 'album' || segments[0] === 'showcase') && segments[2] === 'video') at = 3;
  else at = 0;
  const id = at >= 0 ? segments[at] : undefined;
  if (id === undefined || !VIMEO_ID_RE.test(id)) return fail('a Vimeo URL without a numeric video id (want vimeo.com/123456789 or player.vimeo.com/video/123456789)');
  // An unlisted video's URL carries its hash (vimeo.com/ID/HASH, or ?h=HASH on the player):
  // the oEmbed lookup needs it; the stored id stays the number the players use.
  const hash = [segments[at + 1], url.searchParams.get('h')].find((h): h is string => typeof h === 'string' && VIMEO_HASH_RE.test(h));
  return {
    ok: true,
    video: { providerName: 'Vimeo', providerVideoId: id, streamUrl: null, thumbnailUrl: '', oembedUrl: hash ? `https://vimeo.com/${id}/${hash}` : `https://vimeo.com/${id}` },
  };
}

function direct(url: URL): VideoUrlResult {
  const segments = segmentsOf(url).map((s) => safeDecode(s));
  const file = segments.at(-1) ?? '';
  const dot = file.lastIndexOf('.');
  const extension = dot > 0 ? file.slice(dot + 1).toLowerCase() : '';
  if (!(DIRECT_MEDIA_EXTENSIONS as readonly string[]).includes(extension)) {
    return fail(`not a YouTube, Vimeo or direct media URL (a file ending in ${DIRECT_MEDIA_EXTENSIONS.map((e) => `.${e}`).join(', ')})`);
  }
  const name = file.slice(0, dot);
  const parent = segments.at(-2);
  const id = (GENERIC_NAMES.has(name.toLowerCase()) && parent ? `${parent}-${name}` : name).replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 200);
  return { ok: true, video: { providerName: 'Custom', providerVideoId: id || 'media', streamUrl: url.href, thumbnailUrl: '', oembedUrl: null } };
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Ids as the YouTube and Vimeo players take them (test data uses short ones like `clip-1`). */
const PROVIDER_ID_RE = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * Why `id` cannot be the id of a video at `providerName`, or null. A URL pasted as the id is the
 * usual mistake: the answer names the id the URL holds.
 */
export function videoIdProblem(providerName: string, id: string): string | null {
  const provider = providerName.toLowerCase();
  if (provider !== 'youtube' && provider !== 'vimeo') return null;
  if (PROVIDER_ID_RE.test(id)) return null;
  const name = provider === 'youtube' ? 'YouTube' : 'Vimeo';
  const parsed = parseVideoUrl(id);
  if (parsed.ok && parsed.video.providerName === name) return `a ${name} video id, not a URL: this URL's id is "${parsed.video.providerVideoId}"`;
  return `bad ${name} video id ${JSON.stringify(id.slice(0, 60))} (want letters, digits, - and _, at most 64; or send the URL as url)`;
}

/**
 * The HLS playlist a video streams from, when linear output reads it (docs/studio.md: HLS ingest): a Custom
 * video whose streamUrl is an http(s) URL whose path ends in `.m3u8`; null for anything else
 * (YouTube, Vimeo, direct files, DASH).
 */
export function hlsSourceOf(video: { providerName: string; streamUrl?: string | null }): string | null {
  if (video.providerName.toLowerCase() !== 'custom' || !video.streamUrl) return null;
  const url = URL.parse(video.streamUrl);
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) return null;
  return url.pathname.toLowerCase().endsWith('.m3u8') ? url.href : null;
}
