// Custom API wire shapes (spec "Custom API" resources), built from domain rows (guide and VOD
// rows: src/presenters/video-row.ts, shared with the Studio). Times are
// rendered in the zone the caller chose; durations truncate to whole seconds and minutes. Each
// returns its response schema's input (schemas.ts): keys in the schema's order, none it does not list.
import type { z } from 'zod';
import { CUSTOM_TOKEN_SECONDS, type Authenticated } from '../access/tokens.ts';
import type { ChannelRow } from '../data/channels.ts';
import type { Rendition } from '../data/renditions.ts';
import type { LiveStreamWithUri } from '../data/schedules.ts';
import { timeDurationLabel } from '../schedules/labels.ts';
import { fastLocalSpaced as formatLocalSpaced } from '../schedules/zone-offsets.ts';
import type { Availability, ListedChannel } from '../channels/listing.ts';
import { customData } from './errors.ts';
import type { categorySchema, channelItemSchema, languageSchema, liveStreamSchema, meSchema, renditionSchema, tokenResponse } from './schemas.ts';

export function presentToken(accessToken: string): z.input<(typeof tokenResponse)[200]> {
  return customData({ access_token: accessToken, token_type: 'bearer', expires_in: CUSTOM_TOKEN_SECONDS });
}

/** Names fall back to the username when the account has none stored. */
export function presentMe(account: Authenticated): z.input<typeof meSchema> {
  return {
    id: account.id,
    full_name: account.fullName ?? account.username,
    public_name: account.publicName ?? account.username,
    publicUrl: account.publicUrl,
    email: account.email,
  };
}

const flag = (value: boolean) => (value ? 1 : 0);

export function presentChannelItem(c: ChannelRow, a: Availability): z.input<typeof channelItemSchema> {
  return {
    id: c.id,
    categoryId: c.categoryId,
    userId: c.ownerId,
    name: c.name,
    url: c.url,
    pictureUrl: c.pictureUrl ?? '',
    isWhiteLabeled: flag(c.isWhiteLabeled),
    playLiveFirst: c.playLiveFirst,
    privateChannel: c.passwordHash !== null,
    isVerified: c.isVerified,
    liveAvailable: a.liveAvailable,
    guideMode: c.guideMode,
    keepGuideOpened: flag(c.keepGuideOpened),
    vodAvailable: a.vodAvailable,
    scheduleAvailable: a.scheduleAvailable,
  };
}

export function presentListedChannel({ channel, availability }: ListedChannel): z.input<typeof channelItemSchema> {
  return presentChannelItem(channel, availability);
}

/** Lowercase ASCII words joined by '-'; accents folded. */
export function slugOf(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** A category; with its listed channels unless `channels` is undefined (the `default` flag). */
export function presentCategory(c: { id: number; name: string }, channels: readonly ListedChannel[] | undefined): z.input<typeof categorySchema> {
  return {
    categoryId: c.id,
    name: c.name,
    slug: slugOf(c.name),
    // A string, never null: shipped Android TV clients call svg.isEmpty() (model/CategoriesItem.kt).
    svg: '',
    ...(channels === undefined ? {} : { channels: channels.map(presentListedChannel) }),
  };
}

export function presentLanguage(l: { id: number; name: string; code: string }): z.input<typeof languageSchema> {
  return { languageId: l.id, name: l.name, code: l.code };
}

/** `live` is true while the stream is on air; `uri` and `providerVideoId` are '' while a private channel is locked. */
export function presentLive(channelId: number, s: LiveStreamWithUri, zone: string, now: Date, playable: boolean): z.input<typeof liveStreamSchema> {
  const { video } = s;
  return {
    videoTubeId: video.videoTubeId,
    channelId: String(channelId),
    startDate: formatLocalSpaced(s.start.getTime(), zone),
    endDate: formatLocalSpaced(s.end.getTime(), zone),
    description: video.description ?? '',
    timeDuration: timeDurationLabel((s.end.getTime() - s.start.getTime()) / 1000),
    isPrivate: video.isPrivate,
    IsRRated: video.isRRated,
    isRemovedByProvider: video.isRemovedByProvider,
    isRestrictedByProvider: video.isRestrictedByProvider,
    // Locked: nothing that plays (a provider's id is the video), as in locked VOD and guide rows.
    providerVideoId: playable ? video.providerVideoId : '',
    thumbnail: video.thumbnailUrl,
    title: video.title,
    uri: playable ? s.uri : '',
    providerName: video.providerName,
    live: s.start.getTime() <= now.getTime() && now.getTime() < s.end.getTime(),
  };
}

export function presentRendition(r: Rendition): z.input<typeof renditionSchema> {
  return { url: r.url, expiration_date: r.expiresAt.toISOString(), width: String(r.width), height: String(r.height) };
}
