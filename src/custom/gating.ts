// Access gating of the Custom API, on top of the entitlement and channel unlock modules: paid
// apps answer 403 subscription_required to viewers without an active subscription; VOD PPV and
// private channels withhold stream URLs instead of refusing. Which channels and VOD videos a
// caller may get is the one rule of src/entitlements/gate.ts, whatever Platform-Id says.
import type { FastifyRequest } from 'fastify';
import { playableChannels } from '../access/channel-unlocks.ts';
import { ownerAppOffers } from '../data/app-offers.ts';
import type { Queryable } from '../db/connect.ts';
import { appSubscriptionActive, type VideoRef } from '../entitlements/access.ts';
import { accessGate, type Gate } from '../entitlements/gate.ts';
import { clientOf, type Client } from './context.ts';
import { subscriptionRequired } from './errors.ts';

/** A paid app's lists answer 403 without a subscription; a client with no app is gated item by item (clientGate). */
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

/** What the owner's apps open to this client (its app's rules, or for no app the strictest of all). */
export async function clientGate(db: Queryable, client: Client, vodRefs: readonly VideoRef[] = []): Promise<Gate> {
  const offers = await client.cache.get(`custom:offers:${client.ownerId}`, () => ownerAppOffers(db, client.ownerId));
  return accessGate({ db, offers, appId: client.app?.id, holder: client.holder, now: client.now, vodRefs });
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

/** Whether each VOD video plays in its channel for the client (pay-per-view unlocks, sold channels). */
export async function vodPlayable(db: Queryable, client: Client, refs: readonly (VideoRef & { channelId: number })[]): Promise<(ref: VideoRef & { channelId: number }) => boolean> {
  const gate = await clientGate(db, client, refs);
  return (ref) => gate.vodOpen(ref);
}
