// What one owner holds, counted in one statement: the figures the owner bounds
// (src/catalog/owner-bounds.ts) are checked against after every write, inside its transaction.
// Every count goes through an index on the owner (videos_owner, channels_owner_order, apps'
// owner index) and the children's primary keys; the sums read lengths, never values (a bytea's
// length is in its header).
import { sql, type SQL } from 'drizzle-orm';
import type { Queryable } from '../db/connect.ts';
import { queryRows } from './activity.ts';

/** The keys of the images an owner's branding and apps use (a subquery). */
export function ownerBlobKeys(ownerId: number): SQL {
  return sql`(
    select logo_header_blob from brandings where account_id = ${ownerId} and logo_header_blob is not null
    union select logo_android_blob from brandings where account_id = ${ownerId} and logo_android_blob is not null
    union select i.blob_sha256 from app_images i join apps a on a.id = i.app_id where a.owner_id = ${ownerId})`;
}

export interface OwnerHoldings {
  videos: number;
  channels: number;
  scheduleBlocks: number;
  /** Renditions, library and VOD entries, block videos, live streams, app channel entries. */
  listEntries: number;
  /** Bytes of the free text and URLs of videos, renditions, channels, VAST settings and live streams. */
  textBytes: number;
  /** Bytes of the images of the owner's branding and apps, each image once. */
  imageBytes: number;
}

const len = (column: string) => `coalesce(octet_length(${column}), 0)`;

type Bound = keyof OwnerHoldings;
const BOUNDS: readonly Bound[] = ['videos', 'channels', 'scheduleBlocks', 'listEntries', 'textBytes', 'imageBytes'];

/**
 * What the owner holds, counted in one statement; with `only`, only those figures (the others
 * are 0): a write counts what it can move, since at full size the list entries are 500,000 rows
 * and the text 8 MiB to sum.
 */
export async function ownerHoldings(db: Queryable, ownerId: number, only: readonly Bound[] = BOUNDS): Promise<OwnerHoldings> {
  const videoText = ['v.title', 'v.description', 'v.thumbnail_url', 'v.provider_name', 'v.provider_video_id', 'v.stream_url'].map(len).join(' + ');
  const channelText = ['c.name', 'c.url', 'c.picture_url', 'c.description', 'c.guide_mode'].map(len).join(' + ');
  const figures: Record<Bound, SQL> = {
    videos: sql`(select count(*) from v)::int`,
    channels: sql`(select count(*) from c)::int`,
    scheduleBlocks: sql`(select count(*) from b)::int`,
    listEntries: sql`((select count(*) from video_renditions r join v on v.id = r.video_id)
        + (select count(*) from channel_videos l join c on c.id = l.channel_id)
        + (select count(*) from channel_vod_videos l join c on c.id = l.channel_id)
        + (select coalesce(sum(coalesce(f.video_count, (select count(*) from schedule_block_videos s where s.block_id = b.id))), 0)
             from b left join schedule_block_figures f on f.block_id = b.id)
        + (select count(*) from live_streams s join c on c.id = s.channel_id)
        + (select count(*) from app_channels l join apps a on a.id = l.app_id where a.owner_id = ${ownerId}))::int`,
    textBytes: sql`((select coalesce(sum(${sql.raw(videoText)}), 0) from videos v where v.owner_id = ${ownerId})
        + (select coalesce(sum(octet_length(r.url)), 0) from video_renditions r join v on v.id = r.video_id)
        + (select coalesce(sum(${sql.raw(channelText)}), 0) from channels c where c.owner_id = ${ownerId})
        + (select coalesce(sum(octet_length(s.vast_url)), 0) from channel_vast_settings s join c on c.id = s.channel_id)
        + (select coalesce(sum(octet_length(s.uri)), 0) from live_streams s join c on c.id = s.channel_id))::float8`,
    imageBytes: sql`(select coalesce(sum(octet_length(bytes)), 0) from blobs where sha256 in ${ownerBlobKeys(ownerId)})::float8`,
  };
  const columns = BOUNDS.map((bound) => sql`${only.includes(bound) ? figures[bound] : sql`0`} as ${sql.identifier(bound)}`);
  const [row] = await queryRows<Record<Bound, number | string>>(db, sql`
    with v as (select id from videos where owner_id = ${ownerId}),
         c as (select id from channels where owner_id = ${ownerId}),
         b as (select s.id from schedule_blocks s join c on c.id = s.channel_id)
    select ${sql.join(columns, sql`, `)}`);
  if (!row) throw new Error('no holdings row');
  return {
    videos: Number(row.videos), channels: Number(row.channels), scheduleBlocks: Number(row.scheduleBlocks),
    listEntries: Number(row.listEntries), textBytes: Number(row.textBytes), imageBytes: Number(row.imageBytes),
  };
}

/**
 * Gives the owners' slices new versions (accounts.slice_version): every write that changes what
 * an owner's export holds calls it in its transaction, so the export's ETag changes with it.
 */
export async function bumpSliceVersions(db: Queryable, ownerIds: readonly number[]): Promise<void> {
  if (ownerIds.length === 0) return;
  await db.execute(sql`update accounts set slice_version = nextval('account_slice_versions') where id = any(${sql.param([...ownerIds])}::int[])`);
}

/**
 * What the export's ETag derives from, read without the slice: the owner's slice version and
 * the small lists the version does not follow (the shared categories and languages, which any
 * owner may add to, and the account's favorites, written by the viewer APIs). Undefined: no such account.
 */
export async function sliceVersionFacts(db: Queryable, ownerId: number): Promise<unknown> {
  const [row] = await queryRows<{ facts: string | null }>(db, sql`
    select json_build_array(
      (select slice_version::text from accounts where id = ${ownerId}),
      (select coalesce(json_agg(json_build_array(f.channel_id, f.favorited_at) order by f.favorited_at, f.channel_id), '[]') from favorites f where f.account_id = ${ownerId}),
      (select coalesce(json_agg(json_build_array(c.id, c.name) order by c.id), '[]') from categories c),
      (select coalesce(json_agg(json_build_array(l.id, l.name, l.code) order by l.id), '[]') from languages l))::text as facts`);
  return row?.facts ?? undefined;
}
