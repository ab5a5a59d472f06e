// REST app configuration: the common part plus one populated platform object. Each function
// returns its response schema's input (schemas.ts): keys in the schema's order, none it does not list.
import type { z } from 'zod';
import { appAssetUrl } from '../apps/assets.ts';
import { tvTheme } from '../apps/theme.ts';
import type { App, AppChannelAssignment, AppImages, AppMobileSettings } from '../data/apps.ts';
import type { StoreProductRow } from '../data/store-products.ts';
import type { appSchema, mobileAppSchema, rokuAppSchema, tvColoursSchema } from './schemas.ts';

export interface AppConfiguration {
  app: App;
  channels: AppChannelAssignment[];
  images: AppImages;
  mobile: AppMobileSettings | undefined;
  products: StoreProductRow[];
  stores: Set<string>;
}

const PLATFORM_NAMES = { mobile: 'Mobile', roku: 'Roku', firetv: 'FireTv', appletv: 'AppleTv', androidtv: 'AndroidTv' } as const;

function presentProduct(p: StoreProductRow, stores: Set<string>) {
  return {
    storePlatform: p.storePlatform,
    productId: p.productId,
    displayName: p.displayName,
    billingPeriod: p.billingPeriod,
    isActive: p.isActive,
    storeSharedSecretConfigured: stores.has(p.storePlatform.toLowerCase()),
  };
}

/** `<role>Url` and `<role>BlobKey`, null when the app has no such image. */
function asset(config: AppConfiguration, role: string) {
  const image = config.images.get(role);
  return {
    url: image ? appAssetUrl(config.app.id, role, image.sha256) : null,
    key: image?.sha256 ?? null,
  };
}

function presentMobile(config: AppConfiguration): z.input<typeof mobileAppSchema> {
  const { app, mobile } = config;
  const logo = asset(config, 'logo');
  const icon = asset(config, 'icon');
  return {
    appSlug: app.slug,
    logoUrl: logo.url,
    logoBlobKey: logo.key,
    iconUrl: icon.url,
    iconBlobKey: icon.key,
    selectionColor: mobile?.selectionColor ?? null,
    headerFooterColor: mobile?.headerFooterColor ?? null,
    backgroundColor: mobile?.backgroundColor ?? null,
    fontColor: mobile?.fontColor ?? null,
    about: app.about,
    copyrightPolicyLink: mobile?.copyrightPolicyLink ?? null,
    gdprLink: mobile?.gdprLink ?? null,
    supportEmail: mobile?.supportEmail ?? null,
    faqLink: mobile?.faqLink ?? null,
    termsLink: mobile?.termsLink ?? null,
    privacyPolicyLink: app.privacyPolicyLink,
    instagram: mobile?.instagram ?? null,
    facebook: mobile?.facebook ?? null,
    twitter: mobile?.twitter ?? null,
  };
}

function presentRoku(config: AppConfiguration): z.input<typeof rokuAppSchema> {
  const { app } = config;
  const hd = asset(config, 'avatarHd');
  const sd = asset(config, 'avatarSd');
  return {
    privacyPolicyLink: app.privacyPolicyLink,
    about: app.about,
    advertisementLink: app.adLink,
    avatarHdUrl: hd.url,
    avatarHdBlobKey: hd.key,
    avatarSdUrl: sd.url,
    avatarSdBlobKey: sd.key,
    apiKey: app.apiKey,
    ...tvTheme(app),
  };
}

function presentTvColours(app: App): z.input<typeof tvColoursSchema> {
  const { primaryColor, secondaryColor, backgroundColor, styleColor } = tvTheme(app);
  if (app.platform === 'androidtv') return { primaryColor, secondaryColor, styleColor };
  return { primaryColor, secondaryColor, backgroundColor, styleColor };
}

export function presentApp(config: AppConfiguration): z.input<typeof appSchema> {
  const { app, products, stores } = config;
  const only = <T>(platform: App['platform'], build: () => T): T | null => (app.platform === platform ? build() : null);
  return {
    appId: app.id,
    platform: PLATFORM_NAMES[app.platform],
    appName: app.appName,
    channelTubeIds: config.channels.map((c) => c.channelId),
    isPaid: app.isPaid,
    storeProducts: products.filter((p) => p.kind === 'subscription').map((p) => presentProduct(p, stores)),
    vodPpv: {
      isEnabled: app.vodPpvEnabled,
      accessDurationHours: app.vodPpvAccessHours,
      storeProducts: products.filter((p) => p.kind === 'ppv').map((p) => presentProduct(p, stores)),
    },
    mobile: only('mobile', () => presentMobile(config)),
    roku: only('roku', () => presentRoku(config)),
    fireTv: only('firetv', () => presentTvColours(app)),
    appleTv: only('appletv', () => presentTvColours(app)),
    androidTv: only('androidtv', () => presentTvColours(app)),
  };
}
