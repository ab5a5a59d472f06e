// Parts of an owner's export built as JSON text by the database: the 20,000 videos of a full
// slice (and their renditions) as one json_agg value instead of 20,000 rows, which PGlite decodes
// in JavaScript one value at a time, and which would then be serialized again. The keys and
// values are those of src/catalog/export.ts's exportVideos (instants as toISOString writes them).
import { sql } from 'drizzle-orm';
import type { Queryable } from '../db/connect.ts';
import { queryRows } from './activity.ts';

const iso = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * `{"key":value,...}` built by concatenation: json_build_object writes `"key" : value` and
 * json_agg separates with `, ` and line breaks, so the text would not be what JSON.stringify writes.
 */
function object(fields: ReadonlyArray<[string, string]>): string {
  return `'{' || ${fields.map(([key, value], i) => `'${i === 0 ? '' : ','}"${key}":' || ${value}`).join(' || ')} || '}'`;
}

/** A value as JSON text; SQL NULL (which would make the whole concatenation NULL) as null. */
const json = (column: string) => `coalesce(to_json(${column})::text, 'null')`;

const rendition = object([
  ['url', json('r.url')], ['width', json('r.width')], ['height', json('r.height')], ['expiresUtc', json(iso('r.expires_at'))],
]);

const video = object([
  ['id', json('v.id')], ['ownerId', json('v.owner_id')], ['title', json('v.title')], ['description', json('v.description')],
  ['durationSeconds', json('v.duration_seconds')], ['thumbnailUrl', json('v.thumbnail_url')], ['providerName', json('v.provider_name')],
  ['providerVideoId', json('v.provider_video_id')], ['categoryId', json('v.category_id')], ['streamUrl', json('v.stream_url')],
  ['isPrivate', json('v.is_private')], ['isRRated', json('v.is_r_rated')], ['isRemovedByProvider', json('v.is_removed_by_provider')],
  ['isRestrictedByProvider', json('v.is_restricted_by_provider')],
  ['renditions', `'[' || coalesce((select string_agg(${rendition}, ',' order by r.position) from video_renditions r where r.video_id = v.id), '') || ']'`],
]);

/** The owner's videos, ordered by id, as the text of a JSON array (catalog format entries), as JSON.stringify writes them. */
export async function ownerVideosJson(db: Queryable, ownerId: number): Promise<string> {
  const [row] = await queryRows<{ json: string }>(db, sql`
    select '[' || coalesce(string_agg(${sql.raw(video)}, ',' order by v.id), '') || ']' as json
    from videos v where v.owner_id = ${ownerId}`);
  return row?.json ?? '[]';
}
