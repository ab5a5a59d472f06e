// Newtonsoft value trees of the Legacy Web Services objects (interface spec, "Legacy objects").
// Key order is the wire order: Newtonsoft writes properties in declaration order, and shipped
// apps were built against these exact bytes. Pure functions over rows. The VAST settings object
// is in src/presenters/vast.ts: the Custom API answers it too.
import type { TvTheme } from '../apps/theme.ts';
import type { App, AppChannelAssignment, AppImages, AppMobileSettings } from '../data/apps.ts';
import type { RokuChannelSettings, VastSetting } from '../data/channel-settings.ts';
import { vastSettingsObject } from '../presenters/vast.ts';
import { nDateTime, nGuid, type NDateTime, type NValue } from './newtonsoft.ts';

type NObject = { readonly [key: string]: NValue };

/** The legacy service kept UTC wall times in DateTime fields of kind Unspecified: no zone suffix. */
export function utcDateTime(date: Date): NDateTime {
  return nDateTime(date.toISOString().slice(0, 23));
}

const dateOrNull = (date: Date | null): NDateTime | null => (date === null ? null : utcDateTime(date));
const image = (images: AppImages | null, role: string): Buffer | null => images?.get(role)?.bytes ?? null;

export function rokuChannelSettingsValue(row: RokuChannelSettings): NObject {
  return { ChannelTubeId: row.channelId, AddedToRoku: row.addedToRoku, LastUpdateDate: dateOrNull(row.lastUpdateDate) };
}

const themeValue = (theme: TvTheme): NObject => ({
  PrimaryColor: theme.primaryColor,
  SecondaryColor: theme.secondaryColor,
  BackgroundColor: theme.backgroundColor,
  StyleColor: theme.styleColor,
});

/** Note the key `UserID` (capital D), as the original class declared it. */
export function rokuAppValue(app: App, images: AppImages, theme: TvTheme): NObject {
  return {
    UserID: app.ownerId,
    AppName: app.appName,
    AdLink: app.adLink,
    About: app.about,
    PrivacyPolicyLink: app.privacyPolicyLink,
    ImageHD: image(images, 'avatarHd'),
    ImageSD: image(images, 'avatarSd'),
    ApiKey: app.apiKey === null ? null : nGuid(app.apiKey),
    ...themeValue(theme),
  };
}

export interface MobileAppInput {
  app: App;
  channelId: number;
  /** Undefined for a mobile app imported without mobile fields: those keys are null. */
  mobile: AppMobileSettings | undefined;
  images: AppImages;
  /** Undefined when the channel is not assigned to the app. */
  assignment: AppChannelAssignment | undefined;
}

/** Colours are the stored 6-digit hex without '#': Hex1..Hex3 are selection, header/footer and background. */
export function mobileAppValue({ app, channelId, mobile, images, assignment }: MobileAppInput): NObject {
  return {
    UserID: app.ownerId,
    ChannelTubeId: channelId,
    HeaderTitle: app.appName,
    Slug: app.slug,
    HeaderLogo: image(images, 'headerLogo'),
    LogoIOS: image(images, 'logoIos'),
    LogoAndroid: image(images, 'logoAndroid'),
    Hex1: mobile?.selectionColor ?? null,
    Hex2: mobile?.headerFooterColor ?? null,
    Hex3: mobile?.backgroundColor ?? null,
    FontColor: mobile?.fontColor ?? null,
    About: app.about,
    CopyrightLink: mobile?.copyrightPolicyLink ?? null,
    GDPRLink: mobile?.gdprLink ?? null,
    CustomerSupportEmail: mobile?.supportEmail ?? null,
    FAQ: mobile?.faqLink ?? null,
    TermsLink: mobile?.termsLink ?? null,
    PrivacyPolicyLink: app.privacyPolicyLink,
    Instagram: mobile?.instagram ?? null,
    Facebook: mobile?.facebook ?? null,
    Twitter: mobile?.twitter ?? null,
    Sorting: assignment?.sorting ?? null,
    AddedToApp: assignment !== undefined,
    UseVastSettings: assignment?.useVastSettings ?? false,
  };
}

export interface TvSetting {
  assignment: AppChannelAssignment;
  /** The VAST row to show; only read when the assignment uses VAST settings (null: none). */
  vast: VastSetting | null;
}

export interface TvAppInput {
  app: App;
  /** The platform value as the client sent it (fire-tv, android-tv, apple-tv), echoed back. */
  platform: string;
  /** Null with skipImages=true: the image fields and AppId are written as null. */
  images: AppImages | null;
  theme: TvTheme;
  settings: readonly TvSetting[];
}

/** ChannelId is always null: the object describes the whole app, not one channel. */
export function tvAppValue({ app, platform, images, theme, settings }: TvAppInput): NObject {
  return {
    UserID: app.ownerId,
    AppName: app.appName,
    Slug: app.slug,
    About: app.about,
    PrivacyPolicyLink: app.privacyPolicyLink,
    Logo: image(images, 'logo'),
    Icon: image(images, 'icon'),
    BackgroundImage: image(images, 'backgroundImage'),
    Image1: image(images, 'image1'),
    Image2: image(images, 'image2'),
    ...themeValue(theme),
    Platform: platform,
    ChannelId: null,
    AppId: images === null ? null : app.id,
    Settings: settings.map((s) => tvSettingValue(app.id, platform, s)),
  };
}

function tvSettingValue(appId: number, platform: string, { assignment, vast }: TvSetting): NObject {
  const entry: NObject = {
    ChannelTubeId: assignment.channelId,
    AddedToTV: true,
    Platform: platform,
    UseVastSettings: assignment.useVastSettings,
    ChannelNumber: assignment.channelNumber,
    AppId: appId,
    LastUpdateDate: dateOrNull(assignment.lastUpdateDate),
  };
  // The original left the property out (not null) when the channel does not use VAST settings.
  if (!assignment.useVastSettings) return entry;
  return { ...entry, VastSettings: vast === null ? null : vastSettingsObject(vast) };
}
