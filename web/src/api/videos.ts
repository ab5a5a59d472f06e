// The owner's videos: pages of the library, one video with its ETag, where it is used, titles by
// id; creates (one or a pasted list), edits and deletes. A video write makes stale every read that
// shows videos: pages, channels' lists and the schedule's days and guide rows (titles).
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { studio } from './client.ts';
import { keys, useWrite } from './query.ts';
import type { NewVideo, Video, VideoLookup, VideoLookupItem, VideoPage, VideoPatch, VideoUsage } from './types.ts';

const PAGE_MAX = 500;

export interface VideoQuery {
  q?: string | undefined;
  page?: number;
  per_page?: number;
}

export function useVideoPage(query: VideoQuery) {
  return useQuery({
    queryKey: keys.videoPage({ ...query }),
    queryFn: async () => (await studio<VideoPage>('/videos', { query: { ...query } })).data,
    placeholderData: keepPreviousData,
  });
}

/** One video with the ETag its edit sends back. */
export const useVideo = (videoId: number) => useQuery({ queryKey: keys.video(videoId), queryFn: () => studio<Video>(`/videos/${videoId}`) });

export const useVideoUsage = (videoId: number) =>
  useQuery({ queryKey: keys.videoUsage(videoId), queryFn: async () => (await studio<VideoUsage>(`/videos/${videoId}/usage`)).data });

/** Titles of the given ids, from the owner's video pages; an id not found is "Video #id". */
/**
 * Titles of these videos. `keepPrevious`: while new ids load, keep answering the previous titles
 * (for a screen whose editors hold their own titles and must not unmount into a loader on a
 * save that adds ids; a form that titles its fields from this once must not take it).
 */
export function useVideoTitles(ids: readonly number[], options: { keepPrevious?: boolean } = {}) {
  return useQuery({
    queryKey: keys.videoTitles([...new Set(ids)]),
    queryFn: async () => {
      const wanted = new Set(ids);
      const titles = new Map<number, string>();
      for (let page = 1; [...wanted].some((id) => !titles.has(id)); page++) {
        const { data } = await studio<VideoPage>('/videos', { query: { page, per_page: PAGE_MAX } });
        for (const v of data.items) titles.set(v.id, v.title);
        if (page * PAGE_MAX >= data.total) break;
      }
      return titles;
    },
    ...(options.keepPrevious ? { placeholderData: keepPreviousData } : {}),
  });
}

export const titleOf = (titles: ReadonlyMap<number, string> | undefined, id: number) => titles?.get(id) ?? `Video #${id}`;

const VIDEO_READS = [keys.videos, keys.channels, ['schedule'], ['live-streams']] as const;

export const useCreateVideos = () =>
  useWrite(
    ({ body, key }: { body: NewVideo | NewVideo[]; key: string }) => studio('/videos', { method: 'POST', body, idempotencyKey: key }),
    () => VIDEO_READS,
  );

export const useUpdateVideo = () =>
  useWrite(
    ({ videoId, body, etag }: { videoId: number; body: VideoPatch; etag: string | undefined }) => studio<Video>(`/videos/${videoId}`, { method: 'PATCH', body, ifMatch: etag }),
    () => VIDEO_READS,
  );

export const useDeleteVideo = () =>
  useWrite(
    ({ videoId, etag }: { videoId: number; etag: string | undefined }) => studio(`/videos/${videoId}`, { method: 'DELETE', ifMatch: etag }),
    () => VIDEO_READS,
  );

/** URLs the Studio looks up per request (src/catalog/video-url.ts MAX_LOOKUP_URLS). */
const LOOKUP_CHUNK = 50;

/**
 * What each pasted URL is and what its provider says of it, in the order pasted (50 per request);
 * a pasted playlist, channel or showcase comes back as its videos, `lists` saying what each gave
 * (item `list` indexes the merged `lists`).
 */
export async function lookUpUrls(urls: readonly string[]): Promise<VideoLookup> {
  const items: VideoLookupItem[] = [];
  const lists: VideoLookup['lists'] = [];
  for (let i = 0; i < urls.length; i += LOOKUP_CHUNK) {
    const { data } = await studio<VideoLookup>('/videos/lookup', { method: 'POST', body: { urls: urls.slice(i, i + LOOKUP_CHUNK) } });
    const offset = lists.length;
    // A repeat across chunks is the chunk's own index; offset it to the merged list.
    const base = items.length;
    items.push(...data.items.map((item) => ({ ...item, list: item.list === null ? null : item.list + offset, repeatOf: item.repeatOf === null ? null : item.repeatOf + base })));
    lists.push(...data.lists);
  }
  return { items, lists };
}
