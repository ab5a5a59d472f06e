// A read cache for answers derived from catalog data only (channels, libraries, schedules,
// apps). The catalog changes only through `channelnet import`, which sends a NOTIFY on
// CATALOG_CHANNEL in its transaction; every process listens and drops its cache when it
// arrives, so an instance never serves an answer older than the last committed import. While
// the listening connection is down, the cache is bypassed (it cannot know what it missed).
import type { DatabaseHandle } from '../db/connect.ts';

export const CATALOG_CHANNEL = 'channelnet_catalog';

export class CatalogCache {
  private readonly entries = new Map<string, unknown>();
  private generation = 0;
  private trusted = false;

  constructor(private readonly maxEntries: number) {}

  /** Starts listening for catalog changes; resolves to a function that stops it. */
  static async start(database: DatabaseHandle, maxEntries: number): Promise<{ cache: CatalogCache; stop: () => Promise<void> }> {
    const cache = new CatalogCache(maxEntries);
    const stop = await database.listen(CATALOG_CHANNEL, {
      onChange: () => cache.invalidate(true),
      onLost: () => cache.invalidate(false),
    });
    return { cache, stop };
  }

  invalidate(trusted: boolean): void {
    this.entries.clear();
    this.generation++;
    this.trusted = trusted;
  }

  /** The cached value for `key`, or `load()`'s (cached unless the catalog changed meanwhile). */
  async get<T>(key: string, load: () => Promise<T>): Promise<T> {
    if (this.maxEntries === 0 || !this.trusted) return load();
    if (this.entries.has(key)) {
      const value = this.entries.get(key) as T;
      this.entries.delete(key); // re-insert: Map order is the LRU order
      this.entries.set(key, value);
      return value;
    }
    const generation = this.generation;
    const value = await load();
    // A change that arrived while loading may have made `value` stale: do not keep it.
    if (generation === this.generation) this.remember(key, value);
    return value;
  }

  get size(): number {
    return this.entries.size;
  }

  private remember(key: string, value: unknown): void {
    this.entries.set(key, value);
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
  }
}
