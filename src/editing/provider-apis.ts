// YouTube's Data API v3 and Vimeo's API, asked for what the creator's review needs: YouTube
// durations (`videos.list` contentDetails.duration), the videos of a YouTube playlist or of a
// channel's uploads (`playlistItems.list`, `channels.list`), and the videos of a Vimeo showcase
// (`/albums/{id}/videos`). Only the configured base URLs are asked, with ids read from the pasted
// URL (list-url.ts, video-url.ts), never the URL itself; page tokens go back as query values and
// Vimeo's `paging.next` is read only as "there is another page" (the next page is asked by number
// at the configured base). Never throws: a slow, down or garbled API is an answer the review
// words ("YouTube did not answer: ..."), and the creator types what is missing.
import { MAX_TEXT, MAX_TITLE, thumbnailUrl } from '../catalog/fields.ts';
import { parseIsoDuration } from '../catalog/iso-duration.ts';
import { listWords, uploadsPlaylistOf, type ListUrl } from '../catalog/list-url.ts';
import { boundedJson, type VideoMetadata } from './oembed.ts';

export interface ProviderApiConfig {
  /** YouTube Data API key; '' asks nothing of the Data API. */
  youtubeKey: string;
  youtubeUrl: string;
  /** Vimeo API token; '' asks nothing of Vimeo's API. */
  vimeoToken: string;
  vimeoUrl: string;
  /** One call's bound. */
  timeoutMs: number;
}

/** Videos one lookup request takes from lists (playlists, uploads, showcases) together. */
export const MAX_LIST_VIDEOS = 500;
/** The longest one lookup request spends reading lists; what is read by then is answered, said as cut. */
export const LIST_TIME_BUDGET_MS = 20_000;
/** `videos.list` and `playlistItems.list` take at most 50 ids or items a call. */
const YOUTUBE_BATCH = 50;
const VIMEO_PAGE = 100;
/** A page of 50 videos with descriptions is some 400 KB; more is not read. */
const MAX_ANSWER_BYTES = 4 * 1024 * 1024;
const YOUTUBE_ID_RE = /^[A-Za-z0-9_-]{11}$/;

export type ApiFailure = { status: 'not_found' | 'unavailable'; message: string };
type Answer = { ok: true; json: Record<string, unknown> } | ({ ok: false } & ApiFailure);

/** What the Data API said of one YouTube video. */
export type YouTubeVideo = { status: 'found'; metadata: VideoMetadata; note: string | null } | { status: 'not_found'; message: string };

/** One video of a list, with what the list itself said of it. */
export interface ListEntry {
  providerName: 'YouTube' | 'Vimeo';
  providerVideoId: string;
  metadata: VideoMetadata;
}

export interface ListRead {
  entries: ListEntry[];
  /** The list's title where its API said it. */
  title: string | null;
  /** Why the list gave fewer videos than it holds (a bound, private videos left out), or why none (a failure). */
  message: string | null;
  status: 'found' | 'not_found' | 'unavailable';
  cut: boolean;
}

/** A deadline and a count shared by every list of one request. */
export interface ListBudget {
  deadline: number;
  remaining: number;
}

export const newListBudget = (now = performance.now()): ListBudget => ({ deadline: now + LIST_TIME_BUDGET_MS, remaining: MAX_LIST_VIDEOS });

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const obj = (value: unknown): Record<string, unknown> | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;

async function getJson(provider: 'YouTube' | 'Vimeo', target: URL, headers: Record<string, string>, timeoutMs: number): Promise<Answer> {
  try {
    const response = await fetch(target, { redirect: 'error', signal: AbortSignal.timeout(Math.max(1, timeoutMs)), headers: { accept: 'application/json', ...headers } });
    const json = await boundedJson(response, MAX_ANSWER_BYTES);
    if (!response.ok) return { ok: false, ...failureOf(provider, response.status, json) };
    if (json === undefined) return { ok: false, status: 'unavailable', message: `${provider} did not answer: its answer was not the JSON its API documents` };
    return { ok: true, json };
  } catch (error) {
    const name = error instanceof Error ? error.name : '';
    if (name === 'TimeoutError' || name === 'AbortError') return { ok: false, status: 'unavailable', message: `${provider} did not answer: no answer within ${timeoutMs} ms` };
    return { ok: false, status: 'unavailable', message: `${provider} did not answer: it could not be reached` };
  }
}

/** An error status in words: YouTube's quota and key refusals said as such (its documented error body). */
function failureOf(provider: 'YouTube' | 'Vimeo', status: number, json: Record<string, unknown> | undefined): ApiFailure {
  const error = obj(json?.['error']);
  const reasons = (Array.isArray(error?.['errors']) ? error['errors'] : []).map((e) => str(obj(e)?.['reason']) ?? '');
  const text = `${str(error?.['message']) ?? ''} ${JSON.stringify(error?.['details'] ?? '')}`;
  if (provider === 'YouTube' && reasons.some((r) => r === 'quotaExceeded' || r === 'dailyLimitExceeded')) {
    return {
      status: 'unavailable',
      message: `YouTube's API quota for today is used up (${status} ${reasons.find((r) => r.endsWith('Exceeded'))}): durations cannot be read until it resets`,
    };
  }
  if (provider === 'YouTube' && (reasons.includes('keyInvalid') || /API key not valid|API_KEY_INVALID/i.test(text))) {
    return { status: 'unavailable', message: `YouTube refused this server's API key (${status}): the operator checks YOUTUBE_API_KEY` };
  }
  // Any other 403 of YouTube's is about the thing asked (a private playlist: playlistItemsNotAccessible).
  if (provider === 'YouTube' && status === 403) return { status: 'not_found', message: `YouTube answered 403${reasons[0] ? ` (${reasons[0]})` : ''}` };
  if (provider === 'Vimeo' && status === 401) return { status: 'unavailable', message: "Vimeo refused this server's API token (401): the operator checks VIMEO_API_TOKEN" };
  if (status === 404 || (provider === 'Vimeo' && status === 403)) return { status: 'not_found', message: `${provider} answered ${status}` };
  return { status: 'unavailable', message: `${provider} did not answer: it answered ${status}` };
}

function youtubeUrl(config: ProviderApiConfig, resource: string, params: Record<string, string>): URL {
  const target = new URL(`${config.youtubeUrl.replace(/\/+$/, '')}/${resource}`);
  for (const [name, value] of Object.entries(params)) target.searchParams.set(name, value);
  target.searchParams.set('key', config.youtubeKey);
  return target;
}

/** The fields the catalog keeps from an untrusted snippet, checked and cut as oEmbed's are. */
function snippetMetadata(snippet: Record<string, unknown> | undefined): VideoMetadata {
  const metadata: VideoMetadata = {};
  const title = str(snippet?.['title'])?.trim().slice(0, MAX_TITLE);
  if (title) metadata.title = title;
  const description = str(snippet?.['description'])?.trim().slice(0, MAX_TEXT);
  if (description) metadata.description = description;
  const thumbnails = obj(snippet?.['thumbnails']);
  const thumbnail = ['high', 'medium', 'standard', 'default']
    .map((size) => str(obj(thumbnails?.[size])?.['url']))
    .find((u) => u !== undefined && thumbnailUrl.safeParse(u).success);
  if (thumbnail) metadata.thumbnailUrl = thumbnail;
  return metadata;
}

/** A duration the catalog takes: positive and below ten years (PT0S, a live stream's, is none). */
const usableSeconds = (seconds: number | undefined): seconds is number => seconds !== undefined && Number.isFinite(seconds) && seconds > 0 && seconds < 10 * 365 * 86_400;

/**
 * `videos.list?part=contentDetails,snippet,status&id=a,b,c` in batches of 50: what YouTube says
 * of each id, or the failure of the first batch that failed (the rest are not asked).
 */
export async function youtubeVideos(
  config: ProviderApiConfig,
  ids: readonly string[],
  deadline = Infinity,
): Promise<{ videos: Map<string, YouTubeVideo>; failure: ApiFailure | null }> {
  const videos = new Map<string, YouTubeVideo>();
  const wanted = [...new Set(ids.filter((id) => YOUTUBE_ID_RE.test(id)))];
  for (let i = 0; i < wanted.length; i += YOUTUBE_BATCH) {
    const batch = wanted.slice(i, i + YOUTUBE_BATCH);
    const timeout = Math.min(config.timeoutMs, deadline - performance.now());
    if (timeout <= 0) return { videos, failure: { status: 'unavailable', message: `YouTube did not answer: the lookup's ${LIST_TIME_BUDGET_MS / 1000} s were spent` } };
    const answer = await getJson(
      'YouTube',
      youtubeUrl(config, 'videos', { part: 'contentDetails,snippet,status', id: batch.join(','), maxResults: String(YOUTUBE_BATCH) }),
      {},
      timeout,
    );
    if (!answer.ok) return { videos, failure: answer.status === 'not_found' ? { status: 'unavailable', message: `YouTube did not answer: ${answer.message}` } : answer };
    const items = answer.json['items'];
    if (!Array.isArray(items)) return { videos, failure: { status: 'unavailable', message: 'YouTube did not answer: its answer was not the JSON its API documents' } };
    for (const raw of items) {
      const item = obj(raw);
      const id = str(item?.['id']);
      if (!item || id === undefined || !batch.includes(id)) continue;
      const snippet = obj(item['snippet']);
      const metadata = snippetMetadata(snippet);
      const duration = str(obj(item['contentDetails'])?.['duration']);
      const seconds = duration === undefined ? undefined : parseIsoDuration(duration);
      if (usableSeconds(seconds)) metadata.durationSeconds = seconds;
      const live = str(snippet?.['liveBroadcastContent']);
      const status = obj(item['status']);
      if (status?.['embeddable'] === false) {
        videos.set(id, { status: 'not_found', message: `YouTube does not let video ${id} be embedded (its owner turned embedding off)` });
        continue;
      }
      const note =
        metadata.durationSeconds !== undefined
          ? null
          : live === 'live' || live === 'upcoming'
            ? `YouTube gives no duration for a live stream or premiere (${live})`
            : `YouTube gave no duration for video ${id}`;
      videos.set(id, { status: 'found', metadata, note });
    }
    for (const id of batch) if (!videos.has(id)) videos.set(id, { status: 'not_found', message: `YouTube has no public video ${id} (private, deleted or never there)` });
  }
  return { videos, failure: null };
}

/** The videos of a list, in its order, within the budget (shared by the request's lists). */
export async function readList(config: ProviderApiConfig, list: ListUrl, budget: ListBudget): Promise<ListRead> {
  const words = listWords(list);
  if (list.provider === 'YouTube' && config.youtubeKey === '') {
    return failed('unavailable', `Importing ${words} needs YouTube's Data API, which this server is not set up for (YOUTUBE_API_KEY): paste the videos' URLs instead`);
  }
  if (list.provider === 'Vimeo' && config.vimeoToken === '') {
    return failed('unavailable', `Importing ${words} needs Vimeo's API, which this server is not set up for (VIMEO_API_TOKEN): paste the videos' URLs instead`);
  }
  if (budget.remaining <= 0)
    return { entries: [], title: null, message: `Not read: this lookup already holds ${MAX_LIST_VIDEOS} videos from lists; look it up on its own`, status: 'found', cut: true };
  return list.provider === 'Vimeo' ? readShowcase(config, list.showcaseId, words, budget) : readYouTubeList(config, list, words, budget);
}

const failed = (status: 'not_found' | 'unavailable', message: string): ListRead => ({ entries: [], title: null, message, status, cut: false });

function timeLeft(config: ProviderApiConfig, budget: ListBudget): number {
  return Math.min(config.timeoutMs, budget.deadline - performance.now());
}

async function readYouTubeList(config: ProviderApiConfig, list: Exclude<ListUrl, { provider: 'Vimeo' }>, words: string, budget: ListBudget): Promise<ListRead> {
  let playlistId: string;
  let title: string | null = null;
  if (list.kind === 'playlist') playlistId = list.playlistId;
  else if (list.kind === 'channel') playlistId = uploadsPlaylistOf(list.channelId);
  else {
    const timeout = timeLeft(config, budget);
    if (timeout <= 0) return failed('unavailable', `Not read: the lookup's ${LIST_TIME_BUDGET_MS / 1000} s were spent`);
    const by: Record<string, string> = list.kind === 'handle' ? { forHandle: `@${list.handle}` } : { forUsername: list.username };
    const answer = await getJson('YouTube', youtubeUrl(config, 'channels', { part: 'contentDetails,snippet', ...by }), {}, timeout);
    if (!answer.ok)
      return failed(answer.status, answer.status === 'not_found' ? `YouTube has no channel ${list.kind === 'handle' ? `@${list.handle}` : list.username}` : answer.message);
    const items = answer.json['items'];
    if (items !== undefined && !Array.isArray(items)) return failed('unavailable', 'YouTube did not answer: its answer was not the JSON its API documents');
    const channel = obj(items?.[0]);
    if (!channel) return failed('not_found', `YouTube has no channel ${list.kind === 'handle' ? `@${list.handle}` : list.username}`);
    const uploads = str(obj(obj(channel['contentDetails'])?.['relatedPlaylists'])?.['uploads']);
    if (uploads === undefined || !/^[A-Za-z0-9_-]{2,64}$/.test(uploads)) return failed('unavailable', 'YouTube did not answer: its answer named no uploads playlist');
    title = str(obj(channel['snippet'])?.['title'])?.slice(0, MAX_TITLE) ?? null;
    playlistId = uploads;
  }
  const entries: ListEntry[] = [];
  let skipped = 0;
  let pageToken: string | undefined;
  let cut = false;
  let message: string | null = null;
  do {
    const timeout = timeLeft(config, budget);
    if (timeout <= 0) {
      cut = true;
      message = `cut after ${LIST_TIME_BUDGET_MS / 1000} s at ${entries.length} videos: YouTube answered slowly`;
      break;
    }
    const params: Record<string, string> = { part: 'snippet,contentDetails,status', playlistId, maxResults: String(YOUTUBE_BATCH) };
    if (pageToken) params['pageToken'] = pageToken;
    const answer = await getJson('YouTube', youtubeUrl(config, 'playlistItems', params), {}, timeout);
    if (!answer.ok) {
      if (entries.length === 0) {
        const what = list.kind === 'playlist' ? `playlist ${playlistId}` : 'uploads for that channel';
        return failed(answer.status, answer.status === 'not_found' ? `YouTube has no public ${what} (${answer.message})` : answer.message);
      }
      cut = true;
      message = `cut at ${entries.length} videos: ${answer.message}`;
      break;
    }
    const items = answer.json['items'];
    if (!Array.isArray(items))
      return entries.length === 0
        ? failed('unavailable', 'YouTube did not answer: its answer was not the JSON its API documents')
        : { entries, title, message: `cut at ${entries.length} videos: a page was not the JSON its API documents`, status: 'found', cut: true };
    for (const raw of items) {
      const item = obj(raw);
      const snippet = obj(item?.['snippet']);
      const id = str(obj(item?.['contentDetails'])?.['videoId']) ?? str(obj(snippet?.['resourceId'])?.['videoId']);
      const privacy = str(obj(item?.['status'])?.['privacyStatus']);
      // Private and deleted videos stay listed with placeholder titles; they cannot be played.
      if (id === undefined || !YOUTUBE_ID_RE.test(id) || privacy === 'private' || privacy === 'privacyStatusUnspecified') {
        skipped++;
        continue;
      }
      if (entries.length >= budget.remaining) {
        cut = true;
        break;
      }
      entries.push({ providerName: 'YouTube', providerVideoId: id, metadata: snippetMetadata(snippet) });
    }
    const next = str(answer.json['nextPageToken']);
    pageToken = next !== undefined && /^[A-Za-z0-9_-]{1,200}$/.test(next) ? next : undefined;
    if (cut && message === null) message = `cut at ${MAX_LIST_VIDEOS} videos, the most one lookup takes from lists: import the rest another way`;
  } while (pageToken !== undefined && !cut);
  budget.remaining -= entries.length;
  if (skipped > 0) message = [message, `${skipped} private or deleted ${skipped === 1 ? 'video' : 'videos'} left out`].filter(Boolean).join('; ');
  return { entries, title, message, status: 'found', cut };
}

async function readShowcase(config: ProviderApiConfig, showcaseId: string, words: string, budget: ListBudget): Promise<ListRead> {
  const entries: ListEntry[] = [];
  let cut = false;
  let message: string | null = null;
  for (let page = 1; ; page++) {
    const timeout = timeLeft(config, budget);
    if (timeout <= 0) {
      cut = true;
      message = `cut after ${LIST_TIME_BUDGET_MS / 1000} s at ${entries.length} videos: Vimeo answered slowly`;
      break;
    }
    const target = new URL(`${config.vimeoUrl.replace(/\/+$/, '')}/albums/${showcaseId}/videos`);
    target.searchParams.set('page', String(page));
    target.searchParams.set('per_page', String(VIMEO_PAGE));
    target.searchParams.set('fields', 'uri,name,description,duration,pictures.sizes');
    const answer = await getJson('Vimeo', target, { authorization: `bearer ${config.vimeoToken}`, accept: 'application/vnd.vimeo.*+json;version=3.4' }, timeout);
    if (!answer.ok) {
      if (entries.length === 0)
        return failed(answer.status, answer.status === 'not_found' ? `Vimeo has no public ${words.replace(/^Vimeo /, '')} (${answer.message})` : answer.message);
      cut = true;
      message = `cut at ${entries.length} videos: ${answer.message}`;
      break;
    }
    const data = answer.json['data'];
    if (!Array.isArray(data))
      return entries.length === 0
        ? failed('unavailable', 'Vimeo did not answer: its answer was not the JSON its API documents')
        : { entries, title: null, message: `cut at ${entries.length} videos: a page was not the JSON its API documents`, status: 'found', cut: true };
    for (const raw of data) {
      const video = obj(raw);
      const id = /^\/videos\/(\d{1,20})(?:[:/]|$)/.exec(str(video?.['uri']) ?? '')?.[1];
      if (!video || id === undefined) continue;
      if (entries.length >= budget.remaining) {
        cut = true;
        break;
      }
      entries.push({ providerName: 'Vimeo', providerVideoId: id, metadata: vimeoMetadata(video) });
    }
    if (cut) {
      message = `cut at ${MAX_LIST_VIDEOS} videos, the most one lookup takes from lists: import the rest another way`;
      break;
    }
    // `paging.next` says whether there is another page; it is never fetched as given.
    if (typeof obj(answer.json['paging'])?.['next'] !== 'string' || data.length === 0) break;
  }
  budget.remaining -= entries.length;
  return { entries, title: null, message, status: 'found', cut };
}

function vimeoMetadata(video: Record<string, unknown>): VideoMetadata {
  const metadata: VideoMetadata = {};
  const title = str(video['name'])?.trim().slice(0, MAX_TITLE);
  if (title) metadata.title = title;
  const description = str(video['description'])?.trim().slice(0, MAX_TEXT);
  if (description) metadata.description = description;
  const duration = video['duration'];
  if (typeof duration === 'number' && usableSeconds(duration)) metadata.durationSeconds = duration;
  const sizes = obj(video['pictures'])?.['sizes'];
  if (Array.isArray(sizes)) {
    // The picture nearest 640 wide, as the library's thumbnails are drawn.
    const pictures = sizes
      .map(obj)
      .filter((s) => s !== undefined)
      .map((s) => ({ width: typeof s['width'] === 'number' ? s['width'] : 0, link: str(s['link']) }))
      .filter((s): s is { width: number; link: string } => s.link !== undefined && thumbnailUrl.safeParse(s.link).success)
      .sort((a, b) => Math.abs(a.width - 640) - Math.abs(b.width - 640));
    if (pictures[0]) metadata.thumbnailUrl = pictures[0].link;
  }
  return metadata;
}
