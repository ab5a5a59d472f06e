// Images (content-addressed blobs) cross the database boundary as text, encoded and decoded
// by PostgreSQL itself (`encode`/`decode`), never as bytea values: PGlite converts bytea to and
// from JavaScript one byte at a time (about 0.6 s of CPU per MiB), while a text value is one
// native decode. In, base64 (the catalog format's) that PostgreSQL decodes; out, hex that Buffer
// makes base64 (hexOf). Same queries on both backends.
import { inArray, sql, type SQL } from 'drizzle-orm';
import { LRUCache } from 'lru-cache';
import type { Queryable } from '../db/connect.ts';
import { chunk } from '../db/bulk.ts';
import * as t from '../db/schema.ts';

/**
 * The bytes as hex text, made base64 here (base64Of): PostgreSQL's base64 breaks lines every 76
 * characters, and removing them with translate() cost PGlite 430 ms for 12 MiB of images (the
 * first export of a full slice), where hex and Buffer's conversion cost 55-120 ms.
 */
const hexOf = sql<string>`encode(${t.blobs.bytes}, 'hex')`;

const base64Of = (row: { sha256: string; contentType: string; hex: string }): BlobText => ({
  sha256: row.sha256,
  contentType: row.contentType,
  base64: Buffer.from(row.hex, 'hex').toString('base64'),
});

export interface BlobText {
  sha256: string;
  contentType: string;
  base64: string;
}

/**
 * Images kept as their base64 text, by key, bounded in characters: a key is its bytes' SHA-256
 * and a stored blob is never rewritten (inserts skip a key present), so a kept text is never
 * stale. Encoding in PGlite costs ~35 ms a MiB, paid by every export and app read without this.
 */
const BLOB_TEXT_CHARS = 32 * 1024 * 1024;
const kept = new LRUCache<string, BlobText>({ maxSize: BLOB_TEXT_CHARS, sizeCalculation: (blob) => blob.base64.length + blob.sha256.length + blob.contentType.length });

/**
 * The blobs whose keys `keys` names (a list, or a subquery of keys), or every blob when left out
 * (the whole catalog's export, not kept), as base64. Kept texts are not read again.
 */
export async function blobsAsBase64(db: Queryable, keys?: readonly string[] | SQL): Promise<BlobText[]> {
  if (Array.isArray(keys) && keys.length === 0) return [];
  const query = db.select({ sha256: t.blobs.sha256, contentType: t.blobs.contentType, hex: hexOf }).from(t.blobs);
  if (keys === undefined) return (await query).map(base64Of);
  const names = Array.isArray(keys) ? [...new Set(keys)] : (await db.select({ sha256: t.blobs.sha256 }).from(t.blobs).where(inArray(t.blobs.sha256, keys as SQL))).map((b) => b.sha256);
  const missing = names.filter((key) => !kept.has(key));
  const read = missing.length === 0 ? [] : (await query.where(inArray(t.blobs.sha256, missing))).map(base64Of);
  for (const blob of read) kept.set(blob.sha256, blob);
  const found = new Map(read.map((blob) => [blob.sha256, blob]));
  return names.flatMap((key) => found.get(key) ?? kept.get(key) ?? []);
}

/** At most this many base64 characters per statement (a few images of 2 MiB). */
const TEXT_PER_STATEMENT = 16 * 1024 * 1024;

/** Stores images not stored yet (a key present already holds the same bytes: it is their digest). */
export async function insertBlobs(tx: Queryable, rows: ReadonlyArray<{ sha256: string; contentType: string; bytes: Buffer }>): Promise<void> {
  const batches: Array<Array<{ sha256: string; contentType: string; base64: string }>> = [[]];
  let size = 0;
  for (const row of rows) {
    const base64 = row.bytes.toString('base64');
    if (size + base64.length > TEXT_PER_STATEMENT && batches.at(-1)!.length > 0) {
      batches.push([]);
      size = 0;
    }
    batches.at(-1)!.push({ sha256: row.sha256, contentType: row.contentType, base64 });
    size += base64.length;
  }
  for (const batch of batches) {
    for (const part of chunk(batch, 1000)) {
      if (part.length === 0) continue;
      await tx.execute(sql`
        insert into blobs (sha256, content_type, bytes)
        select x.sha256, x.content_type, decode(x.base64, 'base64')
        from json_to_recordset(${JSON.stringify(part.map((p) => ({ sha256: p.sha256, content_type: p.contentType, base64: p.base64 })))}::json)
          as x(sha256 text, content_type text, base64 text)
        on conflict do nothing`);
    }
  }
}
