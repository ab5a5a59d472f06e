// A slot of a weekly programming plan, as stored and sent (src/schedules/programming.ts generates
// from it). No imports: the console shares it (its unsaved-changes check compares plans the way
// the service stores them).
export const SLOT_ORDERS = ['inOrder', 'shuffle', 'leastRecentlyAired'] as const;
export type SlotOrder = (typeof SLOT_ORDERS)[number];

export interface Slot {
  /** ISO weekdays: 1 Monday ... 7 Sunday. */
  days: number[];
  /** 'HH:mm' wall time in the channel zone. */
  start: string;
  /** The slot's playlist (a single video is a list of one). */
  videoIds: number[];
  order: SlotOrder;
  /** shuffle's seed (default 0). */
  seed?: number;
  /** Whether the generated blocks are published (default true). */
  published?: boolean;
  /** 'HH:mm' wall time the slot ends (the next day when not after start); absent: at the next slot. */
  end?: string;
  /** Dead air from start until the next slot: no videos, no block. */
  offAir?: boolean;
}

/** A slot with its fields in one order (a stored plan comes back from jsonb with its keys reordered; ETags hash the text). */
export function canonicalSlot(slot: Slot): Slot {
  return {
    days: slot.days, start: slot.start, videoIds: slot.videoIds, order: slot.order,
    ...(slot.seed !== undefined ? { seed: slot.seed } : {}), ...(slot.published !== undefined ? { published: slot.published } : {}),
    ...(slot.end !== undefined ? { end: slot.end } : {}), ...(slot.offAir !== undefined ? { offAir: slot.offAir } : {}),
  };
}
