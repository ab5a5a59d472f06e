// The service's enumerated values, each list once, spelled as clients, catalog files and the
// database spell them. Pure constants and types that import nothing from the project, so the
// schema, the catalog format, the store verifiers and the routes can all depend on this module
// and never on each other for a value list. The database keeps these as text columns: changing a
// value here changes what is stored, so values are only ever added.

/** App templates; an owner has at most one app per platform (REST /apps/{platform}). */
export const APP_PLATFORMS = ['mobile', 'roku', 'firetv', 'appletv', 'androidtv'] as const;
export type AppPlatform = (typeof APP_PLATFORMS)[number];

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
export const IMAGE_ROLES = [
  'logo', 'icon', 'backgroundImage', 'image1', 'image2',
  'avatarHd', 'avatarSd', 'headerLogo', 'logoIos', 'logoAndroid',
] as const;
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
