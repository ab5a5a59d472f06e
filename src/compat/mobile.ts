// /api/v1/services/mobile/* (COMPAT_ROUTES=mobile): the Custom API as the 2023 Android TV template
// (GitHub chetanvaghela457/Android-TV, retrofit/StrimmApi.kt) calls it. That app sends no
// Platform-Id, so the tree takes it as `mobile`, and it compares providerName with "youtube" and
// "vimeo" exactly (EpgFragment.kt), so provider names are lower-cased. It also searches
// (users/{id}/search, mobile-search.ts), which the spec's tree does not answer.
import type { CustomTree } from '../custom/plugin.ts';
import { CUSTOM_TREE } from '../custom/plugin.ts';
import { mobileSearchRoutes } from './mobile-search.ts';

/** providerName values lower-cased wherever they stand in an answer. */
export function lowerProviderNames(payload: unknown): unknown {
  if (Array.isArray(payload)) return payload.map(lowerProviderNames);
  if (typeof payload !== 'object' || payload === null) return payload;
  return Object.fromEntries(
    Object.entries(payload).map(([key, value]) => [key, key === 'providerName' && typeof value === 'string' ? value.toLowerCase() : lowerProviderNames(value)]),
  );
}

/** The Custom tree plus the template's search (users/{id}/search), which the spec's tree does not have. */
export const MOBILE_TREE: CustomTree = { ...CUSTOM_TREE, open: [...CUSTOM_TREE.open, mobileSearchRoutes], platform: 'mobile', present: lowerProviderNames };
