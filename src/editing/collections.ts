// An owner's collections as Studio writes and reads (docs/programming.md, Collections): named,
// reusable sets of videos that slots of any of the owner's channels play. A manual collection
// lists its videos in order (every one the owner's); a smart one holds rules, resolved against
// the owner's videos whenever it is read or a plan is generated. A collection a slot plays cannot
// be deleted (in_use, naming the slots); a video a manual collection lists cannot be either
// (src/editing/videos.ts). Writes are audited; no public answer depends on a collection until a
// plan that plays it is applied, so a write tells the caches nothing.
import type { Database, Queryable } from '../db/connect.ts';
import {
  collectionNamed,
  countOwnerCollections,
  deleteCollectionRow,
  insertCollection,
  ownerCollection,
  ownerCollections,
  ownerPlansWithCollections,
  plansUsingCollection,
  ruleVideos,
  updateCollection,
  type CollectionRow,
  type PlanUses,
} from '../data/collections.ts';
import { videoDurations } from '../data/studio-schedules.ts';
import { COLLECTION_LIMITS, canonicalRules, rulesProblems, smartVideoIds, type CollectionRules, type RuleVideo } from '../schedules/collections.ts';
import { weekdaysText } from '../schedules/programming.ts';
import { assertMatches, etagOf } from './etag.ts';
import { EditRefusal, invalid, notFound } from './refusals.ts';
import { write, type Change, type Editor, type Idempotency, type Written } from './write.ts';

/** A slot that plays a collection: its channel, 1-based place in the plan, and when it starts as a creator reads it. */
export interface CollectionUse {
  channelId: number;
  slot: number;
  when: string;
}

export interface Collection {
  id: number;
  name: string;
  kind: 'manual' | 'smart';
  /** Manual: its list; smart: what its rules match now, by id. */
  videoIds: number[];
  rules: CollectionRules | null;
  updatedAt: string;
  /** The slots of the owner's programming plans that play it. */
  usedBy: CollectionUse[];
  /** The owner's channels whose filler plays it. */
  fillerChannelIds: number[];
}

/** A write's body: a name and either a list of videos (manual) or rules (smart). */
export interface CollectionBody {
  name: string;
  videoIds?: number[] | undefined;
  rules?: CollectionRules | undefined;
}

/** The videos a collection holds now: a manual one its list, a smart one what its rules match among `videos` (the owner's). */
const heldBy = (row: CollectionRow, videos: readonly RuleVideo[]): number[] => (row.rules === null ? row.videoIds : smartVideoIds(row.rules, videos));

/** The owner's videos as rules read them, read only when one of `rows` is smart. */
const videosFor = async (db: Queryable, ownerId: number, rows: readonly CollectionRow[]) => (rows.some((r) => r.rules !== null) ? ruleVideos(db, ownerId) : []);

/** The slots of `plans` that play the collection. */
function usesIn(plans: readonly PlanUses[], collectionId: number): CollectionUse[] {
  return plans.flatMap(({ channelId, slots }) =>
    slots.flatMap((raw, i) => {
      type Roll = { collectionId?: number } | null | undefined;
      const slot = raw as {
        collectionId?: number;
        collections?: Array<{ collectionId?: number }>;
        days?: number[];
        start?: string;
        preRoll?: Roll;
        midRoll?: Roll;
        postRoll?: Roll;
      };
      const rolls = [slot.preRoll, slot.midRoll, slot.postRoll].some((r) => r?.collectionId === collectionId);
      return slot.collectionId === collectionId || slot.collections?.some((c) => c.collectionId === collectionId) || rolls
        ? [{ channelId, slot: i + 1, when: `${weekdaysText(slot.days ?? [])} ${slot.start ?? ''}` }]
        : [];
    }),
  );
}

function present(row: CollectionRow, videos: readonly RuleVideo[], plans: readonly PlanUses[]): Collection {
  return {
    id: row.id,
    name: row.name,
    kind: row.rules === null ? 'manual' : 'smart',
    videoIds: heldBy(row, videos),
    rules: row.rules === null ? null : canonicalRules(row.rules),
    updatedAt: row.updatedAt.toISOString(),
    usedBy: usesIn(plans, row.id),
    fillerChannelIds: plans.filter((p) => p.fillerCollectionId === row.id).map((p) => p.channelId),
  };
}

export async function listCollections(db: Queryable, ownerId: number): Promise<Collection[]> {
  const rows = await ownerCollections(db, ownerId);
  const [videos, plans] = await Promise.all([videosFor(db, ownerId, rows), ownerPlansWithCollections(db, ownerId)]);
  return rows.map((row) => present(row, videos, plans));
}

export async function readCollection(db: Queryable, ownerId: number, id: number): Promise<Collection> {
  const row = await ownerCollection(db, ownerId, id);
  if (!row) throw notFound('Collection');
  const [videos, plans] = await Promise.all([videosFor(db, ownerId, [row]), plansUsingCollection(db, ownerId, id)]);
  return present(row, videos, plans);
}

/** The body's problems (unknown or foreign videos, a name taken, rules that contradict), as `<path>: <message>` lines. */
async function bodyProblems(tx: Queryable, ownerId: number, body: CollectionBody, self: number | undefined): Promise<string[]> {
  const problems: string[] = [];
  const name = body.name.trim();
  const taken = await collectionNamed(tx, ownerId, name);
  if (taken && taken.id !== self) problems.push(`name: you already have a collection named '${name}'`);
  if (body.videoIds) {
    const known = await videoDurations(tx, ownerId, body.videoIds);
    body.videoIds.forEach((id, k) => {
      if (!known.has(id)) problems.push(`videoIds[${k}]: unknown video ${id}`);
    });
  }
  if (body.rules) problems.push(...rulesProblems(body.rules));
  return problems;
}

const valuesOf = (body: CollectionBody, now: Date) => ({ name: body.name.trim(), videoIds: body.videoIds ?? [], rules: body.rules ?? null, updatedAt: now });
const changeOf = (action: Change['action'], id: number, fields: string[]): Change => ({ action, resource: `collections/${id}`, fields, channelIds: [] });

/** Creates a collection (an Idempotency-Key replays the first answer). */
export async function createCollection(db: Database, editor: Editor, body: CollectionBody, idempotency?: Idempotency): Promise<Written<Collection>> {
  return write(
    db,
    editor,
    async (tx) => {
      if ((await countOwnerCollections(tx, editor.ownerId)) >= COLLECTION_LIMITS.perOwner) {
        throw invalid([`(root): you have ${COLLECTION_LIMITS.perOwner} collections, the most an account may hold; delete one first`]);
      }
      const problems = await bodyProblems(tx, editor.ownerId, body, undefined);
      if (problems.length > 0) throw invalid(problems);
      const id = await insertCollection(tx, editor.ownerId, valuesOf(body, editor.now));
      const created = await readCollection(tx, editor.ownerId, id);
      return { written: { status: 201, body: created, etag: etagOf(created) }, changes: [changeOf('create', id, Object.keys(body).sort())] };
    },
    idempotency,
  );
}

/** Replaces a collection whole (If-Match: its ETag); a manual one may become smart and back. */
export async function replaceCollection(db: Database, editor: Editor, id: number, body: CollectionBody, ifMatch: string | undefined): Promise<Written<Collection>> {
  return write(db, editor, async (tx) => {
    const current = await readCollection(tx, editor.ownerId, id);
    assertMatches(ifMatch, current);
    const problems = await bodyProblems(tx, editor.ownerId, body, id);
    if (problems.length > 0) throw invalid(problems);
    await updateCollection(tx, editor.ownerId, id, valuesOf(body, editor.now));
    const after = await readCollection(tx, editor.ownerId, id);
    const fields = (['name', 'kind', 'videoIds', 'rules'] as const).filter((f) => JSON.stringify(current[f]) !== JSON.stringify(after[f]));
    return { written: { status: 200, body: after, etag: etagOf(after) }, changes: fields.length > 0 ? [changeOf('update', id, [...fields])] : [] };
  });
}

/** Deletes a collection no slot plays (else in_use, naming the slots). */
export async function deleteCollection(db: Database, editor: Editor, id: number, ifMatch: string | undefined): Promise<Written<null>> {
  return write(db, editor, async (tx) => {
    const current = await readCollection(tx, editor.ownerId, id);
    assertMatches(ifMatch, current);
    const fallbackChannelIds = (await plansUsingCollection(tx, editor.ownerId, id)).filter((p) => p.fallbackCollectionId === id).map((p) => p.channelId);
    if (current.usedBy.length > 0 || current.fillerChannelIds.length > 0 || fallbackChannelIds.length > 0) {
      const where = [
        ...current.usedBy.map((u) => `slot ${u.slot} (${u.when}) of channel ${u.channelId}'s programming`),
        ...current.fillerChannelIds.map((id) => `the filler of channel ${id}`),
        ...fallbackChannelIds.map((id) => `the dead-air fallback of channel ${id}`),
      ];
      throw new EditRefusal('in_use', `The collection '${current.name}' is still played by ${where.join(', ')}; give them other videos first.`);
    }
    await deleteCollectionRow(tx, editor.ownerId, id);
    return { written: { status: 204, body: null }, changes: [changeOf('delete', id, [])] };
  });
}

/**
 * The videos of the owner's collections these ids name (a plan's slots), by id; a collection that
 * is not the owner's is absent (the plan's check words it: unknown collection).
 */
export async function collectionVideos(db: Queryable, ownerId: number, ids: readonly number[]): Promise<Map<number, number[]>> {
  const wanted = new Set(ids);
  const out = new Map<number, number[]>();
  if (wanted.size === 0) return out;
  const rows = (await ownerCollections(db, ownerId)).filter((r) => wanted.has(r.id));
  const videos = await videosFor(db, ownerId, rows);
  for (const row of rows) out.set(row.id, heldBy(row, videos));
  return out;
}
