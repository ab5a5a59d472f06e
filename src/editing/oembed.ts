// What a provider says of a video through its oEmbed endpoint: title, duration (Vimeo's only;
// YouTube's oEmbed has none), thumbnail and description. Only the configured endpoints are ever
// asked, with the URL rebuilt from the parsed id (video-url.ts), never a URL a caller typed: the
// service must not be made to fetch arbitrary addresses (SSRF). Never throws: a provider that is
// down, slow or offline is an answer ('unavailable') the creator fills in by hand.
import { MAX_TEXT, MAX_TITLE, thumbnailUrl } from '../catalog/fields.ts';
import type { ParsedVideoUrl } from '../catalog/video-url.ts';

export interface OEmbedConfig {
  /** YouTube's endpoint (https://www.youtube.com/oembed); '' asks nobody. */
  youtube: string;
  /** Vimeo's endpoint (https://vimeo.com/api/oembed.json); '' asks nobody. */
  vimeo: string;
  timeoutMs: number;
}

export interface VideoMetadata {
  title?: string;
  durationSeconds?: number;
  thumbnailUrl?: string;
  description?: string;
}

export type OEmbedLookup =
  | { status: 'found'; metadata: VideoMetadata }
  /** The provider answered that it has no such video, or that it may not be embedded. */
  | { status: 'not_found'; message: string }
  /** No answer worth reading (offline, timeout, an error status, not JSON), or no endpoint asked. */
  | { status: 'unavailable'; message: string }
  /** Direct media: no provider to ask. */
  | { status: 'none' };

/** An oEmbed answer is a few hundred bytes; more is not read. */
const MAX_ANSWER_BYTES = 64 * 1024;

export async function lookUpOEmbed(config: OEmbedConfig, video: ParsedVideoUrl): Promise<OEmbedLookup> {
  if (video.oembedUrl === null) return { status: 'none' };
  const endpoint = video.providerName === 'YouTube' ? config.youtube : config.vimeo;
  const provider = video.providerName;
  if (endpoint === '') return { status: 'unavailable', message: `${provider} is not asked on this server (no oEmbed endpoint configured)` };
  const target = new URL(endpoint);
  target.searchParams.set('url', video.oembedUrl);
  target.searchParams.set('format', 'json');
  try {
    const response = await fetch(target, { redirect: 'error', signal: AbortSignal.timeout(config.timeoutMs), headers: { accept: 'application/json' } });
    if (response.status === 404 || response.status === 401 || response.status === 403) {
      await response.body?.cancel();
      return { status: 'not_found', message: `${provider} has no public, embeddable video ${video.providerVideoId} (it answered ${response.status})` };
    }
    if (!response.ok) {
      await response.body?.cancel();
      return { status: 'unavailable', message: `${provider} answered ${response.status}` };
    }
    const answer = await boundedJson(response);
    if (answer === undefined) return { status: 'unavailable', message: `${provider}'s answer was not oEmbed JSON` };
    return { status: 'found', metadata: metadataOf(answer) };
  } catch (error) {
    const name = error instanceof Error ? error.name : '';
    if (name === 'TimeoutError' || name === 'AbortError') return { status: 'unavailable', message: `${provider} did not answer within ${config.timeoutMs} ms` };
    return { status: 'unavailable', message: `${provider} could not be reached` };
  }
}

/**
 * A provider's JSON object answer, read up to `maxBytes` (more is cancelled, not buffered);
 * undefined for no body, too much, not JSON, or JSON that is not an object. Shared by the oEmbed
 * lookups and the provider APIs (provider-apis.ts).
 */
export async function boundedJson(response: Response, maxBytes = MAX_ANSWER_BYTES): Promise<Record<string, unknown> | undefined> {
  const reader = response.body?.getReader();
  if (!reader) return undefined;
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
  try {
    const parsed: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The fields the catalog keeps, from an untrusted answer: each one checked and cut to its limit. */
export function metadataOf(answer: Record<string, unknown>): VideoMetadata {
  const metadata: VideoMetadata = {};
  const title = typeof answer['title'] === 'string' ? answer['title'].trim().slice(0, MAX_TITLE) : '';
  if (title !== '') metadata.title = title;
  const duration = answer['duration'];
  if (typeof duration === 'number' && Number.isFinite(duration) && duration > 0 && duration < 10 * 365 * 86_400) metadata.durationSeconds = duration;
  const thumbnail = answer['thumbnail_url'];
  // The provider's word goes through the stored-URL rule too: an https thumbnail on a public host, or none.
  if (typeof thumbnail === 'string' && thumbnail !== '' && thumbnailUrl.safeParse(thumbnail).success) metadata.thumbnailUrl = thumbnail;
  const description = typeof answer['description'] === 'string' ? answer['description'].trim().slice(0, MAX_TEXT) : '';
  if (description !== '') metadata.description = description;
  return metadata;
}
