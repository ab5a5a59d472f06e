// Who may play a channel's live playlists (docs/linear.md: keys). MINIMAL VERSION written by the
// live-playlists part so its routes work; the live-links part owns this file and replaces it with
// app keys AND viewers' personal links.
// Here: the key is an app's guide key (the one /epg/{key}.xml takes); the app must carry the
// channel, and the channel must be one anyone may watch: the app is free, no paid app of the
// owner sells the channel (what is sold never leaks through an open key), and it has no password.
import type { Queryable } from '../db/connect.ts';
import { appOfEpgKey } from '../access/epg-keys.ts';
import { ownerAppOffers } from '../data/app-offers.ts';
import { appChannelAssignment } from '../data/apps.ts';
import { ownedChannel } from '../data/channels.ts';

export async function mayPlayLive(db: Queryable, key: string, channelId: number, now: Date): Promise<{ appId: number; ownerId: number } | undefined> {
  void now; // viewers' links (not here yet) are checked at this instant
  const app = await appOfEpgKey(db, key);
  if (!app || app.isPaid) return undefined;
  const [assigned, channel, offers] = await Promise.all([appChannelAssignment(db, app.id, channelId), ownedChannel(db, app.ownerId, channelId), ownerAppOffers(db, app.ownerId)]);
  if (!assigned || !channel || channel.passwordHash !== null) return undefined;
  if (offers.some((o) => o.isPaid && o.channelIds.includes(channelId))) return undefined;
  return { appId: app.id, ownerId: app.ownerId };
}
