// The Studio API's contract: the answers its routes serialize and the bodies the console sends,
// as zod schemas in one module. It imports only zod and pure schema modules (the catalog format,
// the shared Studio schemas, the vocabulary), nothing of Fastify or the database, so the console
// (web/src/api/types.ts) takes its types from here with `import type` and z.infer: the types
// cannot drift from what the server answers, and no zod reaches the console's bundle.
import { z } from 'zod';
import { id, MAX_URL, refId, text } from '../catalog/fields.ts';
import { categorySchema, languageSchema, liveStreamSchema, scheduleBlockSchema, STUDIO_VIDEO_RULES, vastSchema, videoSchema } from '../catalog/format.ts';
import { MAX_LOOKUP_URLS, parseVideoUrl } from '../catalog/video-url.ts';
import { videoRowSchema } from '../presenters/video-row-schema.ts';
import { DEAD_AIR_REASONS, ENTRY_ROLES, PAD_TO, PROGRAMMING_LIMITS, SLOT_ORDERS } from '../schedules/programming.ts';
import { COLLECTION_LIMITS } from '../schedules/collections.ts';
import { APP_PLATFORMS, BILLING_PERIODS, CREDENTIAL_STORES, STORE_PLATFORMS, VAST_PLATFORMS } from '../vocabulary.ts';
import { pageOf, patchOf } from './schemas.ts';

export { categorySchema, languageSchema, liveStreamSchema, scheduleBlockSchema, vastSchema, videoSchema };

// ---------------------------------------------------------------- videos

/** A pasted YouTube, Vimeo or direct media URL (src/catalog/video-url.ts), never stored as such. */
const videoUrl = text(MAX_URL)
  .superRefine((v, ctx) => {
    const parsed = parseVideoUrl(v);
    if (!parsed.ok) ctx.addIssue({ code: 'custom', message: parsed.problem });
  })
  .describe('a YouTube, Vimeo or direct media URL: sets providerName, providerVideoId, and the thumbnail (YouTube) or streamUrl (direct media) unless given');
/** A new video: the catalog's, id and ownerId filled by the service when left out; a url in place of the provider fields. */
export const newVideoSchema = videoSchema
  .extend({
    ...STUDIO_VIDEO_RULES,
    id: id.optional(),
    ownerId: refId.optional(),
    url: videoUrl.optional(),
    providerName: STUDIO_VIDEO_RULES.providerName.optional(),
    providerVideoId: STUDIO_VIDEO_RULES.providerVideoId.optional(),
  })
  .superRefine(
    (v, ctx) => {
      // Without a url, the provider fields are required as the catalog requires them.
      if (v.url !== undefined) return;
      for (const field of ['providerName', 'providerVideoId'] as const) if (v[field] === undefined) ctx.addIssue({ code: 'custom', path: [field], message: 'required' });
    },
    { when: (p) => typeof p.value === 'object' && p.value !== null },
  );
/** A video PATCH: any of its fields but the ones the service owns. */
export const videoPatchSchema = patchOf({ ...videoSchema.shape, ...STUDIO_VIDEO_RULES }, ['id', 'ownerId']).extend({ url: videoUrl.optional() });
/** POST /videos/lookup: what each URL is, and what its provider says of it. */
export const videoLookupBodySchema = z.strictObject({ urls: z.array(text(MAX_URL)).min(1).max(MAX_LOOKUP_URLS) });
export const videoLookupSchema = z.object({
  items: z.array(
    z.object({
      url: z.string(),
      problem: z.string().nullable().describe('why the URL is not a video this service plays (null: it is)'),
      video: z
        .object({
          providerName: z.string(),
          providerVideoId: z.string(),
          streamUrl: z.string().nullable(),
          thumbnailUrl: z.string(),
          title: z.string().optional(),
          durationSeconds: z.number().optional(),
          description: z.string().optional(),
        })
        .nullable(),
      lookup: z.enum(['found', 'not_found', 'unavailable', 'none']).describe("the provider's oEmbed answer: none for direct media"),
      lookupMessage: z.string().nullable(),
      missing: z.array(z.string()).describe('fields the creator must still give (YouTube gives no duration)'),
      existing: z.object({ videoId: z.number(), title: z.string() }).nullable().describe("the owner's video with the same provider and id (a duplicate), or null"),
      repeatOf: z.number().nullable().describe('index of an earlier URL of this request naming the same video, or null'),
      list: z.number().nullable().describe('index in lists of the pasted playlist, channel or showcase this video came from; null for a pasted video URL'),
    }),
  ),
  lists: z
    .array(
      z.object({
        url: z.string(),
        name: z.string().describe('what the list is, in words (YouTube playlist PL..., the uploads of @handle, Vimeo showcase N)'),
        title: z.string().nullable().describe("the list's title where its API said it"),
        lookup: z.enum(['found', 'not_found', 'unavailable']),
        videos: z.number().describe('how many items came from it'),
        cut: z.boolean().describe('true when it holds more than was read (500 videos a lookup, 20 s a lookup, a page that failed)'),
        message: z.string().nullable().describe('why it gave fewer videos than it holds, or none, in words'),
      }),
    )
    .describe('the pasted playlist, channel and showcase URLs, each read into its videos (items with list set)'),
});
/** A rung of an HLS video's ladder, as ingest read it (keys in the presenter's order: src/linear/ingest-state.ts). */
export const hlsVariantSchema = z.object({
  bandwidth: z.number(),
  averageBandwidth: z.number().optional(),
  resolution: z.object({ width: z.number(), height: z.number() }).optional(),
  codecs: z.string().optional(),
  frameRate: z.number().optional(),
  audioGroup: z.string().optional(),
});
/** A video's HLS ingest (docs/studio.md: HLS ingest); null for a video that is not HLS. */
export const hlsStateSchema = z.object({
  status: z.enum(['pending', 'ready', 'failed']).describe('pending: to be read (a re-read keeps the previous ingest on air); ready; failed: see error'),
  sourceUrl: z.string(),
  container: z.enum(['ts', 'fmp4']).nullable(),
  variants: z.array(hlsVariantSchema),
  segments: z.number().nullable().describe('segments per variant'),
  durationSeconds: z.number().nullable().describe("the summed segment durations: the stitched video's duration"),
  targetDurationSeconds: z.number().nullable(),
  error: z.string().nullable().describe("why ingest refused the video, in the creator's words"),
  warning: z.string().nullable().describe("e.g. the video's stored duration differs from its segments' by more than a second"),
  ingestedAt: z.string().nullable(),
});
/** GET /videos/{id}: the catalog's video and its HLS ingest. */
export const studioVideoSchema = videoSchema.extend({ hls: hlsStateSchema.nullable() });
export const videoPageSchema = pageOf(videoSchema);
export const bulkVideosSchema = z.object({ items: z.array(videoSchema) });
export const videoUsageSchema = z.object({
  libraryChannelIds: z.array(z.number()),
  vodChannelIds: z.array(z.number()),
  scheduleBlocks: z.array(z.object({ channelId: z.number(), blockId: z.number(), startTime: z.string().describe('wall time in the channel zone'), loopDaily: z.boolean() })),
  liveStreams: z.array(z.object({ channelId: z.number(), liveStreamId: z.number() })),
  /** Slots of channels' programming plans (1-based place in the plan) that play the video; `when` as a creator reads it ('Mon–Fri 18:00'). */
  programmingSlots: z.array(z.object({ channelId: z.number(), slot: z.number(), days: z.array(z.number()), start: z.string(), when: z.string() })),
  /** Channels whose filler list holds the video. */
  fillerChannelIds: z.array(z.number()),
  /** Manual collections that list the video. */
  collections: z.array(z.object({ id: z.number(), name: z.string() })),
});

// ---------------------------------------------------------------- channels

export const channelResourceSchema = z.object({
  id: z.number(),
  ownerId: z.number(),
  name: z.string(),
  url: z.string(),
  categoryId: z.number(),
  languageId: z.number().nullable(),
  pictureUrl: z.string().nullable(),
  description: z.string().nullable(),
  order: z.number(),
  timezone: z.string(),
  isWhiteLabeled: z.boolean(),
  playLiveFirst: z.boolean(),
  isVerified: z.boolean(),
  keepGuideOpened: z.boolean(),
  guideMode: z.string(),
  subscriberCount: z.number(),
  createdAt: z.string(),
  deleted: z.boolean(),
  roku: z.object({ addedToRoku: z.boolean(), lastUpdateDate: z.string().nullable() }).nullable(),
  hasPassword: z.boolean(),
});
export const channelPageSchema = pageOf(channelResourceSchema);
export const channelOrderSchema = z.object({ channelIds: z.array(z.number()) });
/** A channel's library or VOD catalog: video ids in order. */
export const videoListSchema = z.object({ videoIds: z.array(z.number()) });
export const vastResourceSchema = z.object({
  platform: z.enum(VAST_PLATFORMS),
  vastUrl: z.string(),
  vastVersion: z.number(),
  skippable: z.boolean(),
  adFrequency: z.number().nullable(),
  midRollFrequency: z.number().nullable(),
  slottable: z.boolean(),
  timeFrom: z.number().nullable(),
  timeTo: z.number().nullable(),
  vastType: z.string().nullable(),
  allowAdsInVod: z.boolean(),
});
export const vastListSchema = z.object({ items: z.array(vastResourceSchema) });
/** A VAST PUT: the catalog's setting, its platform taken from the path. */
export const vastBodySchema = vastSchema.extend({ platform: z.enum(VAST_PLATFORMS).optional() });
export const passwordSchema = z.object({ hasPassword: z.boolean() });
export const liveStreamResourceSchema = z.object({ id: z.number(), videoId: z.number(), start: z.string(), end: z.string(), uri: z.string() });
export const liveStreamListSchema = z.object({ items: z.array(liveStreamResourceSchema) });

// ---------------------------------------------------------------- schedules and days

/** Overlaps with other blocks are refused (409 schedule_conflict) unless the request says so; never stored. */
const allowOverlap = z.boolean();
/** A new block: the catalog's, its id assigned when left out. */
export const newBlockSchema = scheduleBlockSchema.extend({ id: id.optional(), allowOverlap: allowOverlap.optional() });
/** Any of the block's fields; id may be sent back unchanged (GET, edit, PATCH). */
export const blockPatchSchema = patchOf({ ...scheduleBlockSchema.shape, allowOverlap }, []);
export const blockSchema = z.object({ id: z.int(), startTime: z.string(), published: z.boolean(), loopDaily: z.boolean(), videoIds: z.array(z.int()) });
export const blockListSchema = z.object({ channelId: z.int(), timezone: z.string(), items: z.array(blockSchema) });
export const blockCopiesSchema = z.object({ items: z.array(blockSchema) });

/** One video of a day's entry, at the wall times it plays in the channel's zone. */
const dayVideoSchema = z.object({
  videoId: z.int(),
  playbackOrderNumber: z.int(),
  title: z.string(),
  thumbnailUrl: z.string(),
  playTimeLabel: z.string(),
  playbackStartTime: z.string(),
  playbackEndTime: z.string(),
  providerVideoId: z.string(),
  providerName: z.string(),
  isLive: z.boolean(),
});
/**
 * The expanded day (GET /channels/{id}/days/{date}): every occurrence on the day, unpublished
 * blocks included, in play order. An entry is a block's occurrence (blockId) or a live stream
 * (blockId null, isLive true).
 */
export const daySchema = z.object({
  channelId: z.int(),
  date: z.string(),
  timezone: z.string(),
  entries: z.array(
    z.object({
      blockId: z.int().nullable(),
      isLive: z.boolean(),
      startTime: z.string(),
      published: z.boolean(),
      loopDaily: z.boolean(),
      videos: z.array(dayVideoSchema),
    }),
  ),
  totalVideos: z.int(),
  totalDurationLabel: z.string(),
});

// ---------------------------------------------------------------- on air (src/schedules/on-air-timeline.ts)

/** An instant and the channel's wall time of it. */
const instantFields = {
  start: z.string().describe('UTC instant, yyyy-MM-ddTHH:mm:ssZ'),
  end: z.string(),
  startTime: z.string().describe('channel wall time, yyyy-MM-ddTHH:mm:ss'),
  endTime: z.string(),
};
/** One stretch of one entry on air: all of the entry unless something preempted part of it. */
export const onAirSegmentSchema = z.object({
  videoId: z.int(),
  title: z.string(),
  thumbnailUrl: z.string(),
  providerName: z.string(),
  providerVideoId: z.string(),
  /** A direct media URL, or a live stream's URI; null for provider (YouTube, Vimeo) videos. */
  streamUrl: z.string().nullable(),
  blockId: z.int().nullable(),
  liveStreamId: z.int().nullable(),
  isLive: z.boolean(),
  ...instantFields,
  /** Seconds into the video at `start` (joined in progress after a preemption). */
  offsetSeconds: z.int(),
  durationSeconds: z.number(),
});
/** A stretch of a block's entry that does not air because a higher layer covers it. */
export const preemptedSchema = z.object({
  blockId: z.int(),
  videoId: z.int(),
  title: z.string(),
  ...instantFields,
  byLiveStreamId: z.int().nullable(),
  byBlockId: z.int().nullable(),
});
/** GET /channels/{id}/on-air?from&to: the timeline over a span (at most 14 days). */
export const onAirSchema = z.object({
  channelId: z.int(),
  timezone: z.string(),
  from: z.string(),
  to: z.string(),
  segments: z.array(onAirSegmentSchema),
  preempted: z.array(preemptedSchema),
});
/** GET /channels/{id}/now: what plays now (with the position to join at) and next. */
export const nowOnAirSchema = z.object({
  channelId: z.int(),
  timezone: z.string(),
  at: z.string(),
  now: onAirSegmentSchema.extend({ positionSeconds: z.int() }).nullable(),
  next: onAirSegmentSchema.nullable(),
});

/** The rows a TV app receives from the Custom guide for one channel and day (GET /channels/{id}/guide/{date}). */
export const guideSchema = z.object({
  channelId: z.int(),
  date: z.string(),
  /** The request zone the rows are rendered in (the channel's own when none was asked). */
  timezone: z.string(),
  /** False when an app of the owner sells the channel: a TV app without a subscription gets no rows of it. */
  listed: z.boolean(),
  /** When not listed: the platform of the app whose subscribers' rows `items` are (the owner previews them). */
  soldBy: z.enum(APP_PLATFORMS).nullable(),
  items: z.array(videoRowSchema),
});

// ---------------------------------------------------------------- account

export const appTokenSchema = z.object({
  id: z.number(),
  label: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  revokedAt: z.string().nullable().describe('when it was revoked (by the owner, or through logout by anyone holding it); null while it works'),
});
export const appTokenListSchema = z.object({ items: z.array(appTokenSchema) });
export const createdTokenSchema = appTokenSchema.extend({
  token: z.string().optional().describe('the Bearer token (a GUID), shown in this answer only; a retried create (same Idempotency-Key) leaves it out'),
});
/** An app's public XMLTV guide key, as listed (GET /apps/{platform}/epg-key): never the key itself. */
export const epgKeySchema = z.object({ appId: z.number(), platform: z.enum(APP_PLATFORMS), createdAt: z.string() });
export const createdEpgKeySchema = epgKeySchema.extend({
  key: z.string().optional().describe('the key, shown in this answer only; a retried create (same Idempotency-Key) leaves it out'),
  url: z.string().optional().describe('the guide URL (PUBLIC_URL, when set, then /api/v1/rest/epg/{key}.xml; add ?days=N for other than a week), shown in this answer only'),
});
export const brandingSchema = z.object({
  title: z.string().nullable(),
  hex1: z.string().nullable(),
  hex2: z.string().nullable(),
  hex3: z.string().nullable(),
  fontColor: z.string().nullable(),
  headerBackground: z.string().nullable(),
  faq: z.string().nullable(),
  privacyPolicy: z.string().nullable(),
  logoHeader: z.string().nullable(),
  logoAndroid: z.string().nullable(),
  useVastSettings: z.boolean(),
});
export const newCategorySchema = categorySchema.extend({ id: id.optional() });
export const newLanguageSchema = languageSchema.extend({ id: id.optional() });
export const categoryResourceSchema = z.object({ id: z.number(), name: z.string() });
export const languageResourceSchema = z.object({ id: z.number(), name: z.string(), code: z.string() });
export const categoryListSchema = z.object({ items: z.array(categoryResourceSchema) });
export const languageListSchema = z.object({ items: z.array(languageResourceSchema) });

// ---------------------------------------------------------------- apps

const storeProductSchema = z.object({
  storePlatform: z.enum(STORE_PLATFORMS),
  productId: z.string(),
  displayName: z.string(),
  billingPeriod: z.enum(BILLING_PERIODS),
  isActive: z.boolean(),
});
export const appResourceSchema = z.object({
  id: z.number(),
  ownerId: z.number(),
  platform: z.enum(APP_PLATFORMS),
  appName: z.string(),
  slug: z.string().nullable(),
  about: z.string().nullable(),
  privacyPolicyLink: z.string().nullable(),
  isPaid: z.boolean(),
  timeFormat: z.string(),
  adLink: z.string().nullable(),
  apiKey: z.string().nullable(),
  theme: z.object({ primaryColor: z.string(), secondaryColor: z.string(), styleColor: z.string(), backgroundColor: z.string().optional() }).nullable(),
  mobile: z
    .object({
      selectionColor: z.string(),
      headerFooterColor: z.string(),
      backgroundColor: z.string(),
      fontColor: z.string(),
      copyrightPolicyLink: z.string().nullable(),
      gdprLink: z.string().nullable(),
      supportEmail: z.string().nullable(),
      faqLink: z.string().nullable(),
      termsLink: z.string().nullable(),
      instagram: z.string().nullable(),
      facebook: z.string().nullable(),
      twitter: z.string().nullable(),
    })
    .nullable(),
  images: z.record(z.string(), z.string()).describe('image role to base64 PNG or JPEG'),
  storeProducts: z.array(storeProductSchema),
  vodPpv: z.object({ isEnabled: z.boolean(), accessDurationHours: z.number(), previewSeconds: z.number(), storeProducts: z.array(storeProductSchema) }),
  configuredStores: z.array(z.enum(CREDENTIAL_STORES)).describe('stores whose storeCredentials are set (the credentials are write-only)'),
  credentialFields: z
    .partialRecord(z.enum(CREDENTIAL_STORES), z.record(z.string(), z.union([z.string(), z.literal(true)])))
    .describe('per configured store, the keys set: a non-secret one (Bundle ID, package name...) with its value, a secret one only as true'),
  channels: z.array(
    z.object({
      channelId: z.number(),
      sorting: z.number().nullable(),
      channelNumber: z.string().nullable(),
      useVastSettings: z.boolean(),
      lastUpdateDate: z.string().nullable(),
    }),
  ),
  createdAt: z.string(),
});
export const appListSchema = z.object({ items: z.array(appResourceSchema) });

// ---------------------------------------------------------------- catalog import and audit

export const importAnswerSchema = z.object({
  dryRun: z.boolean(),
  counts: z.object({
    accounts: z.number(),
    categories: z.number(),
    languages: z.number(),
    videos: z.number(),
    channels: z.number(),
    scheduleBlocks: z.number(),
    liveStreams: z.number(),
    apps: z.number(),
    subscriptions: z.number(),
    ppvUnlocks: z.number(),
  }),
});
export const auditEntrySchema = z.object({
  id: z.number(),
  at: z.string(),
  actorId: z.number(),
  action: z.enum(['create', 'update', 'delete']),
  resource: z.string(),
  fields: z.array(z.string()),
  address: z.string().nullable().describe("the caller's address, where the change came over HTTP (null for older entries and the command line)"),
});
export const auditPageSchema = z.object({ items: z.array(auditEntrySchema), next: z.number().nullable() });

// ---------------------------------------------------------------- refusals

/** One problem of a refused request: a JSON path relative to the body and the import's wording. */
export const refusalDetailSchema = z.object({ path: z.string(), message: z.string() });

// ---------------------------------------------------------------- collections (src/schedules/collections.ts)

const collectionRulesSchema = z.strictObject({
  categoryIds: z.array(refId).min(1).max(COLLECTION_LIMITS.ruleValues).optional(),
  providerNames: z.array(z.string().trim().min(1).max(50)).min(1).max(COLLECTION_LIMITS.ruleValues).optional(),
  minSeconds: z
    .number()
    .min(0)
    .max(86_400 * 7)
    .optional(),
  maxSeconds: z
    .number()
    .min(0)
    .max(86_400 * 7)
    .optional(),
  titleContains: z.string().trim().min(1).max(COLLECTION_LIMITS.titleContains).optional(),
});
/** A collection as written: a name and either its videos, in order (manual), or rules (smart). */
export const collectionBodySchema = z
  .strictObject({
    name: z
      .string()
      .trim()
      .min(1, { error: 'must not be empty' })
      .max(COLLECTION_LIMITS.name, { error: `must be at most ${COLLECTION_LIMITS.name} characters` }),
    videoIds: z
      .array(refId)
      .max(COLLECTION_LIMITS.videos, { error: `must have at most ${COLLECTION_LIMITS.videos} videos` })
      .optional(),
    rules: collectionRulesSchema.optional(),
  })
  .refine((b) => (b.videoIds === undefined) !== (b.rules === undefined), { error: 'send either videoIds (a manual collection) or rules (a smart one)', path: ['videoIds'] });
export const collectionSchema = z.object({
  id: z.number(),
  name: z.string(),
  kind: z.enum(['manual', 'smart']),
  /** Manual: its list, in order; smart: the videos its rules match now, by id. */
  videoIds: z.array(z.number()),
  rules: collectionRulesSchema.nullable(),
  updatedAt: z.string(),
  /** Slots of the owner's programming plans that play it (1-based place in the plan, 'Mon–Fri 18:00'). */
  usedBy: z.array(z.object({ channelId: z.number(), slot: z.number(), when: z.string() })),
  /** The owner's channels whose filler plays it. */
  fillerChannelIds: z.array(z.number()),
});

// ---------------------------------------------------------------- programming tools (src/schedules/programming.ts)

const hhmm = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, { error: 'must be a time of day HH:mm (00:00 to 23:59)' });
const planDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'must be a date yyyy-MM-dd' });
const videoIdList = (max: number) => z.array(refId).max(max, { error: `must have at most ${max} videos` });

interface SlotFields {
  start: string;
  end?: string | undefined;
  offAir?: boolean | undefined;
  videoIds: number[];
  collectionId?: number | undefined;
  collections?: unknown[] | undefined;
  preRoll?: unknown;
  midRoll?: unknown;
  postRoll?: unknown;
  padTo?: number | null | undefined;
}
/** A rule over a slot's fields, run when those fields parsed (whatever else did not). */
function slotRule(fields: readonly (keyof SlotFields)[], broken: (slot: SlotFields) => boolean, path: keyof SlotFields, message: string) {
  return z.refine<SlotFields>((slot) => !broken(slot), {
    path: [path],
    message,
    when: (payload) => typeof payload.value === 'object' && payload.value !== null && !payload.issues.some((i) => fields.includes(i.path?.[0] as keyof SlotFields)),
  });
}

/** A pre-, mid- or post-roll: one of the owner's collections, or null (none). */
const rollSchema = z.strictObject({ collectionId: refId }).nullable().optional();

/**
 * One time slot: weekdays (ISO 1 Monday ... 7 Sunday), a start HH:mm, an optional end HH:mm (the
 * next day when not after the start), a playlist (one video or more) and its order; or an off-air
 * slot (no videos: dead air until the next slot).
 */
const slotFields = z.strictObject({
  days: z
    .array(z.int().min(1, { error: 'must be a weekday 1 (Monday) to 7 (Sunday)' }).max(7, { error: 'must be a weekday 1 (Monday) to 7 (Sunday)' }))
    .min(1, { error: 'must name at least one weekday' })
    .max(7),
  start: hhmm,
  videoIds: videoIdList(PROGRAMMING_LIMITS.slotVideos),
  order: z.enum(SLOT_ORDERS),
  seed: z
    .int()
    .min(0)
    .max(2 ** 31 - 1)
    .optional(),
  published: z.boolean().optional(),
  // Last, as canonicalSlot writes them (ETags hash the stored text).
  end: hhmm.optional(),
  offAir: z.boolean().optional(),
  /** Plays one of the owner's collections instead of a list of its own (videoIds then empty). */
  collectionId: refId.optional(),
  /** A random slot: each occurrence plays one of 2 to 20 collections, drawn by weight from `seed`. */
  collections: z
    .array(z.strictObject({ collectionId: refId, weight: z.int().min(1, { error: 'must be 1 to 100' }).max(100, { error: 'must be 1 to 100' }) }))
    .min(2, { error: 'must name at least 2 collections (a slot of one plays it with collectionId)' })
    .max(20, { error: 'must name at most 20 collections' })
    .optional(),
  /** Filler that pads (docs/programming.md): one video of a collection before the programme, between two of its videos, after it. */
  preRoll: rollSchema,
  midRoll: rollSchema,
  postRoll: rollSchema,
  /** After the programme, the channel's filler up to the next :00 (60), :15 (15) or :30 (30), never past the slot's end. */
  padTo: z
    .union(
      PAD_TO.map((m) => z.literal(m)),
      { error: 'must be 15, 30 or 60 (minutes) or null' },
    )
    .nullable()
    .optional(),
});
export const slotSchema = slotFields
  // Checked even when another field is refused (a refinement alone would wait for a valid object),
  // so one answer names every problem; each only when the fields it reads parsed.
  .check(slotRule(['videoIds', 'offAir'], (s) => s.offAir === true && s.videoIds.length > 0, 'videoIds', 'must be empty for an off-air slot'))
  .check(
    slotRule(
      ['videoIds', 'offAir', 'collectionId', 'collections'],
      (s) => s.offAir !== true && s.videoIds.length === 0 && s.collectionId === undefined && s.collections === undefined,
      'videoIds',
      'must not be empty (or name a collectionId)',
    ),
  )
  .check(
    slotRule(
      ['videoIds', 'collectionId', 'collections'],
      (s) => (s.collectionId !== undefined || s.collections !== undefined) && s.videoIds.length > 0,
      'videoIds',
      'must be empty when the slot plays a collection',
    ),
  )
  .check(slotRule(['collectionId', 'offAir'], (s) => s.offAir === true && s.collectionId !== undefined, 'collectionId', 'must be left out for an off-air slot'))
  .check(
    slotRule(
      ['collections', 'offAir', 'collectionId'],
      (s) => s.collections !== undefined && (s.offAir === true || s.collectionId !== undefined),
      'collections',
      'must be left out for an off-air slot or one that plays a single collection',
    ),
  )
  .check(slotRule(['preRoll', 'offAir'], (s) => s.offAir === true && s.preRoll != null, 'preRoll', 'must be left out for an off-air slot'))
  .check(slotRule(['midRoll', 'offAir'], (s) => s.offAir === true && s.midRoll != null, 'midRoll', 'must be left out for an off-air slot'))
  .check(slotRule(['postRoll', 'offAir'], (s) => s.offAir === true && s.postRoll != null, 'postRoll', 'must be left out for an off-air slot'))
  .check(slotRule(['padTo', 'offAir'], (s) => s.offAir === true && s.padTo != null, 'padTo', 'must be left out for an off-air slot'))
  .check(slotRule(['end', 'offAir'], (s) => s.offAir === true && s.end !== undefined, 'end', 'must be left out for an off-air slot (it lasts until the next slot)'))
  .check(slotRule(['end', 'start'], (s) => s.end !== undefined && s.end === s.start, 'end', 'must differ from start (leave it out to run until the next slot)'));
export const slotListSchema = z.array(slotSchema).max(PROGRAMMING_LIMITS.slots, { error: `must have at most ${PROGRAMMING_LIMITS.slots} slots` });
export const slotPlanBodySchema = z.strictObject({ slots: slotListSchema });
// Answers carry the fields as stored (the rules are the body's).
export const slotPlanSchema = z.object({ channelId: z.int(), timezone: z.string(), slots: z.array(slotFields) });
/** A channel's filler: a list of its own, or one of the owner's collections (videoIds then empty). */
export const fillerBodySchema = z
  .strictObject({ videoIds: videoIdList(PROGRAMMING_LIMITS.fillerVideos), collectionId: refId.optional() })
  .refine((b) => b.collectionId === undefined || b.videoIds.length === 0, { error: 'must be empty when the filler plays a collection', path: ['videoIds'] });
export const fillerSchema = z.object({ channelId: z.int(), videoIds: z.array(z.int()), collectionId: z.int().nullable() });
/** A channel's dead-air fallback: one of the owner's collections, or null (dead air stays declared). */
export const fallbackBodySchema = z.strictObject({ collectionId: refId.nullable() });
export const fallbackSchema = z.object({ channelId: z.int(), collectionId: z.int().nullable() });
export const programmingStateSchema = z.object({
  channelId: z.int(),
  timezone: z.string(),
  slots: z.array(slotFields),
  fillerVideoIds: z.array(z.int()),
  fillerCollectionId: z.int().nullable(),
  /** The collection that fills a slot's dead air after everything else (null: none). */
  fallbackCollectionId: z.int().nullable(),
  undo: z.object({ kind: z.enum(['generate', 'template']), at: z.string(), added: z.int(), removed: z.int() }).nullable(),
});

const dayCount = (from: string, to: string) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
const realDate = (d: string) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d);
const rangeOf = <T extends { from: string; to: string }>(schema: z.ZodType<T>, maxDays: number) =>
  schema
    .refine((r) => realDate(r.from), { error: 'must be a real date', path: ['from'] })
    .refine((r) => realDate(r.to), { error: 'must be a real date', path: ['to'] })
    .refine((r) => !realDate(r.from) || !realDate(r.to) || r.from <= r.to, { error: 'must not be before from', path: ['to'] })
    .refine((r) => !realDate(r.from) || !realDate(r.to) || dayCount(r.from, r.to) <= maxDays, { error: `a range covers at most ${maxDays} days`, path: ['to'] });

/** POST /channels/{id}/programming/preview and /apply: the stored plan (or the one sent) over [from, to]. */
export const generateBodySchema = rangeOf(
  z.strictObject({
    from: planDate,
    to: planDate,
    fill: z.boolean().optional(),
    replace: z.boolean().optional(),
    allowOverlap: z.boolean().optional(),
    slots: slotListSchema.optional(),
    fillerVideoIds: videoIdList(PROGRAMMING_LIMITS.fillerVideos).optional(),
    fillerCollectionId: refId.optional(),
    /** A dead-air fallback to use instead of the stored one (null: none). */
    fallbackCollectionId: refId.nullable().optional(),
  }),
  PROGRAMMING_LIMITS.generateDays,
);
const generationWarningSchema = z.object({ slot: z.int(), startTime: z.string(), message: z.string() });
export const programmingPreviewSchema = z.object({
  channelId: z.int(),
  timezone: z.string(),
  from: z.string(),
  to: z.string(),
  blocks: z.array(
    z.object({
      slot: z.int(),
      startTime: z.string(),
      endTime: z.string(),
      slotEndTime: z.string(),
      published: z.boolean(),
      videoIds: z.array(z.int()),
      fillerVideos: z.int(),
      /** What each of videoIds is: the slot's programme, or filler (pre-, mid-, post-roll, padding, filler, fallback). */
      roles: z.array(z.enum(ENTRY_ROLES)),
      /** How long its videos play, and how long its slot's time is (seconds). */
      durationSeconds: z.number(),
      slotSeconds: z.number(),
    }),
  ),
  replaces: z.array(blockSchema),
  conflicts: z.array(z.object({ startTime: z.string(), message: z.string() })),
  warnings: z.array(generationWarningSchema),
  /** Time of the range no block covers, by the slot whose time it is (null: before the first slot). */
  deadAir: z.array(z.object({ slot: z.int().nullable(), startTime: z.string(), endTime: z.string(), seconds: z.number(), reason: z.enum(DEAD_AIR_REASONS) })),
  totals: z.object({ blocks: z.int(), videos: z.int(), fillerVideos: z.int(), deadAirSeconds: z.number() }),
});
export const programmingWrittenSchema = z.object({
  items: z.array(blockSchema),
  removed: z.array(z.int()),
  warnings: z.array(generationWarningSchema).optional(),
  skippedDates: z.array(z.string()).optional(),
});
/** POST /channels/{id}/programming/template: a day or a week copied over [from, to]. */
export const templateBodySchema = rangeOf(
  z.strictObject({
    sourceFrom: planDate.refine(realDate, { error: 'must be a real date' }),
    sourceDays: z.union([z.literal(1), z.literal(7)]),
    from: planDate,
    to: planDate,
    mode: z.enum(['skip', 'replace']),
    allowOverlap: z.boolean().optional(),
  }),
  PROGRAMMING_LIMITS.templateDays,
);
export const undoBodySchema = z.strictObject({ allowOverlap: z.boolean().optional() });
export const undoneSchema = z.object({ removed: z.array(z.int()), restored: z.array(blockSchema) });

// ---------------------------------------------------------------- onboarding (issue 36, item 8)

/** An owner's invite as listed: never the token (it is shown once, in the create's answer). */
export const inviteSchema = z.object({
  id: z.int(),
  note: z.string(),
  status: z.enum(['open', 'used', 'expired', 'revoked']),
  createdAt: z.string(),
  expiresAt: z.string(),
  usedAt: z.string().nullable(),
  usedBy: z.int().nullable().describe('the account the invite made (an owner of their own)'),
  revokedAt: z.string().nullable(),
});
export const inviteListSchema = z.object({ items: z.array(inviteSchema) });
export const newInviteSchema = z.strictObject({
  note: z.string().max(200).optional().describe('a note for yourself: whom it is for'),
  expiresInDays: z.int().min(1).max(365).optional().describe('how long the link lasts (default 7, at most INVITE_MAX_DAYS)'),
});
export const createdInviteSchema = inviteSchema.extend({
  token: z.string().optional().describe('the one-time token, shown in this answer only; a retried create (same Idempotency-Key) leaves it out'),
  path: z.string().optional().describe('where the console redeems it: /studio/invite/{token}'),
});
/** A new owner's account, as `channelnet owner create` takes it. */
export const newOwnerSchema = z.strictObject({
  username: z.string().max(200),
  email: z.string().max(320),
  password: z.string().max(1024),
  publicUrl: z.string().max(64).optional(),
  fullName: z.string().max(200).nullable().optional(),
});
export const redeemInviteSchema = newOwnerSchema.extend({ token: z.string().min(1).max(200) });
export const newOwnerCreatedSchema = z.object({ id: z.int(), username: z.string() });
export const signupModeSchema = z.object({ signup: z.enum(['open', 'invite', 'closed']) });
