// A read cache for answers derived from catalog data only (channels, libraries, schedules,
// apps). Every catalog write sends a NOTIFY on CATALOG_CHANNEL in its transaction (changes.ts):
// an import names every change, a Studio write the owner and perhaps the channels it changed.
// Every process listens and drops what the change may have touched (each answer is kept with
// its scope: the owner and channels it is derived from, see `touches`), so an instance never
// serves an answer older than the last committed write. While the listening connection is
// down, the cache is bypassed (it cannot know what it missed).
//
// It is bounded twice, least recently used out first: by entries and by bytes (key plus value,
// see size.ts), so callers whose keys a client chooses cannot grow the heap past the bound.
import { LRUCache } from 'lru-cache';
import type { DatabaseHandle } from '../db/connect.ts';
import { CATALOG_CHANNEL, parseNotice, touches, type CacheScope, type CatalogChange, type OwnerChange } from './changes.ts';
import { estimateBytes } from './size.ts';

export { CATALOG_CHANNEL } from './changes.ts';
export type { CacheScope, CatalogChange, OwnerChange } from './changes.ts';

export interface CacheLimits {
  /** Entries kept at most (0: no cache). */
  maxEntries: number;
  /** Bytes kept at most, keys included (0: no cache); a larger answer is served, not kept. */
  maxBytes: number;
}

/**
 * What an answer is derived from: a scope, or a function of the answer when only the answer tells
 * (a lookup by slug finds the owner). Absent, or undefined from the function: it may depend on
 * anything, and every change drops it.
 */
export type ScopeOf<T> = CacheScope | ((value: T) => CacheScope | undefined);

/** Another per-process cache of catalog data (compiled schedules), told every change of this one. */
export interface CacheFollower {
  /** Everything may have changed (trusted: changes are heard) or changes can no longer be heard (false). */
  invalidate(trusted: boolean): void;
  /** Only what this change names may have changed (see changes.ts). */
  drop(change: OwnerChange): void;
  /** Sign-in tokens revoked (hashes), for a follower that keeps them. */
  revoked?(hashes: readonly string[]): void;
}

/** A box, because lru-cache stores no undefined or null and an answer may be either. */
type Entry = { value: unknown; scope: CacheScope | undefined };

/** A load under way: a change touching its scope (unknown: any change) makes its answer stale. */
type Flight = { scope: CacheScope | undefined; stale: boolean };

export class CatalogCache {
  private readonly entries: LRUCache<string, Entry> | undefined;
  /** Keys kept per owner, and keys kept without a scope: what a change looks at. */
  private readonly byOwner = new Map<number, Set<string>>();
  private readonly unscoped = new Set<string>();
  private readonly flights = new Set<Flight>();
  private trusted = false;
  private readonly followers: CacheFollower[] = [];
  private hits = 0;
  private misses = 0;
  private evictions = 0;

  constructor({ maxEntries, maxBytes }: CacheLimits) {
    if (maxEntries <= 0 || maxBytes <= 0) return;
    this.entries = new LRUCache<string, Entry>({
      max: maxEntries,
      maxSize: maxBytes,
      sizeCalculation: (entry, key) => Math.max(1, key.length * 2 + estimateBytes(entry.value)),
      // Called at once for every entry leaving (evicted, deleted, replaced): the index follows.
      dispose: (entry, key, reason) => {
        if (reason === 'evict') this.evictions++;
        this.unindex(key, entry.scope);
      },
    });
  }

  /** Starts listening for catalog changes; resolves to a function that stops it. */
  static async start(database: DatabaseHandle, limits: CacheLimits): Promise<{ cache: CatalogCache; stop: () => Promise<void> }> {
    const cache = new CatalogCache(limits);
    const stop = await database.listen(CATALOG_CHANNEL, {
      onChange: (payload) => {
        const notice = parseNotice(payload);
        if (typeof notice === 'object' && 'revokedTokens' in notice) cache.revoked(notice.revokedTokens);
        else cache.change(notice);
      },
      onLost: () => cache.invalidate(false),
    });
    return { cache, stop };
  }

  /** Another cache dropped with this one; told the current state at once. */
  follow(follower: CacheFollower): void {
    this.followers.push(follower);
    follower.invalidate(this.trusted);
  }

  /** Drops everything: a change of anything (trusted) or changes no longer heard (false: bypass until trusted again). */
  invalidate(trusted: boolean): void {
    for (const follower of this.followers) follower.invalidate(trusted);
    this.entries?.clear();
    this.byOwner.clear();
    this.unscoped.clear();
    for (const flight of this.flights) flight.stale = true;
    this.trusted = trusted;
  }

  /** Tokens revoked: only the followers that keep tokens care; no catalog answer depends on one. */
  revoked(hashes: readonly string[]): void {
    for (const follower of this.followers) follower.revoked?.(hashes);
  }

  /** A committed catalog change: drops what it may have touched ('all': everything, and trusts itself from now on). */
  change(change: CatalogChange): void {
    if (change === 'all') return this.invalidate(true);
    for (const follower of this.followers) follower.drop(change);
    for (const flight of this.flights) if (touches(change, flight.scope)) flight.stale = true;
    if (!this.entries) return;
    // Copied first: each delete updates the index sets being read.
    const candidates = [...this.unscoped, ...(this.byOwner.get(change.ownerId) ?? [])];
    for (const key of candidates) {
      const entry = this.entries.peek(key);
      if (entry && touches(change, entry.scope)) this.entries.delete(key);
    }
  }

  /**
   * The cached value for `key`, or `load()`'s, kept with `scope` unless a change touching it
   * arrived meanwhile. A key always names the same scope.
   */
  async get<T>(key: string, load: () => Promise<T>, scope?: ScopeOf<T>): Promise<T> {
    if (!this.entries || !this.trusted) return load();
    const hit = this.entries.get(key);
    if (hit) {
      this.hits++;
      return hit.value as T;
    }
    this.misses++;
    // A scope known only from the answer is unknown while loading: any change makes it stale.
    const flight: Flight = { scope: typeof scope === 'function' ? undefined : scope, stale: false };
    this.flights.add(flight);
    try {
      const value = await load();
      // A change that arrived while loading may have made `value` stale: do not keep it.
      if (!flight.stale) this.keep(key, value, typeof scope === 'function' ? scope(value) : scope);
      return value;
    } finally {
      this.flights.delete(flight);
    }
  }

  /** The kept value for `key` (marked recently used) without loading it; undefined when absent or while the cache is bypassed. */
  peek<T>(key: string): T | undefined {
    if (!this.entries || !this.trusted) return undefined;
    return this.entries.get(key)?.value as T | undefined;
  }

  /** Whether what is loaded now can be kept (a cache of some size, hearing changes). */
  get keeping(): boolean {
    return this.entries !== undefined && this.trusted;
  }

  /** Entries kept now. */
  get size(): number {
    return this.entries?.size ?? 0;
  }

  /** Bytes kept now, as counted against `maxBytes`. */
  get bytes(): number {
    return this.entries?.calculatedSize ?? 0;
  }

  /** What /metrics shows (src/observability/metrics.ts, observeCache). */
  stats(): { bytes: number; entries: number; hits: number; misses: number; evictions: number } {
    return { bytes: this.bytes, entries: this.size, hits: this.hits, misses: this.misses, evictions: this.evictions };
  }

  private keep(key: string, value: unknown, scope: CacheScope | undefined): void {
    const entry: Entry = { value, scope };
    this.entries!.set(key, entry);
    // Not kept when larger than the whole bound (and a replaced entry left the index on its dispose).
    if (this.entries!.peek(key) !== entry) return;
    if (scope === undefined) this.unscoped.add(key);
    else {
      let keys = this.byOwner.get(scope.ownerId);
      if (!keys) this.byOwner.set(scope.ownerId, (keys = new Set()));
      keys.add(key);
    }
  }

  private unindex(key: string, scope: CacheScope | undefined): void {
    if (scope === undefined) {
      this.unscoped.delete(key);
      return;
    }
    const keys = this.byOwner.get(scope.ownerId);
    keys?.delete(key);
    if (keys?.size === 0) this.byOwner.delete(scope.ownerId);
  }
}
