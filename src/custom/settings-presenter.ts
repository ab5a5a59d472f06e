// /users/{id}/settings (account branding) and /users/{id}/app_settings (one app, as the
// client's platform sees it). Colours gain a leading '#'; a missing colour, text or image is ''.
// Each returns its response schema's input (schemas.ts): keys in the schema's order, none it does not list.
import type { z } from 'zod';
import { tvTheme } from '../apps/theme.ts';
import type { App, AppImages, AppMobileSettings } from '../data/apps.ts';
import type { Branding } from '../data/brandings.ts';
import { activeSkus, type StoreProductRow } from '../data/store-products.ts';
import { CLIENT_PLATFORMS, type ClientPlatform } from './platforms.ts';
import type { appSettingsSchema, settingsSchema } from './schemas.ts';

interface Owner {
  id: number;
  username: string;
  publicName: string | null;
}

const hex = (colour: string | null | undefined) => (colour ? `#${colour}` : '');
const base64 = (bytes: Buffer | null | undefined) => bytes?.toString('base64') ?? '';

/** An account without branding gets its public name (or username) as title and blanks. */
export function presentSettings(owner: Owner, branding: Branding | undefined): z.input<typeof settingsSchema> {
  const b = branding?.row;
  return {
    user_id: owner.id,
    title: b?.title ?? owner.publicName ?? owner.username,
    hex1: hex(b?.hex1),
    hex2: hex(b?.hex2),
    hex3: hex(b?.hex3),
    fontColor: hex(b?.fontColor),
    header_background: b?.headerBackground ?? '',
    FAQ: b?.faq ?? '',
    PrivacyPolicy: b?.privacyPolicy ?? '',
    logo_header: base64(branding?.logoHeader),
    logo_android: base64(branding?.logoAndroid),
    useVastSettings: b?.useVastSettings ?? false,
  };
}

export interface AppSettingsSource {
  ownerId: number;
  app: App;
  platform: ClientPlatform;
  images: AppImages;
  mobile: AppMobileSettings | undefined;
  products: StoreProductRow[];
}

/** Mobile: the four mobile colours. TV: the theme (androidtv has no background: ''). */
function colours({ app, mobile }: AppSettingsSource) {
  if (app.platform === 'mobile') {
    return { hex1: hex(mobile?.selectionColor), hex2: hex(mobile?.headerFooterColor), hex3: hex(mobile?.backgroundColor), fontColor: hex(mobile?.fontColor) };
  }
  const theme = tvTheme(app);
  return { hex1: hex(theme.primaryColor), hex2: hex(theme.secondaryColor), hex3: hex(theme.backgroundColor), fontColor: hex(theme.styleColor) };
}

/** Roku apps keep their artwork as avatars: the HD one stands in for a logo, the SD one for an icon. */
function artwork(images: AppImages, role: 'logo' | 'icon') {
  return base64((images.get(role) ?? images.get(role === 'logo' ? 'avatarHd' : 'avatarSd'))?.bytes);
}

export function presentAppSettings(source: AppSettingsSource): z.input<typeof appSettingsSchema> {
  const { app, platform } = source;
  const traits = CLIENT_PLATFORMS[platform];
  const forStore = (kind: StoreProductRow['kind']) => activeSkus(source.products, kind, traits.store);
  const subscriptions = forStore('subscription');
  return {
    user_id: source.ownerId,
    slug: app.slug ?? '',
    app_name: app.appName,
    ...colours(source),
    Logo: artwork(source.images, 'logo'),
    Icon: artwork(source.images, 'icon'),
    privacy_policy_link: app.privacyPolicyLink ?? '',
    about: app.about ?? '',
    platform,
    app_id: String(app.id),
    is_paid: app.isPaid,
    store_product_id: subscriptions[0]?.productId ?? null,
    store_products: subscriptions.map((p) => ({ product_id: p.productId, billing_period: p.billingPeriod, display_name: p.displayName })),
    vod_ppv_enabled: app.vodPpvEnabled,
    vod_ppv_store_product_id: forStore('ppv')[0]?.productId ?? null,
    vod_ppv_access_hours: app.vodPpvAccessHours,
    ...(traits.tv ? { vod_ppv_preview_seconds: app.vodPpvPreviewSeconds, time_format: app.timeFormat } : {}),
    ...(platform === 'roku' ? { ad_link: app.adLink } : {}),
  };
}
