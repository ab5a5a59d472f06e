// The catalog file, version 1 (see /work/shared/spec/catalog-format.md).
// Field-local rules live here; rules spanning several entities (references, uniqueness)
// live in validate.ts because they need the whole file and the database's ids.
import { z } from 'zod';
import {
  channelPassword,
  colour,
  count,
  email,
  falseDefault,
  guid,
  hour,
  id,
  image,
  instant,
  nonEmpty,
  nullableString,
  nullableText,
  profile,
  instantMillis,
  integer,
  MAX_EMAIL,
  MAX_SECRET,
  MAX_STORE_ID,
  password,
  MAX_SHORT,
  MAX_TEXT,
  MAX_TITLE,
  refId,
  scryptHash,
  text,
  timeZone,
  tokenHash,
  slug,
  thumbnailUrl,
  url,
  urlOrEmpty,
  wallTime,
} from './fields.ts';
import { MAX_BLOCK_VIDEOS } from '../schedules/day-entries.ts';
import {
  ACCOUNT_STATUSES,
  APP_PLATFORMS,
  BILLING_PERIODS,
  CREDENTIAL_STORES,
  IMAGE_ROLES,
  STORE_PLATFORMS,
  VAST_PLATFORMS,
  VAST_TYPES,
  VIDEO_PROVIDERS,
  type CredentialStore,
  type ImageRole,
} from '../vocabulary.ts';

// Object-level rules also run when a sibling field failed, so one pass reports every error;
// they therefore read the partly parsed object defensively.
const storeId = text(MAX_STORE_ID).min(1, { error: 'must not be empty' });
/** Renditions of a video (token_by_video answers them all; clients use four widths). */
const MAX_RENDITIONS = 20;
/** App tokens of an account, store products of an app. */
const MAX_LIST = 100;

const evenWithIssues = { when: (p: { value: unknown }) => typeof p.value === 'object' && p.value !== null };
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

function exactlyOne(o: object, a: string, b: string): string | null {
  const hasA = a in o && (o as Record<string, unknown>)[a] !== undefined;
  const hasB = b in o && (o as Record<string, unknown>)[b] !== undefined;
  if (hasA && hasB) return `${a} and ${b} are both set; give exactly one`;
  return hasA || hasB ? null : `${a} or ${b} is required`;
}

/** "import time" defaults: absent in the file, null in the output, filled by the importer. */
const importTime = instant.optional().transform((v) => v ?? null);

/** Limits of strings and lists (docs/security.md: What an owner may build); every string field has one. */
const title = text(MAX_TITLE);
/** What a viewer reads in a guide or a list: a video's title, a channel's name. */
const shownName = text(MAX_TITLE).min(1, { error: 'must not be empty' });
/** A provider the players know; compared ignoring case (legacy data says "youtube"), kept as written. */
const providerName = text(MAX_SHORT).superRefine((v, ctx) => {
  if (VIDEO_PROVIDERS.some((p) => p.toLowerCase() === v.toLowerCase())) return;
  ctx.addIssue({ code: 'custom', message: `unknown provider ${JSON.stringify(v.slice(0, 60))} (want ${VIDEO_PROVIDERS.join(', ')}; Custom is self-hosted media at streamUrl)` });
});
/**
 * The Studio's own rules for what a creator types (issue 30), stricter than the catalog file's:
 * a catalog file keeps the spec's (catalog-format.md: durationSeconds >= 0, any providerName, any
 * slug), so every file written to the spec still imports, and a live stream's video may last 0 s
 * there. Studio create and edit bodies extend their schemas with these, so only what a creator
 * sends is held to them (an imported 0-second video can still be renamed).
 */
export const STUDIO_VIDEO_RULES = {
  title: shownName,
  // A 0-second video never airs (a block skips it, a guide shows it nowhere), and a fraction of a
  // second is a typing slip: at least 1 s.
  durationSeconds: z.number().min(1, { error: 'must be at least 1 second' }),
  providerName,
  providerVideoId: nonEmpty,
};
export const STUDIO_CHANNEL_RULES = { name: shownName, url: slug, password: channelPassword.nullable().default(null) };
export const STUDIO_APP_RULES = { slug: slug.nullable().default(null) };
const nullableUrl = url.nullable().default(null);
const nullableProfile = profile.nullable().default(null);

const brandingSchema = z.strictObject({
  title: nullableText(MAX_TITLE),
  hex1: colour.nullable().default(null),
  hex2: colour.nullable().default(null),
  hex3: colour.nullable().default(null),
  fontColor: colour.nullable().default(null),
  headerBackground: nullableString,
  // Links the apps open (the demo's and the legacy system's are web pages).
  faq: nullableUrl,
  privacyPolicy: nullableUrl,
  logoHeader: image.nullable().default(null),
  logoAndroid: image.nullable().default(null),
  useVastSettings: falseDefault,
});

// One object rather than a union of { token } | { tokenHash }, so a typo yields
// "unknown field" instead of an unreadable union failure.
const appTokenSchema = z.strictObject({ token: guid.optional(), tokenHash: tokenHash.optional(), label: text(MAX_SHORT).default('') }).superRefine((t, ctx) => {
  const problem = exactlyOne(t, 'token', 'tokenHash');
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
}, evenWithIssues);

const favoriteSchema = z.strictObject({ channelId: refId, favoritedAt: instant });

export const accountSchema = z
  .strictObject({
    id,
    username: nonEmpty,
    email,
    password: password.optional(),
    passwordHash: scryptHash.optional(),
    publicUrl: nonEmpty,
    fullName: nullableText(MAX_TITLE),
    publicName: nullableText(MAX_TITLE),
    status: z.enum(ACCOUNT_STATUSES).default('active'),
    servicePlanActive: z.boolean().default(true),
    branding: brandingSchema.nullable().default(null),
    appTokens: z
      .array(appTokenSchema)
      .max(MAX_LIST, { error: `must have at most ${MAX_LIST} items` })
      .default([]),
    favorites: z.array(favoriteSchema).default([]),
  })
  .superRefine((a, ctx) => {
    const problem = exactlyOne(a, 'password', 'passwordHash');
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  }, evenWithIssues);

export const categorySchema = z.strictObject({ id, name: title });
export const languageSchema = z.strictObject({ id, name: title, code: text(MAX_SHORT) });

const renditionSchema = z.strictObject({
  url,
  width: integer.positive(),
  height: integer.positive(),
  expiresUtc: instant,
});

export const videoSchema = z.strictObject({
  id,
  ownerId: refId,
  title,
  description: nullableText(MAX_TEXT),
  durationSeconds: z.number().nonnegative({ error: 'must be >= 0' }),
  thumbnailUrl: thumbnailUrl.default(''),
  providerName: text(MAX_SHORT),
  providerVideoId: text(MAX_SHORT),
  categoryId: refId.nullable().default(null),
  streamUrl: nullableUrl,
  isPrivate: falseDefault,
  isRRated: falseDefault,
  isRemovedByProvider: falseDefault,
  isRestrictedByProvider: falseDefault,
  renditions: z
    .array(renditionSchema)
    .max(MAX_RENDITIONS, { error: `must have at most ${MAX_RENDITIONS} items` })
    .default([]),
});

export const vastSchema = z.strictObject({
  platform: z.enum(VAST_PLATFORMS),
  vastUrl: url,
  vastVersion: integer.default(1),
  skippable: falseDefault,
  adFrequency: count.nullable().default(null),
  midRollFrequency: count.nullable().default(null),
  slottable: falseDefault,
  timeFrom: hour.nullable().default(null),
  timeTo: hour.nullable().default(null),
  vastType: z.enum(VAST_TYPES).nullable().default(null),
  allowAdsInVod: falseDefault,
});

const rokuChannelSchema = z.strictObject({ addedToRoku: z.boolean(), lastUpdateDate: instant.nullable() });

export const scheduleBlockSchema = z.strictObject({
  id,
  startTime: wallTime,
  published: z.boolean().default(true),
  loopDaily: falseDefault,
  // A day holds at most MAX_DAY_ENTRIES (checks.ts); a block can never be longer than its day.
  videoIds: z
    .array(refId)
    .min(1, { error: 'must not be empty' })
    .max(MAX_BLOCK_VIDEOS, { error: `must have at most ${MAX_BLOCK_VIDEOS} videos` }),
});

export const liveStreamSchema = z.strictObject({ videoId: refId, start: instant, end: instant, uri: urlOrEmpty.default('') }).superRefine((s, ctx) => {
  const start = instantMillis(s.start);
  const end = instantMillis(s.end);
  if (start !== null && end !== null && end <= start) {
    ctx.addIssue({ code: 'custom', path: ['end'], message: 'end must be after start' });
  }
}, evenWithIssues);

export const channelSchema = z
  .strictObject({
    id,
    ownerId: refId,
    name: title,
    url: nonEmpty,
    categoryId: refId,
    languageId: refId.nullable().default(null),
    pictureUrl: nullableUrl,
    description: nullableText(MAX_TEXT),
    order: integer.default(0),
    timezone: timeZone.default('UTC'),
    isWhiteLabeled: falseDefault,
    playLiveFirst: falseDefault,
    isVerified: falseDefault,
    keepGuideOpened: falseDefault,
    guideMode: text(MAX_SHORT).default('default'),
    password: password.nullable().default(null),
    passwordHash: scryptHash.nullable().default(null),
    subscriberCount: count.default(0),
    createdAt: importTime,
    deleted: falseDefault,
    videoIds: z.array(refId).default([]),
    vodVideoIds: z.array(refId).default([]),
    vast: z.array(vastSchema).default([]),
    roku: rokuChannelSchema.nullable().default(null),
    schedules: z.array(scheduleBlockSchema).default([]),
    liveStreams: z.array(liveStreamSchema).default([]),
  })
  .superRefine((c, ctx) => {
    if (c.password != null && c.passwordHash != null) {
      ctx.addIssue({ code: 'custom', message: 'password and passwordHash are both set; give at most one' });
    }
  }, evenWithIssues);

// backgroundColor is optional here because androidtv has none; the app decides.
const themeSchema = z
  .strictObject({
    primaryColor: colour,
    secondaryColor: colour,
    backgroundColor: colour.optional(),
    styleColor: colour,
  })
  .transform((t) => ({ ...t, backgroundColor: t.backgroundColor ?? null }));

const mobileSchema = z.strictObject({
  selectionColor: colour,
  headerFooterColor: colour,
  backgroundColor: colour,
  fontColor: colour,
  copyrightPolicyLink: nullableUrl,
  gdprLink: nullableUrl,
  supportEmail: nullableText(MAX_EMAIL),
  faqLink: nullableUrl,
  termsLink: nullableUrl,
  instagram: nullableProfile,
  facebook: nullableProfile,
  twitter: nullableProfile,
});

const imagesSchema = z.strictObject(Object.fromEntries(IMAGE_ROLES.map((role) => [role, image.optional()])) as Record<ImageRole, z.ZodOptional<typeof image>>);

export const storeProductSchema = z.strictObject({
  storePlatform: z.enum(STORE_PLATFORMS),
  productId: nonEmpty,
  displayName: text(MAX_TITLE).default(''),
  billingPeriod: z.enum(BILLING_PERIODS),
  isActive: z.boolean().default(true),
});

const vodPpvSchema = z.strictObject({
  isEnabled: falseDefault,
  accessDurationHours: z.number().positive({ error: 'must be > 0' }).default(48),
  previewSeconds: z.number().nonnegative({ error: 'must be >= 0' }).default(0),
  storeProducts: z.array(storeProductSchema).default([]),
});

// The credential keys per store are settled by the purchase verifier, so values stay open here.
const credentialValue = z.union([text(MAX_SECRET), z.number(), z.boolean()], {
  error: 'expected string, number or boolean',
});
const credentials = z.record(text(MAX_SHORT), credentialValue);
const storeCredentialsSchema = z.strictObject(
  Object.fromEntries(CREDENTIAL_STORES.map((store) => [store, credentials.optional()])) as Record<CredentialStore, z.ZodOptional<typeof credentials>>,
);

const appChannelSchema = z.strictObject({
  channelId: refId,
  sorting: integer.nullable().default(null),
  channelNumber: nullableString,
  useVastSettings: falseDefault,
  lastUpdateDate: instant.nullable().default(null),
});

type Issue = { path: (string | number)[]; message: string };

function appPlatformIssues(a: Record<string, unknown>): Issue[] {
  const { platform, theme } = a;
  if (typeof platform !== 'string' || !(APP_PLATFORMS as readonly string[]).includes(platform)) return [];
  const issues: Issue[] = [];
  if (platform === 'mobile' && theme != null) issues.push({ path: ['theme'], message: 'not allowed on a mobile app' });
  if (platform !== 'mobile' && isObject(theme)) {
    const hasBackground = theme['backgroundColor'] != null;
    if (platform === 'androidtv' && hasBackground) {
      issues.push({ path: ['theme', 'backgroundColor'], message: 'androidtv has no backgroundColor' });
    }
    if (platform !== 'androidtv' && !hasBackground) issues.push({ path: ['theme', 'backgroundColor'], message: 'required' });
  }
  if (platform !== 'mobile' && a['mobile'] != null) issues.push({ path: ['mobile'], message: 'only allowed on a mobile app' });
  for (const key of ['adLink', 'apiKey']) {
    if (platform !== 'roku' && a[key] != null) issues.push({ path: [key], message: 'only allowed on a roku app' });
  }
  return issues;
}

function billingIssues(products: unknown, path: (string | number)[], wantOneTime: boolean): Issue[] {
  if (!Array.isArray(products)) return [];
  const message = wantOneTime ? 'a PPV product must be OneTime' : 'a subscription product cannot be OneTime';
  return products.flatMap((p: unknown, i) => {
    if (!isObject(p) || typeof p['billingPeriod'] !== 'string') return [];
    return (p['billingPeriod'] === 'OneTime') === wantOneTime ? [] : [{ path: [...path, i, 'billingPeriod'], message }];
  });
}

export const appSchema = z
  .strictObject({
    id,
    ownerId: refId,
    platform: z.enum(APP_PLATFORMS),
    appName: title,
    slug: nullableString,
    about: nullableText(MAX_TEXT),
    privacyPolicyLink: nullableUrl,
    isPaid: falseDefault,
    timeFormat: text(MAX_SHORT).default('12-hour'),
    adLink: nullableUrl,
    apiKey: guid.nullable().default(null),
    theme: themeSchema.nullable().default(null),
    mobile: mobileSchema.nullable().default(null),
    images: imagesSchema.default({}),
    storeProducts: z
      .array(storeProductSchema)
      .max(MAX_LIST, { error: `must have at most ${MAX_LIST} items` })
      .default([]),
    vodPpv: vodPpvSchema.default({ isEnabled: false, accessDurationHours: 48, previewSeconds: 0, storeProducts: [] }),
    storeCredentials: storeCredentialsSchema.default({}),
    channels: z.array(appChannelSchema).default([]),
    createdAt: importTime,
  })
  .superRefine((a, ctx) => {
    const vodPpv: unknown = a.vodPpv;
    const issues = [
      ...appPlatformIssues(a),
      ...billingIssues(a.storeProducts, ['storeProducts'], false),
      ...billingIssues(isObject(vodPpv) ? vodPpv['storeProducts'] : undefined, ['vodPpv', 'storeProducts'], true),
    ];
    for (const issue of issues) ctx.addIssue({ code: 'custom', ...issue });
  }, evenWithIssues);

// Legacy data carries device ids as numbers; the service compares them as strings.
const deviceId = z
  .union([nonEmpty, integer], { error: 'expected string, integer or null' })
  .transform((v) => String(v))
  .nullable();

function requireHolder(e: { deviceId: string | null; viewerId: number | null }, ctx: z.RefinementCtx): void {
  if (e.deviceId === null && e.viewerId === null) {
    ctx.addIssue({ code: 'custom', message: 'deviceId and viewerId cannot both be null' });
  }
}

export const subscriptionSchema = z
  .strictObject({
    appId: refId,
    deviceId,
    viewerId: refId.nullable(),
    storePlatform: z.enum(STORE_PLATFORMS),
    productId: nonEmpty,
    originalTransactionId: storeId,
    status: text(MAX_SHORT).regex(/^[a-z_]+$/, { error: 'expected a status word of a-z and _' }),
    expiresUtc: instant.nullable(),
  })
  .superRefine(requireHolder, evenWithIssues);

export const ppvUnlockSchema = z
  .strictObject({
    appId: refId,
    videoId: refId,
    channelId: refId.nullable(),
    deviceId,
    viewerId: refId.nullable(),
    storePlatform: z.enum(STORE_PLATFORMS),
    productId: nonEmpty,
    transactionId: storeId,
    expiresUtc: instant,
  })
  .superRefine(requireHolder, evenWithIssues);

const entitlementsSchema = z.strictObject({
  subscriptions: z.array(subscriptionSchema).default([]),
  ppvUnlocks: z.array(ppvUnlockSchema).default([]),
});

export const catalogSchema = z.strictObject({
  format: z.literal('channel-network-catalog'),
  version: z.literal(1),
  accounts: z.array(accountSchema).default([]),
  categories: z.array(categorySchema).default([]),
  languages: z.array(languageSchema).default([]),
  videos: z.array(videoSchema).default([]),
  channels: z.array(channelSchema).default([]),
  apps: z.array(appSchema).default([]),
  entitlements: entitlementsSchema.default({ subscriptions: [], ppvUnlocks: [] }),
});

export type CatalogInput = z.input<typeof catalogSchema>;
export type Catalog = z.output<typeof catalogSchema>;
export type CatalogAccount = z.output<typeof accountSchema>;
export type CatalogCategory = z.output<typeof categorySchema>;
export type CatalogLanguage = z.output<typeof languageSchema>;
export type CatalogVideo = z.output<typeof videoSchema>;
export type CatalogChannel = z.output<typeof channelSchema>;
export type CatalogScheduleBlock = z.output<typeof scheduleBlockSchema>;
export type CatalogLiveStream = z.output<typeof liveStreamSchema>;
export type CatalogVast = z.output<typeof vastSchema>;
export type CatalogApp = z.output<typeof appSchema>;
export type CatalogStoreProduct = z.output<typeof storeProductSchema>;
export type CatalogSubscription = z.output<typeof subscriptionSchema>;
export type CatalogPpvUnlock = z.output<typeof ppvUnlockSchema>;
