// A viewer's favorite channels, for REST (the account's own channels) and the Custom API (the
// channels of the owner whose app is used). Marking is idempotent both ways; a channel that is
// not the owner's is refused with a code each interface maps to its answer.
import type { CallerWith, CatalogReads } from '../access/caller.ts';
import { ownedChannel, type ChannelRow } from '../data/channels.ts';
import { addFavorite, listFavorites, removeFavorite } from '../data/favorites.ts';
import type { Queryable } from '../db/connect.ts';
import { callerChannels } from './listing.ts';

export { listFavorites as viewerFavorites } from '../data/favorites.ts';

/**
 * Marks (on) or unmarks the owner's channel (its id not yet known to be the owner's) as the
 * signed-in caller's favorite; the channel, or a refusal.
 */
export async function markFavorite(
  db: Queryable,
  caller: Pick<CallerWith<'viewerId'>, 'ownerId' | 'viewerId' | 'now'>,
  channelId: number,
  on: boolean,
): Promise<ChannelRow | 'channel_not_found'> {
  const channel = await ownedChannel(db, caller.ownerId, channelId);
  if (!channel) return 'channel_not_found';
  if (on) await addFavorite(db, caller.viewerId, channel.id, caller.now);
  else await removeFavorite(db, caller.viewerId, channel.id);
  return channel;
}

/**
 * The viewer's favorites among the channels the caller may list (its app's, or with no app those
 * no app sells it: a favorite does not reveal what a paid app sells), in the viewer's order.
 */
export async function callerFavorites(reads: CatalogReads, caller: CallerWith<'viewerId'>): Promise<ChannelRow[]> {
  const [favorites, listable] = await Promise.all([listFavorites(reads.db, caller.viewerId), callerChannels(reads, caller)]);
  const byId = new Map(listable.map((c) => [c.id, c]));
  return favorites.flatMap((f) => byId.get(f.channelId) ?? []);
}
