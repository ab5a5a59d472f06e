// The whole domain of the interface specification in one Drizzle schema.
// Public ids (userId, channelTubeId, videoTubeId, appId, channelScheduleId) are the
// primary keys exactly as clients hold them; internal rows use identity columns.
// Column names are snake_case through Drizzle's `casing` option (see db/connect.ts).
import { sql } from 'drizzle-orm';
import { bigint, boolean, customType, date, doublePrecision, index, integer, jsonb, pgSequence, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import {
  ACCOUNT_STATUSES,
  APP_PLATFORMS,
  BILLING_PERIODS,
  CREDENTIAL_STORES,
  NOTIFICATION_STATES,
  PRODUCT_KINDS,
  STORE_ENVIRONMENTS,
  STORE_PLATFORMS,
  TOKEN_KINDS,
  VAST_PLATFORMS,
  VAST_TYPES,
} from '../vocabulary.ts';

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

/** An instant, read and written as a JS Date. */
const instant = () => timestamp({ withTimezone: true, mode: 'date' });
/** A channel-local wall time 'yyyy-MM-dd HH:mm:ss', kept as text-like string. */
const wallTime = () => timestamp({ withTimezone: false, mode: 'string' });

/**
 * A public id (int32, as the clients that hold them read it) of a table whose ids the service
 * assigns: a row inserted without one takes the next value of the table's own sequence, which
 * starts at 10,000,000 so that it never meets the ids people choose (1..9,999,999, see
 * src/catalog/ids.ts). The sequence is consulted explicitly (src/data/ids.ts), which also skips
 * any value a row already holds (the catalog import may bring ids from that range).
 */
const publicId = (table: string) =>
  integer()
    .primaryKey()
    .generatedByDefaultAsIdentity({ name: `${table}_id_seq`, startWith: 10_000_000, minValue: 10_000_000, maxValue: 2_147_483_647, cache: 1 });

// ---------------------------------------------------------------- accounts

/** Versions of the owners' slices (accounts.slice_version). */
export const accountSliceVersions = pgSequence('account_slice_versions');

export const accounts = pgTable(
  'accounts',
  {
    id: publicId('accounts'),
    username: text().notNull(),
    email: text().notNull(),
    passwordHash: text().notNull(),
    publicUrl: text().notNull(),
    fullName: text(),
    publicName: text(),
    status: text({ enum: ACCOUNT_STATUSES }).notNull().default('active'),
    servicePlanActive: boolean().notNull().default(true),
    /**
     * The version of the owner's slice (src/data/owner-slice.ts): a fresh value of one sequence
     * on every write that changes the slice, and on the row's insert, so a value never comes
     * back (not even for an account deleted and created again); the export's ETag derives from it.
     */
    sliceVersion: bigint({ mode: 'number' })
      .notNull()
      .default(sql`nextval('account_slice_versions')`),
  },
  (t) => [
    uniqueIndex('accounts_username_lower').on(sql`lower(${t.username})`),
    uniqueIndex('accounts_email_lower').on(sql`lower(${t.email})`),
    uniqueIndex('accounts_public_url_lower').on(sql`lower(${t.publicUrl})`),
  ],
);

/** Custom API `/users/{id}/settings`. */
export const brandings = pgTable('brandings', {
  accountId: integer()
    .primaryKey()
    .references(() => accounts.id, { onDelete: 'cascade' }),
  title: text(),
  hex1: text(),
  hex2: text(),
  hex3: text(),
  fontColor: text(),
  headerBackground: text(),
  faq: text(),
  privacyPolicy: text(),
  logoHeaderBlob: text().references(() => blobs.sha256),
  logoAndroidBlob: text().references(() => blobs.sha256),
  useVastSettings: boolean().notNull().default(false),
});

/**
 * Bearer tokens: session tokens from login (expiring, sliding or fixed) and long-lived
 * app tokens embedded in generated TV app archives. Only the SHA-256 of the GUID is stored.
 */
export const authTokens = pgTable(
  'auth_tokens',
  {
    id: bigint({ mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    tokenHash: text().notNull(),
    accountId: integer()
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    kind: text({ enum: TOKEN_KINDS }).notNull(),
    label: text().notNull().default(''),
    createdAt: instant().notNull(),
    /** null: never expires (app tokens). */
    expiresAt: instant(),
    /** Sliding lifetime: each use pushes expiresAt to lastUsedAt + slidingSeconds. */
    slidingSeconds: integer(),
    lastUsedAt: instant(),
    revokedAt: instant(),
  },
  (t) => [uniqueIndex('auth_tokens_hash').on(t.tokenHash), index('auth_tokens_account').on(t.accountId)],
);

// ---------------------------------------------------------------- reference data

/**
 * Shared by every owner. createdBy: the owner who added it through the Studio (counted against
 * that owner's allowance); null for the operator's (the catalog import's).
 */
export const categories = pgTable('categories', {
  id: publicId('categories'),
  name: text().notNull(),
  createdBy: integer().references(() => accounts.id, { onDelete: 'set null' }),
});

export const languages = pgTable('languages', {
  id: publicId('languages'),
  name: text().notNull(),
  code: text().notNull(),
  createdBy: integer().references(() => accounts.id, { onDelete: 'set null' }),
});

/** Images, content-addressed by the SHA-256 of their bytes. */
export const blobs = pgTable('blobs', {
  sha256: text().primaryKey(),
  contentType: text().notNull(),
  bytes: bytea().notNull(),
});

// ---------------------------------------------------------------- videos

export const videos = pgTable(
  'videos',
  {
    id: publicId('videos'),
    ownerId: integer()
      .notNull()
      .references(() => accounts.id),
    title: text().notNull(),
    description: text(),
    durationSeconds: doublePrecision().notNull(),
    thumbnailUrl: text().notNull().default(''),
    providerName: text().notNull(),
    providerVideoId: text().notNull(),
    categoryId: integer().references(() => categories.id),
    streamUrl: text(),
    isPrivate: boolean().notNull().default(false),
    isRRated: boolean().notNull().default(false),
    isRemovedByProvider: boolean().notNull().default(false),
    isRestrictedByProvider: boolean().notNull().default(false),
  },
  (t) => [index('videos_owner').on(t.ownerId)],
);

/** Cached progressive renditions served by token_by_video. */
export const videoRenditions = pgTable(
  'video_renditions',
  {
    videoId: integer()
      .notNull()
      .references(() => videos.id, { onDelete: 'cascade' }),
    position: integer().notNull(),
    url: text().notNull(),
    width: integer().notNull(),
    height: integer().notNull(),
    expiresAt: instant().notNull(),
  },
  (t) => [primaryKey({ columns: [t.videoId, t.position] })],
);

// ---------------------------------------------------------------- channels

export const channels = pgTable(
  'channels',
  {
    id: publicId('channels'),
    ownerId: integer()
      .notNull()
      .references(() => accounts.id),
    name: text().notNull(),
    url: text().notNull(),
    categoryId: integer()
      .notNull()
      .references(() => categories.id),
    languageId: integer().references(() => languages.id),
    pictureUrl: text(),
    description: text(),
    sortOrder: integer().notNull().default(0),
    timezone: text().notNull().default('UTC'),
    isWhiteLabeled: boolean().notNull().default(false),
    playLiveFirst: boolean().notNull().default(false),
    isVerified: boolean().notNull().default(false),
    keepGuideOpened: boolean().notNull().default(false),
    guideMode: text().notNull().default('default'),
    /** Set: the channel is private and must be unlocked through getChannelToken. */
    passwordHash: text(),
    subscriberCount: integer().notNull().default(0),
    createdAt: instant().notNull(),
    deleted: boolean().notNull().default(false),
  },
  (t) => [uniqueIndex('channels_owner_url').on(t.ownerId, t.url), index('channels_owner_order').on(t.ownerId, t.sortOrder, t.id)],
);

/** The channel's video library, in library order. */
export const channelVideos = pgTable(
  'channel_videos',
  {
    channelId: integer()
      .notNull()
      .references(() => channels.id, { onDelete: 'cascade' }),
    position: integer().notNull(),
    videoId: integer()
      .notNull()
      .references(() => videos.id),
  },
  (t) => [primaryKey({ columns: [t.channelId, t.position] }), index('channel_videos_video').on(t.videoId)],
);

/** The channel's VOD catalog, in catalog order. */
export const channelVodVideos = pgTable(
  'channel_vod_videos',
  {
    channelId: integer()
      .notNull()
      .references(() => channels.id, { onDelete: 'cascade' }),
    position: integer().notNull(),
    videoId: integer()
      .notNull()
      .references(() => videos.id),
  },
  (t) => [primaryKey({ columns: [t.channelId, t.position] }), index('channel_vod_videos_video').on(t.videoId, t.channelId)],
);

export const channelVastSettings = pgTable(
  'channel_vast_settings',
  {
    channelId: integer()
      .notNull()
      .references(() => channels.id, { onDelete: 'cascade' }),
    platform: text({ enum: VAST_PLATFORMS }).notNull(),
    vastUrl: text().notNull(),
    vastVersion: integer().notNull(),
    skippable: boolean().notNull(),
    adFrequency: integer(),
    midRollFrequency: integer(),
    slottable: boolean().notNull(),
    timeFrom: integer(),
    timeTo: integer(),
    vastType: text({ enum: VAST_TYPES }),
    allowAdsInVod: boolean().notNull(),
  },
  (t) => [primaryKey({ columns: [t.channelId, t.platform] })],
);

/** Legacy Roku channel settings (GetChannelTubeRokuSettings). */
export const channelRokuSettings = pgTable('channel_roku_settings', {
  channelId: integer()
    .primaryKey()
    .references(() => channels.id, { onDelete: 'cascade' }),
  addedToRoku: boolean().notNull(),
  lastUpdateDate: instant(),
});

// ---------------------------------------------------------------- schedules

export const scheduleBlocks = pgTable(
  'schedule_blocks',
  {
    id: publicId('schedule_blocks'),
    channelId: integer()
      .notNull()
      .references(() => channels.id, { onDelete: 'cascade' }),
    /** Wall time in the channel's zone; loopDaily blocks repeat at this time of day. */
    startLocal: wallTime().notNull(),
    published: boolean().notNull().default(true),
    loopDaily: boolean().notNull().default(false),
  },
  (t) => [index('schedule_blocks_channel_start').on(t.channelId, t.loopDaily, t.startLocal)],
);

export const scheduleBlockVideos = pgTable(
  'schedule_block_videos',
  {
    blockId: integer()
      .notNull()
      .references(() => scheduleBlocks.id, { onDelete: 'cascade' }),
    position: integer().notNull(),
    videoId: integer()
      .notNull()
      .references(() => videos.id),
  },
  // The primary key's index also holds video_id (INCLUDE: drizzle cannot say it, so
  // drizzle/0024_block-videos-covering.sql does), and a block's list is an index-only scan.
  (t) => [primaryKey({ columns: [t.blockId, t.position] }), index('schedule_block_videos_video').on(t.videoId)],
);

export const liveStreams = pgTable(
  'live_streams',
  {
    id: bigint({ mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    channelId: integer()
      .notNull()
      .references(() => channels.id, { onDelete: 'cascade' }),
    videoId: integer()
      .notNull()
      .references(() => videos.id),
    startAt: instant().notNull(),
    endAt: instant().notNull(),
    uri: text().notNull().default(''),
  },
  (t) => [index('live_streams_channel_start').on(t.channelId, t.startAt), index('live_streams_video').on(t.videoId)],
);

// ---------------------------------------------------------------- apps

export const apps = pgTable(
  'apps',
  {
    id: publicId('apps'),
    ownerId: integer()
      .notNull()
      .references(() => accounts.id),
    platform: text({ enum: APP_PLATFORMS }).notNull(),
    appName: text().notNull(),
    slug: text(),
    about: text(),
    privacyPolicyLink: text(),
    isPaid: boolean().notNull().default(false),
    timeFormat: text().notNull().default('12-hour'),
    adLink: text(),
    apiKey: text(),
    /** TV theme; all null means stock colours. backgroundColor is null for androidtv. */
    primaryColor: text(),
    secondaryColor: text(),
    backgroundColor: text(),
    styleColor: text(),
    vodPpvEnabled: boolean().notNull().default(false),
    vodPpvAccessHours: integer().notNull().default(48),
    vodPpvPreviewSeconds: integer().notNull().default(0),
    createdAt: instant().notNull(),
  },
  (t) => [uniqueIndex('apps_owner_platform').on(t.ownerId, t.platform)],
);

/** Mobile-only app fields. */
export const appMobileSettings = pgTable('app_mobile_settings', {
  appId: integer()
    .primaryKey()
    .references(() => apps.id, { onDelete: 'cascade' }),
  selectionColor: text().notNull(),
  headerFooterColor: text().notNull(),
  backgroundColor: text().notNull(),
  fontColor: text().notNull(),
  copyrightPolicyLink: text(),
  gdprLink: text(),
  supportEmail: text(),
  faqLink: text(),
  termsLink: text(),
  instagram: text(),
  facebook: text(),
  twitter: text(),
});

export const appImages = pgTable(
  'app_images',
  {
    appId: integer()
      .notNull()
      .references(() => apps.id, { onDelete: 'cascade' }),
    role: text().notNull(),
    blobSha256: text()
      .notNull()
      .references(() => blobs.sha256),
  },
  (t) => [primaryKey({ columns: [t.appId, t.role] })],
);

/** Subscription SKUs (kind subscription) and VOD PPV one-time SKUs (kind ppv). */
export const appStoreProducts = pgTable(
  'app_store_products',
  {
    appId: integer()
      .notNull()
      .references(() => apps.id, { onDelete: 'cascade' }),
    kind: text({ enum: PRODUCT_KINDS }).notNull(),
    position: integer().notNull(),
    storePlatform: text({ enum: STORE_PLATFORMS }).notNull(),
    productId: text().notNull(),
    displayName: text().notNull().default(''),
    billingPeriod: text({ enum: BILLING_PERIODS }).notNull(),
    isActive: boolean().notNull().default(true),
  },
  (t) => [primaryKey({ columns: [t.appId, t.kind, t.position] }), uniqueIndex('app_store_products_sku').on(t.appId, t.kind, t.storePlatform, t.productId)],
);

/** Per-store secrets needed to verify purchases (keys documented in docs/entitlements.md). */
export const appStoreCredentials = pgTable(
  'app_store_credentials',
  {
    appId: integer()
      .notNull()
      .references(() => apps.id, { onDelete: 'cascade' }),
    store: text({ enum: CREDENTIAL_STORES }).notNull(),
    credentials: jsonb().$type<Record<string, string | number | boolean>>().notNull(),
  },
  (t) => [primaryKey({ columns: [t.appId, t.store] })],
);

/** Channels assigned to an app, in the app's order. */
export const appChannels = pgTable(
  'app_channels',
  {
    appId: integer()
      .notNull()
      .references(() => apps.id, { onDelete: 'cascade' }),
    channelId: integer()
      .notNull()
      .references(() => channels.id, { onDelete: 'cascade' }),
    position: integer().notNull(),
    sorting: integer(),
    channelNumber: text(),
    useVastSettings: boolean().notNull().default(false),
    lastUpdateDate: instant(),
  },
  (t) => [primaryKey({ columns: [t.appId, t.channelId] }), index('app_channels_channel').on(t.channelId)],
);

/**
 * Keys of an app's public XMLTV guide URL (docs/xmltv.md: XMLTV guide export), for FAST platforms and
 * players that cannot send a Bearer header. Only the SHA-256 of a key is stored, like tokens. A
 * new key revokes the app's previous one (at most one live key per app); revoked rows stay, so
 * revoking is a stamp, never a delete. An app deleted takes its keys with it.
 */
export const epgKeys = pgTable(
  'epg_keys',
  {
    id: bigint({ mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    appId: integer()
      .notNull()
      .references(() => apps.id, { onDelete: 'cascade' }),
    keyHash: text().notNull(),
    createdAt: instant().notNull(),
    revokedAt: instant(),
  },
  (t) => [
    uniqueIndex('epg_keys_hash').on(t.keyHash),
    uniqueIndex('epg_keys_live_app')
      .on(t.appId)
      .where(sql`${t.revokedAt} is null`),
  ],
);

// ---------------------------------------------------------------- viewer state

export const favorites = pgTable(
  'favorites',
  {
    accountId: integer()
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    channelId: integer()
      .notNull()
      .references(() => channels.id, { onDelete: 'cascade' }),
    favoritedAt: instant().notNull(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.channelId] }), index('favorites_account_recent').on(t.accountId, t.favoritedAt)],
);

/** A private channel unlocked through getChannelToken, per device or per viewer. */
export const channelUnlocks = pgTable(
  'channel_unlocks',
  {
    id: bigint({ mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    channelId: integer()
      .notNull()
      .references(() => channels.id, { onDelete: 'cascade' }),
    deviceId: text(),
    viewerId: integer().references(() => accounts.id, { onDelete: 'cascade' }),
    unlockedAt: instant().notNull(),
  },
  (t) => [uniqueIndex('channel_unlocks_device').on(t.channelId, t.deviceId), uniqueIndex('channel_unlocks_viewer').on(t.channelId, t.viewerId)],
);

export const subscriptions = pgTable(
  'subscriptions',
  {
    id: bigint({ mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    appId: integer()
      .notNull()
      .references(() => apps.id, { onDelete: 'cascade' }),
    deviceId: text(),
    viewerId: integer().references(() => accounts.id, { onDelete: 'cascade' }),
    storePlatform: text({ enum: STORE_PLATFORMS }).notNull(),
    productId: text().notNull(),
    originalTransactionId: text().notNull(),
    /** active, expired or revoked (refunds too); see src/entitlements/subscriptions.ts. */
    status: text().notNull(),
    expiresAt: instant(),
    updatedAt: instant().notNull(),
    /** The store environment that confirmed the purchase. */
    environment: text({ enum: STORE_ENVIRONMENTS }).notNull().default('production'),
    /** The store said it renews: once expired, a status call re-checks the store for a renewal. */
    autoRenewing: boolean().notNull().default(false),
    /** Last time the store was asked about it (verify, restore or re-check); bounds the re-checks. */
    lastCheckedAt: instant(),
    /** What a re-check sends the store when the original transaction id alone is not enough
     *  (Amazon RVS needs the customer's userId with the receiptId); null: the original id. */
    lookupId: text(),
    /** The store's own date of the latest notification applied (src/entitlements/notifications):
     *  an older one arriving later never moves the subscription backwards. */
    storeEventAt: instant(),
  },
  (t) => [
    uniqueIndex('subscriptions_transaction').on(t.appId, t.storePlatform, t.originalTransactionId),
    index('subscriptions_device').on(t.appId, t.deviceId),
    index('subscriptions_viewer').on(t.appId, t.viewerId),
  ],
);

export const ppvUnlocks = pgTable(
  'ppv_unlocks',
  {
    id: bigint({ mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    appId: integer()
      .notNull()
      .references(() => apps.id, { onDelete: 'cascade' }),
    videoId: integer()
      .notNull()
      .references(() => videos.id, { onDelete: 'cascade' }),
    channelId: integer().references(() => channels.id, { onDelete: 'cascade' }),
    deviceId: text(),
    viewerId: integer().references(() => accounts.id, { onDelete: 'cascade' }),
    storePlatform: text({ enum: STORE_PLATFORMS }).notNull(),
    productId: text().notNull(),
    transactionId: text().notNull(),
    expiresAt: instant().notNull(),
    createdAt: instant().notNull(),
    /** Set when the store refunded or voided the purchase: the unlock ends at once. */
    revokedAt: instant(),
    /** The store's date of the latest notification applied (as on subscriptions). */
    storeEventAt: instant(),
    /** The price the store reported for the purchase, in millionths of `priceCurrency`; null: not reported (unknown). */
    priceMicros: bigint({ mode: 'number' }),
    priceCurrency: text(),
  },
  (t) => [
    uniqueIndex('ppv_unlocks_transaction').on(t.appId, t.storePlatform, t.transactionId),
    index('ppv_unlocks_device').on(t.appId, t.videoId, t.deviceId),
    index('ppv_unlocks_viewer').on(t.appId, t.videoId, t.viewerId),
  ],
);

/**
 * Every purchase verification asked of a store (verify, restore, status re-check) and every
 * verify refused before asking, for support: who asked, about what, and what the store said.
 * The receipt itself is never kept (only its SHA-256); storeAnswer holds no credentials.
 * Device, viewer and catalog ids are kept without foreign keys so the record outlives what it names.
 */
export const verificationAttempts = pgTable(
  'verification_attempts',
  {
    id: bigint({ mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    appId: integer().notNull(),
    deviceId: text(),
    viewerId: integer(),
    /** notification: a store's server notification applied by the inbox worker (deviceId and
     *  viewerId are the holders it changed). */
    route: text({ enum: ['subscription_verify', 'subscription_restore', 'subscription_status', 'ppv_verify', 'notification'] }).notNull(),
    storePlatform: text({ enum: STORE_PLATFORMS }).notNull(),
    /** product_id as sent; the store's product is in storeAnswer. */
    productId: text(),
    /** original_transaction_id as sent (restore: the id restored; re-check: the row's). */
    originalTransactionId: text(),
    /** The store's transaction id when it named one. */
    transactionId: text(),
    receiptSha256: text(),
    videoId: integer(),
    channelId: integer(),
    /** The verifier's outcome (valid, expired, revoked, refunded, wrong_product, wrong_app,
     *  sandbox_not_allowed, invalid, unavailable) or refused (checked before asking the store). */
    outcome: text().notNull(),
    reason: text(),
    /** Whether the attempt granted or renewed an entitlement. */
    granted: boolean().notNull(),
    storeAnswer: jsonb(),
    at: instant().notNull(),
    /** The price the store reported for this transaction (src/entitlements/stores/prices.ts), in
     *  millionths of `priceCurrency`; null: the store reported none (unknown, not zero). */
    priceMicros: bigint({ mode: 'number' }),
    priceCurrency: text(),
    /** The store's product of the transaction (productId is what the client sent). */
    priceProductId: text(),
  },
  (t) => [
    index('verification_attempts_app').on(t.appId, t.at),
    index('verification_attempts_transaction').on(t.originalTransactionId),
    index('verification_attempts_device').on(t.deviceId),
  ],
);

/**
 * The inbox of store server notifications (src/entitlements/notifications): each verified
 * notification is written here under the store's own id before it is acknowledged, and applied
 * by a worker, so a repeat is a no-op and nothing acknowledged is lost if the process dies.
 * payload is what the store signed (or, for stores confirmed by a re-read, what it sent),
 * decoded and without secrets.
 */
export const storeNotifications = pgTable(
  'store_notifications',
  {
    id: bigint({ mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    storePlatform: text({ enum: STORE_PLATFORMS }).notNull(),
    /** notificationUUID (Apple), Pub/Sub messageId (Google), SNS MessageId (Amazon), Roku's transaction and event. */
    notificationId: text().notNull(),
    appId: integer().notNull(),
    /** The store's notification type (and subtype), e.g. DID_FAIL_TO_RENEW/GRACE_PERIOD. */
    type: text().notNull(),
    /** The store's own date of the event, used to keep events in order. */
    eventAt: instant().notNull(),
    receivedAt: instant().notNull(),
    state: text({ enum: NOTIFICATION_STATES }).notNull(),
    attempts: integer().notNull().default(0),
    /** When the worker may (next) take it; a claim moves it forward, so a worker that dies loses only its lease. */
    nextAttemptAt: instant().notNull(),
    /** What applying it did, or why it is waiting. */
    result: text(),
    appliedAt: instant(),
    payload: jsonb().notNull(),
  },
  (t) => [
    uniqueIndex('store_notifications_id').on(t.storePlatform, t.notificationId),
    index('store_notifications_due')
      .on(t.nextAttemptAt)
      .where(sql`${t.state} = 'pending'`),
    index('store_notifications_app').on(t.appId, t.receivedAt),
  ],
);

/** How far `channelnet stores reconcile` has read each app's store history. */
export const storeReconciliations = pgTable(
  'store_reconciliations',
  {
    appId: integer().notNull(),
    storePlatform: text({ enum: STORE_PLATFORMS }).notNull(),
    readTo: instant().notNull(),
  },
  (t) => [primaryKey({ columns: [t.appId, t.storePlatform] })],
);

// ---------------------------------------------------------------- activity

/** Every accepted activity event, payload as given. */
export const activityEvents = pgTable(
  'activity_events',
  {
    id: bigint({ mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    receivedAt: instant().notNull(),
    source: text().notNull(),
    action: text().notNull(),
    clientId: text(),
    userId: text(),
    channelId: integer(),
    payload: jsonb(),
    processed: boolean().notNull(),
  },
  (t) => [
    index('activity_events_received').on(t.receivedAt),
    index('activity_events_channel').on(t.channelId, t.receivedAt),
    // Logins and logouts are read per viewer; heartbeats, the bulk of the rows, stay out of it.
    index('activity_events_viewer')
      .on(t.userId, t.receivedAt)
      .where(sql`${t.action} in ('login', 'logout')`),
  ],
);

/**
 * Watch sessions. A session is open while its last heartbeat is at most 3 minutes old;
 * `open` is only bookkeeping (cleared by the next heartbeat of the key or by the sweeper):
 * readers derive openness from lastHeartbeatAt. The partial unique index allows one open row
 * per session key, so concurrent heartbeats of one viewer upsert into the same row.
 * lastHeartbeatAt is deliberately in no index, so extending a session is a HOT update.
 */
export const watchSessions = pgTable(
  'watch_sessions',
  {
    id: bigint({ mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    source: text().notNull(),
    clientId: text().notNull().default(''),
    userId: text().notNull().default(''),
    channelId: integer().notNull(),
    ownerId: integer().notNull(),
    startedAt: instant().notNull(),
    lastHeartbeatAt: instant().notNull(),
    heartbeats: integer().notNull().default(1),
    open: boolean().notNull().default(true),
    /** Set when the row is closed: the last heartbeat. */
    endedAt: instant(),
    /** Set when the row is closed: max(60, endedAt - startedAt) in whole seconds. */
    creditedSeconds: integer(),
    /** Set once a closed session's time is split over the programmes on air (programme_watch). */
    programmesCredited: boolean().notNull().default(false),
  },
  (t) => [
    uniqueIndex('watch_sessions_open_key')
      .on(t.source, t.clientId, t.userId, t.channelId)
      .where(sql`${t.open}`),
    index('watch_sessions_owner_started').on(t.ownerId, t.startedAt),
    index('watch_sessions_channel_started').on(t.channelId, t.startedAt),
    // Small: the sessions not rolled up yet (watchDayRollups), which owner reads take raw.
    index('watch_sessions_open_owner')
      .on(t.ownerId, t.startedAt)
      .where(sql`${t.open}`),
    // Small: only closed sessions waiting for the crediter (sessions/programme-crediter.ts).
    index('watch_sessions_uncredited')
      .on(t.id)
      .where(sql`not ${t.open} and not ${t.programmesCredited}`),
  ],
);

/**
 * A closed session's watching of one airing (one showing of a video, or a live stream, on the
 * session's channel, as the schedule had it when the session was credited): the real overlap,
 * stored so that a later schedule edit does not rewrite history. Written once per session.
 */
export const programmeWatch = pgTable(
  'programme_watch',
  {
    sessionId: bigint({ mode: 'number' }).notNull(),
    /** The airing: when it started on the channel (epoch ms in whole seconds), and stopped. */
    airingStart: instant().notNull(),
    airingStop: instant().notNull(),
    ownerId: integer().notNull(),
    channelId: integer().notNull(),
    videoId: integer().notNull(),
    isLive: boolean().notNull(),
    source: text().notNull(),
    /** The device (sessions/programme-attribution.ts viewerOf): 64 bits of a hash. */
    viewer: bigint({ mode: 'bigint' }).notNull(),
    watchStart: instant().notNull(),
    watchSeconds: integer().notNull(),
    /** The airing of the session's previous row; null on its first (a range counts a session on its first row in it). */
    prevAiringStart: instant(),
  },
  (t) => [
    primaryKey({ columns: [t.sessionId, t.airingStart] }),
    // Reads of a range (totals, viewers per group) use only these columns: index-only scans.
    index('programme_watch_owner_airing').on(t.ownerId, t.airingStart, t.channelId, t.videoId, t.source, t.viewer, t.sessionId, t.prevAiringStart),
    // The viewers of a page's programmes: only their rows.
    index('programme_watch_owner_video').on(t.ownerId, t.videoId, t.airingStart, t.channelId, t.source, t.viewer, t.sessionId),
    index('programme_watch_channel_airing').on(t.channelId, t.airingStart),
  ],
);

/**
 * A closed session's dead air: a stretch of its watching while nothing was on air on its channel
 * (outside its programme_watch rows, in their whole seconds), stored by the crediter with its
 * rows so the programme list's dead-air row reads a range of these, not every session
 * (docs/activity.md: Programme analytics, "Dead air in the programme list"). Written once per session.
 */
export const programmeDeadAir = pgTable(
  'programme_dead_air',
  {
    sessionId: bigint({ mode: 'number' }).notNull(),
    /** Where the stretch starts (a whole second). */
    watchStart: instant().notNull(),
    ownerId: integer().notNull(),
    channelId: integer().notNull(),
    source: text().notNull(),
    /** The device, as programme_watch.viewer. */
    viewer: bigint({ mode: 'bigint' }).notNull(),
    /** 0 for a one-heartbeat session that watched only dead air. */
    watchSeconds: integer().notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.sessionId, t.watchStart] }),
    // A range's stretches read by an index-only scan.
    index('programme_dead_air_owner_start').on(t.ownerId, t.watchStart, t.channelId, t.source, t.viewer, t.sessionId, t.watchSeconds),
  ],
);

/**
 * Figures of one airing, recomputed from its programme_watch rows whenever a session watching it
 * is credited: per source, and for all sources (source ''). Peak concurrency is not additive, so
 * it is kept here rather than derived on each read.
 */
export const programmeAirings = pgTable(
  'programme_airings',
  {
    channelId: integer().notNull(),
    airingStart: instant().notNull(),
    source: text().notNull(),
    airingStop: instant().notNull(),
    ownerId: integer().notNull(),
    videoId: integer().notNull(),
    isLive: boolean().notNull(),
    watchSeconds: doublePrecision().notNull(),
    sessions: integer().notNull(),
    viewers: integer().notNull(),
    peakViewers: integer().notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.channelId, t.airingStart, t.source] }),
    // Ranking a range's programmes reads only these columns (all sources: source '' together).
    index('programme_airings_owner_source_airing').on(t.ownerId, t.source, t.airingStart, t.videoId, t.channelId, t.watchSeconds, t.sessions, t.peakViewers),
  ],
);

// ---------------------------------------------------------------- limits

/**
 * Failed-attempt counters (logins, channel passwords), in the database so that every instance
 * behind a load balancer sees the same counts. key: `login:<sha256 of name>`, `address:<ip>`,
 * `login:<sha256>:address:<ip>`, `channel:<id>:address:<ip>`. Rows whose window and block are
 * over are pruned a few at a time (indexed by window start), as failures arrive.
 */
export const loginThrottles = pgTable(
  'login_throttles',
  {
    key: text().primaryKey(),
    failures: integer().notNull(),
    windowStartedAt: instant().notNull(),
    blockedUntil: instant(),
  },
  (t) => [index('login_throttles_window').on(t.windowStartedAt)],
);

// ---------------------------------------------------------------- studio

/**
 * Accounts made owners from the CLI (`channelnet owner create`) before they own anything.
 * An account that owns a channel or an app is an owner without a row here.
 */
export const studioOwners = pgTable('studio_owners', {
  accountId: integer()
    .primaryKey()
    .references(() => accounts.id, { onDelete: 'cascade' }),
  createdAt: instant().notNull(),
});

/**
 * Owner invites (src/editing/invites.ts): a one-time link an owner hands to someone who becomes
 * an owner of their own. Only the SHA-256 of the token is stored; `usedBy` is the account it made.
 */
export const ownerInvites = pgTable(
  'owner_invites',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    ownerId: integer()
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    tokenHash: text().notNull(),
    note: text().notNull().default(''),
    createdAt: instant().notNull(),
    expiresAt: instant().notNull(),
    usedAt: instant(),
    usedBy: integer(),
    revokedAt: instant(),
  },
  (t) => [uniqueIndex('owner_invites_token_hash').on(t.tokenHash), index('owner_invites_owner').on(t.ownerId, t.id)],
);

/**
 * Every change made through the Studio API, newest first when read: who (the signed-in
 * account), when, which resource and which of its fields. Kept without foreign keys so the
 * record outlives what it names.
 */
export const studioAudit = pgTable(
  'studio_audit',
  {
    id: bigint({ mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    ownerId: integer().notNull(),
    actorId: integer().notNull(),
    at: instant().notNull(),
    action: text({ enum: ['create', 'update', 'delete'] }).notNull(),
    /** The resource's path under /api/v1/studio, e.g. `channels/12/schedules/9001`. */
    resource: text().notNull(),
    fields: jsonb().$type<string[]>().notNull(),
    /** The caller's address (as src/http/proxies.ts resolves it), where the write came over HTTP. */
    address: text(),
  },
  (t) => [index('studio_audit_owner').on(t.ownerId, t.id)],
);

/**
 * POST answers kept under the caller's Idempotency-Key, so a retried create returns the first
 * answer and creates nothing new. requestHash tells a retry from a different request that
 * reuses the key.
 */
export const studioIdempotency = pgTable(
  'studio_idempotency',
  {
    ownerId: integer().notNull(),
    key: text().notNull(),
    requestHash: text().notNull(),
    status: integer().notNull(),
    body: jsonb().notNull(),
    etag: text(),
    createdAt: instant().notNull(),
  },
  (t) => [primaryKey({ columns: [t.ownerId, t.key] }), index('studio_idempotency_created').on(t.createdAt)],
);

// ---------------------------------------------------------------- programming tools

/**
 * A channel's programming tools (the Studio's time slots and filler): the weekly slot plan and
 * the filler list the generator reads, and what the last programming write (a generation or a
 * template copy) added and removed, so one undo can reverse it. Not part of the catalog format:
 * the blocks they produce are. Goes with its channel.
 */
export const channelProgramming = pgTable('channel_programming', {
  channelId: integer()
    .primaryKey()
    .references(() => channels.id, { onDelete: 'cascade' }),
  /** The weekly slot plan (src/schedules/programming.ts Slot[]). */
  slots: jsonb()
    .$type<unknown[]>()
    .notNull()
    .default(sql`'[]'::jsonb`),
  /** Filler video ids, in the owner's order. */
  fillerVideoIds: jsonb()
    .$type<number[]>()
    .notNull()
    .default(sql`'[]'::jsonb`),
  /** The owner's collection the filler plays instead of its list (null: the list). */
  fillerCollectionId: integer(),
  /** The owner's collection that fills a slot's dead air after everything else (null: none; migration 0021). */
  fallbackCollectionId: integer(),
  /** The last programming write: ids it added, blocks it removed (catalog form); null once undone. */
  lastWrite: jsonb().$type<unknown>(),
});

/** A smart collection's rules (src/schedules/collections.ts): every video of the owner matching all given. */
export interface CollectionRulesRow {
  categoryIds?: number[];
  providerNames?: string[];
  minSeconds?: number;
  maxSeconds?: number;
  titleContains?: string;
}

/**
 * An owner's collection (docs/programming.md, Collections): a named set of videos slots of any of
 * the owner's channels play from. Manual: `videoIds` in order, `rules` null; smart: `rules`,
 * resolved when a plan is generated. Names are unique per owner, whatever their case.
 */
export const collections = pgTable(
  'collections',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    ownerId: integer()
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    videoIds: jsonb()
      .$type<number[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    rules: jsonb().$type<CollectionRulesRow>(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('collections_owner_name').on(t.ownerId, sql`lower(${t.name})`)],
);

// ---------------------------------------------------------------- linear output (docs/linear.md)

/**
 * A video's HLS ingest (src/linear/ingest.ts): one row per video whose stream is an HLS playlist.
 * `status` pending | ready | failed; `sourceUrl` is the stream URL it was (or is to be) read from,
 * so a changed URL makes the row pending again. `ladder` holds the parsed multivariant playlist
 * (src/linear/types.ts IngestedVideo without its segments), `segments` the compact segment list
 * (src/linear/segment-codec.ts). Written whole in one statement: never half an ingest.
 */
export const videoHls = pgTable(
  'video_hls',
  {
    videoId: integer()
      .primaryKey()
      .references(() => videos.id, { onDelete: 'cascade' }),
    status: text().$type<'pending' | 'ready' | 'failed'>().notNull(),
    sourceUrl: text().notNull(),
    requestedAt: instant().notNull(),
    ingestedAt: instant(),
    error: text(),
    warning: text(),
    segmentCount: integer().notNull().default(0),
    durationSeconds: doublePrecision(),
    ladder: jsonb().$type<unknown>(),
    segments: text(),
  },
  (t) => [index('video_hls_pending').on(t.status, t.requestedAt)],
);

/**
 * A channel's linear output settings (PUT /api/v1/studio/channels/{id}/linear): the fixed ladder
 * and target duration its live playlists keep for life, the window, and the linear epoch (first
 * enabled). `version` is the ETag/If-Match version.
 */
export const channelLinear = pgTable('channel_linear', {
  channelId: integer()
    .primaryKey()
    .references(() => channels.id, { onDelete: 'cascade' }),
  enabled: boolean().notNull(),
  targetDurationSeconds: integer().notNull(),
  windowSeconds: integer().notNull(),
  ladder: jsonb().$type<unknown>().notNull(),
  epoch: instant().notNull(),
  version: integer().notNull().default(1),
});

/**
 * The per-channel sequence ledger: for each programme once it first airs in the live stream, the
 * media and discontinuity sequence numbers its first segment takes. Written once (insert, on
 * conflict nothing) and never rewritten, so a restart, a second instance or an edit of what has
 * aired changes no number (src/linear/ledger.ts).
 */
export const linearLedger = pgTable(
  'linear_ledger',
  {
    channelId: integer()
      .notNull()
      .references(() => channels.id, { onDelete: 'cascade' }),
    /** The programme's on-air start, epoch ms. */
    programmeStart: bigint({ mode: 'number' }).notNull(),
    mediaSequence: bigint({ mode: 'number' }).notNull(),
    discontinuitySequence: bigint({ mode: 'number' }).notNull(),
    /** What the programme airs (a video id, 0 for slate) and how many segments it took, as first written. */
    videoId: integer().notNull(),
    segmentCount: integer().notNull(),
    discontinuities: integer().notNull(),
  },
  (t) => [primaryKey({ columns: [t.channelId, t.programmeStart] })],
);

/**
 * A viewer's personal live link (GET /api/v1/live/{key}/channels.m3u with a viewer key): lists
 * and plays what the viewer is entitled to in one app, checked on every playlist request.
 * Only the SHA-256 of the key is stored; revoking stamps `revokedAt`.
 */
export const viewerLiveLinks = pgTable(
  'viewer_live_links',
  {
    id: bigint({ mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    viewerId: integer()
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    appId: integer()
      .notNull()
      .references(() => apps.id, { onDelete: 'cascade' }),
    keyHash: text().notNull(),
    createdAt: instant().notNull(),
    revokedAt: instant(),
  },
  (t) => [uniqueIndex('viewer_live_links_hash').on(t.keyHash), index('viewer_live_links_viewer').on(t.viewerId)],
);

/** 96 bits, one per quarter-hour of a UTC day (bit 0 leftmost: 00:00-00:15). */
const quarterBits = customType<{ data: string }>({ dataType: () => 'bit(96)' });

/**
 * Daily rollups of closed watch sessions (issue 37, docs/activity.md "Rollups"), written by the
 * statement that closes them (data/watch-rollups.ts). Per owner, UTC date, channel and source,
 * each array holds 96 running totals by quarter-hour: element k (1-based) counts what started
 * before quarter k, so any quarter-aligned part of the day is the difference of two elements.
 */
export const watchDayRollups = pgTable(
  'watch_day_rollups',
  {
    ownerId: integer().notNull(),
    day: date({ mode: 'string' }).notNull(),
    channelId: integer().notNull(),
    source: text().notNull(),
    sessions: integer().array().notNull(),
    /** Sessions without a user_id: each is a device of its own. */
    anonymous: integer().array().notNull(),
    watchSeconds: bigint({ mode: 'number' }).array().notNull(),
  },
  (t) => [primaryKey({ name: 'watch_day_rollups_pk', columns: [t.ownerId, t.day, t.channelId, t.source] })],
);

/** The identified viewers of a rollup row and the quarter-hours in which they started sessions. */
export const watchDayDevices = pgTable(
  'watch_day_devices',
  {
    ownerId: integer().notNull(),
    day: date({ mode: 'string' }).notNull(),
    channelId: integer().notNull(),
    source: text().notNull(),
    userId: text().notNull(),
    quarters: quarterBits().notNull(),
  },
  (t) => [primaryKey({ name: 'watch_day_devices_pk', columns: [t.ownerId, t.day, t.channelId, t.source, t.userId] })],
);

/**
 * Distinct identified devices kept exact as sessions close (issue 37, docs/activity.md "Devices
 * per zone day and range"). A scope is a channel and a source, 0 or '' standing for all of them:
 * every identified device-day is kept under four scopes, so a filtered read and its breakdowns
 * each read one scope. Per device and pair of UTC days (day, day + 1): the last quarter-hour in
 * which it started a session on `day` (-1: none) and the first on the next day (96: none); a zone
 * day that starts at quarter s of `day` holds the device iff maxA >= s or minB < s. The row's
 * lock orders two closers of the same device, and was* (the values before the last write) give
 * the exact change of watch_pair_counts.
 */
export const watchPairDevices = pgTable(
  'watch_pair_devices',
  {
    ownerId: integer().notNull(),
    day: date({ mode: 'string' }).notNull(),
    channelId: integer().notNull(),
    source: text().notNull(),
    userId: text().notNull(),
    maxA: integer().notNull(),
    minB: integer().notNull(),
    wasMaxA: integer().notNull(),
    wasMinB: integer().notNull(),
  },
  (t) => [primaryKey({ name: 'watch_pair_devices_pk', columns: [t.ownerId, t.day, t.channelId, t.source, t.userId] })],
);

/** Per pair of UTC days and scope: element s + 1 is the devices of the zone day starting at quarter s of `day`. */
export const watchPairCounts = pgTable(
  'watch_pair_counts',
  {
    ownerId: integer().notNull(),
    day: date({ mode: 'string' }).notNull(),
    channelId: integer().notNull(),
    source: text().notNull(),
    members: integer().array().notNull(),
  },
  (t) => [primaryKey({ name: 'watch_pair_counts_pk', columns: [t.ownerId, t.day, t.channelId, t.source] })],
);

/** A bit string of any length (PostgreSQL varbit). */
const bitString = customType<{ data: string }>({ dataType: () => 'bit varying' });

/**
 * Per device and scope, the UTC days it started a session on: bit i of `days` is firstDay + i,
 * up to lastDay. A range's devices are a count over the devices seen around it, one row each.
 */
export const watchDeviceSpans = pgTable(
  'watch_device_spans',
  {
    ownerId: integer().notNull(),
    channelId: integer().notNull(),
    source: text().notNull(),
    userId: text().notNull(),
    firstDay: date({ mode: 'string' }).notNull(),
    lastDay: date({ mode: 'string' }).notNull(),
    days: bitString().notNull(),
  },
  (t) => [
    primaryKey({ name: 'watch_device_spans_pk', columns: [t.ownerId, t.channelId, t.source, t.userId] }),
    index('watch_device_spans_recent').on(t.ownerId, t.lastDay, t.channelId, t.source),
    // The devices seen since a day over all channels and sources, counted by the read's pick (sessions/trends.ts).
    index('watch_device_spans_seen')
      .on(t.ownerId, t.lastDay)
      .where(sql`${t.channelId} = 0 and ${t.source} = ''`),
  ],
);

/**
 * Per schedule block, its video count and the seconds its videos play, kept by triggers
 * (drizzle/0016_h37_writes.sql) on every path that writes blocks or durations: a block write
 * counts a day's entries and finds the blocks reaching its days without reading their videos.
 */
export const scheduleBlockFigures = pgTable(
  'schedule_block_figures',
  {
    blockId: integer()
      .primaryKey()
      .references(() => scheduleBlocks.id, { onDelete: 'cascade' }),
    channelId: integer().notNull(),
    videoCount: integer().notNull(),
    spanSeconds: doublePrecision().notNull(),
  },
  (t) => [
    index('schedule_block_figures_long')
      .on(t.channelId)
      .where(sql`${t.spanSeconds} >= 86400`),
  ],
);
