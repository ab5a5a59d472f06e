// Schedule blocks of an owner's channel: list, read, create, change, delete; the expanded day
// as the owner sees it; a day's one-off blocks copied to other days.
//
// A block is checked by the catalog import's own rules: the channel's catalog entry with its block
// list changed is validated against the owner's slice of the database (so another owner's video
// is an "unknown video", as a missing one), errors re-rooted at the request body. Only the block's
// own rows are then written: the channel and its other rows (live streams keep their ids) stay.
//
// Conflicts: a block whose span (its start plus its videos' durations, in the channel's zone)
// overlaps another block of the channel on ANY day both play is refused with schedule_conflict,
// naming the other block as a creator knows it (by its first video's title, never its id) and its
// times in the channel's zone, unless the request says allowOverlap (not stored). Every
// day is compared exactly (src/schedules/overlaps.ts): a one-off block against each one-off block
// and each loop playing around it (a loop plays every day from its start date on), a loop against
// every one-off block on or after its start and against the other loops on every day, DST days
// included. Unpublished blocks count: they are meant to be published. Live streams do not (they
// are their own resource and play over the schedule). A change that leaves a block's span and
// days alone (published only) is not checked again: its overlaps were accepted when it was made.
//
// Cost: a write reads the channel's row and the stored blocks that can meet what it writes
// (src/editing/touched-days.ts), never the whole channel, except to compare an If-Match naming the
// whole schedule list (a create or copy that sends one reads the list to hash it).
import type { Database, Queryable } from '../db/connect.ts';
import { exportChannels } from '../catalog/export.ts';
import type { CatalogScheduleBlock } from '../catalog/format.ts';
import { wallToDb } from '../catalog/to-rows.ts';
import { deleteBlocks, insertBlocks, ownerChannelZone, replaceBlock, videoDurations, videoTitles, type BlockRow } from '../data/studio-schedules.ts';
import { Overlaps, formatZoned, spanMs, type Occurrence, type Overlap, type SpanBlock } from '../schedules/overlaps.ts';
import { endsSlice, heavy, yieldToOthers } from './heavy-writes.ts';
import { assertDaysFit, blocksMeeting, channelHead, oneOffBlocksOn } from './touched-days.ts';
import { blocksByIds, blocksPlayingWithin } from '../data/schedule-window.ts';
import { ScheduleTimelines, type TimelineBlock } from '../schedules/timelines.ts';
import { assertMatches, etagOf } from './etag.ts';
import { assertFixed, withIds, type Body } from './entities.ts';
import { EditRefusal, invalid, notFound } from './refusals.ts';
import { existingFor, validateAgainst, type Slice } from './validate.ts';
import { changedFields, write, type Change, type Editor, type Idempotency, type Written } from './write.ts';

/** A block in the catalog's form: { id, startTime, published, loopDaily, videoIds }. */
export type Block = CatalogScheduleBlock;

export type ChannelEntry = Awaited<ReturnType<typeof exportChannels>>[number];

/** The schedule list as answered: the channel, its zone (wall times are in it) and its blocks by start. */
export interface BlockList {
  channelId: number;
  timezone: string;
  items: Block[];
}

/** Days a copy may target at once. */
export const MAX_COPY_DATES = 31;

export const resourceOf = (channelId: number, blockId: number) => `channels/${channelId}/schedules/${blockId}`;
const SPAN_FIELDS = ['startTime', 'loopDaily', 'videoIds'] as const;

function blockOf(b: NonNullable<ChannelEntry['schedules']>[number]): Block {
  return { id: b.id, startTime: b.startTime, published: b.published ?? true, loopDaily: b.loopDaily ?? false, videoIds: [...b.videoIds] };
}

/** The owner's channel in catalog form with its blocks (ordered by start, then id), or 404. */
export async function channelOf(db: Queryable, ownerId: number, channelId: number): Promise<{ entry: ChannelEntry; blocks: Block[] }> {
  const [entry] = await exportChannels(db, { ownerId, channelIds: [channelId] });
  if (!entry) throw notFound('Channel');
  return { entry, blocks: (entry.schedules ?? []).map(blockOf) };
}

function listOf(entry: ChannelEntry, blocks: Block[]): BlockList {
  return { channelId: entry.id, timezone: entry.timezone ?? 'UTC', items: blocks };
}

/** Whether a block plays on some day of [from, to]: one-off blocks dated in it, loops dated on or before `to`. */
function playsWithin(block: Block, from: string | undefined, to: string | undefined): boolean {
  const date = block.startTime.slice(0, 10);
  if (to !== undefined && date > to) return false;
  return from === undefined || block.loopDaily || date >= from;
}

/** The blocks playing within [from, to]; a range reads only its days (and the loops), not the whole channel. */
export async function listBlocks(db: Queryable, ownerId: number, channelId: number, from?: string, to?: string): Promise<{ list: BlockList; etag: string }> {
  if (from === undefined && to === undefined) {
    const { entry, blocks } = await channelOf(db, ownerId, channelId);
    const list = listOf(entry, blocks);
    return { list, etag: etagOf(list) };
  }
  const entry = await channelHead(db, ownerId, channelId);
  const blocks = (await blocksPlayingWithin(db, ownerId, channelId, from, to)).map(({ channelId: _, durations: _d, ...block }) => block);
  const list = listOf(
    entry,
    blocks.filter((b) => playsWithin(b, from, to)),
  );
  return { list, etag: etagOf(list) };
}

/** One block of the owner's channel (its row and videos, not the channel's), or 404. */
export async function readBlock(db: Queryable, ownerId: number, channelId: number, blockId: number): Promise<Block> {
  await channelHead(db, ownerId, channelId);
  return storedBlock(db, ownerId, channelId, blockId);
}

async function storedBlock(db: Queryable, ownerId: number, channelId: number, blockId: number): Promise<Block> {
  const [current] = (await blocksByIds(db, ownerId, [blockId])).filter((b) => b.id === blockId && b.channelId === channelId);
  if (!current) throw notFound('Schedule block');
  const { channelId: _, durations: _durations, ...block } = current;
  return block;
}

/** Validates the channel with `blocks` as its block list; answers them as validated (defaults applied). */
export async function validated(tx: Queryable, ownerId: number, entry: ChannelEntry, blocks: readonly Body[], root: string): Promise<Block[]> {
  const slice = channelWith(entry, blocks);
  return validateAgainst(await existingFor(tx, ownerId, slice, videoIdsOf(blocks)), slice, root).channels[0]!.schedules;
}

/** The channel with `blocks` as its block list, as a catalog slice. The entry comes without its lists (channelHead): the blocks name every video there is to check. */
const channelWith = (entry: ChannelEntry, blocks: readonly Body[]): Slice => ({ channels: [{ ...entry, schedules: blocks as Block[] }] });
const videoIdsOf = (blocks: readonly Body[]) =>
  blocks.flatMap((b) => (Array.isArray(b['videoIds']) ? (b['videoIds'] as unknown[]).filter((id): id is number => typeof id === 'number') : []));

/**
 * validated() for many blocks (a programming write's 2,000): the owner's ids read once, then
 * validated in slices, yielding the event loop between them (heavy-writes.ts); a refusal names
 * the block by its index in `blocks`. Warm, 100 blocks validate in under a millisecond; in a
 * service that validates rarely the code runs cold, and bench:fairness's profile saw a slice of
 * 500 hold the loop ~50 ms (the luxon wall-time parser, since replaced, was most of it).
 */
export async function validatedInSlices(tx: Queryable, ownerId: number, entry: ChannelEntry, blocks: readonly Body[], root = 'channels[0]'): Promise<Block[]> {
  const existing = await existingFor(tx, ownerId, channelWith(entry, blocks), videoIdsOf(blocks));
  const out: Block[] = [];
  for (let at = 0; at < blocks.length; at += VALIDATION_SLICE) {
    if (at > 0) await yieldToOthers();
    try {
      out.push(...validateAgainst(existing, channelWith(entry, blocks.slice(at, at + VALIDATION_SLICE)), root).channels[0]!.schedules);
    } catch (error) {
      throw at > 0 && error instanceof EditRefusal ? shifted(error, at) : error;
    }
  }
  return out;
}

/** Blocks validated between two turns of the event loop. */
const VALIDATION_SLICE = 100;

/** A refusal of a slice with its `schedules[k]` paths counted from the slice's first block `at`. */
function shifted(refusal: EditRefusal, at: number): EditRefusal {
  const shift = (text: string) => text.replace(/schedules\[(\d+)\]/g, (_, k: string) => `schedules[${Number(k) + at}]`);
  return new EditRefusal(
    refusal.code,
    shift(refusal.message),
    refusal.details?.map((d) => ({ ...d, path: shift(d.path) })),
    refusal.detailsOmitted,
  );
}

export async function spansOf(tx: Queryable, ownerId: number, blocks: readonly Block[]): Promise<SpanBlock[]> {
  const durations = await videoDurations(
    tx,
    ownerId,
    blocks.flatMap((b) => b.videoIds),
  );
  return blocks.map((b) => ({ id: b.id, startLocal: b.startTime, loopDaily: b.loopDaily, lengthMs: spanMs(b.videoIds.map((v) => durations.get(v) ?? 0)) }));
}

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
const times = (o: Occurrence, zone: string) => `${formatZoned(o.start, zone)} to ${formatZoned(o.end, zone)}`;

export function conflict(overlap: Overlap, zone: string, name: (blockId: number) => string): EditRefusal {
  const { block, other } = overlap;
  return new EditRefusal(
    'schedule_conflict',
    `${name(block.blockId)} (${times(block, zone)}) overlaps ${name(other.blockId)} (${times(other, zone)}) on ${block.date} in ${zone}; ` +
      'move or shorten one of them, or send allowOverlap: true to keep both.',
  );
}

export const toRow = (channelId: number, b: Block): BlockRow => ({
  id: b.id,
  channelId,
  startLocal: wallToDb(b.startTime),
  published: b.published,
  loopDaily: b.loopDaily,
  videoIds: b.videoIds,
});

/** A body without the request-only allowOverlap flag. */
function withoutFlags(body: Body): { block: Body; allowOverlap: boolean } {
  const { allowOverlap, ...block } = body;
  return { block, allowOverlap: allowOverlap === true };
}

/** If-Match of a create or copy names the channel's whole schedule list. */
export function assertListMatches(ifMatch: string | undefined, entry: ChannelEntry, blocks: Block[]): void {
  assertMatches(ifMatch, listOf(entry, blocks));
}

/** If-Match of a create or copy names the whole list: read (and hashed) only when one is sent. */
async function assertWholeListMatches(tx: Queryable, ownerId: number, channelId: number, ifMatch: string | undefined): Promise<void> {
  if (ifMatch === undefined) return;
  const { entry, blocks } = await channelOf(tx, ownerId, channelId);
  assertListMatches(ifMatch, entry, blocks);
}

/** A block as a creator knows it: by its first video, `the 'Morning news' block`. */
export const titledName = (title: string | undefined) => (title === undefined ? 'a block' : `the '${title}' block`);

/** The first video's title of each of `blocks`, by block id, read only for a refusal's words. */
/** Each block's first video's title (a block with no video, or a video not found, has none). */
export async function firstTitles(tx: Queryable, ownerId: number, blocks: ReadonlyArray<Pick<Block, 'id' | 'videoIds'>>): Promise<Map<number, string>> {
  const firsts = blocks.flatMap((b) => (b.videoIds.length > 0 ? [[b.id, b.videoIds[0]!] as const] : []));
  const titles = await videoTitles(
    tx,
    ownerId,
    firsts.map(([, v]) => v),
  );
  return new Map(firsts.flatMap(([id, v]) => (titles.has(v) ? [[id, titles.get(v)!] as const] : [])));
}

/**
 * Checks blocks about to be written beside the channel's stored ones (but `exclude`, those the
 * write replaces or removes): the days they touch hold at most MAX_DAY_ENTRIES, and, unless
 * `allowOverlap`, none overlaps a stored block or one written before it. `pathOf(i)` names block
 * `i` in the body, `name` in a conflict's words (`titled` is the block by its first video's title,
 * as a creator knows it). Reads only what the written blocks can meet.
 */
export async function assertWritable(
  tx: Queryable,
  ownerId: number,
  entry: ChannelEntry,
  written: readonly Block[],
  exclude: readonly number[],
  options: { allowOverlap: boolean; pathOf: (i: number) => string; name: (blockId: number, self: boolean, titled: string) => string },
): Promise<void> {
  const zone = entry.timezone ?? 'UTC';
  await assertDaysFit(tx, { id: entry.id, timezone: zone }, written, exclude, options.pathOf);
  if (options.allowOverlap || written.length === 0) return;
  const spans = await spansOf(tx, ownerId, written);
  const stored = await blocksMeeting(tx, ownerId, entry.id, zone, spans, exclude);
  const accepted = new Overlaps(
    zone,
    stored.map((m) => m.span),
  );
  for (const [i, span] of spans.entries()) {
    const overlap = accepted.first(span);
    if (overlap) {
      const pair = [...written, ...stored.map((m) => m.block)].filter((b) => b.id === overlap.block.blockId || b.id === overlap.other.blockId);
      const titles = await firstTitles(tx, ownerId, pair);
      throw conflict(overlap, zone, (id) => options.name(id, id === span.id, titledName(titles.get(id))));
    }
    accepted.add(span);
    if (endsSlice(i)) await yieldToOthers();
  }
}

export async function createBlock(db: Database, editor: Editor, channelId: number, body: Body, ifMatch: string | undefined, idempotency?: Idempotency): Promise<Written<Block>> {
  return write(
    db,
    editor,
    async (tx) => {
      const entry = await channelHead(tx, editor.ownerId, channelId);
      await assertWholeListMatches(tx, editor.ownerId, channelId, ifMatch);
      const { block, allowOverlap } = withoutFlags(body);
      const [complete] = await withIds(tx, 'scheduleBlocks', [block]);
      const [created] = await validated(tx, editor.ownerId, entry, [complete!], 'channels[0].schedules[0]');
      await assertWritable(tx, editor.ownerId, entry, [created!], [], {
        allowOverlap,
        pathOf: () => '',
        name: (_, self, titled) => (self ? 'The new block' : titled),
      });
      await insertBlocks(tx, [toRow(channelId, created!)]);
      return {
        written: { status: 201, body: created!, etag: etagOf(created!) },
        changes: [{ action: 'create', resource: resourceOf(channelId, created!.id), fields: Object.keys(created!).sort(), channelIds: [channelId] }],
      };
    },
    idempotency,
  );
}

export async function updateBlock(db: Database, editor: Editor, channelId: number, blockId: number, body: Body, ifMatch: string | undefined): Promise<Written<Block>> {
  return write(db, editor, async (tx) => {
    const entry = await channelHead(tx, editor.ownerId, channelId);
    const stored = await storedBlock(tx, editor.ownerId, channelId, blockId);
    assertMatches(ifMatch, stored);
    const { block: patch, allowOverlap } = withoutFlags(body);
    assertFixed(patch, stored as unknown as Body, ['id']);
    const [after] = await validated(tx, editor.ownerId, entry, [{ ...stored, ...patch }], 'channels[0].schedules[0]');
    const fields = changedFields(stored, after!);
    // A change of published alone leaves the block's days and span as they were accepted.
    if (fields.some((f) => (SPAN_FIELDS as readonly string[]).includes(f))) {
      await assertWritable(tx, editor.ownerId, entry, [after!], [blockId], {
        allowOverlap,
        pathOf: () => '',
        name: (_, self, titled) => (self ? capitalized(titled) : titled),
      });
    }
    if (fields.length > 0) await replaceBlock(tx, toRow(channelId, after!));
    return {
      written: { status: 200, body: after!, etag: etagOf(after!) },
      changes: fields.length > 0 ? [{ action: 'update', resource: resourceOf(channelId, blockId), fields, channelIds: [channelId] }] : [],
    };
  });
}

export async function deleteBlock(db: Database, editor: Editor, channelId: number, blockId: number, ifMatch: string | undefined): Promise<Written<null>> {
  return write(db, editor, async (tx) => {
    await channelHead(tx, editor.ownerId, channelId);
    const stored = await storedBlock(tx, editor.ownerId, channelId, blockId);
    assertMatches(ifMatch, stored);
    await deleteBlocks(tx, [blockId]);
    return { written: { status: 204, body: null }, changes: [{ action: 'delete', resource: resourceOf(channelId, blockId), fields: [], channelIds: [channelId] }] };
  });
}

export interface CopyRequest {
  toDates: readonly string[];
  allowOverlap?: boolean;
  replace?: boolean;
}

/**
 * Copies the one-off blocks starting on `date` to each of `toDates` at the same wall times, with
 * new ids (published as the originals are). `replace` first deletes the one-off blocks starting
 * on the target days (loops stay). The copies are checked against the blocks that stay and each
 * other; one conflict refuses the whole copy. Answers the created blocks, by date then start.
 */
export async function copyDay(
  db: Database,
  editor: Editor,
  channelId: number,
  date: string,
  request: CopyRequest,
  ifMatch: string | undefined,
  idempotency?: Idempotency,
): Promise<Written<{ items: Block[] }>> {
  return heavy(editor.ownerId, () =>
    write(
      db,
      editor,
      async (tx) => {
        const entry = await channelHead(tx, editor.ownerId, channelId);
        await assertWholeListMatches(tx, editor.ownerId, channelId, ifMatch);
        const problems: string[] = [];
        request.toDates.forEach((to, i) => {
          if (to === date) problems.push(`toDates[${i}]: ${to} is the day copied from`);
          else if (request.toDates.indexOf(to) < i) problems.push(`toDates[${i}]: duplicate date ${to}`);
        });
        if (problems.length > 0) throw invalid(problems);
        const sources = await oneOffBlocksOn(tx, editor.ownerId, channelId, [date]);
        if (sources.length === 0) throw invalid([`date: no one-off block starts on ${date}; nothing to copy`]);
        const removed = request.replace ? await oneOffBlocksOn(tx, editor.ownerId, channelId, request.toDates) : [];
        const bodies = request.toDates.flatMap((to) =>
          sources.map((s) => ({ startTime: `${to}${s.startTime.slice(10)}`, published: s.published, loopDaily: false, videoIds: s.videoIds })),
        );
        const complete = await withIds(tx, 'scheduleBlocks', bodies);
        const copies = await validatedInSlices(tx, editor.ownerId, entry, complete);
        const sourceOf = new Map(copies.map((c, i) => [c.id, { from: sources[i % sources.length]!.id, to: request.toDates[Math.floor(i / sources.length)]! }]));
        const name = (id: number, titled: string) => {
          const copy = sourceOf.get(id);
          return copy ? `the copy of ${titled} to ${copy.to}` : titled;
        };
        await assertWritable(
          tx,
          editor.ownerId,
          entry,
          copies,
          removed.map((b) => b.id),
          {
            allowOverlap: request.allowOverlap === true,
            pathOf: (i) => `schedules[${i}]`,
            name: (id, self, titled) => (self ? capitalized(name(id, titled)) : name(id, titled)),
          },
        );
        await deleteBlocks(
          tx,
          removed.map((b) => b.id),
        );
        await insertBlocks(
          tx,
          copies.map((c) => toRow(channelId, c)),
        );
        const changes: Change[] = [
          ...removed.map((b): Change => ({ action: 'delete', resource: resourceOf(channelId, b.id), fields: [], channelIds: [channelId] })),
          ...copies.map((c): Change => ({ action: 'create', resource: resourceOf(channelId, c.id), fields: Object.keys(c).sort(), channelIds: [channelId] })),
        ];
        return { written: { status: 201, body: { items: copies } }, changes };
      },
      idempotency,
    ),
  );
}

/** Nothing is kept: every read compiles the day from the database, so an editor sees their own write at once. */
const FRESH_DAYS = new ScheduleTimelines(0, false);

/**
 * The channel's expanded day as the REST schedules route compiles it (timelines.channelDay with
 * unpublished blocks included), read from the database rather than the per-process cache: a
 * console drawing the day right after a write must not wait for the change notice.
 */
export async function readDay(db: Queryable, ownerId: number, channelId: number, date: string): Promise<{ channelId: number; timezone: string; blocks: TimelineBlock[] }> {
  const channel = await ownerChannelZone(db, ownerId, channelId);
  if (!channel) throw notFound('Channel');
  return { channelId: channel.id, timezone: channel.timezone, blocks: await FRESH_DAYS.channelDay(db, channel, date, true) };
}
