// Videos of an owner's library: list and search, read, create (one or up to 1,000 at once),
// change, delete. A video in use by a library, VOD catalog, block or live stream cannot be
// deleted: the answer says where it is used.
import type { Database, Queryable } from '../db/connect.ts';
import { exportVideos } from '../catalog/export.ts';
import { deleteVideoRow, ownerVideoPage, videoUsage } from '../data/studio-videos.ts';
import { collectionsListing } from '../data/collections.ts';
import { weekdaysText } from '../schedules/programming.ts';
import { assertMatches, etagOf } from './etag.ts';
import { assertFixed, createCatalog, owned, withIds, writeCatalog, type Body } from './entities.ts';
import { EditRefusal, notFound } from './refusals.ts';
import { validateSlice } from './validate.ts';
import { bodiesFromUrls } from './video-urls.ts';
import { changedFields, write, type Editor, type Idempotency, type Written } from './write.ts';

export const MAX_BULK_VIDEOS = 1000;

export type VideoEntry = Awaited<ReturnType<typeof exportVideos>>[number];

export async function videoPage(db: Queryable, ownerId: number, q: string | undefined, page: number, perPage: number) {
  const { ids, total } = await ownerVideoPage(db, ownerId, q, (page - 1) * perPage, perPage);
  const items = ids.length === 0 ? [] : await exportVideos(db, { ownerId, videoIds: ids });
  return { items, page, perPage, total };
}

export async function readVideo(db: Queryable, ownerId: number, videoId: number): Promise<VideoEntry | undefined> {
  const [video] = await exportVideos(db, { ownerId, videoIds: [videoId] });
  return video;
}

async function existingVideo(tx: Queryable, ownerId: number, videoId: number): Promise<VideoEntry> {
  const video = await readVideo(tx, ownerId, videoId);
  if (!video) throw notFound('Video');
  return video;
}

/** Creates the videos of `bodies` (root '' for one, '[i].' paths for a bulk list). */
export async function createVideos(db: Database, editor: Editor, bodies: readonly Body[], bulk: boolean, idempotency?: Idempotency): Promise<Written<unknown>> {
  return write<unknown>(
    db,
    editor,
    async (tx) => {
      const root = (i: number) => (bulk ? `[${i}].` : '');
      const read = bodiesFromUrls(bodies, root);
      const complete = await withIds(
        tx,
        'videos',
        read.map((b, i) => owned(b, editor.ownerId, root(i))),
        root,
      );
      const catalog = await validateSlice(tx, editor.ownerId, { videos: complete as never }, bulk ? 'videos' : 'videos[0]');
      await createCatalog(tx, catalog, editor.now);
      const created = await exportVideos(tx, { ownerId: editor.ownerId, videoIds: catalog.videos.map((v) => v.id) });
      const byId = new Map(created.map((v) => [v.id, v]));
      const ordered = catalog.videos.map((v) => byId.get(v.id)!);
      const changes = ordered.map((v) => ({ action: 'create' as const, resource: `videos/${v.id}`, fields: Object.keys(v).sort() }));
      const single = ordered[0]!;
      return bulk ? { written: { status: 201, body: { items: ordered } }, changes } : { written: { status: 201, body: single, etag: etagOf(single) }, changes };
    },
    idempotency,
  );
}

export async function updateVideo(db: Database, editor: Editor, videoId: number, patch: Body, ifMatch: string | undefined): Promise<Written<VideoEntry>> {
  return write(db, editor, async (tx) => {
    const current = await existingVideo(tx, editor.ownerId, videoId);
    assertMatches(ifMatch, current);
    assertFixed(patch, current, ['id', 'ownerId']);
    // A url replaces what it derives (provider, id, thumbnail, stream) unless the patch gives them too.
    const { providerName: _n, providerVideoId: _i, thumbnailUrl: _t, streamUrl: _s, ...kept } = current;
    const merged = patch['url'] === undefined ? { ...current, ...patch } : bodiesFromUrls([{ ...kept, ...patch }], () => '')[0]!;
    const catalog = await validateSlice(tx, editor.ownerId, { videos: [merged] as never }, 'videos[0]');
    await writeCatalog(tx, catalog, editor.now);
    const after = await existingVideo(tx, editor.ownerId, videoId);
    const fields = changedFields(current, after);
    return { written: { status: 200, body: after, etag: etagOf(after) }, changes: fields.length > 0 ? [{ action: 'update', resource: `videos/${videoId}`, fields }] : [] };
  });
}

export async function deleteVideo(db: Database, editor: Editor, videoId: number, ifMatch: string | undefined): Promise<Written<null>> {
  return write(db, editor, async (tx) => {
    const current = await existingVideo(tx, editor.ownerId, videoId);
    assertMatches(ifMatch, current);
    const usage = await usageIn(tx, videoId);
    const where = describeUsage(usage);
    if (where.length > 0) throw new EditRefusal('in_use', `Video ${videoId} is still used by ${where.join(', ')}; remove it there first.`);
    await deleteVideoRow(tx, videoId);
    return { written: { status: 204, body: null }, changes: [{ action: 'delete', resource: `videos/${videoId}`, fields: [] }] };
  });
}

export async function usageOfVideo(db: Queryable, ownerId: number, videoId: number) {
  if (!(await readVideo(db, ownerId, videoId))) return undefined;
  return usageIn(db, videoId);
}

/** Where a video is used: the channels' lists and plans (videoUsage), and the manual collections that list it. */
async function usageIn(db: Queryable, videoId: number) {
  const [usage, collections] = await Promise.all([videoUsage(db, videoId), collectionsListing(db, videoId)]);
  return { ...described(usage), collections };
}

/** The usage with each slot's weekdays and start as a creator reads them. */
function described(u: Awaited<ReturnType<typeof videoUsage>>) {
  return { ...u, programmingSlots: u.programmingSlots.map((s) => ({ ...s, when: `${weekdaysText(s.days)} ${s.start}` })) };
}

/** A block as a creator finds it in the calendar: by its start (a daily block by its time of day), never its id. */
function blockWhen(b: { startTime: string; loopDaily: boolean }): string {
  const [date, time] = b.startTime.split('T') as [string, string | undefined];
  return b.loopDaily ? `the daily block at ${(time ?? '').slice(0, 5)}` : `the block at ${date} ${(time ?? '').slice(0, 5)}`;
}

function describeUsage(u: Awaited<ReturnType<typeof usageIn>>): string[] {
  return [
    ...u.libraryChannelIds.map((id) => `the library of channel ${id}`),
    ...u.vodChannelIds.map((id) => `the VOD catalog of channel ${id}`),
    ...u.scheduleBlocks.map((b) => `${blockWhen(b)} of channel ${b.channelId}`),
    ...u.liveStreams.map((l) => `live stream ${l.liveStreamId} of channel ${l.channelId}`),
    ...u.programmingSlots.map((s) => `slot ${s.slot} (${s.when}) of channel ${s.channelId}'s programming`),
    ...u.fillerChannelIds.map((id) => `the filler of channel ${id}`),
    ...u.collections.map((c) => `the collection '${c.name}'`),
  ];
}
