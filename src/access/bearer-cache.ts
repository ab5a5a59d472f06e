// Bearer checks from memory (issue 35, item 2): a REST, Custom or Studio read no longer reads its
// token and account from the database on every request. What is kept, per process:
// - a token's row (its account, kind, expiry, last use) by the token's hash, at most
//   TOKEN_CACHE_SECONDS, 10,000 tokens, least recently used out first; its expiry is still
//   checked against each request's clock, and a sliding token is still touched once a minute;
// - a token the database does not know (or knows revoked), apart and briefly (1,000 hashes for
//   5 s), so a flood of made-up tokens costs a query per new one at most and evicts no real one.
// What ends a kept token before that bound:
// - a logout or refresh (any instance): the revoking transaction NOTIFYs its hash, and every
//   instance drops it (the revoking one at once, before answering);
// - any change of the account as an owner (the Studio revoking an app token, an account edit):
//   the owner's catalog change drops every token of that account;
// - an import (every change), or the change listener being down (nothing kept until it is back).
// So a revocation is effective everywhere within the NOTIFY's delivery, and within
// TOKEN_CACHE_SECONDS even if an instance missed it (docs/security.md: Tokens).
import { LRUCache } from 'lru-cache';
import type { CacheFollower, OwnerChange } from '../cache/catalog-cache.ts';

/** A token's row as authenticate reads it (src/data/tokens.ts findToken). */
export interface KeptToken {
  id: number;
  kind: string;
  expiresAt: Date | null;
  slidingSeconds: number | null;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  account: { id: number; status: string } & Record<string, unknown>;
}

const KNOWN_TOKENS = 10_000;
const UNKNOWN_TOKENS = 1_000;
const UNKNOWN_MS = 5_000;

/** Every cache of this process: a revocation here drops the token from each at once. */
const local = new Set<BearerCache>();

/** Drops these token hashes from every cache of this process (the revoking request's own included). */
export function forgetTokensLocally(hashes: readonly string[]): void {
  for (const cache of local) cache.revoked(hashes);
}

export class BearerCache implements CacheFollower {
  private readonly known: LRUCache<string, { row: KeptToken; until: number }>;
  private readonly unknown = new LRUCache<string, number>({ max: UNKNOWN_TOKENS });
  private trusted = false;
  /** Counts what drops tokens: a row read before one of them is not kept (it may be the revoked one). */
  private generation = 0;

  /** `keepMs` 0: nothing kept. `clock`: monotonic milliseconds (not a request's clock, which tests move). */
  constructor(
    private readonly keepMs: number,
    private readonly clock: () => number = () => performance.now(),
  ) {
    this.known = new LRUCache({ max: KNOWN_TOKENS });
    local.add(this);
  }

  /** The kept row (undefined: not kept; null: kept as unknown). */
  get(hash: string): KeptToken | null | undefined {
    if (!this.trusted || this.keepMs <= 0) return undefined;
    const now = this.clock();
    const kept = this.known.get(hash);
    if (kept && kept.until > now) return kept.row;
    if (kept) this.known.delete(hash);
    const unknownUntil = this.unknown.get(hash);
    if (unknownUntil !== undefined && unknownUntil > now) return null;
    return undefined;
  }

  /** The counter to hand back to keep: taken before reading the database. */
  get version(): number {
    return this.generation;
  }

  /** Keeps what the database answered for `hash` since `version` (undefined: no such live token). */
  keep(hash: string, row: KeptToken | undefined, version: number): void {
    if (!this.trusted || this.keepMs <= 0 || version !== this.generation) return;
    const now = this.clock();
    if (row && row.revokedAt === null) this.known.set(hash, { row, until: now + this.keepMs });
    else this.unknown.set(hash, now + Math.min(UNKNOWN_MS, this.keepMs));
  }

  get size(): { known: number; unknown: number } {
    return { known: this.known.size, unknown: this.unknown.size };
  }

  invalidate(trusted: boolean): void {
    this.generation++;
    this.trusted = trusted;
    this.known.clear();
    this.unknown.clear();
  }

  /** An owner's change: that account's tokens go (its status, or an app token revoked in the Studio). */
  drop(change: OwnerChange): void {
    this.generation++;
    for (const [hash, kept] of this.known.entries()) if (kept.row.account.id === change.ownerId) this.known.delete(hash);
  }

  revoked(hashes: readonly string[]): void {
    this.generation++;
    for (const hash of hashes) this.known.delete(hash);
  }

  /** No longer told of revocations (an app closing). */
  close(): void {
    local.delete(this);
  }
}
