// Queries behind a channel's programming tools (the Studio's time slots, filler and undo): one
// row per channel, written only once a tool is used (no row: an empty plan, no filler, no undo).
import { eq, sql } from 'drizzle-orm';
import type { Queryable } from '../db/connect.ts';
import * as t from '../db/schema.ts';

export interface ProgrammingRow {
  slots: unknown[];
  fillerVideoIds: number[];
  fillerCollectionId: number | null;
  fallbackCollectionId: number | null;
  lastWrite: unknown;
}

export async function channelProgramming(db: Queryable, channelId: number): Promise<ProgrammingRow> {
  const [row] = await db
    .select({ slots: t.channelProgramming.slots, fillerVideoIds: t.channelProgramming.fillerVideoIds, fillerCollectionId: t.channelProgramming.fillerCollectionId, fallbackCollectionId: t.channelProgramming.fallbackCollectionId, lastWrite: t.channelProgramming.lastWrite })
    .from(t.channelProgramming)
    .where(eq(t.channelProgramming.channelId, channelId));
  return row ?? { slots: [], fillerVideoIds: [], fillerCollectionId: null, fallbackCollectionId: null, lastWrite: null };
}

/** Sets some of a channel's programming columns, creating its row when it has none. */
export async function saveProgramming(tx: Queryable, channelId: number, values: Partial<ProgrammingRow>): Promise<void> {
  // jsonb values as JSON text: the drivers differ in how they pass a JS array to jsonb.
  const json = (v: unknown) => sql`${JSON.stringify(v ?? null)}::jsonb`;
  const set: Record<string, unknown> = {};
  if (values.slots !== undefined) set['slots'] = json(values.slots);
  if (values.fillerVideoIds !== undefined) set['fillerVideoIds'] = json(values.fillerVideoIds);
  if (values.fillerCollectionId !== undefined) set['fillerCollectionId'] = values.fillerCollectionId;
  if (values.fallbackCollectionId !== undefined) set['fallbackCollectionId'] = values.fallbackCollectionId;
  if (values.lastWrite !== undefined) set['lastWrite'] = json(values.lastWrite);
  await tx
    .insert(t.channelProgramming)
    .values({ channelId, ...set })
    .onConflictDoUpdate({ target: t.channelProgramming.channelId, set });
}
