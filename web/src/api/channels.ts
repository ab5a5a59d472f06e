// The owner's channels and what hangs off each: details (with the ETag edits send back), the
// library and VOD catalog, VAST settings, the password; categories and languages (shared lists).
// A channel write makes stale the channel lists and that channel's schedule (its zone, its name).
import { useQuery } from '@tanstack/react-query';
import { newIdempotencyKey, studio } from './client.ts';
import { keys, useWrite } from './query.ts';
import type { Category, Channel, ChannelFields, ChannelPage, Language, Vast, VastBody, VideoList } from './types.ts';

/** The picker's page size: the API's largest (reordering needs the whole order). */
const PER_PAGE = 500;

/** One page of the owner's channels (deleted ones too when asked), in app order. */
export const useChannelList = (deleted = false) =>
  useQuery({
    queryKey: keys.channelPage({ deleted }),
    queryFn: async () => (await studio<ChannelPage>('/channels', { query: { per_page: PER_PAGE, deleted: deleted ? 1 : undefined } })).data.items,
  });

/** Every channel of the owner, paged through (the schedule's and live streams' picker). */
export const useAllChannels = () =>
  useQuery({
    queryKey: keys.allChannels,
    queryFn: async () => {
      const all: Channel[] = [];
      for (let page = 1; ; page++) {
        const { data } = await studio<ChannelPage>('/channels', { query: { page, per_page: 100 } });
        all.push(...data.items);
        if (all.length >= data.total || data.items.length === 0) return all;
      }
    },
  });

/** One channel with the ETag its edits send back. */
export const useChannel = (channelId: number) => useQuery({ queryKey: keys.channel(channelId), queryFn: () => studio<Channel>(`/channels/${channelId}`) });

const channelReads = (channelId?: number) => [keys.channels, ...(channelId === undefined ? [] : [keys.schedule(channelId)])];

export const useCreateChannel = () =>
  useWrite(
    (body: ChannelFields) => studio<Channel>('/channels', { method: 'POST', body, idempotencyKey: newIdempotencyKey() }),
    () => channelReads(),
  );

export const useUpdateChannel = (channelId: number) =>
  useWrite(
    (v: { body: Partial<ChannelFields> & { deleted?: boolean }; etag: string | undefined }) =>
      studio<Channel>(`/channels/${channelId}`, { method: 'PATCH', body: v.body, ifMatch: v.etag }),
    () => channelReads(channelId),
  );

export const useDeleteChannel = (channelId: number) =>
  useWrite(
    (etag: string | undefined) => studio(`/channels/${channelId}`, { method: 'DELETE', ifMatch: etag }),
    () => channelReads(channelId),
  );

export const useReorderChannels = () =>
  useWrite(
    (channelIds: number[]) => studio('/channels/order', { method: 'PUT', body: { channelIds } }),
    () => channelReads(),
  );

/** Sets (a string) or removes (null) the channel's password. */
export const usePassword = (channelId: number) =>
  useWrite(
    (password: string | null) => studio(`/channels/${channelId}/password`, password === null ? { method: 'DELETE' } : { method: 'PUT', body: { password } }),
    () => [keys.channel(channelId)],
  );

/** The library or VOD catalog: ordered video ids, with the ETag a replacement sends back. */
export const useVideoList = (channelId: number, list: 'library' | 'vod') =>
  useQuery({ queryKey: keys.videoList(channelId, list), queryFn: () => studio<VideoList>(`/channels/${channelId}/${list}`) });

export const usePutVideoList = (channelId: number, list: 'library' | 'vod') =>
  useWrite(
    (v: { videoIds: number[]; etag: string | undefined }) =>
      studio<VideoList>(`/channels/${channelId}/${list}`, { method: 'PUT', body: { videoIds: v.videoIds }, ifMatch: v.etag }),
    () => [keys.videoList(channelId, list), keys.schedule(channelId)],
  );

export const useVast = (channelId: number) =>
  useQuery({ queryKey: keys.vast(channelId), queryFn: async () => (await studio<{ items: Vast[] }>(`/channels/${channelId}/vast`)).data.items });

/** Sets (a body) or removes (null) the VAST setting of one platform. */
export const usePutVast = (channelId: number) =>
  useWrite(
    (v: { platform: string; body: VastBody | null }) =>
      studio(`/channels/${channelId}/vast/${v.platform}`, v.body === null ? { method: 'DELETE' } : { method: 'PUT', body: v.body }),
    () => [keys.vast(channelId)],
  );

export const useCategories = () => useQuery({ queryKey: keys.categories, queryFn: async () => (await studio<{ items: Category[] }>('/categories')).data.items });
export const useLanguages = () => useQuery({ queryKey: keys.languages, queryFn: async () => (await studio<{ items: Language[] }>('/languages')).data.items });

export const useCreateCategory = () =>
  useWrite(
    async (name: string) => (await studio<Category>('/categories', { method: 'POST', body: { name } })).data,
    () => [keys.categories],
  );
