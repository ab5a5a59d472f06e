// The Platform-Id values of the app templates and what each selects: the app record, the store
// whose products the client can buy, the VAST row, and whether it is a TV template.
import { VAST_PLATFORMS, type AppPlatform, type StorePlatform, type VastPlatform } from '../vocabulary.ts';

export interface PlatformTraits {
  app: AppPlatform;
  store: StorePlatform;
  vast: VastPlatform;
  tv: boolean;
}

/** apple-tv buys through Apple and android-tv through Google (their OS stores); the legacy
 * `mobile` value names no OS, so it gets Apple, the store of the first mobile template. */
export const CLIENT_PLATFORMS = {
  ios: { app: 'mobile', store: 'Apple', vast: 'mobile', tv: false },
  android: { app: 'mobile', store: 'Google', vast: 'mobile', tv: false },
  mobile: { app: 'mobile', store: 'Apple', vast: 'mobile', tv: false },
  roku: { app: 'roku', store: 'Roku', vast: 'roku', tv: true },
  'fire-tv': { app: 'firetv', store: 'Amazon', vast: 'firetv', tv: true },
  'apple-tv': { app: 'appletv', store: 'Apple', vast: 'appletv', tv: true },
  'android-tv': { app: 'androidtv', store: 'Google', vast: 'androidtv', tv: true },
} as const satisfies Record<string, PlatformTraits>;

export type ClientPlatform = keyof typeof CLIENT_PLATFORMS;

/** Case-insensitive; undefined for anything else. */
export function clientPlatform(text: string): ClientPlatform | undefined {
  const key = text.toLowerCase();
  return Object.hasOwn(CLIENT_PLATFORMS, key) ? (key as ClientPlatform) : undefined;
}

/** The VAST platform for a `platform` query value: a client platform or a VAST platform name. */
export function vastPlatform(text: string): VastPlatform | undefined {
  const client = clientPlatform(text);
  if (client) return CLIENT_PLATFORMS[client].vast;
  return VAST_PLATFORMS.find((p) => p === text.toLowerCase());
}
