import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { accountSchema, appSchema, storeProductSchema, vastSchema } from '../src/catalog/format.ts';
import { CLIENT_PLATFORMS } from '../src/custom/platforms.ts';
import * as t from '../src/db/schema.ts';
import { CREDENTIAL_KEYS, credentialsKey, parseStorePlatform } from '../src/entitlements/stores/index.ts';
import {
  ACCOUNT_STATUSES,
  APP_PLATFORMS,
  BILLING_PERIODS,
  CREDENTIAL_STORES,
  IMAGE_ROLES,
  PRODUCT_KINDS,
  RECORDED_SUBSCRIPTION_STATUSES,
  STORE_ENVIRONMENTS,
  STORE_PLATFORMS,
  SUBSCRIPTION_STATUSES,
  TOKEN_KINDS,
  VAST_PLATFORMS,
  VAST_TYPES,
} from '../src/vocabulary.ts';

describe('vocabulary', () => {
  // The values are stored in the database and spelled on the wire: pinned here so that a change
  // is a deliberate edit of this test, never a side effect.
  it('keeps the stored and wire spellings', () => {
    expect(APP_PLATFORMS).toEqual(['mobile', 'roku', 'firetv', 'appletv', 'androidtv']);
    expect(VAST_PLATFORMS).toEqual(['web', 'roku', 'mobile', 'firetv', 'appletv', 'androidtv']);
    expect(VAST_TYPES).toEqual(['fullscreen', 'picInPic']);
    expect(STORE_PLATFORMS).toEqual(['Apple', 'Google', 'Amazon', 'Roku']);
    expect(CREDENTIAL_STORES).toEqual(['apple', 'google', 'amazon', 'roku']);
    expect(STORE_ENVIRONMENTS).toEqual(['production', 'sandbox']);
    expect(PRODUCT_KINDS).toEqual(['subscription', 'ppv']);
    expect(BILLING_PERIODS).toEqual(['Weekly', 'Monthly', 'Yearly', 'OneTime']);
    expect(ACCOUNT_STATUSES).toEqual(['active', 'locked', 'not_activated']);
    expect(TOKEN_KINDS).toEqual(['session', 'app']);
    expect(RECORDED_SUBSCRIPTION_STATUSES).toEqual(['active', 'expired', 'revoked']);
    expect(SUBSCRIPTION_STATUSES).toEqual(['active', 'expired', 'revoked', 'not_subscribed']);
    expect(IMAGE_ROLES).toEqual(['logo', 'icon', 'backgroundImage', 'image1', 'image2', 'avatarHd', 'avatarSd', 'headerLogo', 'logoIos', 'logoAndroid']);
  });

  it('imports nothing, so every layer may depend on it', () => {
    const source = readFileSync(new URL('../src/vocabulary.ts', import.meta.url), 'utf8');
    expect(source).not.toMatch(/^\s*import\b/m);
  });

  it('gives the schema its column values', () => {
    expect(t.accounts.status.enumValues).toEqual([...ACCOUNT_STATUSES]);
    expect(t.authTokens.kind.enumValues).toEqual([...TOKEN_KINDS]);
    expect(t.channelVastSettings.platform.enumValues).toEqual([...VAST_PLATFORMS]);
    expect(t.channelVastSettings.vastType.enumValues).toEqual([...VAST_TYPES]);
    expect(t.apps.platform.enumValues).toEqual([...APP_PLATFORMS]);
    expect(t.appStoreProducts.kind.enumValues).toEqual([...PRODUCT_KINDS]);
    expect(t.appStoreProducts.billingPeriod.enumValues).toEqual([...BILLING_PERIODS]);
    expect(t.appStoreCredentials.store.enumValues).toEqual([...CREDENTIAL_STORES]);
    expect(t.subscriptions.environment.enumValues).toEqual([...STORE_ENVIRONMENTS]);
    for (const column of [t.appStoreProducts.storePlatform, t.subscriptions.storePlatform, t.ppvUnlocks.storePlatform, t.verificationAttempts.storePlatform]) {
      expect(column.enumValues).toEqual([...STORE_PLATFORMS]);
    }
  });

  it('gives the catalog format its enums', () => {
    expect(accountSchema.shape.status.unwrap().options).toEqual([...ACCOUNT_STATUSES]);
    expect(vastSchema.shape.platform.options).toEqual([...VAST_PLATFORMS]);
    expect(appSchema.shape.platform.options).toEqual([...APP_PLATFORMS]);
    expect(storeProductSchema.shape.storePlatform.options).toEqual([...STORE_PLATFORMS]);
    expect(storeProductSchema.shape.billingPeriod.options).toEqual([...BILLING_PERIODS]);
    expect(Object.keys(appSchema.shape.storeCredentials.unwrap().shape)).toEqual([...CREDENTIAL_STORES]);
    expect(Object.keys(appSchema.shape.images.unwrap().shape)).toEqual([...IMAGE_ROLES]);
  });

  it('names each store the same way for products, credentials and clients', () => {
    expect(STORE_PLATFORMS.map(credentialsKey)).toEqual([...CREDENTIAL_STORES]);
    expect(Object.keys(CREDENTIAL_KEYS)).toEqual([...CREDENTIAL_STORES]);
    for (const store of STORE_PLATFORMS) expect(parseStorePlatform(store.toUpperCase())).toBe(store);
  });

  it('maps every Platform-Id onto the vocabulary', () => {
    for (const traits of Object.values(CLIENT_PLATFORMS)) {
      expect(APP_PLATFORMS).toContain(traits.app);
      expect(STORE_PLATFORMS).toContain(traits.store);
      expect(VAST_PLATFORMS).toContain(traits.vast);
    }
  });
});
