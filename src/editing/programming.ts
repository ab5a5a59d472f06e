// A channel's programming tools as Studio writes: the weekly slot plan and the filler list
// (stored per channel), a generation of the plan into blocks for a range of dates (previewed,
// applied), a template copy of a day or a week over a range of dates, and one undo of the last
// of those writes. Each produces ordinary one-off schedule blocks, checked by the same rules as
// a block written by hand (the catalog's rules, the owner's bounds, the overlap rule), in one
// write: If-Match names the channel's schedule list, an Idempotency-Key replays the first
// answer, every block created or removed is one audit entry. Rules of generation: src/schedules/programming.ts.
import type { Database, Queryable } from '../db/connect.ts';
import { channelProgramming, saveProgramming } from '../data/programming.ts';
import { deleteBlocks, insertBlocks, videoDurations } from '../data/studio-schedules.ts';
import { addDays } from '../schedules/channel-day.ts';
import { Overlaps, occurrenceOn, type SpanBlock } from '../schedules/overlaps.ts';
import {
  PROGRAMMING_LIMITS,
  canonicalSlot,
  datesOf,
  generation,
  lastAiredBefore,
  planProblems,
  templateSourceOf,
  type Busy,
  type DeadAir,
  type EntryRole,
  type GeneratedBlock,
  type GenerationWarning,
  type Slot,
} from '../schedules/programming.ts';
import { fastLocalDateTime } from '../schedules/zone-offsets.ts';
import { wallTimeToEpoch } from '../schedules/expand.ts';
import { withIds } from './entities.ts';
import { assertMatches, etagOf } from './etag.ts';
import { EditRefusal, invalid, notFound } from './refusals.ts';
import {
  assertListMatches,
  assertWritable,
  channelOf,
  conflict,
  firstTitles,
  resourceOf,
  spansOf,
  titledName,
  toRow,
  validatedInSlices,
  type Block,
  type ChannelEntry,
} from './schedules.ts';
import { SLICE, endsSlice, heavy, yieldToOthers } from './heavy-writes.ts';
import { blocksAround, channelHead, entriesOn, oneOffBlocksOn, storedBlocks } from './touched-days.ts';
import { assertIdsFree } from './validate.ts';
import { collectionVideos } from './collections.ts';
import { write, type Change, type Editor, type Idempotency, type Written } from './write.ts';

/** How far back leastRecentlyAired looks for what aired before the range. */
const AIRED_LOOKBACK_DAYS = 28;

/** The last programming write, kept for one undo: the blocks it added and those it removed, in full. */
interface LastWrite {
  kind: 'generate' | 'template';
  at: string;
  added: Block[];
  removed: Block[];
}

const programmingResource = (channelId: number, part: string) => `channels/${channelId}/programming/${part}`;

/** The owner's channel (its row, not its lists) and zone. */
async function ownerChannel(db: Queryable, ownerId: number, channelId: number) {
  const entry = await channelHead(db, ownerId, channelId);
  return { entry, zone: entry.timezone ?? 'UTC' };
}

/** If-Match of a programming write names the channel's whole schedule list: read only when one is sent. */
async function assertWholeListMatches(tx: Queryable, ownerId: number, channelId: number, ifMatch: string | undefined): Promise<void> {
  if (ifMatch === undefined) return;
  const { entry, blocks } = await channelOf(tx, ownerId, channelId);
  assertListMatches(ifMatch, entry, blocks);
}

/** `path: unknown video N` for every id that is not one of the owner's videos (another owner's reads the same). */
function unknownVideos(lists: ReadonlyArray<{ path: string; ids: readonly number[] }>, known: ReadonlyMap<number, number>): string[] {
  return lists.flatMap(({ path, ids }) => ids.flatMap((id, k) => (known.has(id) ? [] : [`${path}[${k}]: unknown video ${id}`])));
}

const slotLists = (slots: readonly Slot[], root = 'slots') => slots.map((s, i) => ({ path: `${root}[${i}].videoIds`, ids: s.videoIds }));

const ROLLS = ['preRoll', 'midRoll', 'postRoll'] as const;

/** The collections a slot plays, each at its path: `collectionId`, or a random slot's `collections[k].collectionId`, then its rolls' `preRoll.collectionId`... */
const collectionsOf = (s: Slot, at: string): Array<{ id: number; path: string }> => [
  ...(s.collectionId !== undefined
    ? [{ id: s.collectionId, path: `${at}.collectionId` }]
    : (s.collections ?? []).map((c, k) => ({ id: c.collectionId, path: `${at}.collections[${k}].collectionId` }))),
  ...ROLLS.flatMap((kind) => (s[kind] ? [{ id: s[kind].collectionId, path: `${at}.${kind}.collectionId` }] : [])),
];

/** `path: unknown collection N` for each collection a slot names that is not the owner's, and `holds no videos` for one that is empty (nothing to play). */
function collectionProblems(slots: readonly Slot[], held: ReadonlyMap<number, readonly number[]>, root = 'slots', emptyToo = false): string[] {
  return slots.flatMap((s, i) =>
    collectionsOf(s, `${root}[${i}]`).flatMap(({ id, path }) => {
      const videos = held.get(id);
      if (!videos) return [`${path}: unknown collection ${id}`];
      return emptyToo && videos.length === 0 ? [`${path}: collection ${id} holds no videos now; add some or pick another`] : [];
    }),
  );
}

/** The collections the slots name, resolved to their videos now (a smart one against the owner's videos). */
const heldBySlots = (db: Queryable, ownerId: number, slots: readonly Slot[]) =>
  collectionVideos(
    db,
    ownerId,
    slots.flatMap((s) => collectionsOf(s, '').map((c) => c.id)),
  );

/** A slot as generation plays it: a collection's videos as its list, a random slot's collections as its choices, its rolls' collections' videos. */
function played(s: Slot, held: ReadonlyMap<number, number[]>): Slot {
  const rolls = Object.fromEntries(ROLLS.flatMap((kind) => (s[kind] ? [[kind, held.get(s[kind].collectionId) ?? []]] : []))) as NonNullable<Slot['rolls']>;
  const withRolls = ROLLS.some((kind) => s[kind]) ? { ...s, rolls } : s;
  // The collection's own list, not a copy: slots playing one collection share it (and its least-recently-aired order).
  if (s.collectionId !== undefined) return { ...withRolls, videoIds: held.get(s.collectionId) ?? [] };
  if (s.collections) return { ...withRolls, choices: s.collections.map((c) => ({ videoIds: held.get(c.collectionId) ?? [], weight: c.weight })) };
  return withRolls;
}

// ---------------------------------------------------------------- the stored plan and filler

export interface SlotPlan {
  channelId: number;
  timezone: string;
  slots: Slot[];
}

export interface FillerList {
  channelId: number;
  videoIds: number[];
  /** The owner's collection the filler plays instead of its list (null: the list). */
  collectionId: number | null;
}

export interface ProgrammingState {
  channelId: number;
  timezone: string;
  slots: Slot[];
  fillerVideoIds: number[];
  fillerCollectionId: number | null;
  /** The collection that fills a slot's dead air after everything else (null: none). */
  fallbackCollectionId: number | null;
  /** What an undo would reverse, or null. */
  undo: { kind: LastWrite['kind']; at: string; added: number; removed: number } | null;
}

export async function readProgramming(db: Queryable, ownerId: number, channelId: number): Promise<ProgrammingState> {
  const { entry, zone } = await ownerChannel(db, ownerId, channelId);
  const row = await channelProgramming(db, channelId);
  const last = row.lastWrite as LastWrite | null;
  return {
    channelId: entry.id,
    timezone: zone,
    slots: (row.slots as Slot[]).map(canonicalSlot),
    fillerVideoIds: row.fillerVideoIds,
    fillerCollectionId: row.fillerCollectionId,
    fallbackCollectionId: row.fallbackCollectionId,
    undo: last ? { kind: last.kind, at: last.at, added: last.added.length, removed: last.removed.length } : null,
  };
}

export async function readSlots(db: Queryable, ownerId: number, channelId: number): Promise<SlotPlan> {
  const { channelId: id, timezone, slots } = await readProgramming(db, ownerId, channelId);
  return { channelId: id, timezone, slots };
}

export async function readFiller(db: Queryable, ownerId: number, channelId: number): Promise<FillerList> {
  const { channelId: id, fillerVideoIds, fillerCollectionId } = await readProgramming(db, ownerId, channelId);
  return { channelId: id, videoIds: fillerVideoIds, collectionId: fillerCollectionId };
}

export interface Fallback {
  channelId: number;
  collectionId: number | null;
}

export async function readFallback(db: Queryable, ownerId: number, channelId: number): Promise<Fallback> {
  const { channelId: id, fallbackCollectionId } = await readProgramming(db, ownerId, channelId);
  return { channelId: id, collectionId: fallbackCollectionId };
}

/** Sets the channel's dead-air fallback: one of the owner's collections, or null (If-Match: its ETag). */
export async function putFallback(db: Database, editor: Editor, channelId: number, collectionId: number | null, ifMatch: string | undefined): Promise<Written<Fallback>> {
  return write(db, editor, async (tx) => {
    const current = await readFallback(tx, editor.ownerId, channelId);
    assertMatches(ifMatch, current);
    if (collectionId !== null && !(await collectionVideos(tx, editor.ownerId, [collectionId])).has(collectionId))
      throw invalid([`collectionId: unknown collection ${collectionId}`]);
    await saveProgramming(tx, channelId, { fallbackCollectionId: collectionId });
    const fallback = { ...current, collectionId };
    return {
      written: { status: 200, body: fallback, etag: etagOf(fallback) },
      changes:
        current.collectionId !== collectionId
          ? [{ action: 'update', resource: programmingResource(channelId, 'fallback'), fields: ['collectionId'], channelIds: [channelId] }]
          : [],
    };
  });
}

/** Replaces the slot plan (If-Match: the plan's ETag). Every video must be the owner's; no two slots may start at the same weekday and time. */
export async function putSlots(db: Database, editor: Editor, channelId: number, slots: Slot[], ifMatch: string | undefined): Promise<Written<SlotPlan>> {
  return write(db, editor, async (tx) => {
    const current = await readSlots(tx, editor.ownerId, channelId);
    assertMatches(ifMatch, current);
    const known = await videoDurations(
      tx,
      editor.ownerId,
      slots.flatMap((s) => s.videoIds),
    );
    const problems = [...unknownVideos(slotLists(slots), known), ...collectionProblems(slots, await heldBySlots(tx, editor.ownerId, slots)), ...planProblems(slots)];
    if (problems.length > 0) throw invalid(problems);
    const stored = slots.map(canonicalSlot);
    await saveProgramming(tx, channelId, { slots: stored });
    const plan = { ...current, slots: stored };
    const changed = JSON.stringify(current.slots) !== JSON.stringify(stored);
    return {
      written: { status: 200, body: plan, etag: etagOf(plan) },
      changes: changed ? [{ action: 'update', resource: programmingResource(channelId, 'slots'), fields: ['slots'], channelIds: [channelId] }] : [],
    };
  });
}

/** Replaces the filler: a list of the owner's videos, or one of the owner's collections (If-Match: its ETag). */
export async function putFiller(
  db: Database,
  editor: Editor,
  channelId: number,
  filler: { videoIds: number[]; collectionId?: number | undefined },
  ifMatch: string | undefined,
): Promise<Written<FillerList>> {
  return write(db, editor, async (tx) => {
    const current = await readFiller(tx, editor.ownerId, channelId);
    assertMatches(ifMatch, current);
    const collectionId = filler.collectionId ?? null;
    const problems = [
      ...unknownVideos([{ path: 'videoIds', ids: filler.videoIds }], await videoDurations(tx, editor.ownerId, filler.videoIds)),
      ...(collectionId !== null && !(await collectionVideos(tx, editor.ownerId, [collectionId])).has(collectionId) ? [`collectionId: unknown collection ${collectionId}`] : []),
    ];
    if (problems.length > 0) throw invalid(problems);
    await saveProgramming(tx, channelId, { fillerVideoIds: filler.videoIds, fillerCollectionId: collectionId });
    const list = { ...current, videoIds: filler.videoIds, collectionId };
    const fields = (['videoIds', 'collectionId'] as const).filter((f) => JSON.stringify(current[f]) !== JSON.stringify(list[f]));
    return {
      written: { status: 200, body: list, etag: etagOf(list) },
      changes: fields.length > 0 ? [{ action: 'update', resource: programmingResource(channelId, 'filler'), fields: [...fields], channelIds: [channelId] }] : [],
    };
  });
}

// ---------------------------------------------------------------- generation

export interface GenerateRequest {
  from: string;
  to: string;
  /** Fill each slot's remainder from the filler list. */
  fill?: boolean;
  /** Remove the one-off blocks starting on the range's dates first (loops stay). */
  replace?: boolean;
  allowOverlap?: boolean;
  /** A plan or filler list to use instead of the stored one (a preview of an unsaved plan). */
  slots?: Slot[];
  fillerVideoIds?: number[];
  /** A collection to fill from instead of the stored filler (a preview of an unsaved choice). */
  fillerCollectionId?: number;
  /** A dead-air fallback instead of the stored one (null: none). */
  fallbackCollectionId?: number | null;
}

export interface PlannedBlock {
  slot: number;
  startTime: string;
  endTime: string;
  slotEndTime: string;
  published: boolean;
  videoIds: number[];
  fillerVideos: number;
  roles: EntryRole[];
  durationSeconds: number;
  slotSeconds: number;
}

export interface ProgrammingPreview {
  channelId: number;
  timezone: string;
  from: string;
  to: string;
  blocks: PlannedBlock[];
  /** The blocks an apply removes first (replace). */
  replaces: Block[];
  /** Overlaps with blocks that stay (apply refuses them unless allowOverlap). */
  conflicts: Array<{ startTime: string; message: string }>;
  warnings: GenerationWarning[];
  /** The range's time no block covers (see DeadAir in src/schedules/programming.ts). */
  deadAir: Array<{ slot: number | null; startTime: string; endTime: string; seconds: number; reason: DeadAir['reason'] }>;
  totals: { blocks: number; videos: number; fillerVideos: number; deadAirSeconds: number };
}

/** Occurrences of the blocks on the dates (each date once per block; one-off blocks only on theirs). */
function occurrencesOf(spans: readonly SpanBlock[], dates: readonly string[], zone: string): Busy[] {
  const within = new Set(dates);
  const busy: Busy[] = [];
  for (const span of spans) {
    const days = span.loopDaily ? dates : within.has(span.startLocal.slice(0, 10)) ? [span.startLocal.slice(0, 10)] : [];
    for (const date of days) {
      const o = occurrenceOn(span, date, zone);
      if (o) busy.push({ blockId: span.id, start: o.start, end: o.end });
    }
  }
  return busy;
}

interface Planned {
  entry: ChannelEntry;
  zone: string;
  removed: Block[];
  generated: GeneratedBlock[];
  warnings: GenerationWarning[];
  deadAir: DeadAir[];
  conflicts: ProgrammingPreview['conflicts'];
  /** The first conflict as a refusal. */
  refusal?: EditRefusal;
}

async function plan(tx: Queryable, ownerId: number, channelId: number, request: GenerateRequest): Promise<Planned> {
  const { entry, zone } = await ownerChannel(tx, ownerId, channelId);
  const stored = await channelProgramming(tx, channelId);
  const planned = request.slots ?? (stored.slots as Slot[]).map(canonicalSlot);
  // The filler as sent, else as stored: a collection's videos (what it holds now) or the list.
  const fillerCollectionId = request.fillerCollectionId ?? (request.fillerVideoIds ? null : stored.fillerCollectionId);
  // Padding plays the filler too, with or without fill.
  const pads = planned.some((s) => s.padTo && !s.offAir);
  const fillerPlays = (request.fill || pads) && fillerCollectionId !== null;
  // The dead-air fallback as sent (null: none), else as stored.
  const fallbackCollectionId = request.fallbackCollectionId !== undefined ? request.fallbackCollectionId : stored.fallbackCollectionId;
  // Every collection the plan plays, read once: a smart one reads the owner's 20,000 videos, which
  // the slots, the filler and the fallback each read again before (0.2 s a read on PGlite).
  const held = await collectionVideos(tx, ownerId, [
    ...planned.flatMap((s) => collectionsOf(s, '').map((c) => c.id)),
    ...(fillerPlays ? [fillerCollectionId!] : []),
    ...(fallbackCollectionId !== null ? [fallbackCollectionId] : []),
  ]);
  if (fillerPlays && !held.has(fillerCollectionId!))
    throw invalid([`${request.fillerCollectionId === undefined ? 'fillerCollectionId (the stored filler)' : 'fillerCollectionId'}: unknown collection ${fillerCollectionId}`]);
  const channelFiller: readonly number[] = !(request.fill || pads) ? [] : fillerPlays ? held.get(fillerCollectionId!)! : (request.fillerVideoIds ?? stored.fillerVideoIds);
  const filler = request.fill ? channelFiller : [];
  const slotsAt = request.slots ? 'slots' : 'slots (the stored plan)';
  if (pads && channelFiller.length === 0) {
    const i = planned.findIndex((s) => s.padTo && !s.offAir);
    throw invalid([
      `${slotsAt}[${i}].padTo: padding plays the channel's filler, and ${fillerPlays ? `its collection ${fillerCollectionId} holds no videos now` : 'the channel has no filler list'}; PUT its filler (or send fillerVideoIds) first`,
    ]);
  }
  if (fallbackCollectionId !== null && !held.has(fallbackCollectionId)) {
    throw invalid([
      `${request.fallbackCollectionId === undefined ? 'fallbackCollectionId (the stored fallback)' : 'fallbackCollectionId'}: unknown collection ${fallbackCollectionId}`,
    ]);
  }
  const fallback: readonly number[] = fallbackCollectionId !== null ? held.get(fallbackCollectionId)! : [];
  if (planned.length === 0) throw invalid([`slots: the channel has no slot plan; send slots or PUT /channels/${channelId}/programming/slots first`]);
  if (request.fill && filler.length === 0) {
    throw invalid([
      fillerPlays ? `fill: the filler's collection ${fillerCollectionId} holds no videos now` : 'fill: the channel has no filler list; send fillerVideoIds or PUT its filler first',
    ]);
  }
  // A slot that plays a collection plays what the collection holds now.
  const slots = planned.map((s) => played(s, held));
  // Each list once (slots playing the same collection share its list): 200 slots' rolls of a 20,000-video collection are not 12 million ids.
  const lists = new Set<readonly number[]>([channelFiller, fallback]);
  for (const s of slots) {
    lists.add(s.videoIds);
    for (const c of s.choices ?? []) lists.add(c.videoIds);
    for (const kind of ROLLS) if (s.rolls?.[kind]) lists.add(s.rolls[kind]);
  }
  const ids = new Set<number>();
  for (const list of lists) for (const id of list) ids.add(id);
  const durations = await videoDurations(tx, ownerId, [...ids]);
  const problems = [
    ...unknownVideos(slotLists(planned, slotsAt), durations),
    ...collectionProblems(planned, held, slotsAt, true),
    ...unknownVideos([{ path: request.fillerVideoIds ? 'fillerVideoIds' : 'fillerVideoIds (the stored list)', ids: channelFiller }], durations),
    ...planProblems(slots, slotsAt),
  ];
  if (problems.length > 0) throw invalid(problems);

  const rangeDates = datesOf(request.from, request.to);
  const removed = request.replace ? await oneOffBlocksOn(tx, ownerId, channelId, rangeDates) : [];
  const removedIds = removed.map((b) => b.id);
  // The blocks that stay and can meet the range: from the day before (a late block runs into it)
  // to a week after (slots look a week ahead), with the margins of touched-days.ts.
  const kept = await blocksAround(tx, ownerId, channelId, addDays(request.from, -3), addDays(request.to, 11), removedIds);
  const keptSpans = kept.map((m) => m.span);
  const busy = occurrencesOf(keptSpans, datesOf(addDays(request.from, -1), addDays(request.to, 8)), zone);
  const entriesBefore = await entriesOn(tx, { id: channelId, timezone: zone }, rangeDates, removedIds);

  let lastAired: Map<number, number> | undefined;
  if (slots.some((s) => s.order === 'leastRecentlyAired')) {
    const lookback = datesOf(addDays(request.from, -AIRED_LOOKBACK_DAYS), addDays(request.from, -1));
    const earlier = new Set(lookback);
    const aired = (await blocksAround(tx, ownerId, channelId, lookback[0]!, request.from, [])).map((m) => m.block);
    const before = aired.filter((b) => (b.loopDaily ? b.startTime.slice(0, 10) < request.from : earlier.has(b.startTime.slice(0, 10))));
    const airedDurations = await videoDurations(
      tx,
      ownerId,
      before.flatMap((b) => b.videoIds),
    );
    const [y, m, d] = request.from.split('-').map(Number) as [number, number, number];
    const rangeStart = wallTimeToEpoch({ year: y, month: m, day: d, hour: 0, minute: 0, second: 0, millisecond: 0 }, zone);
    lastAired = lastAiredBefore(
      before.map((b) => ({ startLocal: b.startTime, loopDaily: b.loopDaily, videoIds: b.videoIds })),
      airedDurations,
      zone,
      lookback,
      rangeStart,
    );
  }

  // In steps, other requests answered between them (heavy-writes.ts).
  const steps = generation({
    zone,
    from: request.from,
    to: request.to,
    slots,
    durations,
    filler,
    padding: channelFiller,
    fallback,
    busy,
    entriesBefore,
    ...(lastAired ? { lastAired } : {}),
  });
  let step = steps.next();
  for (; !step.done; step = steps.next()) await yieldToOthers();
  const generated = step.value;
  if (generated.blocks.length > PROGRAMMING_LIMITS.writeBlocks) {
    throw invalid([`(root): the plan makes ${generated.blocks.length} blocks over these dates; one write creates at most ${PROGRAMMING_LIMITS.writeBlocks}`]);
  }
  // The generator keeps clear of the blocks that stay; this is the same check a hand-written block gets.
  const conflicts: Planned['conflicts'] = [];
  let refusal: EditRefusal | undefined;
  const overlaps = new Overlaps(zone, keptSpans);
  const met: Array<{ startTime: string; spanId: number; overlap: NonNullable<ReturnType<Overlaps['first']>> }> = [];
  for (const [i, g] of generated.blocks.entries()) {
    if (endsSlice(i)) await yieldToOthers();
    const span: SpanBlock = { id: -1 - i, startLocal: g.startTime, loopDaily: false, lengthMs: g.end - g.start };
    const overlap = overlaps.first(span);
    if (overlap) met.push({ startTime: g.startTime, spanId: span.id, overlap });
  }
  // The stored blocks met are named as a creator knows them: by their first video's title.
  const metIds = new Set(met.flatMap(({ overlap }) => [overlap.block.blockId, overlap.other.blockId]));
  const titles =
    met.length === 0
      ? new Map<number, string>()
      : await firstTitles(
          tx,
          ownerId,
          kept.filter((m) => metIds.has(m.block.id)).map((m) => m.block),
        );
  for (const { startTime, spanId, overlap } of met) {
    const c = conflict(overlap, zone, (id) => (id === spanId ? `The generated block at ${startTime}` : titledName(titles.get(id))));
    refusal ??= c;
    conflicts.push({ startTime, message: c.message });
  }
  return { entry, zone, removed, generated: generated.blocks, warnings: generated.warnings, deadAir: generated.deadAir, conflicts, ...(refusal ? { refusal } : {}) };
}

function presentPreview(channelId: number, request: GenerateRequest, p: Planned): ProgrammingPreview {
  const blocks = p.generated.map((g) => ({
    slot: g.slot,
    startTime: g.startTime,
    endTime: fastLocalDateTime(g.end, p.zone),
    slotEndTime: fastLocalDateTime(g.slotEnd, p.zone),
    published: g.published,
    videoIds: g.videoIds,
    fillerVideos: g.fillerVideos,
    roles: g.roles,
    durationSeconds: (g.end - g.start) / 1000,
    slotSeconds: (g.slotEnd - g.start) / 1000,
  }));
  return {
    channelId,
    timezone: p.zone,
    from: request.from,
    to: request.to,
    blocks,
    replaces: p.removed,
    conflicts: p.conflicts,
    warnings: p.warnings,
    deadAir: p.deadAir.map((d) => ({
      slot: d.slot,
      startTime: fastLocalDateTime(d.start, p.zone),
      endTime: fastLocalDateTime(d.end, p.zone),
      seconds: (d.end - d.start) / 1000,
      reason: d.reason,
    })),
    totals: {
      blocks: blocks.length,
      videos: blocks.reduce((n, b) => n + b.videoIds.length, 0),
      fillerVideos: blocks.reduce((n, b) => n + b.fillerVideos, 0),
      deadAirSeconds: p.deadAir.reduce((n, d) => n + (d.end - d.start) / 1000, 0),
    },
  };
}

/** What an apply would write, without writing (a read: no lock, no audit). */
export async function previewProgramming(db: Queryable, ownerId: number, channelId: number, request: GenerateRequest): Promise<ProgrammingPreview> {
  return heavy(ownerId, async () => presentPreview(channelId, request, await plan(db, ownerId, channelId, request)));
}

export interface ProgrammingWritten {
  items: Block[];
  removed: number[];
  warnings?: GenerationWarning[];
  skippedDates?: string[];
}

/**
 * Writes `bodies` as new blocks, removing `removed`: ids, the catalog's rules, a channel-day's
 * entries, the overlap rule (when asked to check it), the rows, the audit changes, and the record
 * for undo. Reads only the stored blocks the new ones can meet (touched-days.ts).
 */
async function replaceBlocks(
  tx: Queryable,
  editor: Editor,
  channelId: number,
  entry: ChannelEntry,
  removed: readonly Block[],
  bodies: ReadonlyArray<Omit<Block, 'id'>>,
  checkOverlaps: boolean,
  kind: LastWrite['kind'],
  name: (index: number) => string,
): Promise<{ created: Block[]; changes: Change[] }> {
  const complete = await withIds(tx, 'scheduleBlocks', bodies as never);
  const created = await validatedInSlices(tx, editor.ownerId, entry, complete);
  const indexOf = new Map(created.map((c, i) => [c.id, i]));
  const named = (id: number, titled: string) => (indexOf.has(id) ? name(indexOf.get(id)!) : titled);
  await assertWritable(
    tx,
    editor.ownerId,
    entry,
    created,
    removed.map((b) => b.id),
    {
      allowOverlap: !checkOverlaps,
      pathOf: (i) => `schedules[${i}]`,
      name: (id, self, titled) => (self ? capitalized(named(id, titled)) : named(id, titled)),
    },
  );
  await deleteBlocks(
    tx,
    removed.map((b) => b.id),
  );
  // In slices: on the embedded database a statement runs on the event loop (2,000 blocks: ~350 ms).
  for (let at = 0; at < created.length; at += SLICE) {
    if (at > 0) await yieldToOthers();
    await insertBlocks(
      tx,
      created.slice(at, at + SLICE).map((c) => toRow(channelId, c)),
    );
  }
  const last: LastWrite = { kind, at: editor.now.toISOString(), added: created, removed: [...removed] };
  await saveProgramming(tx, channelId, { lastWrite: last });
  const changes: Change[] = [
    ...removed.map((b): Change => ({ action: 'delete', resource: resourceOf(channelId, b.id), fields: [], channelIds: [channelId] })),
    ...created.map((c): Change => ({ action: 'create', resource: resourceOf(channelId, c.id), fields: Object.keys(c).sort(), channelIds: [channelId] })),
  ];
  return { created, changes };
}

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** Generates the plan over the range and writes the blocks (If-Match: the channel's schedule list). */
export async function applyProgramming(
  db: Database,
  editor: Editor,
  channelId: number,
  request: GenerateRequest,
  ifMatch: string | undefined,
  idempotency?: Idempotency,
): Promise<Written<ProgrammingWritten>> {
  return heavy(editor.ownerId, () =>
    write(
      db,
      editor,
      async (tx) => {
        const p = await plan(tx, editor.ownerId, channelId, request);
        await assertWholeListMatches(tx, editor.ownerId, channelId, ifMatch);
        if (p.refusal && !request.allowOverlap) throw p.refusal;
        if (p.generated.length === 0) throw invalid(["(root): the plan makes no block over these dates (see the preview's warnings)"]);
        const bodies = p.generated.map((g) => ({ startTime: g.startTime, published: g.published, loopDaily: false, videoIds: g.videoIds }));
        const { created, changes } = await replaceBlocks(
          // plan() checked the generated blocks against those that stay, and they never overlap each other (each ends by the next's start).
          tx,
          editor,
          channelId,
          p.entry,
          p.removed,
          bodies,
          false,
          'generate',
          (i) => `the generated block at ${bodies[i]!.startTime}`,
        );
        return { written: { status: 201, body: { items: created, removed: p.removed.map((b) => b.id), warnings: p.warnings } }, changes };
      },
      idempotency,
    ),
  );
}

// ---------------------------------------------------------------- templates

export interface TemplateRequest {
  /** The template's first day, and its length: 1 (a day) or 7 (a week). */
  sourceFrom: string;
  sourceDays: 1 | 7;
  /** Target dates, inclusive. */
  from: string;
  to: string;
  /** skip: leave target dates that already have one-off blocks; replace: remove those first. */
  mode: 'skip' | 'replace';
  allowOverlap?: boolean;
}

/**
 * Copies the template's one-off blocks onto every target date at the same wall times (a week's
 * day onto the target of the same weekday offset), new ids, published as the originals.
 */
export async function copyTemplate(
  db: Database,
  editor: Editor,
  channelId: number,
  request: TemplateRequest,
  ifMatch: string | undefined,
  idempotency?: Idempotency,
): Promise<Written<ProgrammingWritten>> {
  return heavy(editor.ownerId, () =>
    write(
      db,
      editor,
      async (tx) => {
        const { entry } = await ownerChannel(tx, editor.ownerId, channelId);
        await assertWholeListMatches(tx, editor.ownerId, channelId, ifMatch);
        const sourceDates = datesOf(request.sourceFrom, addDays(request.sourceFrom, request.sourceDays - 1));
        const targets = datesOf(request.from, request.to);
        if (targets.some((d) => sourceDates.includes(d))) throw invalid([`from: the target dates include the template's own (${sourceDates[0]} to ${sourceDates.at(-1)})`]);
        const sources = await oneOffBlocksOn(tx, editor.ownerId, channelId, sourceDates);
        if (sources.length === 0) throw invalid([`sourceFrom: no one-off block starts on ${sourceDates.join(', ')}; nothing to copy`]);
        const onTargets = await oneOffBlocksOn(tx, editor.ownerId, channelId, targets);
        const occupied = new Set(onTargets.map((b) => b.startTime.slice(0, 10)));
        const skippedDates = request.mode === 'skip' ? targets.filter((d) => occupied.has(d)) : [];
        const written = targets.filter((d) => !skippedDates.includes(d));
        const removed = request.mode === 'replace' ? onTargets : [];
        const bySource = new Map<string, Block[]>();
        for (const s of sources) bySource.set(s.startTime.slice(0, 10), [...(bySource.get(s.startTime.slice(0, 10)) ?? []), s]);
        const copies = written.flatMap((to) =>
          (bySource.get(templateSourceOf(request.sourceFrom, request.sourceDays, to)) ?? []).map((s) => ({
            from: s.id,
            to,
            body: { startTime: `${to}${s.startTime.slice(10)}`, published: s.published, loopDaily: false, videoIds: s.videoIds },
          })),
        );
        if (copies.length > PROGRAMMING_LIMITS.writeBlocks)
          throw invalid([`(root): the copy makes ${copies.length} blocks; one write creates at most ${PROGRAMMING_LIMITS.writeBlocks}`]);
        const { created, changes } = await replaceBlocks(
          tx,
          editor,
          channelId,
          entry,
          removed,
          copies.map((c) => c.body),
          request.allowOverlap !== true,
          'template',
          (i) => `the copy of block ${copies[i]!.from} to ${copies[i]!.to}`,
        );
        return { written: { status: 201, body: { items: created, removed: removed.map((b) => b.id), skippedDates } }, changes };
      },
      idempotency,
    ),
  );
}

// ---------------------------------------------------------------- undo

/** Field by field: the record comes back from jsonb, which orders an object's keys its own way. */
const sameBlock = (a: Block | undefined, b: Block) =>
  a !== undefined && a.startTime === b.startTime && a.published === b.published && a.loopDaily === b.loopDaily && a.videoIds.join() === b.videoIds.join();

export interface Undone {
  removed: number[];
  restored: Block[];
}

/**
 * Reverses the last programming write (one level): removes the blocks it added, provided each is
 * still as it wrote it, and restores the blocks it removed with their ids. The restored blocks
 * meet the overlap rule against what is there now (allowOverlap as for any block).
 */
export async function undoProgramming(
  db: Database,
  editor: Editor,
  channelId: number,
  allowOverlap: boolean,
  ifMatch: string | undefined,
  idempotency?: Idempotency,
): Promise<Written<Undone>> {
  return heavy(editor.ownerId, () =>
    write(
      db,
      editor,
      async (tx) => {
        const { entry } = await ownerChannel(tx, editor.ownerId, channelId);
        await assertWholeListMatches(tx, editor.ownerId, channelId, ifMatch);
        const last = (await channelProgramming(tx, channelId)).lastWrite as LastWrite | null;
        if (!last) throw notFound('Programming write to undo');
        const byId = new Map(
          (
            await storedBlocks(
              tx,
              editor.ownerId,
              last.added.map((a) => a.id),
            )
          ).map((b) => [b.id, b]),
        );
        const changed = last.added.find((a) => !sameBlock(byId.get(a.id), a));
        if (changed) {
          throw new EditRefusal(
            'precondition_failed',
            `Schedule block ${changed.id} was changed or deleted after the ${last.kind} it came from; undo reverses only an unchanged result.`,
          );
        }
        const addedIds = new Set(last.added.map((a) => a.id));
        await assertIdsFree(
          tx,
          'scheduleBlocks',
          last.removed.map((b) => b.id),
        );
        const restored = await validatedInSlices(tx, editor.ownerId, entry, last.removed);
        await assertWritable(tx, editor.ownerId, entry, restored, [...addedIds], {
          allowOverlap,
          pathOf: (i) => `schedules[${i}]`,
          name: (id, self) => `${self ? 'Restored s' : 's'}chedule block ${id}`,
        });
        await deleteBlocks(tx, [...addedIds]);
        await insertBlocks(
          tx,
          restored.map((b) => toRow(channelId, b)),
        );
        await saveProgramming(tx, channelId, { lastWrite: null });
        const changes: Change[] = [
          ...last.added.map((b): Change => ({ action: 'delete', resource: resourceOf(channelId, b.id), fields: [], channelIds: [channelId] })),
          ...restored.map((b): Change => ({ action: 'create', resource: resourceOf(channelId, b.id), fields: Object.keys(b).sort(), channelIds: [channelId] })),
        ];
        return { written: { status: 200, body: { removed: [...addedIds], restored } }, changes };
      },
      idempotency,
    ),
  );
}
