// Videos from pasted URLs: what a URL is (video-url.ts), what its provider says of it
// (oembed.ts), and a body's `url` turned into the catalog's provider fields before validation.
// Looking up never happens inside a write: a write never waits on a provider.
import { parseVideoUrl, type ParsedVideoUrl } from '../catalog/video-url.ts';
import type { Queryable } from '../db/connect.ts';
import { ownerVideosByProviderIds } from '../data/studio-videos.ts';
import { lookUpOEmbed, type OEmbedConfig, type OEmbedLookup, type VideoMetadata } from './oembed.ts';
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
}

/**
 * Each URL parsed and, for YouTube and Vimeo, looked up. The same video is asked once; once a
 * provider is unavailable (offline, timing out) it is not asked again in this request, so a
 * paste of 50 costs at most a few timeouts.
 */
export async function lookUpVideoUrls(config: OEmbedConfig, urls: readonly string[]): Promise<UrlLookup[]> {
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
  const results: UrlLookup[] = new Array(urls.length);
  let next = 0;
  const worker = async () => {
    while (next < urls.length) {
      const i = next++;
      results[i] = await lookUpOne(urls[i]!, lookUp);
    }
  };
  await Promise.all(Array.from({ length: Math.min(LOOKUP_CONCURRENCY, urls.length) }, worker));
  return results;
}

async function lookUpOne(url: string, lookUp: (video: ParsedVideoUrl) => Promise<OEmbedLookup>): Promise<UrlLookup> {
  const parsed = parseVideoUrl(url);
  if (!parsed.ok) return { url, problem: parsed.problem, video: null, lookup: 'none', lookupMessage: null, missing: [], existing: null, repeatOf: null };
  const { oembedUrl: _oembed, startSeconds: _start, ...fields } = parsed.video;
  const lookup = await lookUp(parsed.video);
  const metadata = lookup.status === 'found' ? lookup.metadata : {};
  // The provider's thumbnail when it gives one; YouTube's from the id otherwise.
  const video = { ...fields, ...metadata, thumbnailUrl: metadata.thumbnailUrl ?? fields.thumbnailUrl };
  return {
    url,
    problem: null,
    video,
    lookup: lookup.status,
    lookupMessage: lookup.status === 'not_found' || lookup.status === 'unavailable' ? lookup.message : null,
    missing: NEEDED.filter((field) => video[field] === undefined),
    existing: null,
    repeatOf: null,
  };
}

/**
 * The lookups with duplicates flagged: a video the owner has already (same provider, same id, in
 * any URL form or typed by hand) and a video an earlier line of the same paste names.
 */
export async function flagDuplicates(db: Queryable, ownerId: number, lookups: UrlLookup[]): Promise<UrlLookup[]> {
  const keyOf = (v: { providerName: string; providerVideoId: string }) => `${v.providerName.toLowerCase()}|${v.providerVideoId}`;
  const owned = new Map<string, { videoId: number; title: string }>();
  for (const v of await ownerVideosByProviderIds(db, ownerId, lookups.flatMap((l) => (l.video ? [l.video.providerVideoId] : [])))) {
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
  if (typeof url !== 'string') return problems.push(`${root}url: expected string`), rest;
  const parsed = parseVideoUrl(url);
  if (!parsed.ok) return problems.push(`${root}url: ${parsed.problem}`), rest;
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
