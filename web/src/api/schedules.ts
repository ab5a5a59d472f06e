// A channel's schedule: blocks (with the ETag edits send back), the expanded days of a week, the
// guide rows a TV app receives, and live streams. Every write here makes the channel's schedule
// reads stale (blocks, days, guide), so the week and the preview show it at once.
import { useQueries, useQuery } from '@tanstack/react-query';
import { studio } from './client.ts';
import { keys, useWrite } from './query.ts';
import type { Block, BlockPatch, Day, Guide, LiveStream, LiveStreamBody, NewBlock } from './types.ts';

const blockPath = (channelId: number, blockId: number) => `/channels/${channelId}/schedules/${blockId}`;

/** The channel's blocks between two dates (yyyy-MM-dd). */
export const useBlocks = (channelId: number, from: string, to: string) =>
  useQuery({
    queryKey: keys.blocks(channelId, from, to),
    queryFn: async () => (await studio<{ items: Block[] }>(`/channels/${channelId}/schedules`, { query: { from, to } })).data.items,
  });

/** One block with the ETag its edit sends back. */
export const useBlock = (channelId: number, blockId: number | undefined) =>
  useQuery({ queryKey: keys.block(channelId, blockId ?? 0), queryFn: () => studio<Block>(blockPath(channelId, blockId!)), enabled: blockId !== undefined });

/** Several reads as one: `data` once every one has come, the first failure. */
const allDone = <T>(results: readonly { data: T | undefined; error: unknown }[]) => ({
  data: results.every((r) => r.data !== undefined) ? results.map((r) => r.data!) : undefined,
  error: results.find((r) => r.error)?.error ?? null,
});

/** The expanded days, in the order asked. */
export function useDays(channelId: number, dates: readonly string[]) {
  return useQueries({
    queries: dates.map((date) => ({ queryKey: keys.day(channelId, date), queryFn: async () => (await studio<Day>(`/channels/${channelId}/days/${date}`)).data })),
    combine: allDone<Day>,
  });
}

/** A channel-day of the guide in `zone`; `options`: read only once `enabled`, again every `refetchInterval` ms. */
export const useGuide = (channelId: number, date: string, zone: string, options: { enabled?: boolean; refetchInterval?: number } = {}) =>
  useQuery({
    queryKey: keys.guide(channelId, date, zone),
    queryFn: async () => (await studio<Guide>(`/channels/${channelId}/guide/${date}`, { query: { timezone: zone } })).data,
    ...options,
  });

export const useCreateBlock = (channelId: number) =>
  useWrite(
    (v: { body: NewBlock; key: string }) => studio<Block>(`/channels/${channelId}/schedules`, { method: 'POST', body: v.body, idempotencyKey: v.key }),
    () => [keys.schedule(channelId)],
  );

export const useUpdateBlock = (channelId: number) =>
  useWrite(
    (v: { blockId: number; body: BlockPatch; etag: string | undefined }) => studio<Block>(blockPath(channelId, v.blockId), { method: 'PATCH', body: v.body, ifMatch: v.etag }),
    () => [keys.schedule(channelId)],
  );

export const useDeleteBlock = (channelId: number) =>
  useWrite(
    (v: { blockId: number; etag: string | undefined }) => studio(blockPath(channelId, v.blockId), { method: 'DELETE', ifMatch: v.etag }),
    () => [keys.schedule(channelId)],
  );

/**
 * Moves a block to a new start read off the week view: the block is read fresh (its ETag and
 * its first day) so the move applies to the block as it is now. A daily block keeps its first
 * day: moving one occurrence moves its time of day.
 */
export const useMoveBlock = (channelId: number) =>
  useWrite(
    async (v: { blockId: number; startTime: string; loopDaily: boolean }) => {
      const current = await studio<Block>(blockPath(channelId, v.blockId));
      const startTime = v.loopDaily ? `${current.data.startTime.slice(0, 10)}${v.startTime.slice(10)}` : v.startTime;
      return studio<Block>(blockPath(channelId, v.blockId), { method: 'PATCH', body: { startTime }, ifMatch: current.etag });
    },
    () => [keys.schedule(channelId)],
  );

/**
 * Resizes a block read off the week view: its videos become `videoIds(current)` (computed from
 * the block as it is now, resizedVideoIds), sent with its ETag; nothing is sent when they stay.
 */
export const useResizeBlock = (channelId: number) =>
  useWrite(
    async (v: { blockId: number; videoIds: (current: readonly number[]) => number[] }) => {
      const current = await studio<Block>(blockPath(channelId, v.blockId));
      const videoIds = v.videoIds(current.data.videoIds);
      if (videoIds.join() === current.data.videoIds.join()) return current;
      return studio<Block>(blockPath(channelId, v.blockId), { method: 'PATCH', body: { videoIds }, ifMatch: current.etag });
    },
    () => [keys.schedule(channelId)],
  );

export const useCopyDay = (channelId: number) =>
  useWrite(
    (v: { from: string; body: { toDates: string[]; replace: boolean; allowOverlap?: boolean }; key: string }) =>
      studio(`/channels/${channelId}/days/${v.from}/copy`, { method: 'POST', body: v.body, idempotencyKey: v.key }),
    () => [keys.schedule(channelId)],
  );

// ---------------------------------------------------------------- live streams

const streamPath = (channelId: number, streamId: number) => `/channels/${channelId}/live-streams/${streamId}`;
const streamReads = (channelId: number) => [keys.liveStreams(channelId), keys.schedule(channelId)];

export const useLiveStreams = (channelId: number) =>
  useQuery({ queryKey: keys.liveStreams(channelId), queryFn: async () => (await studio<{ items: LiveStream[] }>(`/channels/${channelId}/live-streams`)).data.items });

/** One live stream with the ETag its edit sends back (read when its form opens). */
export const useLiveStream = (channelId: number, streamId: number | undefined) =>
  useQuery({ queryKey: [...keys.liveStreams(channelId), streamId], queryFn: () => studio<LiveStream>(streamPath(channelId, streamId!)), enabled: streamId !== undefined });

export const useCreateLiveStream = (channelId: number) =>
  useWrite(
    (v: { body: LiveStreamBody; key: string }) => studio(`/channels/${channelId}/live-streams`, { method: 'POST', body: v.body, idempotencyKey: v.key }),
    () => streamReads(channelId),
  );

export const useUpdateLiveStream = (channelId: number) =>
  useWrite(
    (v: { streamId: number; body: Partial<LiveStreamBody>; etag: string | undefined }) =>
      studio(streamPath(channelId, v.streamId), { method: 'PATCH', body: v.body, ifMatch: v.etag }),
    () => streamReads(channelId),
  );

/** Ends a stream now or deletes it, with the ETag it has now (read first: the list carries none). */
export const useEndOrDeleteLiveStream = (channelId: number) =>
  useWrite(
    async (v: { streamId: number; what: 'end' | 'delete' }) => {
      const current = await studio<LiveStream>(streamPath(channelId, v.streamId));
      if (v.what === 'end') return studio(streamPath(channelId, v.streamId), { method: 'PATCH', body: { end: new Date().toISOString() }, ifMatch: current.etag });
      return studio(streamPath(channelId, v.streamId), { method: 'DELETE', ifMatch: current.etag });
    },
    () => streamReads(channelId),
  );
