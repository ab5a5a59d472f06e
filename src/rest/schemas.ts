// The REST API's success answers as zod schemas: they document the responses (/docs) and
// compile into each route's serializer (src/http/serializer.ts). Properties are listed in the
// presenters' key order, which is the wire order; every key a presenter emits is listed. The
// presenters' return types are these schemas' inputs, so a key added there fails to compile
// until it is added here.
import { z } from 'zod';
import { BILLING_PERIODS, STORE_PLATFORMS, VAST_PLATFORMS, VAST_TYPES } from '../vocabulary.ts';

const text = z.string();
const optionalText = z.string().nullable();
const id = z.int();
const count = z.int();

export const loginSchema = z.object({ authToken: text, userId: id, userName: text, email: text, publicUrl: text });

export const messageSchema = z.object({ message: text });

export const vastSchema = z.object({
  platform: z.enum(VAST_PLATFORMS),
  vastUrl: text,
  vastVersion: z.number(),
  skippable: z.boolean(),
  adFrequency: z.number().nullable(),
  midRollFrequency: z.number().nullable(),
  slottable: z.boolean(),
  timeFrom: z.number().nullable(),
  timeTo: z.number().nullable(),
  vastType: z.enum(VAST_TYPES).nullable(),
  allowAdsInVod: z.boolean(),
});

export const libraryVideoSchema = z.object({
  videoTubeId: id,
  title: text,
  description: optionalText,
  durationSeconds: z.number(),
  thumbnailUrl: text,
  providerVideoId: text,
  providerName: text,
  categoryName: text,
});

/** The fields a channel and a favorite start with, in the presenters' order. */
const channelFields = {
  channelTubeId: id,
  name: text,
  url: text,
  categoryName: text,
  pictureUrl: optionalText,
  description: optionalText,
};

export const channelSchema = z.object({
  ...channelFields,
  order: z.number(),
  videos: z.array(libraryVideoSchema),
  vastSettings: z.array(vastSchema),
});

const scheduledVideoSchema = z.object({
  videoTubeId: id,
  playbackOrderNumber: count,
  title: text,
  thumbnailUrl: text,
  playTimeLabel: text,
  playbackStartTime: text,
  playbackEndTime: text,
  providerVideoId: text,
  providerName: text,
  isLive: z.boolean(),
});

export const scheduleSchema = z.object({
  channelTubeId: id,
  date: text,
  schedules: z.array(
    z.object({
      channelScheduleId: id,
      startTime: text,
      published: z.boolean(),
      loopDaily: z.boolean(),
      videos: z.array(scheduledVideoSchema),
    }),
  ),
  totalVideos: count,
  totalDurationLabel: text,
});

/** One stretch of one entry on air (GET /channels/now): the schedule video's fields, its instants and the offset. */
const onAirEntrySchema = z.object({
  videoTubeId: id,
  title: text,
  thumbnailUrl: text,
  providerVideoId: text,
  providerName: text,
  channelScheduleId: z.number().describe('the block, or the negative of the live video id (as the schedule)'),
  isLive: z.boolean(),
  playbackStartTime: text.describe("yyyy-MM-ddTHH:mm:ss, channel's local time"),
  playbackEndTime: text,
  start: text.describe('UTC instant, yyyy-MM-ddTHH:mm:ssZ'),
  end: text,
  offsetSeconds: z.number().describe('seconds into the video at start (joined in progress after a live stream)'),
});
export const nowOnAirSchema = z.array(
  z.object({
    channelTubeId: id,
    timezone: text,
    at: text.describe('the service clock, UTC'),
    now: onAirEntrySchema.extend({ positionSeconds: z.number().describe('seconds into the video now: join here') }).nullable(),
    next: onAirEntrySchema.nullable(),
  }),
);

export const favoriteSchema = z.object({
  ...channelFields,
  favoritedAt: text,
});

export const favoriteStateSchema = z.object({ channelTubeId: id, isFavorite: z.boolean() });

const storeProductSchema = z.object({
  storePlatform: z.enum(STORE_PLATFORMS),
  productId: text,
  displayName: text,
  billingPeriod: z.enum(BILLING_PERIODS),
  isActive: z.boolean(),
  storeSharedSecretConfigured: z.boolean(),
});

export const mobileAppSchema = z.object({
  appSlug: optionalText,
  logoUrl: optionalText,
  logoBlobKey: optionalText,
  iconUrl: optionalText,
  iconBlobKey: optionalText,
  selectionColor: optionalText,
  headerFooterColor: optionalText,
  backgroundColor: optionalText,
  fontColor: optionalText,
  about: optionalText,
  copyrightPolicyLink: optionalText,
  gdprLink: optionalText,
  supportEmail: optionalText,
  faqLink: optionalText,
  termsLink: optionalText,
  privacyPolicyLink: optionalText,
  instagram: optionalText,
  facebook: optionalText,
  twitter: optionalText,
});

export const rokuAppSchema = z.object({
  privacyPolicyLink: optionalText,
  about: optionalText,
  advertisementLink: optionalText,
  avatarHdUrl: optionalText,
  avatarHdBlobKey: optionalText,
  avatarSdUrl: optionalText,
  avatarSdBlobKey: optionalText,
  apiKey: optionalText,
  primaryColor: optionalText,
  secondaryColor: optionalText,
  backgroundColor: optionalText,
  styleColor: optionalText,
});

/** Android TV has no background colour: the key is absent, not null. */
export const tvColoursSchema = z.object({
  primaryColor: optionalText,
  secondaryColor: optionalText,
  backgroundColor: optionalText.optional(),
  styleColor: optionalText,
});

export const appSchema = z.object({
  appId: id,
  platform: z.enum(['Mobile', 'Roku', 'FireTv', 'AppleTv', 'AndroidTv']),
  appName: text,
  channelTubeIds: z.array(id),
  isPaid: z.boolean(),
  storeProducts: z.array(storeProductSchema),
  vodPpv: z.object({ isEnabled: z.boolean(), accessDurationHours: z.number(), storeProducts: z.array(storeProductSchema) }),
  mobile: mobileAppSchema.nullable(),
  roku: rokuAppSchema.nullable(),
  fireTv: tvColoursSchema.nullable(),
  appleTv: tvColoursSchema.nullable(),
  androidTv: tvColoursSchema.nullable(),
});

const range = { from: z.date(), to: z.date(), channelId: id.nullable() };
const summaryLine = { watchSeconds: z.number(), sessions: count, uniqueViewers: count, averageSessionSeconds: z.number() };

export const summarySchema = z.object({
  ...range,
  groupBy: z.enum(['channel', 'source', 'day']),
  // One shape per groupBy; written by JSON.stringify (a union: see src/http/serializer.ts).
  groups: z.array(z.union([z.object({ channelId: id, channelName: text, ...summaryLine }), z.object({ source: text, ...summaryLine }), z.object({ day: text, ...summaryLine })])),
  totals: z.object(summaryLine),
});

export const sessionsSchema = z.object({
  ...range,
  items: z.array(
    z.object({
      source: text,
      clientId: optionalText,
      userId: optionalText,
      channelId: id,
      startedAt: z.date(),
      lastHeartbeatAt: z.date(),
      endedAt: z.date().nullable(),
      creditedSeconds: z.number(),
      heartbeats: count,
      open: z.boolean(),
    }),
  ),
  page: count,
  perPage: count,
  total: count,
  totalPages: count,
});

export const concurrencySchema = z.object({
  ...range,
  interval: text,
  intervalSeconds: count,
  buckets: z.array(z.object({ start: z.date(), end: z.date(), viewers: count })),
});

const programmeFigures = {
  watchSeconds: z.number(),
  sessions: count,
  uniqueViewers: count,
  averageSessionMinutes: z.number(),
  peakConcurrentViewers: count,
};

const programmeLine = z.object({
  videoId: id.nullable().describe('null on a dead-air row'),
  title: optionalText,
  channelId: id.nullable(),
  channelName: optionalText,
  source: optionalText,
  day: optionalText,
  ...programmeFigures,
  deadAir: z.boolean().describe("true on a channel's dead-air row (`channelId` names the channel; `videoId` and `title` null): viewers watching while nothing was on air"),
});

export const programmesSchema = z.object({
  ...range,
  groupBy: text,
  sort: text,
  items: z.array(programmeLine),
  totals: z.object(programmeFigures),
  page: count,
  perPage: count,
  total: count,
  totalPages: count,
});

export const topSchema = z.object({
  ...range,
  metric: text,
  programmes: z.array(programmeLine),
  channels: z.array(z.object({ channelId: id, channelName: optionalText, ...programmeFigures })),
});

export const curveSchema = z.object({
  channelId: id,
  date: text,
  timezone: text,
  minutes: z.array(z.object({ start: z.date(), viewers: count, videoId: id.nullable(), title: optionalText, isLive: z.boolean(), deadAir: z.boolean() })),
});

// Trends (analytics/trends, analytics/entitlements): figures of a range of days, of the previous
// range of as many days, and the change (percent null when the previous figure is 0).
const change = z.object({ absolute: z.number(), percent: z.number().nullable() });
const comparedOf = <S extends Record<string, z.ZodType>>(figures: S) => ({
  current: z.object(figures),
  previous: z.object(figures),
  change: z.object(Object.fromEntries(Object.keys(figures).map((k) => [k, change])) as { [K in keyof S]: typeof change }),
});
const days = { from: text, to: text, timezone: text, days: count, previous: z.object({ from: text, to: text }) };
const watchFigures = { uniqueDevices: count, sessions: count, watchSeconds: z.number() };

export const trendsSchema = z.object({
  ...days,
  channelId: id.nullable(),
  source: optionalText,
  daily: z.array(z.object({ day: text, ...watchFigures })),
  totals: z.object(comparedOf(watchFigures)),
  channels: z.array(z.object({ channelId: id, channelName: optionalText, ...comparedOf(watchFigures) })),
  sources: z.array(z.object({ source: text, ...comparedOf(watchFigures) })),
});

const money = {
  currency: optionalText,
  sales: count,
  refunds: count,
  netMicros: z.number().int().nullable().meta({ description: 'sales minus refunds in millionths of the currency (4.99 is 4990000); null: unknown' }),
};
const saleFigures = { newSubscriptions: count, renewals: count, subscriptionRefunds: count, ppvPurchases: count, ppvRefunds: count };

export const entitlementTrendsSchema = z.object({
  ...days,
  store: z.enum(STORE_PLATFORMS).nullable(),
  daily: z.array(z.object({ day: text, ...saleFigures })),
  totals: z.object(comparedOf(saleFigures)),
  stores: z.array(z.object({ store: z.enum(STORE_PLATFORMS), ...comparedOf(saleFigures) })),
  // Money (docs/entitlements.md, Revenue): per currency, never summed across currencies; currency
  // null is what stores sold without reporting a price (unknown, netMicros null, never zero).
  revenue: z.object({
    totals: z.array(z.object({ currency: optionalText, current: z.object(money), previous: z.object(money) })),
    daily: z.array(z.object({ day: text, ...money })),
    stores: z.array(z.object({ store: z.enum(STORE_PLATFORMS), ...money })),
    products: z.array(
      z.object({
        store: z.enum(STORE_PLATFORMS),
        kind: z.enum(['subscription', 'ppv']),
        productId: text,
        ...money,
        prices: z.array(z.number().int()).meta({ description: 'the distinct prices the store reported for the product (millionths, ascending); empty: unknown' }),
      }),
    ),
  }),
});
