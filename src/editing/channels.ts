// Channels of an owner and their per-channel parts: the channel itself (its own fields), the
// library and VOD catalog (ordered video ids), VAST settings per platform, the password, and
// live streams. Every change is checked by the catalog import's rules on the channel's whole
// catalog entry (the stored state with the change applied), then only the rows that changed are
// written: the channel's own row, one list, one VAST row, one live stream (whose id stays).
//
// Decisions:
// - DELETE is the catalog's soft delete (`deleted: true`): the public APIs find the channel
//   nowhere, while the Studio still reads and edits it (listed only with ?deleted=1) so that
//   PATCH { deleted: false } restores it as it was. Deleting a deleted channel changes nothing.
// - A change that makes a channel appear or disappear (create, delete, restore) tells the caches
//   that anything of the owner may have changed; every other change names its channel.
// - Setting or clearing a password forgets the channel's unlocks (they were made with the old
//   password): every device and viewer unlocks it again with the new one.
// - Reordering and the password change nothing the catalog's rules check (integers, a hash the
//   service made), so they are not run through the catalog validation.
import type { Database, Queryable } from '../db/connect.ts';
import {
  channelVastRows,
  channelVideoList,
  deleteLiveStream as deleteLiveStreamRow,
  deleteVastRow,
  insertLiveStream,
  liveStreamRows,
  ownerChannelOrders,
  ownerChannelPage,
  ownerChannelRows,
  replaceChannelPassword,
  replaceChannelVideoList,
  replaceRokuRow,
  setChannelDeleted,
  setChannelOrders,
  updateChannelRow,
  updateLiveStream as updateLiveStreamRow,
  upsertVastRow,
  type LiveStreamRow,
  type OwnerChannelRow,
} from '../data/studio-channels.ts';
import { hashPassword } from '../access/passwords.ts';
import { exportChannels } from '../catalog/export.ts';
import type { Catalog } from '../catalog/format.ts';
import { catalogToRows } from '../catalog/to-rows.ts';
import type { VastPlatform } from '../vocabulary.ts';
import { assertMatches, etagOf } from './etag.ts';
import { assertFixed, createCatalog, owned, withIds, writeCatalog, type Body } from './entities.ts';
import { EditRefusal, invalid, notFound } from './refusals.ts';
import { validateSlice } from './validate.ts';
import { changedFields, write, type Change, type Editor, type Idempotency, type Written } from './write.ts';

export type ChannelEntry = Awaited<ReturnType<typeof exportChannels>>[number];
export type VideoList = 'library' | 'vod';

/** A resource as read: what is answered and its entity tag. */
export interface Versioned<T> {
  body: T;
  etag: string;
}

const versioned = <T>(body: T): Versioned<T> => ({ body, etag: etagOf(body) });

// ---------------------------------------------------------------- resources

/** The channel as the Studio answers it: its catalog entry without children and secrets. */
export function channelResource({ channel: c, roku: r }: OwnerChannelRow) {
  return {
    id: c.id,
    ownerId: c.ownerId,
    name: c.name,
    url: c.url,
    categoryId: c.categoryId,
    languageId: c.languageId,
    pictureUrl: c.pictureUrl,
    description: c.description,
    order: c.sortOrder,
    timezone: c.timezone,
    isWhiteLabeled: c.isWhiteLabeled,
    playLiveFirst: c.playLiveFirst,
    isVerified: c.isVerified,
    keepGuideOpened: c.keepGuideOpened,
    guideMode: c.guideMode,
    subscriberCount: c.subscriberCount,
    createdAt: c.createdAt.toISOString(),
    deleted: c.deleted,
    roku: r ? { addedToRoku: r.addedToRoku, lastUpdateDate: r.lastUpdateDate === null ? null : r.lastUpdateDate.toISOString() } : null,
    hasPassword: c.passwordHash !== null,
  };
}

export type ChannelResource = ReturnType<typeof channelResource>;

type VastEntry = ChannelEntry['vast'] extends (infer V)[] | undefined ? V : never;

/** One VAST setting in the catalog's field order (export entries and rows alike). */
function vastResource(v: Required<VastEntry>) {
  return {
    platform: v.platform,
    vastUrl: v.vastUrl,
    vastVersion: v.vastVersion,
    skippable: v.skippable,
    adFrequency: v.adFrequency,
    midRollFrequency: v.midRollFrequency,
    slottable: v.slottable,
    timeFrom: v.timeFrom,
    timeTo: v.timeTo,
    vastType: v.vastType,
    allowAdsInVod: v.allowAdsInVod,
  };
}

export type VastResource = ReturnType<typeof vastResource>;

/** A live stream: the catalog's fields plus its row id, which stays while it is changed. */
export function liveStreamResource(l: LiveStreamRow) {
  return { id: l.id, videoId: l.videoId, start: l.startAt.toISOString(), end: l.endAt.toISOString(), uri: l.uri };
}

export type LiveStreamResource = ReturnType<typeof liveStreamResource>;

/** The password's state: whether there is one. Its tag changes with the hash, so a set over a set is a change. */
const passwordVersion = (passwordHash: string | null) => ({ hasPassword: passwordHash !== null, passwordHash });
const passwordRead = (passwordHash: string | null): Versioned<{ hasPassword: boolean }> => ({
  body: { hasPassword: passwordHash !== null },
  etag: etagOf(passwordVersion(passwordHash)),
});

// ---------------------------------------------------------------- reads

export async function channelPage(db: Queryable, ownerId: number, q: string | undefined, includeDeleted: boolean, page: number, perPage: number) {
  const { ids, total } = await ownerChannelPage(db, ownerId, q, includeDeleted, (page - 1) * perPage, perPage);
  const items = (await ownerChannelRows(db, ownerId, ids)).map(channelResource);
  return { items, page, perPage, total };
}

async function channelRow(db: Queryable, ownerId: number, channelId: number): Promise<OwnerChannelRow | undefined> {
  const [row] = await ownerChannelRows(db, ownerId, [channelId]);
  return row;
}

async function existingRow(db: Queryable, ownerId: number, channelId: number): Promise<OwnerChannelRow> {
  const row = await channelRow(db, ownerId, channelId);
  if (!row) throw notFound('Channel');
  return row;
}

export async function readChannel(db: Queryable, ownerId: number, channelId: number): Promise<Versioned<ChannelResource>> {
  return versioned(channelResource(await existingRow(db, ownerId, channelId)));
}

export async function readVideoList(db: Queryable, ownerId: number, channelId: number, list: VideoList): Promise<Versioned<{ videoIds: number[] }>> {
  await existingRow(db, ownerId, channelId);
  return versioned({ videoIds: await channelVideoList(db, list, channelId) });
}

export async function readVastList(db: Queryable, ownerId: number, channelId: number): Promise<Versioned<{ items: VastResource[] }>> {
  await existingRow(db, ownerId, channelId);
  return versioned({ items: (await channelVastRows(db, channelId)).map(vastResource) });
}

export async function readVast(db: Queryable, ownerId: number, channelId: number, platform: VastPlatform): Promise<Versioned<VastResource>> {
  await existingRow(db, ownerId, channelId);
  const row = (await channelVastRows(db, channelId)).find((v) => v.platform === platform);
  if (!row) throw notFound('VAST setting');
  return versioned(vastResource(row));
}

export async function readPassword(db: Queryable, ownerId: number, channelId: number): Promise<Versioned<{ hasPassword: boolean }>> {
  return passwordRead((await existingRow(db, ownerId, channelId)).channel.passwordHash);
}

export async function readLiveStreams(db: Queryable, ownerId: number, channelId: number): Promise<Versioned<{ items: LiveStreamResource[] }>> {
  await existingRow(db, ownerId, channelId);
  return versioned({ items: (await liveStreamRows(db, channelId)).map(liveStreamResource) });
}

export async function readLiveStream(db: Queryable, ownerId: number, channelId: number, liveStreamId: number): Promise<Versioned<LiveStreamResource>> {
  await existingRow(db, ownerId, channelId);
  const row = (await liveStreamRows(db, channelId)).find((l) => l.id === liveStreamId);
  if (!row) throw notFound('Live stream');
  return versioned(liveStreamResource(row));
}

// ---------------------------------------------------------------- validation

/** The channel's whole catalog entry as stored (deleted channels too), for checking a change. */
async function currentEntry(tx: Queryable, ownerId: number, channelId: number): Promise<ChannelEntry> {
  const [entry] = await exportChannels(tx, { ownerId, channelIds: [channelId] });
  if (!entry) throw notFound('Channel');
  return entry;
}

/** Where a catalog error of the entry is answered: a path of the request body. */
type PathOf = (catalogPath: string) => string;

/** `channels[0].name` is `name`: the body is the channel. */
const inChannel: PathOf = (path) => {
  if (path === 'channels[0]') return '(root)';
  return path.startsWith('channels[0].') ? path.slice('channels[0].'.length) : path;
};

/** The body is one part of the entry: `channels[0].vast[2].vastUrl` is `vastUrl` when the body is `vast[2]`. */
const inPart =
  (part: string, as = ''): PathOf =>
  (path) => {
    if (path !== part && !path.startsWith(`${part}.`) && !path.startsWith(`${part}[`)) return inChannel(path);
    const rest = path.slice(part.length).replace(/^\./, '');
    if (as === '') return rest === '' ? '(root)' : rest;
    return rest === '' || rest.startsWith('[') ? `${as}${rest}` : `${as}.${rest}`;
  };

/** The channel entry checked by the catalog's rules (the import's wording), errors at body paths. */
async function validateEntry(tx: Queryable, ownerId: number, entry: Body, pathOf: PathOf = inChannel): Promise<Catalog> {
  try {
    return await validateSlice(tx, ownerId, { channels: [entry as never] });
  } catch (error) {
    if (error instanceof EditRefusal && error.code === 'invalid_request' && error.details) {
      throw invalid(error.details.map((d) => `${pathOf(d.path)}: ${d.message}`));
    }
    throw error;
  }
}

const forChannel = (channelId: number, change: Omit<Change, 'channelIds'>): Change => ({ ...change, channelIds: [channelId] });

// ---------------------------------------------------------------- channels

/** Fields a channel body may carry that the service answers but never takes. */
const READ_ONLY = ['hasPassword'];

/**
 * Fields only the operator sets (the catalog import): the verified badge and the subscriber
 * count that orders most_subscribed lists. An owner's body may leave them out or repeat their
 * value (an exported channel comes back as it was), never change them.
 */
export interface OperatorFields {
  isVerified: boolean;
  subscriberCount: number;
}
const OPERATOR_FIELDS: OperatorFields = { isVerified: false, subscriberCount: 0 };

/** `path: message` lines for each operator field `body` would change from `current` (a new channel: the defaults). */
export function operatorFieldProblems(body: Body, current: OperatorFields = OPERATOR_FIELDS, root = ''): string[] {
  return (Object.keys(OPERATOR_FIELDS) as (keyof OperatorFields)[])
    .filter((field) => body[field] !== undefined && body[field] !== current[field])
    .map((field) => `${root}${field}: set by the operator (catalog import), not through the Studio; leave it out (it is ${current[field]})`);
}

function assertOwnerFields(body: Body, current?: OperatorFields): void {
  const problems = operatorFieldProblems(body, current);
  if (problems.length > 0) throw invalid(problems);
}

function withoutReadOnly(body: Body): Body {
  return Object.fromEntries(Object.entries(body).filter(([key]) => !READ_ONLY.includes(key)));
}

/** A plain password is hashed before the write's transaction (scrypt is slow on purpose). */
async function withHashedPassword(body: Body): Promise<Body> {
  const password = body['password'];
  if (typeof password !== 'string' || password === '' || (body['passwordHash'] !== undefined && body['passwordHash'] !== null)) return body;
  return { ...body, password: null, passwordHash: await hashPassword(password) };
}

/**
 * Creates a channel from its catalog entry; it may carry its children (library, VOD, VAST,
 * schedules, live streams, password) so a whole channel is made in one request. Schedule
 * blocks without an id get one.
 */
export async function createChannel(db: Database, editor: Editor, body: Body, idempotency?: Idempotency): Promise<Written<ChannelResource>> {
  assertOwnerFields(body);
  const prepared = await withHashedPassword(withoutReadOnly(body));
  return write(
    db,
    editor,
    async (tx) => {
      const [withId] = await withIds(tx, 'channels', [owned(await lastInOrder(tx, editor.ownerId, prepared), editor.ownerId)]);
      const blocks = withId!['schedules'];
      const entry = Array.isArray(blocks) ? { ...withId, schedules: await withIds(tx, 'scheduleBlocks', blocks as Body[], (i) => `schedules[${i}].`) } : withId!;
      const catalog = await validateEntry(tx, editor.ownerId, entry);
      await createCatalog(tx, catalog, editor.now);
      const channel = catalog.channels[0]!;
      const created = channelResource(await existingRow(tx, editor.ownerId, channel.id));
      const fields = Object.keys(channel)
        .filter((k) => k !== 'password' && k !== 'passwordHash')
        .concat(channel.passwordHash ? ['password'] : []);
      return { written: { status: 201, body: created, etag: etagOf(created) }, changes: [{ action: 'create', resource: `channels/${channel.id}`, fields: fields.sort() }] };
    },
    idempotency,
  );
}

/**
 * A new channel without an `order` lands last in app order (after every channel of the owner,
 * deleted ones included, so restoring one never ties with it); an `order` sent is kept.
 */
async function lastInOrder(tx: Queryable, ownerId: number, body: Body): Promise<Body> {
  if (body['order'] !== undefined) return body;
  const orders = (await ownerChannelOrders(tx, ownerId)).map((c) => c.order);
  return { ...body, order: orders.reduce((last, order) => Math.max(last, order + 1), 0) };
}

/** Parts of the entry a channel PATCH may not carry, and where each is changed instead. */
const ELSEWHERE: Record<string, (id: number) => string> = {
  videoIds: (id) => `PUT /channels/${id}/library`,
  vodVideoIds: (id) => `PUT /channels/${id}/vod`,
  vast: (id) => `PUT or DELETE /channels/${id}/vast/{platform}`,
  schedules: (id) => `the /channels/${id}/schedules routes`,
  liveStreams: (id) => `the /channels/${id}/live-streams routes`,
  password: (id) => `PUT or DELETE /channels/${id}/password`,
  passwordHash: (id) => `PUT or DELETE /channels/${id}/password`,
};

function assertOwnFields(patch: Body, channelId: number): void {
  const elsewhere = Object.keys(patch).filter((key) => key in ELSEWHERE);
  if (elsewhere.length > 0) throw invalid(elsewhere.map((key) => `${key}: not changed by a channel PATCH; use ${ELSEWHERE[key]!(channelId)}`));
}

/** Changes the channel's own fields (deleted: false restores a deleted channel); its children stay as they are. */
export async function updateChannel(db: Database, editor: Editor, channelId: number, patch: Body, ifMatch: string | undefined): Promise<Written<ChannelResource>> {
  return write(db, editor, async (tx) => {
    const before = channelResource(await existingRow(tx, editor.ownerId, channelId));
    assertMatches(ifMatch, before);
    assertOwnFields(patch, channelId);
    const entry = await currentEntry(tx, editor.ownerId, channelId);
    assertFixed(patch, entry, ['id', 'ownerId']);
    assertOwnerFields(patch, before);
    const changes = withoutReadOnly(patch);
    const rows = await catalogToRows(await validateEntry(tx, editor.ownerId, { ...entry, ...changes }), editor.now);
    await updateChannelRow(tx, rows.channels[0]!);
    if ('roku' in changes) await replaceRokuRow(tx, channelId, rows.roku[0] ?? null);
    const after = channelResource(await existingRow(tx, editor.ownerId, channelId));
    const fields = changedFields(before, after);
    const change: Change = { action: 'update', resource: `channels/${channelId}`, fields };
    return {
      written: { status: 200, body: after, etag: etagOf(after) },
      changes: fields.length === 0 ? [] : [fields.includes('deleted') ? change : forChannel(channelId, change)],
    };
  });
}

/** The catalog's soft delete; a deleted channel can be restored with PATCH { deleted: false }. */
export async function deleteChannel(db: Database, editor: Editor, channelId: number, ifMatch: string | undefined): Promise<Written<null>> {
  return write(db, editor, async (tx) => {
    const before = channelResource(await existingRow(tx, editor.ownerId, channelId));
    assertMatches(ifMatch, before);
    if (before.deleted) return { written: { status: 204, body: null }, changes: [] };
    await setChannelDeleted(tx, channelId, true);
    return { written: { status: 204, body: null }, changes: [{ action: 'delete', resource: `channels/${channelId}`, fields: ['deleted'] }] };
  });
}

/**
 * Puts the named channels (all or some of the owner's, deleted ones too) in this order: their
 * `order` becomes 0..n-1; the others keep theirs. Answers the owner's listed channels in order.
 */
export async function reorderChannels(db: Database, editor: Editor, channelIds: readonly number[]): Promise<Written<{ channelIds: number[] }>> {
  return write(db, editor, async (tx) => {
    const all = await ownerChannelOrders(tx, editor.ownerId);
    const orderOf = new Map(all.map((c) => [c.id, c.order]));
    const seen = new Set<number>();
    const problems: string[] = [];
    channelIds.forEach((id, k) => {
      if (!orderOf.has(id)) problems.push(`channelIds[${k}]: unknown channel ${id}`);
      else if (seen.has(id)) problems.push(`channelIds[${k}]: duplicate channel ${id}`);
      seen.add(id);
    });
    if (problems.length > 0) throw invalid(problems);
    const moved = channelIds.map((id, order) => ({ id, order })).filter((c) => orderOf.get(c.id) !== c.order);
    await setChannelOrders(tx, moved);
    const after = (await ownerChannelOrders(tx, editor.ownerId)).filter((c) => !c.deleted).map((c) => c.id);
    return {
      written: { status: 200, body: { channelIds: after } },
      changes: moved.map((c) => forChannel(c.id, { action: 'update', resource: `channels/${c.id}`, fields: ['order'] })),
    };
  });
}

// ---------------------------------------------------------------- library and VOD

const LIST_FIELD = { library: 'videoIds', vod: 'vodVideoIds' } as const;

/** Replaces the channel's library or VOD catalog whole (ordered; duplicates and foreign videos refused). */
export async function putVideoList(
  db: Database,
  editor: Editor,
  channelId: number,
  list: VideoList,
  videoIds: readonly number[],
  ifMatch: string | undefined,
): Promise<Written<{ videoIds: number[] }>> {
  return write(db, editor, async (tx) => {
    const entry = await currentEntry(tx, editor.ownerId, channelId);
    const field = LIST_FIELD[list];
    const before = { videoIds: entry[field] ?? [] };
    assertMatches(ifMatch, before);
    const catalog = await validateEntry(tx, editor.ownerId, { ...entry, [field]: videoIds }, inPart(`channels[0].${field}`, 'videoIds'));
    const after = { videoIds: catalog.channels[0]![field] };
    const changed = JSON.stringify(before) !== JSON.stringify(after);
    if (changed) await replaceChannelVideoList(tx, list, channelId, after.videoIds);
    return {
      written: { status: 200, body: after, etag: etagOf(after) },
      changes: changed ? [forChannel(channelId, { action: 'update', resource: `channels/${channelId}/${list}`, fields: ['videoIds'] })] : [],
    };
  });
}

// ---------------------------------------------------------------- VAST

/** Sets the channel's VAST setting of `platform` (created: 201, replaced: 200). */
export async function putVast(db: Database, editor: Editor, channelId: number, platform: VastPlatform, body: Body, ifMatch: string | undefined): Promise<Written<VastResource>> {
  return write(db, editor, async (tx) => {
    const entry = await currentEntry(tx, editor.ownerId, channelId);
    const settings = (entry.vast ?? []) as Required<VastEntry>[];
    const index = settings.findIndex((v) => v.platform === platform);
    const before = index < 0 ? undefined : vastResource(settings[index]!);
    if (before) assertMatches(ifMatch, before);
    else if (ifMatch !== undefined) throw new EditRefusal('precondition_failed', `The channel has no ${platform} VAST setting, so If-Match names none of its versions.`);
    if (body['platform'] !== undefined && body['platform'] !== platform) throw invalid([`platform: must be ${JSON.stringify(platform)} (the path's) or left out`]);
    const at = index < 0 ? settings.length : index;
    const vast = [...settings.slice(0, at), { ...body, platform }, ...settings.slice(at + 1)];
    const rows = await catalogToRows(await validateEntry(tx, editor.ownerId, { ...entry, vast }, inPart(`channels[0].vast[${at}]`)), editor.now);
    await upsertVastRow(
      tx,
      rows.vast.find((v) => v.platform === platform)!,
    );
    const after = vastResource((await channelVastRows(tx, channelId)).find((v) => v.platform === platform)!);
    const fields = before ? changedFields(before, after) : Object.keys(after).sort();
    return {
      written: { status: before ? 200 : 201, body: after, etag: etagOf(after) },
      changes: fields.length === 0 ? [] : [forChannel(channelId, { action: before ? 'update' : 'create', resource: `channels/${channelId}/vast/${platform}`, fields })],
    };
  });
}

export async function deleteVast(db: Database, editor: Editor, channelId: number, platform: VastPlatform, ifMatch: string | undefined): Promise<Written<null>> {
  return write(db, editor, async (tx) => {
    const { body: before } = await readVast(tx, editor.ownerId, channelId, platform);
    assertMatches(ifMatch, before);
    await deleteVastRow(tx, channelId, platform);
    return { written: { status: 204, body: null }, changes: [forChannel(channelId, { action: 'delete', resource: `channels/${channelId}/vast/${platform}`, fields: [] })] };
  });
}

// ---------------------------------------------------------------- password

/** Sets the password (the channel becomes private); earlier unlocks of the channel are forgotten. */
export async function setPassword(db: Database, editor: Editor, channelId: number, password: string, ifMatch: string | undefined): Promise<Written<{ hasPassword: boolean }>> {
  const passwordHash = await hashPassword(password);
  return write(db, editor, async (tx) => {
    const row = await existingRow(tx, editor.ownerId, channelId);
    assertMatches(ifMatch, passwordVersion(row.channel.passwordHash));
    await replaceChannelPassword(tx, channelId, passwordHash);
    const read = passwordRead(passwordHash);
    return {
      written: { status: 200, ...read },
      changes: [forChannel(channelId, { action: row.channel.passwordHash === null ? 'create' : 'update', resource: `channels/${channelId}/password`, fields: ['password'] })],
    };
  });
}

/** Clears the password (the channel becomes public); its unlocks are forgotten. No password: nothing changes. */
export async function clearPassword(db: Database, editor: Editor, channelId: number, ifMatch: string | undefined): Promise<Written<null>> {
  return write(db, editor, async (tx) => {
    const row = await existingRow(tx, editor.ownerId, channelId);
    assertMatches(ifMatch, passwordVersion(row.channel.passwordHash));
    if (row.channel.passwordHash === null) return { written: { status: 204, body: null }, changes: [] };
    await replaceChannelPassword(tx, channelId, null);
    return { written: { status: 204, body: null }, changes: [forChannel(channelId, { action: 'delete', resource: `channels/${channelId}/password`, fields: ['password'] })] };
  });
}

// ---------------------------------------------------------------- live streams

const streamEntry = (l: LiveStreamRow): Body => ({ videoId: l.videoId, start: l.startAt.toISOString(), end: l.endAt.toISOString(), uri: l.uri });

/** The entry with the channel's live streams as rows hold them (index k is rows[k]), `replace` applied. */
async function withStreams(tx: Queryable, editor: Editor, channelId: number, streams: readonly Body[], at: number) {
  const entry = await currentEntry(tx, editor.ownerId, channelId);
  const catalog = await validateEntry(tx, editor.ownerId, { ...entry, liveStreams: streams }, inPart(`channels[0].liveStreams[${at}]`));
  const rows = await catalogToRows(catalog, editor.now);
  const { videoId, startAt, endAt, uri } = rows.liveStreams[at]!;
  return { videoId, startAt, endAt, uri: uri ?? '' };
}

async function streamOf(tx: Queryable, editor: Editor, channelId: number, liveStreamId: number) {
  await existingRow(tx, editor.ownerId, channelId);
  const rows = await liveStreamRows(tx, channelId);
  const index = rows.findIndex((l) => l.id === liveStreamId);
  if (index < 0) throw notFound('Live stream');
  return { rows, index, before: liveStreamResource(rows[index]!) };
}

async function storedStream(tx: Queryable, channelId: number, liveStreamId: number): Promise<LiveStreamResource> {
  return liveStreamResource((await liveStreamRows(tx, channelId)).find((l) => l.id === liveStreamId)!);
}

export async function createLiveStream(db: Database, editor: Editor, channelId: number, body: Body, idempotency?: Idempotency): Promise<Written<LiveStreamResource>> {
  return write(
    db,
    editor,
    async (tx) => {
      await existingRow(tx, editor.ownerId, channelId);
      const rows = await liveStreamRows(tx, channelId);
      const values = await withStreams(tx, editor, channelId, [...rows.map(streamEntry), body], rows.length);
      const id = await insertLiveStream(tx, channelId, values);
      const created = await storedStream(tx, channelId, id);
      return {
        written: { status: 201, body: created, etag: etagOf(created) },
        changes: [forChannel(channelId, { action: 'create', resource: `channels/${channelId}/live-streams/${id}`, fields: ['end', 'start', 'uri', 'videoId'] })],
      };
    },
    idempotency,
  );
}

/** Changes a live stream in place (ending one early is a PATCH of `end`); its id stays. */
export async function updateLiveStream(
  db: Database,
  editor: Editor,
  channelId: number,
  liveStreamId: number,
  patch: Body,
  ifMatch: string | undefined,
): Promise<Written<LiveStreamResource>> {
  return write(db, editor, async (tx) => {
    const { rows, index, before } = await streamOf(tx, editor, channelId, liveStreamId);
    assertMatches(ifMatch, before);
    assertFixed(patch, before, ['id']);
    const { id: _, ...changes } = patch;
    const streams = rows.map((l, k) => (k === index ? { ...streamEntry(l), ...changes } : streamEntry(l)));
    await updateLiveStreamRow(tx, liveStreamId, await withStreams(tx, editor, channelId, streams, index));
    const after = await storedStream(tx, channelId, liveStreamId);
    const fields = changedFields(before, after);
    return {
      written: { status: 200, body: after, etag: etagOf(after) },
      changes: fields.length === 0 ? [] : [forChannel(channelId, { action: 'update', resource: `channels/${channelId}/live-streams/${liveStreamId}`, fields })],
    };
  });
}

export async function deleteLiveStream(db: Database, editor: Editor, channelId: number, liveStreamId: number, ifMatch: string | undefined): Promise<Written<null>> {
  return write(db, editor, async (tx) => {
    const { before } = await streamOf(tx, editor, channelId, liveStreamId);
    assertMatches(ifMatch, before);
    await deleteLiveStreamRow(tx, liveStreamId);
    return {
      written: { status: 204, body: null },
      changes: [forChannel(channelId, { action: 'delete', resource: `channels/${channelId}/live-streams/${liveStreamId}`, fields: [] })],
    };
  });
}
