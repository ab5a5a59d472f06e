// Videos from pasted URLs: what a URL is (video-url.ts), what its provider says of it
// (oembed.ts), and a body's `url` turned into the catalog's provider fields before validation.
// Looking up never happens inside a write: a write never waits on a provider.
import { listWords, parseListUrl } from '../catalog/list-url.ts';
import { parseVideoUrl, youtubeThumbnail, type ParsedVideoUrl } from '../catalog/video-url.ts';
import type { Queryable } from '../db/connect.ts';
import { ownerVideosByProviderIds } from '../data/studio-videos.ts';
import { lookUpOEmbed, type OEmbedConfig, type OEmbedLookup, type VideoMetadata } from './oembed.ts';
import { newListBudget, readList, youtubeVideos, type ApiFailure, type ListEntry, type ProviderApiConfig, type YouTubeVideo } from './provider-apis.ts';
import { invalid } from './refusals.ts';
import type { Body } from './entities.ts';

/** Providers asked at once per request. */
const LOOKUP_CONCURRENCY = 6;

/** What the catalog needs of a video that a URL and its provider may not say. */
const NEEDED = ['title', 'durationSeconds'] as const;

export interface UrlLookup {
  url: string;
  /** Why the URL is not a video this service can play; null when it is. */
  problem: string | null;
  video: (Omit<ParsedVideoUrl, 'oembedUrl' | 'startSeconds'> & VideoMetadata) | null;
  lookup: OEmbedLookup['status'];
  /** Why nothing was fetched, in words (offline, not found, not embeddable). */
  lookupMessage: string | null;
  /** Fields the creator must still give (YouTube's oEmbed has no duration). */
  missing: string[];
  /** The owner's video with the same provider and id, already there (flagged before it is added twice). */
  existing: { videoId: number; title: string } | null;
  /** The index of an earlier URL of the same request naming the same video (another form of its URL). */
  repeatOf: number | null;
  /** The index in `lists` of the pasted list this video came from; null for a pasted video URL. */
  list: number | null;
}

/** A pasted playlist, channel or showcase URL and what reading it gave. */
export interface ListLookup {
  url: string;
  /** What it is, in words ("YouTube playlist PL..."). */
  name: string;
  /** Its title where the API said it (a channel's name). */
  title: string | null;
  lookup: 'found' | 'not_found' | 'unavailable';
  /** How many of the items came from it. */
  videos: number;
  /** Fewer videos than it holds (MAX_LIST_VIDEOS, the time budget, a page that failed). */
  cut: boolean;
  message: string | null;
}

export interface PasteLookup {
  items: UrlLookup[];
  lists: ListLookup[];
}

/** Each URL parsed and, for YouTube and Vimeo, looked up through oEmbed (no lists, no Data API: see lookUpPaste). */
export async function lookUpVideoUrls(config: OEmbedConfig, urls: readonly string[]): Promise<UrlLookup[]> {
  return (await lookUpPaste(config, null, urls)).items;
}

/** A pasted video URL, or a video a list named (with what the list said of it). */
type Entry = { kind: 'url'; url: string } | { kind: 'listed'; url: string; list: number; entry: ListEntry };

interface DataApiAnswer {
  videos: Map<string, YouTubeVideo>;
  failure: ApiFailure | null;
}

/**
 * Each URL parsed; a playlist, channel or showcase URL read into its videos (provider-apis.ts,
 * within MAX_LIST_VIDEOS and LIST_TIME_BUDGET_MS for the whole request); YouTube videos asked of
 * the Data API in batches of 50 when a key is configured (durations), the rest of oEmbed. The same
 * video is asked once; once a provider is unavailable (offline, timing out) it is not asked again
 * in this request, so a paste of 50 costs at most a few timeouts.
 */
export async function lookUpPaste(config: OEmbedConfig, apis: ProviderApiConfig | null, urls: readonly string[]): Promise<PasteLookup> {
  const budget = newListBudget();
  const lists: ListLookup[] = [];
  const entries: Entry[] = [];
  for (const url of urls) {
    const list = parseListUrl(url);
    if (list === null) {
      entries.push({ kind: 'url', url });
      continue;
    }
    if (!list.ok) {
      lists.push({ url, name: 'a list', title: null, lookup: 'not_found', videos: 0, cut: false, message: list.problem });
      continue;
    }
    const read = apis
      ? await readList(apis, list.list, budget)
      : {
          entries: [],
          title: null,
          status: 'unavailable' as const,
          cut: false,
          message: "Lists of videos are read only through the providers' APIs, which this lookup does not ask",
        };
    const index = lists.length;
    lists.push({ url, name: listWords(list.list), title: read.title, lookup: read.status, videos: read.entries.length, cut: read.cut, message: read.message });
    for (const entry of read.entries) entries.push({ kind: 'listed', url: watchUrlOf(entry), list: index, entry });
  }

  // Durations of every YouTube video, pasted or listed, from the Data API in batches of 50.
  const youtubeIds = entries.flatMap((e) => {
    if (e.kind === 'listed') return e.entry.providerName === 'YouTube' ? [e.entry.providerVideoId] : [];
    const parsed = parseVideoUrl(e.url);
    return parsed.ok && parsed.video.providerName === 'YouTube' ? [parsed.video.providerVideoId] : [];
  });
  let dataApi: DataApiAnswer = { videos: new Map(), failure: null };
  if (apis && apis.youtubeKey !== '' && youtubeIds.length > 0) dataApi = await youtubeVideos(apis, youtubeIds, budget.deadline);

  const asked = new Map<string, Promise<OEmbedLookup>>();
  const down = new Map<string, OEmbedLookup>();
  const lookUp = (video: ParsedVideoUrl): Promise<OEmbedLookup> => {
    const key = video.oembedUrl ?? '';
    const known = down.get(video.providerName);
    if (known) return Promise.resolve(known);
    let pending = asked.get(key);
    if (!pending) {
      pending = lookUpOEmbed(config, video).then((result) => {
        if (result.status === 'unavailable') down.set(video.providerName, result);
        return result;
      });
      asked.set(key, pending);
    }
    return pending;
  };
  const results: UrlLookup[] = new Array(entries.length);
  let next = 0;
  const worker = async () => {
    while (next < entries.length) {
      const i = next++;
      const entry = entries[i]!;
      results[i] = entry.kind === 'listed' ? listedLookup(entry, dataApi) : await lookUpOne(entry.url, lookUp, dataApi);
    }
  };
  await Promise.all(Array.from({ length: Math.min(LOOKUP_CONCURRENCY, entries.length) }, worker));
  return { items: results, lists };
}

/** The URL a listed video is added by (the server parses it again on create): its plain watch or page URL. */
const watchUrlOf = (entry: ListEntry): string =>
  entry.providerName === 'YouTube' ? `https://www.youtube.com/watch?v=${entry.providerVideoId}` : `https://vimeo.com/${entry.providerVideoId}`;

function listedLookup(entry: Extract<Entry, { kind: 'listed' }>, dataApi: DataApiAnswer): UrlLookup {
  const { providerName, providerVideoId } = entry.entry;
  const said = providerName === 'YouTube' ? dataApi.videos.get(providerVideoId) : undefined;
  const base = { providerName, providerVideoId, streamUrl: null, thumbnailUrl: providerName === 'YouTube' ? youtubeThumbnail(providerVideoId) : '' };
  let metadata: VideoMetadata = entry.entry.metadata;
  let lookup: UrlLookup['lookup'] = 'found';
  let message: string | null = null;
  if (said?.status === 'found') [metadata, message] = [{ ...metadata, ...said.metadata }, said.note];
  else if (said?.status === 'not_found') [lookup, message] = ['not_found', said.message];
  else if (providerName === 'YouTube' && dataApi.failure) message = dataApi.failure.message;
  const video = videoOf(base, metadata);
  return {
    url: entry.url,
    problem: null,
    video,
    lookup,
    lookupMessage: message,
    missing: NEEDED.filter((field) => video[field] === undefined),
    existing: null,
    repeatOf: null,
    list: entry.list,
  };
}

type LookedUpVideo = NonNullable<UrlLookup['video']>;

/**
 * The parsed fields and what a provider said, in the answer's field order (the serializer checks
 * the answer against its schema field by field): the provider's thumbnail when it gives one,
 * YouTube's from the id otherwise.
 */
function videoOf(fields: Pick<LookedUpVideo, 'providerName' | 'providerVideoId' | 'streamUrl' | 'thumbnailUrl'>, metadata: VideoMetadata): LookedUpVideo {
  return {
    providerName: fields.providerName,
    providerVideoId: fields.providerVideoId,
    streamUrl: fields.streamUrl,
    thumbnailUrl: metadata.thumbnailUrl ?? fields.thumbnailUrl,
    ...(metadata.title !== undefined ? { title: metadata.title } : {}),
    ...(metadata.durationSeconds !== undefined ? { durationSeconds: metadata.durationSeconds } : {}),
    ...(metadata.description !== undefined ? { description: metadata.description } : {}),
  };
}

async function lookUpOne(url: string, lookUp: (video: ParsedVideoUrl) => Promise<OEmbedLookup>, dataApi: DataApiAnswer): Promise<UrlLookup> {
  const parsed = parseVideoUrl(url);
  if (!parsed.ok) return { url, problem: parsed.problem, video: null, lookup: 'none', lookupMessage: null, missing: [], existing: null, repeatOf: null, list: null };
  const { oembedUrl: _oembed, startSeconds: _start, ...fields } = parsed.video;
  // The Data API's answer when it gave one; oEmbed otherwise (no key, or the Data API failed: its words kept).
  const said = fields.providerName === 'YouTube' ? dataApi.videos.get(fields.providerVideoId) : undefined;
  const failure = fields.providerName === 'YouTube' && said === undefined ? dataApi.failure : null;
  const lookup: OEmbedLookup = said === undefined ? await lookUp(parsed.video) : said.status === 'found' ? { status: 'found', metadata: said.metadata } : said;
  const metadata = lookup.status === 'found' ? lookup.metadata : {};
  const video = videoOf(fields, metadata);
  const message = said?.status === 'found' ? said.note : failure ? failure.message : lookup.status === 'not_found' || lookup.status === 'unavailable' ? lookup.message : null;
  return {
    url,
    problem: null,
    video,
    lookup: lookup.status,
    lookupMessage: message,
    missing: NEEDED.filter((field) => video[field] === undefined),
    existing: null,
    repeatOf: null,
    list: null,
  };
}

/**
 * The lookups with duplicates flagged: a video the owner has already (same provider, same id, in
 * any URL form or typed by hand) and a video an earlier line of the same paste names.
 */
export async function flagDuplicates(db: Queryable, ownerId: number, lookups: UrlLookup[]): Promise<UrlLookup[]> {
  const keyOf = (v: { providerName: string; providerVideoId: string }) => `${v.providerName.toLowerCase()}|${v.providerVideoId}`;
  const owned = new Map<string, { videoId: number; title: string }>();
  for (const v of await ownerVideosByProviderIds(
    db,
    ownerId,
    lookups.flatMap((l) => (l.video ? [l.video.providerVideoId] : [])),
  )) {
    if (!owned.has(keyOf(v))) owned.set(keyOf(v), { videoId: v.id, title: v.title });
  }
  const first = new Map<string, number>();
  return lookups.map((lookup, i) => {
    if (!lookup.video) return lookup;
    const key = keyOf(lookup.video);
    const earlier = first.get(key);
    if (earlier === undefined) first.set(key, i);
    return { ...lookup, existing: owned.get(key) ?? null, repeatOf: earlier ?? null };
  });
}

/**
 * A body whose `url` names the video: the provider fields it gives filled in (a thumbnail and a
 * stream URL only when the body has none), or `<root>url: problem` lines. A body with a url and a
 * different provider id is refused rather than guessed.
 */
export function withUrlFields(body: Body, root: string, problems: string[]): Body {
  const { url, ...rest } = body as Body & { url?: unknown };
  if (url === undefined) return body;
  if (typeof url !== 'string') return (problems.push(`${root}url: expected string`), rest);
  const parsed = parseVideoUrl(url);
  if (!parsed.ok) return (problems.push(`${root}url: ${parsed.problem}`), rest);
  const video = parsed.video;
  for (const field of ['providerName', 'providerVideoId'] as const) {
    const given = rest[field];
    if (given !== undefined && String(given).toLowerCase() !== video[field].toLowerCase()) {
      problems.push(`${root}${field}: ${JSON.stringify(given)} is not what url says (${JSON.stringify(video[field])}); leave it out to take the url's`);
    }
  }
  return {
    ...rest,
    providerName: rest['providerName'] ?? video.providerName,
    providerVideoId: rest['providerVideoId'] ?? video.providerVideoId,
    ...(video.streamUrl !== null && (rest['streamUrl'] ?? null) === null ? { streamUrl: video.streamUrl } : {}),
    ...(video.thumbnailUrl !== '' && !rest['thumbnailUrl'] ? { thumbnailUrl: video.thumbnailUrl } : {}),
  };
}

/** The bodies with their urls read; refused (422, every problem at its path) when one is bad. */
export function bodiesFromUrls(bodies: readonly Body[], root: (i: number) => string): Body[] {
  const problems: string[] = [];
  const read = bodies.map((body, i) => withUrlFields(body, root(i), problems));
  if (problems.length > 0) throw invalid(problems);
  return read;
}
