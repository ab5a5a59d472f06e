// What each of an owner's apps offers, for access gating: whether it is paid, whether its VOD is
// pay-per-view, and the channels it carries (deleted channels left out). Catalog data only, so the
// Custom API caches it until the next import.
import { and, eq } from 'drizzle-orm';
import type { Queryable } from '../db/connect.ts';
import { appChannels, apps, channels, channelVideos, channelVodVideos, liveStreams, scheduleBlocks, scheduleBlockVideos } from '../db/schema.ts';

export interface AppOffer {
  appId: number;
  isPaid: boolean;
  vodPpvEnabled: boolean;
  channelIds: number[];
}

export async function ownerAppOffers(db: Queryable, ownerId: number): Promise<AppOffer[]> {
  const rows = await db
    .select({ appId: apps.id, isPaid: apps.isPaid, vodPpvEnabled: apps.vodPpvEnabled, channelId: channels.id })
    .from(apps)
    .leftJoin(appChannels, eq(appChannels.appId, apps.id))
    .leftJoin(channels, and(eq(channels.id, appChannels.channelId), eq(channels.deleted, false)))
    .where(eq(apps.ownerId, ownerId));
  const offers = new Map<number, AppOffer>();
  for (const { channelId, ...app } of rows) {
    const offer = offers.get(app.appId) ?? { ...app, channelIds: [] };
    if (channelId !== null) offer.channelIds.push(channelId);
    offers.set(app.appId, offer);
  }
  return [...offers.values()];
}

export interface VideoPlace {
  channelId: number;
  passwordHash: string | null;
  /** In the channel's VOD catalog (pay-per-view may apply), its library, or aired (schedule or live streams). */
  how: 'vod' | 'library' | 'aired';
}

/** Every live channel the video is in, and how (four indexed look-ups). */
export async function placesOfVideo(db: Queryable, videoId: number): Promise<VideoPlace[]> {
  const place = { channelId: channels.id, passwordHash: channels.passwordHash };
  const live = eq(channels.deleted, false);
  const [vod, library, scheduled, streamed] = await Promise.all([
    db.selectDistinct(place).from(channelVodVideos).innerJoin(channels, and(eq(channels.id, channelVodVideos.channelId), live)).where(eq(channelVodVideos.videoId, videoId)),
    db.selectDistinct(place).from(channelVideos).innerJoin(channels, and(eq(channels.id, channelVideos.channelId), live)).where(eq(channelVideos.videoId, videoId)),
    db
      .selectDistinct(place)
      .from(scheduleBlockVideos)
      .innerJoin(scheduleBlocks, eq(scheduleBlocks.id, scheduleBlockVideos.blockId))
      .innerJoin(channels, and(eq(channels.id, scheduleBlocks.channelId), live))
      .where(eq(scheduleBlockVideos.videoId, videoId)),
    db.selectDistinct(place).from(liveStreams).innerJoin(channels, and(eq(channels.id, liveStreams.channelId), live)).where(eq(liveStreams.videoId, videoId)),
  ]);
  return [
    ...vod.map((c) => ({ ...c, how: 'vod' as const })),
    ...library.map((c) => ({ ...c, how: 'library' as const })),
    ...[...scheduled, ...streamed].map((c) => ({ ...c, how: 'aired' as const })),
  ];
}
