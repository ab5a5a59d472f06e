// What the live outputs' access rules read (src/linear/live-access.ts): viewers' personal live
// links (looked up by the SHA-256 of the key, never by the key), which channels have linear
// output on, and the one write tests use to turn it on without the Studio's route.
import { and, asc, count, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Database, Queryable } from '../db/connect.ts';
import { accounts, apps, channelLinear, viewerLiveLinks } from '../db/schema.ts';
import type { App } from './apps.ts';

export interface LiveLinkRow {
  id: number;
  appId: number;
  createdAt: Date;
}

/** The link whose key hashes to this, with its app, while the link is live and both the viewer's and the app owner's accounts are active. */
export async function findLiveLinkByHash(db: Queryable, keyHash: string): Promise<{ viewerId: number; app: App } | undefined> {
  const owners = sql`(select ${accounts.status} from ${accounts} where ${accounts.id} = ${apps.ownerId})`;
  const [row] = await db
    .select({ viewerId: viewerLiveLinks.viewerId, app: apps })
    .from(viewerLiveLinks)
    .innerJoin(apps, eq(apps.id, viewerLiveLinks.appId))
    .innerJoin(accounts, eq(accounts.id, viewerLiveLinks.viewerId))
    .where(and(eq(viewerLiveLinks.keyHash, keyHash), isNull(viewerLiveLinks.revokedAt), eq(accounts.status, 'active'), sql`${owners} = 'active'`))
    .limit(1);
  return row;
}

/** The viewer's live (not revoked) links, oldest first. */
export async function viewerLinks(db: Queryable, viewerId: number): Promise<LiveLinkRow[]> {
  return db
    .select({ id: viewerLiveLinks.id, appId: viewerLiveLinks.appId, createdAt: viewerLiveLinks.createdAt })
    .from(viewerLiveLinks)
    .where(and(eq(viewerLiveLinks.viewerId, viewerId), isNull(viewerLiveLinks.revokedAt)))
    .orderBy(asc(viewerLiveLinks.id));
}

/**
 * Records a link unless the viewer already holds `max` live ones (undefined then). The viewer's
 * account row is locked first, so two requests at once cannot both take the last place.
 */
export async function insertLiveLink(db: Database, link: { viewerId: number; appId: number; keyHash: string; createdAt: Date }, max: number): Promise<LiveLinkRow | undefined> {
  return db.transaction(async (tx) => {
    await tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, link.viewerId)).for('update');
    const [held] = await tx
      .select({ n: count() })
      .from(viewerLiveLinks)
      .where(and(eq(viewerLiveLinks.viewerId, link.viewerId), isNull(viewerLiveLinks.revokedAt)));
    if ((held?.n ?? 0) >= max) return undefined;
    const [row] = await tx.insert(viewerLiveLinks).values(link).returning({ id: viewerLiveLinks.id, appId: viewerLiveLinks.appId, createdAt: viewerLiveLinks.createdAt });
    return row;
  });
}

/** Revokes the viewer's own live link; answers whether there was one. */
export async function revokeLiveLink(db: Queryable, viewerId: number, id: number, now: Date): Promise<boolean> {
  const rows = await db
    .update(viewerLiveLinks)
    .set({ revokedAt: now })
    .where(and(eq(viewerLiveLinks.id, id), eq(viewerLiveLinks.viewerId, viewerId), isNull(viewerLiveLinks.revokedAt)))
    .returning({ id: viewerLiveLinks.id });
  return rows.length > 0;
}

/** An app by id (any owner); undefined when there is none or its owner's account is not active. */
export async function activeApp(db: Queryable, appId: number): Promise<App | undefined> {
  const [row] = await db
    .select({ app: apps })
    .from(apps)
    .innerJoin(accounts, eq(accounts.id, apps.ownerId))
    .where(and(eq(apps.id, appId), eq(accounts.status, 'active')));
  return row?.app;
}

/** The channels among these whose linear output is on. */
export async function linearEnabledChannels(db: Queryable, channelIds: readonly number[]): Promise<Set<number>> {
  if (channelIds.length === 0) return new Set();
  const rows = await db
    .select({ channelId: channelLinear.channelId })
    .from(channelLinear)
    .where(and(inArray(channelLinear.channelId, [...channelIds]), eq(channelLinear.enabled, true)));
  return new Set(rows.map((r) => r.channelId));
}

/**
 * Turns a channel's linear output on or off with a default ladder (tests; the Studio's PUT is the
 * owner's way, with its ladder and audit).
 */
export async function setLinearEnabled(db: Queryable, channelId: number, enabled: boolean, now: Date): Promise<void> {
  const row = { channelId, enabled, targetDurationSeconds: 6, windowSeconds: 60, ladder: [], epoch: now };
  await db.insert(channelLinear).values(row).onConflictDoUpdate({ target: channelLinear.channelId, set: { enabled } });
}
