// The channels a heartbeat batch names (owner, service plan), read from memory: each batch asked
// the database first, one of its four round trips (lookup, BEGIN, write, COMMIT), and the
// batch cycle is what a heartbeat waits for (issue 35, item 8). Follows the catalog cache: the
// NOTIFY that drops a changed channel's answers drops it here, an import drops everything, and
// while changes cannot be heard every batch reads the database as before.
import type { OwnerChange } from '../cache/changes.ts';
import type { Queryable } from '../db/connect.ts';
import { findActivityChannels, type ActivityChannel } from '../data/activity.ts';

/** Channels remembered at most (each ~100 bytes): past it the map starts over. */
const MAX_CHANNELS = 100_000;

export class ActivityChannels {
  /** A channel's owner and plan, or null: no such channel (a heartbeat for it is refused). */
  private readonly known = new Map<number, ActivityChannel | null>();
  private trusted = false;
  /** Counts what drops channels: a read that started before one is answered, not kept. */
  private version = 0;

  /** The channels of `ids` that exist and are not deleted, as findActivityChannels answers. */
  async find(db: Queryable, ids: readonly number[]): Promise<Map<number, ActivityChannel>> {
    const found = new Map<number, ActivityChannel>();
    const missing: number[] = [];
    for (const id of ids) {
      const channel = this.trusted ? this.known.get(id) : undefined;
      if (channel === undefined) missing.push(id);
      else if (channel) found.set(id, channel);
    }
    if (missing.length === 0) return found;
    const version = this.version;
    const read = await findActivityChannels(db, missing);
    const keep = this.trusted && version === this.version;
    if (keep && this.known.size + missing.length > MAX_CHANNELS) this.known.clear();
    for (const id of missing) {
      const channel = read.get(id);
      if (channel) found.set(id, channel);
      if (keep) this.known.set(id, channel ?? null);
    }
    return found;
  }

  /** Everything may have changed (trusted), or changes can no longer be heard (false: read every batch). */
  invalidate(trusted: boolean): void {
    this.version++;
    this.known.clear();
    this.trusted = trusted;
  }

  /**
   * An owner's change: the channels it names, else every channel of the owner; and every channel
   * remembered as missing (it may be the owner's new one).
   */
  drop(change: OwnerChange): void {
    this.version++;
    const named = change.channelIds ? new Set(change.channelIds) : undefined;
    for (const [id, channel] of this.known) {
      if (channel === null || (named ? named.has(id) : channel.ownerId === change.ownerId)) this.known.delete(id);
    }
  }
}
