// /api/v1/services/mobile/* (COMPAT_ROUTES=mobile): the Custom API as the 2023 Android TV template
// (GitHub chetanvaghela457/Android-TV, retrofit/StrimmApi.kt) calls it. That app sends no
// Platform-Id, so the tree takes it as `mobile`, and it compares providerName with "youtube" and
// "vimeo" exactly (EpgFragment.kt), so provider names are lower-cased. Nothing else differs.
import type { CustomTree } from '../custom/plugin.ts';
import { CUSTOM_TREE } from '../custom/plugin.ts';

/** providerName values lower-cased wherever they stand in an answer. */
export function lowerProviderNames(payload: unknown): unknown {
  if (Array.isArray(payload)) return payload.map(lowerProviderNames);
  if (typeof payload !== 'object' || payload === null) return payload;
  return Object.fromEntries(
    Object.entries(payload).map(([key, value]) => [key, key === 'providerName' && typeof value === 'string' ? value.toLowerCase() : lowerProviderNames(value)]),
  );
}

export const MOBILE_TREE: CustomTree = { ...CUSTOM_TREE, platform: 'mobile', present: lowerProviderNames };
