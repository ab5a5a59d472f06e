// The read model of the viewer read routes: each answer kept as the bytes that were sent (encoded
// once), with its strong validator, under a key naming everything the answer depends on, for as
// long as it cannot change: until `until` (the next instant its rule changes the answer, e.g.
// the end of the request zone's day or of a live stream) or until a catalog change touches its
// scope. It follows the catalog cache (catalog-cache.ts): the same NOTIFY drops the same scopes
// in every process, and while changes cannot be heard nothing is served or kept.
//
// Only answers that are the same for every caller with the same key are kept: the routes decide
// (per-viewer answers are never offered). Bounded in bytes (body, key and a fixed overhead), least
// recently used out first. An answer pushed out that compresses well is kept a while longer as
// its gzip alone (the compact tier, a quarter of the bound): see COMPACT_SHARE.
import { createHash } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import { LRUCache } from 'lru-cache';
import { touches, type CacheScope, type OwnerChange } from './changes.ts';

/** One kept answer. */
export interface KeptAnswer {
  body: Buffer;
  contentType: string;
  /** A strong validator: the quoted digest of the body, the same in every process for the same bytes. */
  etag: string;
  /** What it is derived from (an answer without one is never kept: no change could drop it). */
  scope: CacheScope;
  /** [from, until): the instants (ms) at which the answer holds; `from` is when it was computed. */
  from: number;
  until: number;
  /**
   * The body gzipped (answers of GZIP_FROM bytes or more that shrink), made once, for the first
   * client that accepts it (see compressed); null: not worth it; absent: not made yet. An answer
   * no gzip client asks for (a one-off key, an app that never sends Accept-Encoding) never pays.
   */
  gzip?: Buffer | null;
}

/** Answers this large or larger are kept gzipped too: below it the header and the work cost more than the bytes saved. */
export const GZIP_FROM = 1024;

/** The body gzipped, when worth it (GZIP_FROM, and at least a tenth smaller). */
export function gzipped(body: Buffer): Buffer | undefined {
  if (body.byteLength < GZIP_FROM) return undefined;
  const gz = gzipSync(body, { level: 6 });
  return gz.byteLength <= body.byteLength * 0.9 ? gz : undefined;
}

/** The ETag of the gzipped representation: another representation, so another strong validator (RFC 9110 8.8.3). */
export function gzipEtag(etag: string): string {
  return `${etag.slice(0, -1)}-gz"`;
}

export interface AnswerStats {
  bytes: number;
  entries: number;
  hits: number;
  misses: number;
  evictions: number;
  /** Answers not kept on their first ask while the read model was full (admission). */
  refused: number;
  /** Of `entries`, those kept compact (gzip only, see COMPACT_SHARE). */
  compact: number;
}

/** Per entry beyond its body and key: the object, the Buffer's header, the index. */
const OVERHEAD = 200;
/**
 * Keys asked once while the read model was full, remembered (by their text, bounded in bytes) so
 * that a second ask is kept: admission (issue 35). While there is room an answer is kept at once;
 * once keeping one would push another out, only a key asked before earns the place, so a flood
 * of one-off keys (junk parameters, scanners) cannot evict the answers real clients share.
 */
const DOORKEEPER_BYTES = 1024 * 1024;
/**
 * The compact tier: answers pushed out of the read model kept as their gzip alone, in this share
 * of the bound on top of it, and served again (ungzipped for a client that does not take gzip,
 * ~0.05 ms for 40 KB) instead of computed again. A rotation of keys a little larger than the bound
 * (a signed-in app's schedule of 200 channels x 7 days: 1,400 answers of 44 KB, 62 MB against 32)
 * thrashed: every answer was pushed out before its key came round again and computed anew (0.9 ms
 * of CPU a request instead of 0.54 warm). Gzipped, such an answer is 5-10x smaller. A compact
 * answer is sent as it is to a client that takes gzip (apps' HTTP stacks ask for it by default).
 */
const COMPACT_SHARE = 0.25;
/** Only answers this large are kept compact, and only when their gzip is at most half their size. */
const COMPACT_FROM = 4096;
/**
 * The largest answer gzipped when it is pushed out (level 6: ~0.2 ms for 44 KB, ~1.5 ms for this):
 * the request whose answer pushed it out pays that. A larger one is kept compact only if a client
 * that takes gzip already had it made.
 */
const GZIP_ON_DEMOTION_UP_TO = 256 * 1024;

/** A strong ETag of these bytes (computed once, when the answer is kept). */
export function etagOf(body: Buffer | string): string {
  // A string is hashed as its UTF-8 bytes: the same ETag as the Buffer it is sent as.
  return `"${createHash('sha1').update(body).digest('base64url')}"`;
}

/** Whether an If-None-Match value names this ETag (weak comparison, as RFC 9110 asks of If-None-Match; `*` matches). */
export function matchesIfNoneMatch(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  // What a client that kept the answer sends back, as it was: no parsing for it (every 304 asks).
  if (header === etag) return true;
  if (header.trim() === '*') return true;
  for (const part of header.split(',')) {
    const tag = part.trim();
    if (tag === etag || (tag.startsWith('W/') && tag.slice(2) === etag)) return true;
  }
  return false;
}

/** An answer of the compact tier: its gzip alone (the body is made again when asked). */
type CompactAnswer = Omit<KeptAnswer, 'body' | 'gzip'> & { gzip: Buffer; bodyBytes: number };

export class AnswerCache {
  private readonly entries: LRUCache<string, KeptAnswer> | undefined;
  private readonly compact: LRUCache<string, CompactAnswer> | undefined;
  private readonly askedOnce = new LRUCache<string, true>({ maxSize: DOORKEEPER_BYTES, sizeCalculation: (_, key) => key.length * 2 + 50 });
  private refused = 0;
  private readonly byOwner = new Map<number, Set<string>>();
  private trusted = false;
  /** Counts every change heard: an answer computed across one is not kept (it may be older than the change). */
  private generation = 0;
  private hits = 0;
  private misses = 0;
  private evictions = 0;

  constructor(maxBytes: number) {
    if (maxBytes <= 0) return;
    this.entries = new LRUCache<string, KeptAnswer>({
      maxSize: maxBytes,
      sizeCalculation: (answer, key) => answer.body.byteLength + (answer.gzip?.byteLength ?? 0) + key.length * 2 + OVERHEAD,
      dispose: (answer, key, reason) => {
        if (reason === 'evict') {
          this.evictions++;
          if (this.demote(key, answer)) return;
        }
        if (!this.compact!.has(key)) this.unindex(key, answer.scope);
      },
    });
    this.compact = new LRUCache<string, CompactAnswer>({
      maxSize: Math.max(1, Math.floor(maxBytes * COMPACT_SHARE)),
      sizeCalculation: (answer, key) => answer.gzip.byteLength + key.length * 2 + OVERHEAD,
      dispose: (answer, key) => {
        if (!this.entries!.has(key)) this.unindex(key, answer.scope);
      },
    });
  }

  /** Whether answers are served and kept now (a cache of some size, hearing changes). */
  get active(): boolean {
    return this.entries !== undefined && this.trusted;
  }

  /** The change counter to pass back to `keep`: taken before computing an answer. */
  get version(): number {
    return this.generation;
  }

  /** The answer kept under `key` that holds at `now`; counted as a hit or a miss. */
  get(key: string, now: number): KeptAnswer | undefined {
    if (!this.entries || !this.trusted) return undefined;
    const answer = this.entries.get(key) ?? this.served(key, now);
    if (answer && now >= answer.from && now < answer.until) {
      this.hits++;
      return answer;
    }
    this.misses++;
    return undefined;
  }

  /**
   * Keeps an answer computed since `version` (no change heard meanwhile, else it is dropped: it
   * may predate the change). Returns what is kept, or undefined.
   */
  keep(key: string, version: number, answer: Omit<KeptAnswer, 'etag'> & { etag?: string }, gzip = false, admitted?: boolean): KeptAnswer | undefined {
    if (!this.storable(version, answer)) return undefined;
    const kept: KeptAnswer = { ...answer, etag: answer.etag ?? etagOf(answer.body) };
    // Made once, for a client that takes it: an alias keeps the same answer object and its gzip.
    if (gzip && kept.gzip === undefined) kept.gzip = gzipped(answer.body) ?? null;
    if (!(admitted ?? this.admits(key, answer.body.byteLength))) return kept;
    // A compact copy under the key is older: the new answer replaces it.
    this.compact!.delete(key);
    this.entries!.set(key, kept);
    // Larger than the whole bound: served, not kept.
    if (this.entries!.peek(key) !== kept) return kept;
    let keys = this.byOwner.get(kept.scope.ownerId);
    if (!keys) this.byOwner.set(kept.scope.ownerId, (keys = new Set()));
    keys.add(key);
    return kept;
  }

  /**
   * Whether keep would keep an answer of `bytes` under `key`, computed since `version`, holding in
   * [from, until): asked once, before the answer's bytes are made, then passed to keep as
   * `admitted` (a first ask while the read model is full is refused: see DOORKEEPER_BYTES). An
   * answer refused is sent as it was written: a rotating guide's one-off 40 KB page is never
   * copied into a Buffer only to be dropped.
   */
  admit(key: string, version: number, bytes: number, from: number, until: number): boolean {
    return this.storable(version, { from, until }) && this.admits(key, bytes);
  }

  private storable(version: number, answer: { from: number; until: number }): boolean {
    return this.entries !== undefined && this.trusted && version === this.generation && answer.until > answer.from;
  }

  /**
   * The gzipped body of an answer kept under `key` (made now if it was not: the first client that
   * takes gzip pays once, the answer is kept again with its new size), undefined when not worth it.
   */
  compressed(key: string, kept: KeptAnswer): KeptAnswer {
    if (kept.gzip !== undefined) return kept;
    const made: KeptAnswer = { ...kept, gzip: gzipped(kept.body) ?? null };
    // Re-kept under its key (not an alias's) only if it is still there: its size is counted again.
    if (this.entries?.peek(key) === kept) this.entries.set(key, made, { noDisposeOnSet: true });
    return made;
  }

  /** Everything may have changed (trusted), or changes can no longer be heard (false: bypass until trusted). */
  invalidate(trusted: boolean): void {
    this.generation++;
    this.entries?.clear();
    this.compact?.clear();
    this.askedOnce.clear();
    this.byOwner.clear();
    this.trusted = trusted;
  }

  /** A committed change: drops the answers whose scope it touches (every answer kept has an owner scope). */
  drop(change: OwnerChange): void {
    this.generation++;
    if (!this.entries) return;
    for (const key of [...(this.byOwner.get(change.ownerId) ?? [])]) {
      const answer = this.entries.peek(key) ?? this.compact!.peek(key);
      if (!answer || !touches(change, answer.scope)) continue;
      this.entries.delete(key);
      this.compact!.delete(key);
    }
  }

  /** Both tiers: bytes and entries are the read model's and the compact tier's together; `compact` the compact tier's entries. */
  stats(): AnswerStats {
    return {
      bytes: (this.entries?.calculatedSize ?? 0) + (this.compact?.calculatedSize ?? 0),
      entries: (this.entries?.size ?? 0) + (this.compact?.size ?? 0),
      compact: this.compact?.size ?? 0,
      hits: this.hits,
      misses: this.misses,
      evictions: this.evictions,
      refused: this.refused,
    };
  }

  /**
   * An answer pushed out of the read model, kept compact when it is worth it (COMPACT_FROM, gzip
   * at most half): gzipped now unless a client already had it gzipped. Whether it was kept.
   */
  private demote(key: string, answer: KeptAnswer): boolean {
    if (answer.body.byteLength < COMPACT_FROM || answer.gzip === null) return false;
    const gzip = answer.gzip ?? (answer.body.byteLength <= GZIP_ON_DEMOTION_UP_TO ? gzipped(answer.body) : undefined);
    if (!gzip || gzip.byteLength * 2 > answer.body.byteLength) return false;
    const { body: _body, ...rest } = answer;
    this.compact!.set(key, { ...rest, gzip, bodyBytes: answer.body.byteLength });
    return this.compact!.peek(key) !== undefined;
  }

  /**
   * The compact answer under `key`, when it holds at `now`: its body is ungzipped only if read (a
   * client that takes gzip is sent the gzip as it is), and not kept: an answer made whole again
   * each time lives as long as its request, where moving it back into the read model pushed
   * another out and kept a 44 KB copy alive for a rotation (old-generation garbage: a compact hit
   * then cost more than the whole answer computed again).
   */
  private served(key: string, now: number): KeptAnswer | undefined {
    const compact = this.compact!.get(key);
    if (!compact || now < compact.from || now >= compact.until) return undefined;
    let body: Buffer | undefined;
    // Ungzipped into one buffer of the body's size: zlib's default 16 KB chunks, concatenated,
    // made twice the body in garbage on every such hit (a full network run ended 64 MB higher).
    const whole = () => gunzipSync(compact.gzip, { chunkSize: Math.max(64, compact.bodyBytes) });
    const { bodyBytes: _bytes, ...answer } = compact;
    return Object.defineProperty(answer, 'body', { enumerable: true, get: () => (body ??= whole()) }) as KeptAnswer;
  }

  /** Whether an answer of `bytes` under `key` may be kept now (see DOORKEEPER_BYTES). */
  private admits(key: string, bytes: number): boolean {
    const entries = this.entries!;
    if (entries.has(key) || entries.calculatedSize + bytes + key.length * 2 + OVERHEAD <= entries.maxSize) return true;
    if (this.askedOnce.delete(key)) return true;
    this.askedOnce.set(key, true);
    this.refused++;
    return false;
  }

  private unindex(key: string, scope: CacheScope): void {
    const keys = this.byOwner.get(scope.ownerId);
    keys?.delete(key);
    if (keys?.size === 0) this.byOwner.delete(scope.ownerId);
  }
}
