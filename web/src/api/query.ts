// The console's server state: one QueryClient (a cache of every answer read, by query key), the
// keys of each resource, and writes that say which reads they make stale. A key starts with its
// resource, so invalidating ['videos'] refreshes every page, video and usage shown.
import { QueryClient, useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // A refusal is an answer, not a hiccup: shown at once, as before the cache (no retries).
      retry: false,
      // Editing forms keep what was typed; a refetch on focus would swap the data under them.
      refetchOnWindowFocus: false,
    },
  },
});

type Query = Record<string, string | number | boolean | undefined>;

export const keys = {
  videos: ['videos'] as const,
  videoPage: (query: Query) => ['videos', 'page', query] as const,
  video: (videoId: number) => ['videos', videoId] as const,
  videoUsage: (videoId: number) => ['videos', videoId, 'usage'] as const,
  videoTitles: (ids: readonly number[]) => ['videos', 'titles', [...ids].sort((a, b) => a - b)] as const,
  channels: ['channels'] as const,
  channelPage: (query: Query) => ['channels', 'page', query] as const,
  allChannels: ['channels', 'all'] as const,
  channel: (channelId: number) => ['channels', channelId] as const,
  videoList: (channelId: number, list: 'library' | 'vod') => ['channels', channelId, list] as const,
  vast: (channelId: number) => ['channels', channelId, 'vast'] as const,
  liveStreams: (channelId: number) => ['live-streams', channelId] as const,
  /** Blocks, days and guide rows of a channel: what a schedule, live-stream or video write changes. */
  schedule: (channelId: number) => ['schedule', channelId] as const,
  blocks: (channelId: number, from: string, to: string) => ['schedule', channelId, 'blocks', from, to] as const,
  block: (channelId: number, blockId: number) => ['schedule', channelId, 'block', blockId] as const,
  day: (channelId: number, date: string) => ['schedule', channelId, 'day', date] as const,
  guide: (channelId: number, date: string, zone: string) => ['schedule', channelId, 'guide', date, zone] as const,
  /** A channel's slot plan, filler list and undo record (under schedule: an apply or undo changes them both). */
  programming: (channelId: number) => ['schedule', channelId, 'programming'] as const,
  /** The owner's collections (a video write changes what a smart one holds). */
  collections: ['videos', 'collections'] as const,
  categories: ['categories'] as const,
  languages: ['languages'] as const,
  app: (platform: string) => ['apps', platform] as const,
  appTokens: ['app-tokens'] as const,
  invites: ['invites'] as const,
  epgKey: (platform: string) => ['apps', platform, 'epg-key'] as const,
  nowOnAir: (channelId: number) => ['schedule', channelId, 'now'] as const,
  audit: (before: number | undefined) => ['audit', before ?? 'newest'] as const,
  analytics: (what: string, query: Query) => ['analytics', what, query] as const,
};

/** Every Studio write appears in the audit log. */
const AUDITED: QueryKey = ['audit'];

/**
 * A write (useMutation) that, once it succeeds, marks stale the reads it changes: those shown
 * refetch, the rest on their next use. `stale` names them from the write's variables.
 */
export function useWrite<V, T>(send: (variables: V) => Promise<T>, stale: (variables: V, result: T) => readonly QueryKey[]) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSuccess: (result, variables) => Promise.all([AUDITED, ...stale(variables, result)].map((queryKey) => client.invalidateQueries({ queryKey }))),
  });
}
