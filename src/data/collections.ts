// Queries behind an owner's collections (src/schedules/collections.ts): the rows, the videos a
// smart collection's rules read, and the programming plans whose slots play a collection.
import { and, asc, count, eq, isNotNull, or, sql, type SQL } from 'drizzle-orm';
import type { Queryable } from '../db/connect.ts';
import * as t from '../db/schema.ts';

export type CollectionRow = typeof t.collections.$inferSelect;

/** What a write sets; jsonb as JSON text (the drivers differ in how they pass a JS array to jsonb). */
export interface CollectionValues {
  name: string;
  videoIds: number[];
  rules: t.CollectionRulesRow | null;
  updatedAt: Date;
}

const json = (v: unknown) => sql`${JSON.stringify(v)}::jsonb`;
const values = (v: CollectionValues) => ({ name: v.name, videoIds: json(v.videoIds), rules: v.rules === null ? null : json(v.rules), updatedAt: v.updatedAt });

export async function ownerCollections(db: Queryable, ownerId: number): Promise<CollectionRow[]> {
  return db.select().from(t.collections).where(eq(t.collections.ownerId, ownerId)).orderBy(asc(t.collections.id));
}

export async function ownerCollection(db: Queryable, ownerId: number, id: number): Promise<CollectionRow | undefined> {
  const [row] = await db.select().from(t.collections).where(and(eq(t.collections.id, id), eq(t.collections.ownerId, ownerId)));
  return row;
}

export async function countOwnerCollections(db: Queryable, ownerId: number): Promise<number> {
  const [row] = await db.select({ n: count() }).from(t.collections).where(eq(t.collections.ownerId, ownerId));
  return Number(row?.n ?? 0);
}

/** The owner's collection with this name, whatever its case (names are unique per owner). */
export async function collectionNamed(db: Queryable, ownerId: number, name: string): Promise<{ id: number } | undefined> {
  const [row] = await db
    .select({ id: t.collections.id })
    .from(t.collections)
    .where(and(eq(t.collections.ownerId, ownerId), sql`lower(${t.collections.name}) = lower(${name})`));
  return row;
}

export async function insertCollection(tx: Queryable, ownerId: number, v: CollectionValues): Promise<number> {
  const [row] = await tx.insert(t.collections).values({ ownerId, ...values(v) }).returning({ id: t.collections.id });
  return row!.id;
}

export async function updateCollection(tx: Queryable, ownerId: number, id: number, v: CollectionValues): Promise<void> {
  await tx.update(t.collections).set(values(v)).where(and(eq(t.collections.id, id), eq(t.collections.ownerId, ownerId)));
}

export async function deleteCollectionRow(tx: Queryable, ownerId: number, id: number): Promise<void> {
  await tx.delete(t.collections).where(and(eq(t.collections.id, id), eq(t.collections.ownerId, ownerId)));
}

/** What a smart collection's rules read of each of the owner's videos, by id. */
export async function ruleVideos(db: Queryable, ownerId: number) {
  return db
    .select({ id: t.videos.id, title: t.videos.title, categoryId: t.videos.categoryId, providerName: t.videos.providerName, durationSeconds: t.videos.durationSeconds })
    .from(t.videos)
    .where(eq(t.videos.ownerId, ownerId))
    .orderBy(asc(t.videos.id));
}

/** The owner's manual collections that list this video (jsonb containment). */
export async function collectionsListing(db: Queryable, videoId: number): Promise<Array<{ id: number; name: string }>> {
  return db
    .select({ id: t.collections.id, name: t.collections.name })
    .from(t.collections)
    .where(sql`${t.collections.videoIds} @> ${JSON.stringify([videoId])}::jsonb`)
    .orderBy(asc(t.collections.id));
}

/** A channel's programming as a collection's uses read it: its slots as stored and its filler's collection. */
export interface PlanUses {
  channelId: number;
  slots: unknown[];
  fillerCollectionId: number | null;
  /** The collection that fills the channel's dead air (docs/programming.md, Filler that pads). */
  fallbackCollectionId: number | null;
}

const planUses = { channelId: t.channelProgramming.channelId, slots: t.channelProgramming.slots, fillerCollectionId: t.channelProgramming.fillerCollectionId, fallbackCollectionId: t.channelProgramming.fallbackCollectionId };

/** The programming of the owner's channels that `plays` selects. */
function ownerPlans(db: Queryable, ownerId: number, plays: SQL | undefined): Promise<PlanUses[]> {
  return db
    .select(planUses)
    .from(t.channelProgramming)
    .innerJoin(t.channels, eq(t.channels.id, t.channelProgramming.channelId))
    .where(and(eq(t.channels.ownerId, ownerId), plays))
    .orderBy(asc(t.channelProgramming.channelId));
}

/** The programming of the owner's channels whose slots (one collection, among a random slot's, a roll), filler or fallback play this collection. */
export function plansUsingCollection(db: Queryable, ownerId: number, collectionId: number): Promise<PlanUses[]> {
  return ownerPlans(db, ownerId, or(
    sql`${t.channelProgramming.slots} @> ${JSON.stringify([{ collectionId }])}::jsonb`,
    sql`${t.channelProgramming.slots} @> ${JSON.stringify([{ collections: [{ collectionId }] }])}::jsonb`,
    ...(['preRoll', 'midRoll', 'postRoll'] as const).map((roll) => sql`${t.channelProgramming.slots} @> ${JSON.stringify([{ [roll]: { collectionId } }])}::jsonb`),
    eq(t.channelProgramming.fillerCollectionId, collectionId),
    eq(t.channelProgramming.fallbackCollectionId, collectionId),
  ));
}

/** The programming of the owner's channels that plays any collection (what a list of collections reports as their use). */
export function ownerPlansWithCollections(db: Queryable, ownerId: number): Promise<PlanUses[]> {
  return ownerPlans(db, ownerId, or(
    sql`jsonb_path_exists(${t.channelProgramming.slots}, '$[*].collectionId')`,
    sql`jsonb_path_exists(${t.channelProgramming.slots}, '$[*].collections')`,
    sql`jsonb_path_exists(${t.channelProgramming.slots}, '$[*].preRoll')`,
    sql`jsonb_path_exists(${t.channelProgramming.slots}, '$[*].midRoll')`,
    sql`jsonb_path_exists(${t.channelProgramming.slots}, '$[*].postRoll')`,
    isNotNull(t.channelProgramming.fillerCollectionId),
    isNotNull(t.channelProgramming.fallbackCollectionId),
  ));
}
