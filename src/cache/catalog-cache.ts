// A read cache for answers derived from catalog data only (channels, libraries, schedules,
// apps). The catalog changes only through `channelnet import`, which sends a NOTIFY on
// CATALOG_CHANNEL in its transaction; every process listens and drops its cache when it
// arrives, so an instance never serves an answer older than the last committed import. While
// the listening connection is down, the cache is bypassed (it cannot know what it missed).
//
// It is bounded twice, least recently used out first: by entries and by bytes (key plus value,
// see size.ts), so callers whose keys a client chooses cannot grow the heap past the bound.
import { LRUCache } from 'lru-cache';
import type { DatabaseHandle } from '../db/connect.ts';
import { estimateBytes } from './size.ts';

export const CATALOG_CHANNEL = 'channelnet_catalog';

export interface CacheLimits {
  /** Entries kept at most (0: no cache). */
  maxEntries: number;
  /** Bytes kept at most, keys included (0: no cache); a larger answer is served, not kept. */
  maxBytes: number;
}

/** A box, because lru-cache stores no undefined or null and an answer may be either. */
type Entry = { value: unknown };

export class CatalogCache {
  private readonly entries: LRUCache<string, Entry> | undefined;
  private generation = 0;
  private trusted = false;
  private readonly followers: ((trusted: boolean) => void)[] = [];

  constructor({ maxEntries, maxBytes }: CacheLimits) {
    if (maxEntries <= 0 || maxBytes <= 0) return;
    this.entries = new LRUCache<string, Entry>({
      max: maxEntries,
      maxSize: maxBytes,
      sizeCalculation: (entry, key) => Math.max(1, key.length * 2 + estimateBytes(entry.value)),
    });
  }

  /** Starts listening for catalog changes; resolves to a function that stops it. */
  static async start(database: DatabaseHandle, limits: CacheLimits): Promise<{ cache: CatalogCache; stop: () => Promise<void> }> {
    const cache = new CatalogCache(limits);
    const stop = await database.listen(CATALOG_CHANNEL, {
      onChange: () => cache.invalidate(true),
      onLost: () => cache.invalidate(false),
    });
    return { cache, stop };
  }

  /** Other per-process caches of catalog data (compiled schedules) dropped with this one; told the current state at once. */
  follow(invalidate: (trusted: boolean) => void): void {
    this.followers.push(invalidate);
    invalidate(this.trusted);
  }

  invalidate(trusted: boolean): void {
    for (const follower of this.followers) follower(trusted);
    this.entries?.clear();
    this.generation++;
    this.trusted = trusted;
  }

  /** The cached value for `key`, or `load()`'s (cached unless the catalog changed meanwhile). */
  async get<T>(key: string, load: () => Promise<T>): Promise<T> {
    if (!this.entries || !this.trusted) return load();
    const hit = this.entries.get(key);
    if (hit) return hit.value as T;
    const generation = this.generation;
    const value = await load();
    // A change that arrived while loading may have made `value` stale: do not keep it.
    if (generation === this.generation) this.entries.set(key, { value });
    return value;
  }

  /** Entries kept now. */
  get size(): number {
    return this.entries?.size ?? 0;
  }

  /** Bytes kept now, as counted against `maxBytes`. */
  get bytes(): number {
    return this.entries?.calculatedSize ?? 0;
  }
}
