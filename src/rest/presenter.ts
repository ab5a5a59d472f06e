// REST wire shapes (camelCase), built from domain rows. One function per resource. Each returns
// its response schema's input (schemas.ts): keys in the schema's order, none it does not list.
import type { z } from 'zod';
import type { Authenticated } from '../access/tokens.ts';
import type { ChannelRow } from '../data/channels.ts';
import type { libraryVideos, vastRows } from '../data/channels.ts';
import type { listFavorites } from '../data/favorites.ts';
import type { ScheduledVideo } from '../data/schedules.ts';
import type { ExpandedBlock } from '../schedules/expand.ts';
import { scheduleTotals } from '../schedules/expand.ts';
import { totalDurationLabel } from '../schedules/labels.ts';
import type { channelSchema, favoriteSchema, libraryVideoSchema, loginSchema, nowOnAirSchema, scheduleSchema, vastSchema } from './schemas.ts';
import type { NowOnAir } from '../schedules/now-on-air.ts';
import type { TimelineSegment } from '../schedules/timelines.ts';
import { utcInstant } from '../presenters/on-air.ts';
import { fastLocalDateTime as formatLocalDateTime } from '../schedules/zone-offsets.ts';
import { dayVideoFields } from '../presenters/day-video.ts';

type LibraryVideo = Awaited<ReturnType<typeof libraryVideos>>[number];
type VastRow = Awaited<ReturnType<typeof vastRows>>[number];

export function presentLogin(account: Pick<Authenticated, 'id' | 'username' | 'email' | 'publicUrl'>, authToken: string): z.input<typeof loginSchema> {
  return { authToken, userId: account.id, userName: account.username, email: account.email, publicUrl: account.publicUrl };
}

export function presentVast(v: VastRow): z.input<typeof vastSchema> {
  return {
    platform: v.platform,
    vastUrl: v.vastUrl,
    vastVersion: v.vastVersion,
    skippable: v.skippable,
    adFrequency: v.adFrequency,
    midRollFrequency: v.midRollFrequency,
    slottable: v.slottable,
    timeFrom: v.timeFrom,
    timeTo: v.timeTo,
    vastType: v.vastType,
    allowAdsInVod: v.allowAdsInVod,
  };
}

function presentLibraryVideo(v: LibraryVideo): z.input<typeof libraryVideoSchema> {
  return {
    videoTubeId: v.id,
    title: v.title,
    description: v.description,
    durationSeconds: v.durationSeconds,
    thumbnailUrl: v.thumbnailUrl,
    providerVideoId: v.providerVideoId,
    providerName: v.providerName,
    categoryName: v.categoryName ?? '',
  };
}

export function presentChannel(c: ChannelRow, videos: LibraryVideo[], vast: VastRow[]): z.input<typeof channelSchema> {
  return {
    channelTubeId: c.id,
    name: c.name,
    url: c.url,
    categoryName: c.categoryName,
    pictureUrl: c.pictureUrl,
    description: c.description,
    order: c.sortOrder,
    videos: videos.map(presentLibraryVideo),
    // A row without a tag URL means no ads on that platform.
    vastSettings: vast.filter((v) => v.vastUrl !== '').map(presentVast),
  };
}

export function presentSchedule(channelId: number, date: string, zone: string, blocks: ExpandedBlock<Omit<ScheduledVideo, 'description'>>[]): z.input<typeof scheduleSchema> {
  const totals = scheduleTotals(blocks);
  return {
    channelTubeId: channelId,
    date,
    schedules: blocks.map((b) => ({
      channelScheduleId: b.channelScheduleId,
      startTime: formatLocalDateTime(b.start, zone),
      published: b.published,
      loopDaily: b.loopDaily,
      videos: b.videos.map((v) => ({ videoTubeId: v.video.videoTubeId, ...dayVideoFields(v, zone) })),
    })),
    totalVideos: totals.totalVideos,
    totalDurationLabel: totalDurationLabel(totals.totalDurationSeconds),
  };
}

export function presentFavorite(f: Awaited<ReturnType<typeof listFavorites>>[number]): z.input<typeof favoriteSchema> {
  return {
    channelTubeId: f.channelId,
    name: f.name,
    url: f.url,
    categoryName: f.categoryName,
    pictureUrl: f.pictureUrl,
    description: f.description,
    favoritedAt: f.favoritedAt.toISOString(),
  };
}

/** A channel's now and next (GET /channels/now), in the schedule's words. */
export function presentNowOnAir(channel: { id: number; timezone: string }, at: number, { now, next }: NowOnAir): z.input<typeof nowOnAirSchema>[number] {
  const zone = channel.timezone;
  const entry = (s: TimelineSegment) => ({
    videoTubeId: s.video.videoTubeId,
    title: s.video.title,
    thumbnailUrl: s.video.thumbnailUrl,
    providerVideoId: s.video.providerVideoId,
    providerName: s.video.providerName,
    channelScheduleId: s.channelScheduleId,
    isLive: s.isLive,
    playbackStartTime: formatLocalDateTime(s.start, zone),
    playbackEndTime: formatLocalDateTime(s.end, zone),
    start: utcInstant(s.start),
    end: utcInstant(s.end),
    offsetSeconds: Math.floor(s.offset / 1000),
  });
  return {
    channelTubeId: channel.id,
    timezone: zone,
    at: utcInstant(at),
    now: now ? { ...entry(now), positionSeconds: Math.floor(now.position / 1000) } : null,
    next: next ? entry(next) : null,
  };
}
