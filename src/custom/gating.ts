// Access gating of the Custom API (issue 4, item 4), on top of the entitlement and channel
// unlock modules: paid apps answer 403 subscription_required to viewers without an active
// subscription; VOD PPV and private channels withhold stream URLs instead of refusing.
import type { FastifyRequest } from 'fastify';
import { playableChannels } from '../access/channel-unlocks.ts';
import type { Queryable } from '../db/connect.ts';
import { appSubscriptionActive, unlockedVideos, type VideoRef } from '../entitlements/access.ts';
import { clientOf, type Client } from './context.ts';
import { subscriptionRequired } from './errors.ts';

/** A client without an app (no Platform-Id, or none for the platform) is never gated. */
export async function requireAppAccess(db: Queryable, client: Client): Promise<void> {
  const { app, holder, now } = client;
  if (app?.isPaid && !(await appSubscriptionActive({ db, appId: app.id, ...holder, now }))) throw subscriptionRequired();
}

/** The client of a channel, schedule or VOD list route, once it is entitled to the app. */
export async function entitledClient(db: Queryable, request: FastifyRequest): Promise<Client> {
  const client = await clientOf(db, request);
  await requireAppAccess(db, client);
  return client;
}

/** Which of these channels may hand out stream URLs to the client (public or unlocked). */
export async function streamableChannels(
  db: Queryable,
  client: Client,
  channels: readonly { id: number; passwordHash: string | null }[],
): Promise<(channelId: number) => boolean> {
  const playable = await playableChannels(db, channels, client.holder);
  return (channelId) => playable.has(channelId);
}

/** With VOD PPV on in the client's app, a VOD video plays only once unlocked; otherwise always. */
export async function ppvPlayable(db: Queryable, client: Client, refs: readonly VideoRef[]): Promise<(ref: VideoRef) => boolean> {
  const { app, holder, now } = client;
  if (!app?.vodPpvEnabled) return () => true;
  return unlockedVideos({ db, appId: app.id, ...holder, now }, refs);
}
