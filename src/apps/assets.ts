// App images are served from a stable path per app and role; the `v` query carries the
// image's content hash, so a changed image gets a new URL and a cached one never goes stale.
export const ASSET_VERSION_LENGTH = 12;

export function appAssetUrl(appId: number, role: string, sha256: string): string {
  return `/assets/apps/${appId}/${role}?v=${sha256.slice(0, ASSET_VERSION_LENGTH)}`;
}
