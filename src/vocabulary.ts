// The service's words, one meaning each (the code uses them so; wire names the spec fixes may differ):
// - account: a sign-in (username, password, tokens). Every owner and every viewer is an account.
// - owner: the account whose network (channels, schedules, videos, apps) is asked about or edited;
//   the wire's "user" (/users/{id}, userId) is the owner. In the Studio the owner edits as an Editor
//   (src/editing/write.ts); the audit's actor is the signed-in account that wrote (today the owner).
// - viewer: a person signed in to an owner's app (a valid Bearer in the Custom API): an account id.
// - device: the device id an app sends (Device-Id). Unlocks and purchases are held by a device, a
//   viewer or both. Analytics count devices too: their "viewers" (uniqueViewers, peakViewers,
//   programme_watch.viewer) are hashed device identities (the heartbeat's client id, else its
//   user, else the session), named so on the wire and in the table, never a viewer account.
// - caller: who asks, one per request (src/access/caller.ts): the owner asked, the app of its
//   Platform-Id, the device, the viewer, the clock and the request zone. Groups build it; rules take it.
// - app: an owner's app for one platform (mobile, roku, ...); a caller's app is the one its Platform-Id names.
// - channel-day: one channel's schedule for one calendar date in the channel's own zone, compiled
//   once (src/schedules/channel-day.ts) and kept by the process (src/schedules/timelines.ts).
// - guide row: a published schedule entry or live stream of a channel-day as a TV app lists and
//   plays it, or a VOD catalog video in the same shape (src/channels/guide-rows.ts).
//
// The service's enumerated values, each list once, spelled as clients, catalog files and the
// database spell them. Pure constants and types that import nothing from the project, so the
// schema, the catalog format, the store verifiers and the routes can all depend on this module
// and never on each other for a value list. The database keeps these as text columns: changing a
// value here changes what is stored, so values are only ever added.

/** App templates; an owner has at most one app per platform (REST /apps/{platform}). */
export const APP_PLATFORMS = ['mobile', 'roku', 'firetv', 'appletv', 'androidtv'] as const;
export type AppPlatform = (typeof APP_PLATFORMS)[number];

/**
 * Video hosts, as videos[].providerName spells them: the shipped players know YouTube and Vimeo
 * by name, and Custom is self-hosted media played from streamUrl (catalog format: videos[]).
 */
export const VIDEO_PROVIDERS = ['YouTube', 'Vimeo', 'Custom'] as const;
export type VideoProvider = (typeof VIDEO_PROVIDERS)[number];

/** Platforms a channel keeps VAST (ad) settings for: the app platforms plus the web player. */
export const VAST_PLATFORMS = ['web', 'roku', 'mobile', 'firetv', 'appletv', 'androidtv'] as const;
export type VastPlatform = (typeof VAST_PLATFORMS)[number];

export const VAST_TYPES = ['fullscreen', 'picInPic'] as const;
export type VastType = (typeof VAST_TYPES)[number];

/** The stores that sell subscriptions and PPV products, as products and purchases name them. */
export const STORE_PLATFORMS = ['Apple', 'Google', 'Amazon', 'Roku'] as const;
export type StorePlatform = (typeof STORE_PLATFORMS)[number];

/** The keys of an app's storeCredentials: the store platforms in lower case, in the same order. */
export const CREDENTIAL_STORES = ['apple', 'google', 'amazon', 'roku'] as const satisfies readonly Lowercase<StorePlatform>[];
export type CredentialStore = (typeof CREDENTIAL_STORES)[number];

/** Where a store confirmed a purchase; a sandbox purchase unlocks only apps that allow it. */
export const STORE_ENVIRONMENTS = ['production', 'sandbox'] as const;
export type StoreEnvironment = (typeof STORE_ENVIRONMENTS)[number];

/** What an app's store product sells: the app subscription or one VOD pay-per-view unlock. */
export const PRODUCT_KINDS = ['subscription', 'ppv'] as const;
export type ProductKind = (typeof PRODUCT_KINDS)[number];

/** OneTime is the PPV products' period; subscriptions renew weekly, monthly or yearly. */
export const BILLING_PERIODS = ['Weekly', 'Monthly', 'Yearly', 'OneTime'] as const;
export type BillingPeriod = (typeof BILLING_PERIODS)[number];

export const ACCOUNT_STATUSES = ['active', 'locked', 'not_activated'] as const;
export type AccountStatus = (typeof ACCOUNT_STATUSES)[number];

/** Session tokens come from login; app tokens are embedded in generated TV app archives. */
export const TOKEN_KINDS = ['session', 'app'] as const;
export type TokenKind = (typeof TOKEN_KINDS)[number];

/** The images an app configures (catalog apps[].images keys, app_images.role). */
export const IMAGE_ROLES = ['logo', 'icon', 'backgroundImage', 'image1', 'image2', 'avatarHd', 'avatarSd', 'headerLogo', 'logoIos', 'logoAndroid'] as const;
export type ImageRole = (typeof IMAGE_ROLES)[number];

/**
 * A store notification in the inbox: pending (to apply, or waiting to retry a store that did not
 * answer), applied (it changed or confirmed an entitlement), ignored (authentic, but nothing of
 * ours to change: a test, a consumption request, a transaction no device claimed), refused (the
 * store's re-read denied it: its payload is dropped), failed (retries exhausted).
 */
export const NOTIFICATION_STATES = ['pending', 'applied', 'ignored', 'refused', 'failed'] as const;
export type NotificationState = (typeof NOTIFICATION_STATES)[number];

/** A recorded subscription's state (subscriptions.status); a refund is recorded as revoked. */
export const RECORDED_SUBSCRIPTION_STATUSES = ['active', 'expired', 'revoked'] as const;
export type RecordedSubscriptionStatus = (typeof RECORDED_SUBSCRIPTION_STATUSES)[number];

/** What the subscription status route answers: a recorded state, or none for the device or viewer. */
export const SUBSCRIPTION_STATUSES = [...RECORDED_SUBSCRIPTION_STATUSES, 'not_subscribed'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/** One field of a store's credentials form: the storeCredentials key and the store's own name for it. */
export interface StoreCredentialField {
  key: string;
  /** As the store's console names it. */
  label: string;
  /** Needed to verify purchases at all: an app selling on the store without it cannot be saved. */
  required: boolean;
  /** Never answered back: the Studio says only that it is set. */
  secret: boolean;
  /** Multi-line (a PEM key). */
  multiline?: boolean;
}

/**
 * The credentials of each store as the Studio's forms show them, in the stores' words (App Store
 * Connect, Google Cloud and Play Console, the Amazon Developer Console, Roku's Developer
 * Dashboard). Keys and `required` follow what the verifiers read (src/entitlements/stores/index.ts
 * CREDENTIAL_KEYS); a key not listed here is kept and treated as a secret.
 */
export const STORE_CREDENTIAL_FIELDS = {
  apple: [
    { key: 'bundleId', label: 'Bundle ID', required: true, secret: false },
    { key: 'issuerId', label: 'Issuer ID', required: false, secret: false },
    { key: 'keyId', label: 'Key ID', required: false, secret: false },
    { key: 'privateKey', label: 'In-App Purchase key (.p8)', required: false, secret: true, multiline: true },
    { key: 'appAppleId', label: 'Apple ID', required: false, secret: false },
    { key: 'sharedSecret', label: 'App-specific shared secret', required: false, secret: true },
  ],
  google: [
    { key: 'packageName', label: 'Package name', required: true, secret: false },
    { key: 'clientEmail', label: 'Service account email', required: true, secret: false },
    { key: 'privateKey', label: 'Service account private key', required: true, secret: true, multiline: true },
    { key: 'privateKeyId', label: 'Private key ID', required: false, secret: false },
    { key: 'tokenUri', label: 'Token URI', required: false, secret: false },
    { key: 'pushAudience', label: 'Push subscription audience', required: false, secret: false },
    { key: 'pushServiceAccount', label: 'Push subscription service account', required: false, secret: false },
  ],
  amazon: [
    { key: 'sharedSecret', label: 'Shared Key', required: true, secret: true },
    { key: 'snsTopicArn', label: 'SNS topic ARN', required: false, secret: false },
    { key: 'appPackageName', label: 'Package name', required: false, secret: false },
  ],
  roku: [
    { key: 'apiKey', label: 'Roku Pay API key', required: true, secret: true },
    { key: 'channelId', label: 'Channel ID', required: false, secret: false },
  ],
} as const satisfies Record<CredentialStore, readonly StoreCredentialField[]>;

/** The store each TV platform's app sells through (a mobile app sells on Apple and Google). */
export const PLATFORM_STORES = {
  mobile: ['apple', 'google'],
  roku: ['roku'],
  firetv: ['amazon'],
  appletv: ['apple'],
  androidtv: ['google'],
} as const satisfies Record<AppPlatform, readonly CredentialStore[]>;
