// App queries shared by every interface group (REST, Custom API, Legacy Web Services).
// They return plain rows; shaping for a wire format happens in each group's presenter.
// Deleted channels are left out of assignments: a deleted channel is not found anywhere.
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Queryable } from '../db/connect.ts';
import * as t from '../db/schema.ts';

export type App = typeof t.apps.$inferSelect;
export type AppPlatform = App['platform'];
export type AppMobileSettings = typeof t.appMobileSettings.$inferSelect;

export interface StoredImage {
  bytes: Buffer;
  contentType: string;
  sha256: string;
}

/** Image role (logo, avatarHd, headerLogo...) to its stored bytes. */
export type AppImages = ReadonlyMap<string, StoredImage>;

export interface AppChannelAssignment {
  channelId: number;
  position: number;
  sorting: number | null;
  channelNumber: string | null;
  useVastSettings: boolean;
  lastUpdateDate: Date | null;
}

/** One app per owner per platform (unique index), so at most one row. */
export async function findAppByOwnerAndPlatform(db: Queryable, ownerId: number, platform: AppPlatform): Promise<App | undefined> {
  const [app] = await db
    .select()
    .from(t.apps)
    .where(and(eq(t.apps.ownerId, ownerId), eq(t.apps.platform, platform)));
  return app;
}

/** The app's images; `roles` limits which ones are read, since the bytes can be large. */
export async function appImages(db: Queryable, appId: number, roles?: readonly string[]): Promise<AppImages> {
  const byApp = eq(t.appImages.appId, appId);
  const rows = await db
    .select({ role: t.appImages.role, bytes: t.blobs.bytes, contentType: t.blobs.contentType, sha256: t.blobs.sha256 })
    .from(t.appImages)
    .innerJoin(t.blobs, eq(t.blobs.sha256, t.appImages.blobSha256))
    .where(roles ? and(byApp, inArray(t.appImages.role, [...roles])) : byApp);
  return new Map(rows.map(({ role, ...image }) => [role, image]));
}

const assignmentColumns = {
  channelId: t.appChannels.channelId,
  position: t.appChannels.position,
  sorting: t.appChannels.sorting,
  channelNumber: t.appChannels.channelNumber,
  useVastSettings: t.appChannels.useVastSettings,
  lastUpdateDate: t.appChannels.lastUpdateDate,
};

/** The channels assigned to the app, in the app's order, without deleted channels. */
export async function appChannelAssignments(db: Queryable, appId: number): Promise<AppChannelAssignment[]> {
  return db
    .select(assignmentColumns)
    .from(t.appChannels)
    .innerJoin(t.channels, eq(t.channels.id, t.appChannels.channelId))
    .where(and(eq(t.appChannels.appId, appId), eq(t.channels.deleted, false)))
    .orderBy(asc(t.appChannels.position));
}

/** One channel's assignment to the app; undefined when not assigned or the channel is deleted. */
export async function appChannelAssignment(db: Queryable, appId: number, channelId: number): Promise<AppChannelAssignment | undefined> {
  const [row] = await db
    .select(assignmentColumns)
    .from(t.appChannels)
    .innerJoin(t.channels, eq(t.channels.id, t.appChannels.channelId))
    .where(and(eq(t.appChannels.appId, appId), eq(t.appChannels.channelId, channelId), eq(t.channels.deleted, false)));
  return row;
}

/** Mobile-only fields; a mobile app imported with `mobile: null` has none. */
export async function appMobileSettings(db: Queryable, appId: number): Promise<AppMobileSettings | undefined> {
  const [row] = await db.select().from(t.appMobileSettings).where(eq(t.appMobileSettings.appId, appId));
  return row;
}

/** The Roku app whose API key this is (keys are GUIDs, compared case-insensitively); undefined when none. */
export async function findRokuAppByApiKey(db: Queryable, apiKey: string): Promise<App | undefined> {
  const [app] = await db
    .select()
    .from(t.apps)
    .where(and(eq(t.apps.platform, 'roku'), sql`lower(${t.apps.apiKey}) = ${apiKey.toLowerCase()}`))
    .limit(1);
  return app;
}
