// Which image slots an app of each platform shows, in words. The catalog has one list of image
// roles for every app (logoIos, avatarHd, image1...); each platform's clients read only some of
// them (the legacy and Custom presenters: src/legacy/routes.ts, src/custom/settings-routes.ts),
// so a Roku tab offers the Roku artwork, not an iOS logo. A role already set elsewhere stays
// listed, so nothing stored is hidden.
import type { ImageRole } from '../../../../src/vocabulary.ts';

export const IMAGE_LABELS: Record<ImageRole, string> = {
  logo: 'Logo',
  icon: 'App icon',
  backgroundImage: 'Background image',
  image1: 'Banner 1',
  image2: 'Banner 2',
  avatarHd: 'Channel store artwork (HD)',
  avatarSd: 'Channel store artwork (SD)',
  headerLogo: 'Header logo',
  logoIos: 'iOS logo',
  logoAndroid: 'Android logo',
};

const TV: readonly ImageRole[] = ['logo', 'icon', 'backgroundImage', 'image1', 'image2'];
const FOR_PLATFORM: Record<string, readonly ImageRole[]> = {
  mobile: ['logo', 'icon', 'headerLogo', 'logoIos', 'logoAndroid'],
  roku: ['avatarHd', 'avatarSd', 'logo', 'icon'],
  firetv: TV,
  appletv: TV,
  androidtv: TV,
};

/** The slots of a platform's tab: its own roles, then any other role the app already has. */
export function imageSlots(platform: string, images: Readonly<Record<string, string>>): ImageRole[] {
  const own = FOR_PLATFORM[platform] ?? TV;
  const others = (Object.keys(IMAGE_LABELS) as ImageRole[]).filter((role) => !own.includes(role) && images[role]);
  return [...own, ...others];
}
