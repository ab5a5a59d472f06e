// A channel's programming tools: the slot plan and filler list (with the ETags their saves send
// back), the preview of a generated range, apply, undo and template copies. Apply, undo and copy
// write ordinary blocks: every schedule read of the channel goes stale with them.
import { useQuery } from '@tanstack/react-query';
import { studio } from './client.ts';
import { keys, useWrite } from './query.ts';
import type { Fallback, FillerList, GenerateBody, ProgrammingPreview, ProgrammingState, ProgrammingWritten, Slot, SlotPlan, TemplateBody } from './types.ts';

const base = (channelId: number) => `/channels/${channelId}/programming`;

/** The plan, filler and what an undo would reverse, plus the ETags of the plan and filler. */
export const useProgramming = (channelId: number) =>
  useQuery({
    queryKey: keys.programming(channelId),
    queryFn: async () => {
      const [state, slots, filler] = await Promise.all([
        studio<ProgrammingState>(base(channelId)),
        studio<SlotPlan>(`${base(channelId)}/slots`),
        studio<FillerList>(`${base(channelId)}/filler`),
      ]);
      return { state: state.data, slotsEtag: slots.etag, fillerEtag: filler.etag };
    },
  });

export const useSaveSlots = (channelId: number) =>
  useWrite(
    (v: { slots: Slot[]; etag: string | undefined }) => studio<SlotPlan>(`${base(channelId)}/slots`, { method: 'PUT', body: { slots: v.slots }, ifMatch: v.etag }),
    () => [keys.programming(channelId)],
  );

export const useSaveFiller = (channelId: number) =>
  useWrite(
    (v: { videoIds: number[]; collectionId: number | null; etag: string | undefined }) =>
      studio<FillerList>(`${base(channelId)}/filler`, {
        method: 'PUT',
        body: { videoIds: v.videoIds, ...(v.collectionId === null ? {} : { collectionId: v.collectionId }) },
        ifMatch: v.etag,
      }),
    () => [keys.programming(channelId), keys.collections],
  );

/** The channel's dead-air fallback: one of the owner's collections, or null. */
export const useSaveFallback = (channelId: number) =>
  useWrite(
    (v: { collectionId: number | null }) => studio<Fallback>(`${base(channelId)}/fallback`, { method: 'PUT', body: { collectionId: v.collectionId } }),
    () => [keys.programming(channelId), keys.collections],
  );

/**
 * A preview writes nothing: a mutation only because it is a POST run on demand. It carries the
 * ETag of the channel's schedule as read just before it, which apply sends back (If-Match): a
 * schedule changed meanwhile (another tab, another editor) is a 412 to preview again, never a
 * silent overwrite of what the creator did not see.
 */
export const usePreview = (channelId: number) =>
  useWrite(
    async (body: GenerateBody): Promise<ProgrammingPreview & { scheduleEtag: string | undefined }> => {
      const schedule = await studio(`/channels/${channelId}/schedules`);
      const preview = await studio<ProgrammingPreview>(`${base(channelId)}/preview`, { method: 'POST', body });
      return { ...preview.data, scheduleEtag: schedule.etag };
    },
    () => [],
  );

export const useApply = (channelId: number) =>
  useWrite(
    (v: { body: GenerateBody; key: string; ifMatch: string | undefined }) =>
      studio<ProgrammingWritten>(`${base(channelId)}/apply`, { method: 'POST', body: v.body, idempotencyKey: v.key, ifMatch: v.ifMatch }),
    () => [keys.schedule(channelId)],
  );

export const useUndo = (channelId: number) =>
  useWrite(
    (v: { key: string }) => studio(`${base(channelId)}/undo`, { method: 'POST', body: {}, idempotencyKey: v.key }),
    () => [keys.schedule(channelId)],
  );

export const useTemplate = (channelId: number) =>
  useWrite(
    (v: { body: TemplateBody; key: string }) => studio<ProgrammingWritten>(`${base(channelId)}/template`, { method: 'POST', body: v.body, idempotencyKey: v.key }),
    () => [keys.schedule(channelId)],
  );
