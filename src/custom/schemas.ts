// The Custom Services API's success answers as zod schemas: they document the responses (/docs)
// and compile into each route's serializer (src/http/serializer.ts). Properties are listed in the
// presenters' key order, which is the wire order; every key a presenter emits is listed. The
// presenters' return types are these schemas' inputs, so a key added there fails to compile
// until it is added here. The compatibility trees (src/compat) answer through the same routes.
import { z } from 'zod';
import { plainText } from '../presenters/plain-text.ts';
import { videoRowSchema } from '../presenters/video-row-schema.ts';
import { BILLING_PERIODS, SUBSCRIPTION_STATUSES, VAST_PLATFORMS, VAST_TYPES } from '../vocabulary.ts';

/** { data } around a resource. */
export const customDataSchema = <T extends z.ZodType>(data: T) => z.object({ data });

const text = z.string();
/** Times, dates, duration labels and ids the service formats itself (src/http/serializer.ts). */
const formatted = plainText();
const id = z.int();
const count = z.int();
/** 0 or 1, as the original service wrote some flags. */
const flag01 = z.int();

export const messageSchema = z.object({ message: text });

export const tokenSchema = z.object({ access_token: text, token_type: text, expires_in: count });

export const meSchema = z.object({ id, full_name: text, public_name: text, publicUrl: text, email: text });

export const channelItemSchema = z.object({
  id,
  categoryId: id,
  userId: id,
  name: text,
  url: text,
  pictureUrl: text,
  isWhiteLabeled: flag01,
  playLiveFirst: z.boolean(),
  privateChannel: z.boolean(),
  isVerified: z.boolean(),
  liveAvailable: z.boolean(),
  guideMode: text,
  keepGuideOpened: flag01,
  vodAvailable: z.boolean(),
  scheduleAvailable: z.boolean(),
});

/** A favorite in the viewer's list: the channel item, marked. */
export const favoriteChannelSchema = channelItemSchema.extend({ marked: z.boolean() });

export const categorySchema = z.object({
  categoryId: id,
  name: text,
  slug: text,
  svg: text,
  /** Absent with default=1. */
  channels: z.array(channelItemSchema).optional(),
});

export const languageSchema = z.object({ languageId: id, name: text, code: text });

/** Laravel's paginated resource (pagination.ts), bare: data, links, meta. */
export const pageSchema = <T extends z.ZodType>(item: T) =>
  z.object({
    data: z.array(item),
    links: z.object({ first: text, last: text, prev: text.nullable(), next: text.nullable() }),
    meta: z.object({
      current_page: count,
      from: count.nullable(),
      last_page: count,
      path: text,
      per_page: count,
      to: count.nullable(),
      total: count,
    }),
  });

export const liveStreamSchema = z.object({
  videoTubeId: id,
  channelId: formatted,
  startDate: formatted,
  endDate: formatted,
  description: text,
  timeDuration: formatted,
  isPrivate: z.boolean(),
  IsRRated: z.boolean(),
  isRemovedByProvider: z.boolean(),
  isRestrictedByProvider: z.boolean(),
  providerVideoId: text,
  thumbnail: text,
  title: text,
  uri: text,
  providerName: text,
  live: z.boolean(),
});

export const renditionSchema = z.object({ url: text, expiration_date: formatted, width: formatted, height: formatted });

/** The VAST settings object in the original service's PascalCase (src/presenters/vast.ts). */
export const vastSettingsSchema = z.object({
  ChannelId: id,
  VastVersion: z.number(),
  VastUrl: text,
  Skippable: z.boolean(),
  AdFrequency: z.number().nullable(),
  MidRollFrequency: z.number().nullable(),
  Slottable: z.boolean(),
  TimeFrom: z.number().nullable(),
  TimeTo: z.number().nullable(),
  VastType: z.enum(VAST_TYPES).nullable(),
  Platform: z.enum(VAST_PLATFORMS),
  AllowAdsInVod: z.boolean(),
});

export const settingsSchema = z.object({
  user_id: id,
  title: text,
  hex1: text,
  hex2: text,
  hex3: text,
  fontColor: text,
  header_background: text,
  FAQ: text,
  PrivacyPolicy: text,
  logo_header: text,
  logo_android: text,
  useVastSettings: z.boolean(),
});

export const appSettingsSchema = z.object({
  user_id: id,
  slug: text,
  app_name: text,
  hex1: text,
  hex2: text,
  hex3: text,
  fontColor: text,
  Logo: text,
  Icon: text,
  privacy_policy_link: text,
  about: text,
  platform: text,
  app_id: text,
  is_paid: z.boolean(),
  store_product_id: text.nullable(),
  store_products: z.array(z.object({ product_id: text, billing_period: z.enum(BILLING_PERIODS), display_name: text })),
  vod_ppv_enabled: z.boolean(),
  vod_ppv_store_product_id: text.nullable(),
  vod_ppv_access_hours: z.number(),
  /** TV platforms only. */
  vod_ppv_preview_seconds: z.number().optional(),
  time_format: text.optional(),
  /** Roku only. */
  ad_link: text.nullable().optional(),
});

export const subscriptionStatusSchema = z.object({
  entitled: z.boolean(),
  status: z.enum(SUBSCRIPTION_STATUSES),
  expiresUtc: text.nullable(),
  isPaidApp: z.boolean(),
  storeProductId: text,
  storeProductIds: z.array(text),
});

export const purchaseSchema = z.object({ ok: z.boolean(), entitled: z.boolean(), error: text.nullable(), expiresUtc: text.nullable() });

export const ppvStatusSchema = z.object({
  vodPpvEnabled: z.boolean(),
  unlocked: z.boolean(),
  expiresUtc: text.nullable(),
  storeProductId: text,
  accessDurationHours: z.number(),
});

export const ppvVerifySchema = z.object({ ok: z.boolean(), unlocked: z.boolean(), error: text.nullable(), expiresUtc: text });

// The route responses: the success answer of each route, by status.
export const tokenResponse = { 200: customDataSchema(tokenSchema) };
export const meResponse = { 200: customDataSchema(meSchema) };
export const messageResponse = { 200: customDataSchema(messageSchema) };
export const channelsResponse = { 200: customDataSchema(z.array(channelItemSchema)) };
export const categoriesResponse = { 200: customDataSchema(z.array(categorySchema)) };
export const languagesResponse = { 200: customDataSchema(z.array(languageSchema)) };
/** A page of guide or VOD rows. */
export const videoPageResponse = { 200: pageSchema(videoRowSchema) };
export const liveResponse = { 200: customDataSchema(z.array(liveStreamSchema)) };
export const favoritesResponse = { 200: customDataSchema(z.array(favoriteChannelSchema)) };
export const settingsResponse = { 200: customDataSchema(settingsSchema) };
export const appSettingsResponse = { 200: customDataSchema(appSettingsSchema) };
export const vastResponse = { 200: customDataSchema(vastSettingsSchema.nullable()) };
export const renditionsResponse = { 200: customDataSchema(z.array(renditionSchema)) };
// A device is unlocked ({ message }), a Bearer-only client gets a token: a union, so `data` is
// written by JSON.stringify (src/http/serializer.ts).
export const channelTokenResponse = { 200: customDataSchema(z.union([messageSchema, tokenSchema])) };
export const subscriptionStatusResponse = { 200: customDataSchema(subscriptionStatusSchema) };
export const purchaseResponse = { 200: customDataSchema(purchaseSchema) };
export const ppvStatusResponse = { 200: customDataSchema(ppvStatusSchema) };
export const ppvVerifyResponse = { 200: customDataSchema(ppvVerifySchema) };
