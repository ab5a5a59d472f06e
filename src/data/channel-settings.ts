// Channel lookups and per-channel settings (VAST ads, legacy Roku flags), shared by every
// interface group. Every query skips deleted channels: a deleted channel is not found anywhere.
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Queryable } from '../db/connect.ts';
import * as t from '../db/schema.ts';

export type VastSetting = typeof t.channelVastSettings.$inferSelect;
export type VastPlatform = VastSetting['platform'];
export type RokuChannelSettings = typeof t.channelRokuSettings.$inferSelect;

export interface ChannelRef {
  id: number;
  ownerId: number;
}

const live = eq(t.channels.deleted, false);

/** The channel's id and owner, or undefined when it is missing or deleted. */
export async function findChannel(db: Queryable, channelId: number): Promise<ChannelRef | undefined> {
  const [row] = await db
    .select({ id: t.channels.id, ownerId: t.channels.ownerId })
    .from(t.channels)
    .where(and(eq(t.channels.id, channelId), live));
  return row;
}

/** The channel owned by `ownerId`, or undefined when missing, deleted or someone else's. */
export async function findOwnedChannel(db: Queryable, channelId: number, ownerId: number): Promise<ChannelRef | undefined> {
  const channel = await findChannel(db, channelId);
  return channel?.ownerId === ownerId ? channel : undefined;
}

/** Every platform row of the channel's VAST settings (at most one per platform). */
export async function channelVastSettings(db: Queryable, channelId: number): Promise<VastSetting[]> {
  return (await vastSettingsOfChannels(db, [channelId])).get(channelId) ?? [];
}

/** VAST rows of several channels at once, keyed by channel id (absent: no rows). */
export async function vastSettingsOfChannels(db: Queryable, channelIds: readonly number[]): Promise<Map<number, VastSetting[]>> {
  const byChannel = new Map<number, VastSetting[]>();
  if (channelIds.length === 0) return byChannel;
  const rows = await db
    .select({ vast: t.channelVastSettings })
    .from(t.channelVastSettings)
    .innerJoin(t.channels, eq(t.channels.id, t.channelVastSettings.channelId))
    .where(and(inArray(t.channelVastSettings.channelId, [...channelIds]), live))
    .orderBy(asc(t.channelVastSettings.channelId), asc(t.channelVastSettings.platform));
  for (const { vast } of rows) byChannel.set(vast.channelId, [...(byChannel.get(vast.channelId) ?? []), vast]);
  return byChannel;
}

/** The row for `platform`, else the web row (the channel-wide default), else undefined. */
export function vastSettingFor(rows: readonly VastSetting[], platform: VastPlatform): VastSetting | undefined {
  return rows.find((r) => r.platform === platform) ?? rows.find((r) => r.platform === 'web');
}

/** Legacy Roku channel settings, or undefined when the channel has none. */
export async function channelRokuSettings(db: Queryable, channelId: number): Promise<RokuChannelSettings | undefined> {
  const [row] = await db
    .select({ roku: t.channelRokuSettings })
    .from(t.channelRokuSettings)
    .innerJoin(t.channels, eq(t.channels.id, t.channelRokuSettings.channelId))
    .where(and(eq(t.channelRokuSettings.channelId, channelId), live));
  return row?.roku;
}
